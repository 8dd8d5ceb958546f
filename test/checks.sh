# The PASS/FAIL/SKIP lines and the closing lines of our test scripts, in one
# place. Sourced by test/dropin, test/install, test/deb and test/heap.
#   result PASS|FAIL|SKIP NAME [DETAIL]   prints "PASS NAME: DETAIL" and counts it
#   results_end                            prints "skipped: N (listed above: ...)"
#                                          and "N passed, N failed"; returns
#                                          nonzero when any check failed
pass=0 fail=0 skip=0 skipped=""
result() {
    echo "$1 $2${3:+: $3}"
    case $1 in
        PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;;
        *) skip=$((skip + 1)) skipped="$skipped $2" ;;
    esac
}
results_end() {
    echo "skipped: $skip (listed above:${skipped:- none})"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
