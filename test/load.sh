#!/bin/sh
# The same tests quiet and on a busy machine (issue 26): the pass set must
# not depend on what else runs.
#   test/load.sh BUILDDIR PREFIX [PHASE ...]
# Runs test/run-all.sh with AVRM_TEST_PHASES=PHASE... (default: mpi mpich)
# twice: quiet, then beside AVRM_LOAD_HOGS busy processes (default: one per
# core; a busy loop each, started before and stopped after the run). Each
# run's output is kept in BUILDDIR/test-out-quiet and BUILDDIR/test-out-loaded.
# Prints both summaries, every run that passed in one and not in the other,
# and the MPICH suite's runs that took more than half of MPITEST_TIMEOUT in
# either (with both times; a run with a timeLimit of its own in the testlist
# is listed against MPITEST_TIMEOUT all the same). Exits 0 when both runs pass and their pass sets match.
# Not part of make check (it runs the phases twice): `make check-load`.
# AVRM_LOAD_QUIET=DIR takes DIR (a test-out of a quiet run of the same
# phases, e.g. make check's) as the quiet run instead of running it again.
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR PREFIX [PHASE ...]" >&2; exit 2; }
bdir=$(cd "$1" && pwd) || exit 2
prefix=$2; shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
phases=${*:-mpi mpich}
hogs=${AVRM_LOAD_HOGS:-$(nproc)}
limit=${MPITEST_TIMEOUT:-90}
hogpids=""
stop_hogs() { [ -n "$hogpids" ] && kill $hogpids 2>/dev/null; hogpids=""; }
trap stop_hogs EXIT INT TERM

# tapruns TAP: "ok|fail dir/name np #k" per run, k counting the runs of the
# same dir/name np in that file (a test listed again with other arguments)
tapruns() {
    sed -n '/# SKIP/d; s|^ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|ok \1 \2|p; s|^not ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|fail \1 \2|p' "$1" |
        awk '{ k = $2 " " $3; print $1, k, "#" ++n[k] }'
}
tapdir() { case $1 in mpich) echo mpich-suite ;; mpich-variants|cluster) echo "$1" ;; esac; }
# results OUT: "ok|fail ID" per run of the selected phases (our tests'
# PASS/XPASS and FAIL/XFAIL lines in OUT/PHASE.log, the TAP lines of the
# MPICH suite's phases); passes and runs are its two views, sorted
results() {
    for ph in $phases; do
        sed -n 's/^X\{0,1\}PASS \([^:(]*[^:( ]\).*/ok \1/p
                s/^X\{0,1\}FAIL\( ([^)]*)\)\{0,1\} \([^:(]*[^:( ]\).*/fail \2/p' "$1/$ph.log" 2>/dev/null
        d=$(tapdir "$ph"); [ -n "$d" ] && [ -d "$1/$d" ] &&
            for f in $(find "$1/$d" -name '*.tap'); do tapruns "$f"; done
    done
}
passes() { results "$1" | sed -n 's/^ok //p' | sort; }
runs() { results "$1" | sed 's/^[a-z]* //' | sort -u; }
# times OUT: "dir/name np seconds" of the MPICH suite's runs
run_times() {
    find "$1" -name '*.tap' -exec sed -n 's|^\(not \)\{0,1\}ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*# time=\([0-9.]*\).*|\2 \3 \4|p' {} + 2>/dev/null |
        sort
}

rc=0
modes="quiet loaded"
if [ -n "${AVRM_LOAD_QUIET:-}" ]; then
    [ -d "$AVRM_LOAD_QUIET" ] || { echo "load: AVRM_LOAD_QUIET=$AVRM_LOAD_QUIET is no directory" >&2; exit 2; }
    if [ "$(cd "$AVRM_LOAD_QUIET" && pwd)" != "$bdir/test-out-quiet" ]; then
        rm -rf "$bdir/test-out-quiet"; cp -a "$AVRM_LOAD_QUIET" "$bdir/test-out-quiet"
    fi
    passes "$bdir/test-out-quiet" > "$bdir/test-out-quiet/passes.txt"
    echo "=== quiet: the run in $AVRM_LOAD_QUIET"
    modes=loaded
fi
for mode in $modes; do
    if [ $mode = loaded ]; then
        i=0
        while [ $i -lt "$hogs" ]; do
            sh -c 'while :; do :; done' & hogpids="$hogpids $!"
            i=$((i + 1))
        done
        echo "=== load: $hogs busy processes beside the run (pids$hogpids)"
    fi
    # results of an earlier run (not the MPICH suite's build) would count as this one's
    find "$bdir/test-out" -path "$bdir/test-out/mpich-suite/build" -prune -o \
        \( -name '*.tap' -o -name '*.log' \) -type f -print 2>/dev/null | xargs -r rm -f
    t0=$(date +%s)
    AVRM_TEST_PHASES="$phases" "$top/test/run-all.sh" "$bdir" "$prefix" > "$bdir/load-$mode.log" 2>&1 || rc=1
    stop_hogs
    rm -rf "$bdir/test-out-$mode"; cp -a "$bdir/test-out" "$bdir/test-out-$mode"
    echo "=== $mode ($(( $(date +%s) - t0 ))s): $(sed -n '/^=== summary/,$p' "$bdir/load-$mode.log" | tr '\n' ' ')"
    passes "$bdir/test-out-$mode" > "$bdir/test-out-$mode/passes.txt"
done
# compare on the runs the loaded run made (a reused quiet run may have more)
runs "$bdir/test-out-loaded" > "$bdir/test-out-loaded/runs.txt"
comm -12 "$bdir/test-out-quiet/passes.txt" "$bdir/test-out-loaded/runs.txt" > "$bdir/test-out-quiet/passes-common.txt"
q=$bdir/test-out-quiet/passes-common.txt l=$bdir/test-out-loaded/passes.txt
echo "passing runs: quiet $(wc -l < "$q"), loaded $(wc -l < "$l")"
# a comparison of nothing proves nothing
[ -s "$bdir/test-out-loaded/runs.txt" ] || { echo "load: no run of the selected phases was counted"; rc=1; }
onlyq=$(comm -23 "$q" "$l") onlyl=$(comm -13 "$q" "$l")
[ -n "$onlyq" ] && { echo "passed quiet only:"; echo "$onlyq" | sed 's/^/  /'; rc=1; }
[ -n "$onlyl" ] && { echo "passed loaded only:"; echo "$onlyl" | sed 's/^/  /'; rc=1; }
# the MPICH suite's runs above half the limit in either run, quiet vs loaded
run_times "$bdir/test-out-quiet" > "$bdir/test-out-quiet/times.txt"
run_times "$bdir/test-out-loaded" > "$bdir/test-out-loaded/times.txt"
awk -v lim="$limit" 'FNR == NR { q[$1 " " $2] = $3; next }
    { k = $1 " " $2; if (q[k] + 0 > lim / 2 || $3 > lim / 2) {
          printf "  slow: %s np %s: quiet %.1fs, loaded %.1fs (limit %ds)\n", $1, $2, q[k], $3, lim; n++ } }
    END { printf "MPICH suite runs above half their limit: %d\n", n }' \
    "$bdir/test-out-quiet/times.txt" "$bdir/test-out-loaded/times.txt"
if [ $rc -eq 0 ]; then echo "load: same pass set quiet and loaded"; else echo "load: FAILED (see above)"; fi
exit $rc
