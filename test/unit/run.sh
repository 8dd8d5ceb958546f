#!/bin/sh
# run.sh BUILDDIR - build and run every core unit test: the plain tests, the
# same tests under ASan/UBSan/LSan (when the compiler supports it) and a
# short libFuzzer run (when configure found clang; AVRM_FUZZ_SECONDS, default
# 20). Prints one final line "N passed, N failed"; exits nonzero on failure.
B=${1:?usage: run.sh BUILDDIR}
cd "$B" || exit 2
pass=0 fail=0
log=$(mktemp)

# run_prog NAME CMD...: count its PASS:/FAIL: lines; a crash or a nonzero
# exit without a FAIL line counts as one failure.
run_prog() {
    name=$1; shift
    "$@" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS:' "$log"); f=$(grep -c '^FAIL:' "$log")
    sed -n 's/^\(PASS\|FAIL\): /  \1 '"$name"': /p' "$log"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "  FAIL $name: exit $rc"; fi
    [ "$f" -ne 0 ] && grep -v '^\(PASS\|FAIL\):' "$log" | tail -20
    pass=$((pass + p)); fail=$((fail + f))
}

if ! make unit-tests >"$log" 2>&1; then
    tail -20 "$log"; echo "unit tests do not build"; echo "0 passed, 1 failed"; exit 1
fi
for t in test_map test_random test_errors; do run_prog "$t" "./$t"; done

if make unit-san >"$log" 2>&1; then
    for t in test_map test_random test_errors; do
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 run_prog "${t}_san" "./${t}_san"
    done
else
    echo "sanitizer build: skipped (compiler does not support -fsanitize=address,undefined)"
fi

make unit-fuzz >"$log" 2>&1
if [ -x ./fuzz_build ]; then
    mkdir -p fuzz-corpus
    secs=${AVRM_FUZZ_SECONDS:-20}
    if ./fuzz_build -max_total_time="$secs" -timeout=10 fuzz-corpus >"$log" 2>&1; then
        pass=$((pass + 1)); echo "  PASS fuzz_build: $(grep -o 'Done [0-9]* runs' "$log")"
    else
        fail=$((fail + 1)); echo "  FAIL fuzz_build:"; tail -30 "$log"
    fi
else
    echo "fuzz: skipped (no clang)"
fi
rm -f "$log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
