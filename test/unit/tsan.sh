#!/bin/sh
# tsan.sh BUILDDIR - build test_threads_tsan (make unit-tsan: test/unit/
# test_threads.c and the core sources under -fsanitize=thread) and run it:
# lock-free readers against one writer, the rule of avrm_ctx.h. A
# ThreadSanitizer report stops the run (halt_on_error, exit 66) and fails;
# suppressions come from test/unit/tsan.supp (empty: none for libavrm).
# Prints the cases, then one final line "N passed, N failed"; exits nonzero
# on failure. The build failing, a case lost or an exit without a FAIL line
# is one failure. AVRM_TSAN_OPTIONS is appended to TSAN_OPTIONS: e.g.
# history_size=7 when a report says "failed to restore the stack".
B=${1:?usage: tsan.sh BUILDDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$B" || exit 2
cases=2                  # RUN lines of test_threads.c's main
log=$(mktemp)
if ! make unit-tsan >"$log" 2>&1; then
    tail -20 "$log"; echo "  FAIL test_threads_tsan: build failed (make unit-tsan)"
    rm -f "$log"; echo "0 passed, 1 failed"; exit 1
fi
start=$(date +%s)
TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$top/test/unit/tsan.supp${AVRM_TSAN_OPTIONS:+ $AVRM_TSAN_OPTIONS}" \
    ./test_threads_tsan >"$log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
p=$(grep -c '^PASS:' "$log"); f=$(grep -c '^FAIL:' "$log")
sed -n 's/^\(PASS\|FAIL\): /  \1 test_threads_tsan: /p' "$log"
grep '^  [0-9]* readers' "$log"
bad=""
grep -q 'WARNING: ThreadSanitizer' "$log" && bad="ThreadSanitizer report"
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && bad="${bad:+$bad, }exit $rc"
[ $((p + f)) -ne "$cases" ] && bad="${bad:+$bad, }$((p + f)) cases reported, $cases expected"
if [ -n "$bad" ]; then
    f=$((f + 1)); echo "  FAIL test_threads_tsan: $bad"
    # the whole report: both stacks and where the memory came from
    sed -n '/WARNING: ThreadSanitizer/,/^SUMMARY: ThreadSanitizer/p' "$log" | head -80 | sed 's/^/    /'
fi
# the test's own messages (wrong answers), outside TSan's ===== blocks
[ "$f" -ne 0 ] && awk '/^==================$/ { in_tsan = !in_tsan; next }
    !in_tsan && /^  / && !/^  [0-9]* readers/' "$log" | head -10 | sed 's/^/  /'
echo "  test_threads_tsan: ${secs}s"
rm -f "$log"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
