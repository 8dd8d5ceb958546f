#!/bin/sh
# MPICH's own test suite (MPICH_SRC/test/mpi, used in place, never copied)
# against an installed MPICH, with our expected-failures list.
#
#   run.sh PREFIX MPICH_SRC OUTDIR
#
# Configures the suite out of tree in OUTDIR/build (--with-mpi=PREFIX, no
# Fortran/C++), builds each directory, runs it with MPICH's runtests driver
# (-maxnp, MPITEST_TIMEOUT per test, TAP output per directory) and compares
# the failures with test/mpich-suite/xfail.txt ("dir/testname  reason").
# Prints one line per unexpected failure, the expected failures separately,
# per-directory timings, and a final "N passed, N failed" line (expected
# failures count as neither; an xfail entry that passes is reported XPASS).
#
# Knobs (environment):
#   SUITE_DIRS       directories to run (default: comm group topo pt2pt rma spawn)
#   SUITE_MAXNP      -maxnp for runtests (default 8)
#   MPITEST_TIMEOUT  per-test limit in seconds (default 90)
#   SUITE_FULL=1     run every test, ignoring the CI subset below
#   SUITE_JOBS       make -j for building the tests (default: nproc)
#   SUITE_SKIP_LIST  list used instead of ci-skip.txt (test/cluster/run.sh adds to it)
#   SUITE_SKIP_DTP   directories whose testlist.dtp is left out of the CI
#                    subset (default: rma; SUITE_FULL=1 runs them)
set -u
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
src=$(cd "$2" && pwd)/test/mpi
[ -x "$src/configure" ] || { echo "mpich-suite: no $src/configure" >&2; exit 2; }
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../mpienv.sh"
xfail_list=$here/xfail.txt
dirs=${SUITE_DIRS:-"comm group topo pt2pt rma spawn"}
maxnp=${SUITE_MAXNP:-8}
MPITEST_TIMEOUT=${MPITEST_TIMEOUT:-90}
export MPITEST_TIMEOUT
jobs=${SUITE_JOBS:-$(nproc 2>/dev/null || echo 2)}
bld=$out/build
log() { echo "mpich-suite: $*"; }

# CI subset: tests left out of the default run, "dir/name reason".  Only
# long-running tests on a 2-core oversubscribed machine are dropped here;
# SUITE_FULL=1 runs them.  (Measured on the stock build, see README.)
skip_list=${SUITE_SKIP_LIST:-$here/ci-skip.txt}

# --- configure (once per prefix) -----------------------------------------
t0=$(date +%s)
stamp="$prefix $src"
if [ ! -f "$bld/Makefile" ] || [ "$(cat "$bld/.avrm-configured" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$bld"; mkdir -p "$bld"
    log "configuring in $bld"
    (cd "$bld" && "$src/configure" --with-mpi="$prefix" --disable-fortran --disable-cxx \
        --enable-rma --enable-spawn --disable-ft-tests --disable-perftest --disable-checkfaults \
        --disable-large-tests --disable-xfail > configure.log 2>&1) ||
        { tail -30 "$bld/configure.log"; log "configure failed: $bld/configure.log"; exit 2; }
    echo "$stamp" > "$bld/.avrm-configured"
fi
log "configure: $(( $(date +%s) - t0 ))s"

# --- support libraries and test programs -----------------------------------
t0=$(date +%s)
(cd "$bld/util" && make -j"$jobs" > make.log 2>&1) || { tail -20 "$bld/util/make.log"; exit 2; }
if [ -d "$bld/dtpools" ]; then
    (cd "$bld/dtpools" && make -j"$jobs" > make.log 2>&1) || { tail -20 "$bld/dtpools/make.log"; exit 2; }
fi
for d in $dirs; do
    # build everything the directory lists; a program that does not build
    # is reported by runtests as a failure of that test
    (cd "$bld/$d" && make -k -j"$jobs" > make.log 2>&1) ||
        log "$d: some programs did not build (see $bld/$d/make.log)"
done
log "build: $(( $(date +%s) - t0 ))s"

# --- filtered testlists ----------------------------------------------------
# testlist.avrm in each build directory: the directory's testlist(s) minus the
# CI subset (unless SUITE_FULL=1); subdirectory entries are dropped (we name
# directories explicitly).
for d in $dirs; do
    {
        lists="testlist testlist.dtp testlist.cvar"
        # CI subset: rma's datatype-pool variants (testlist.dtp, 184 runs of
        # the same RMA operations over more datatypes, ~15 min on 2 cores)
        case " ${SUITE_SKIP_DTP-rma} " in
            *" $d "*) [ "${SUITE_FULL:-0}" = 1 ] || lists="testlist testlist.cvar" ;;
        esac
        for f in $lists; do
            if [ -f "$bld/$d/$f" ]; then cat "$bld/$d/$f"
            elif [ -f "$src/$d/$f" ]; then cat "$src/$d/$f"; fi
        done
    } | awk -v dir="$d" -v skipf="$skip_list" -v full="${SUITE_FULL:-0}" '
        BEGIN { if (full != "1") while ((getline l < skipf) > 0) {
                    split(l, a, /[ \t]+/); if (a[1] != "" && a[1] !~ /^#/) skip[a[1]] = 1 } }
        { line = $0; sub(/#.*/, "", line) }
        line ~ /^[ \t]*$/ { next }
        { split(line, f, /[ \t]+/); name = (f[1] == "" ? f[2] : f[1]) }
        (dir "/" name) in skip { next }
        { print line }' > "$bld/$d/testlist.avrm"
done

# --- run ---------------------------------------------------------------------
summary=$out/summary.txt
: > "$summary"
for d in $dirs; do
    t0=$(date +%s)
    rm -f "$out/$d.tap"
    (cd "$bld" && ./runtests -srcdir="$src" -tests=testlist.avrm -testdirs="$d" \
        -mpiexec="$prefix/bin/mpiexec" -maxnp="$maxnp" -tapfile="$out/$d.tap" \
        > "$out/$d.log" 2>&1 < /dev/null)
    secs=$(( $(date +%s) - t0 ))
    n=$(grep -c '^\(not \)\{0,1\}ok ' "$out/$d.tap" 2>/dev/null)
    log "$d: ${secs}s, $n test runs"
    echo "time $d $secs" >> "$summary"
    # one line per run: STATUS dir/name np
    sed -n 's|^ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*# SKIP.*|skip \1 \2|p
            t
            s|^ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|ok \1 \2|p
            s|^not ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|fail \1 \2|p' "$out/$d.tap" >> "$summary"
done

# --- compare with the expected failures ---------------------------------------
awk -v xf="$xfail_list" '
    BEGIN { while ((getline l < xf) > 0) {
                if (l ~ /^[ \t]*(#|$)/) continue
                split(l, a, /[ \t]+/); why = l; sub(/^[^ \t]+[ \t]+/, "", why); x[a[1]] = why } }
    $1 == "time" { next }
    $1 == "skip" { skipped++; next }
    $1 == "ok" && ($2 in x) { print "XPASS " $2 " np=" $3 " (listed: " x[$2] ")"; pass++; next }
    $1 == "ok" { pass++; next }
    $1 == "fail" && ($2 in x) { xfl[++nx] = "XFAIL " $2 " np=" $3 ": " x[$2]; next }
    $1 == "fail" { print "FAIL " $2 " np=" $3; fail++ }
    END {
        for (i = 1; i <= nx; i++) print xfl[i]
        printf "expected failures: %d, skipped: %d\n", nx, skipped
        printf "%d passed, %d failed\n", pass, fail
        exit fail > 0
    }' "$summary"
