#!/bin/sh
# run.sh BUILDDIR - build and run every core unit test: the plain tests, the
# same tests under ASan/UBSan/LSan, the thread-safety rule under TSan
# (test/unit/tsan.sh, a few seconds), a short libFuzzer run (clang;
# AVRM_FUZZ_SECONDS, default 20), the assertion lint of our MPICH-side
# code (test/lint/asserts.sh) and the one-way dependencies of its files
# (test/lint/glue-deps.sh, on the default build's objects). A sanitizer or fuzz build that fails is a
# failure (maint/install-deps.sh installs clang and its runtimes).
# Seeds are fixed and printed: AVRM_SEED (test_random's seeded part, default
# 12345; "random" picks one from the clock) and AVRM_FUZZ_SEED (libFuzzer's
# -seed, default 1). Prints one final line "N passed, N failed"; exits
# nonzero on failure.
B=${1:?usage: run.sh BUILDDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/closing.sh"
cd "$B" || exit 2
pass=0 fail=0
log=$(mktemp)

# Each unit program and the number of cases (RUN lines of its main) it must
# report, plain and under the sanitizers: the one place the counts are kept.
# A program reporting fewer or more (a case lost, an early exit) fails.
progs="test_map:11 test_random:2 test_errors:6 test_hooks:3 test_hier:5 test_split:4 test_sort:3 test_sparse:5"

# run_prog NAME CASES CMD...: count its PASS:/FAIL: lines; a crash or a
# nonzero exit without a FAIL line, or a case count other than CASES, counts
# as one failure.
run_prog() {
    name=$1 cases=$2; shift 2
    "$@" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS:' "$log"); f=$(grep -c '^FAIL:' "$log")
    sed -n 's/^\(PASS\|FAIL\): /  \1 '"$name"': /p' "$log"
    bad=""
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && bad="exit $rc"
    [ $((p + f)) -ne "$cases" ] && bad="${bad:+$bad, }$((p + f)) cases reported, $cases expected"
    [ -n "$bad" ] && { f=$((f + 1)); echo "  FAIL $name: $bad"; }
    [ "$f" -ne 0 ] && grep -v '^\(PASS\|FAIL\):' "$log" | tail -20 | sed 's/^/    /'
    pass=$((pass + p)); fail=$((fail + f))
}

# build_step NAME TARGET: make TARGET; a failure counts as one failure
build_step() {
    make "$2" >"$log" 2>&1 && return 0
    tail -20 "$log"; echo "  FAIL $1: build failed (make $2)"; fail=$((fail + 1)); return 1
}

build_step unit-tests unit-tests || { echo "0 passed, 1 failed"; exit 1; }

AVRM_SEED=${AVRM_SEED:-12345}
[ "$AVRM_SEED" = random ] && AVRM_SEED=$(date +%s)
export AVRM_SEED
echo "  seeds: AVRM_SEED=$AVRM_SEED AVRM_FUZZ_SEED=${AVRM_FUZZ_SEED:-1}"

# every unit program that local.mk builds must be in progs
for t in $(sed -n 's/^check_PROGRAMS += //p' "$top/test/unit/local.mk"); do
    case " $progs" in *" $t:"*) ;; *) echo "  FAIL $t: built (local.mk) but not in run.sh's progs"; fail=$((fail + 1)) ;; esac
done

for tc in $progs; do run_prog "${tc%:*}" "${tc#*:}" "./${tc%:*}"; done

if build_step sanitizers unit-san; then
    for tc in $progs; do
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
            run_prog "${tc%:*}_san" "${tc#*:}" "./${tc%:*}_san"
    done
fi

# run_script NAME CMD...: a script that prints its own checks and a closing
# line "N passed, N failed": add both counts; no closing line, or a nonzero
# exit with none failed, is one failure
run_script() {
    name=$1; shift
    "$@" >"$log" 2>&1; rc=$?
    grep -v '^PASS\|passed,' "$log" | sed 's/^/  /'
    closing_counts "$log" "$rc"
    [ -z "$cl_note" ] || echo "  FAIL $name:$cl_note"
    echo "  $name: $cl_p passed, $cl_f failed"
    pass=$((pass + cl_p)); fail=$((fail + cl_f))
    # its "skipped: N" line (results-fresh: results sets no stamp covers)
    [ "$cl_s" -eq 0 ] || { skipped=$((skipped + cl_s)); skipwhat="$skipwhat $name:$cl_s"; }
}
skipped=0 skipwhat=""

# lock-free readers and one writer under ThreadSanitizer (builds unit-tsan;
# counts test_threads' cases, a race or a build failure is one failure)
run_script tsan "$top/test/unit/tsan.sh" .

if build_step fuzz_build unit-fuzz; then
    mkdir -p fuzz-corpus
    secs=${AVRM_FUZZ_SECONDS:-20}
    if ./fuzz_build -seed="${AVRM_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 fuzz-corpus >"$log" 2>&1; then
        pass=$((pass + 1)); echo "  PASS fuzz_build: $(grep -o 'Done [0-9]* runs' "$log")"
    else
        fail=$((fail + 1)); echo "  FAIL fuzz_build:"; tail -30 "$log"
    fi
fi
# our MPICH-side code: no side effect inside an assertion (test/lint/asserts.sh
# counts one test per assertion plus its control)
run_script lint/asserts "$top/test/lint/asserts.sh"
# results sets: every stamped set's files match its stamp; a set older than
# the code it measures is listed stale, not failed (test/lint/results-fresh.sh,
# maint/results-stamp.py)
run_script lint/results-fresh "$top/test/lint/results-fresh.sh"
# the benchmark driver's table: every step runs (dry), every make target is a step
run_script lint/bench-steps "$top/test/lint/bench-steps.sh"
# our MPICH-side files depend on each other one way, read from the objects
# of the default build (test/lint/glue-deps.sh; make check builds it first)
run_script lint/glue-deps "$top/test/lint/glue-deps.sh" "$(pwd)/mpich-build/mpich-patched-obj"
rm -f "$log"
if [ "$skipped" -gt 0 ]; then echo "skipped: $skipped (listed above;$skipwhat)"; else echo "skipped: 0"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
