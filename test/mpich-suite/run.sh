#!/bin/sh
# MPICH's own test suite (MPICH_SRC/test/mpi, used in place, never copied)
# against an installed MPICH, with our expected-failures list.
#
#   run.sh PREFIX MPICH_SRC OUTDIR
#
# Configures the suite out of tree in OUTDIR/build (--with-mpi=PREFIX, with
# the f77/f90/f08 tests when PREFIX has mpifort; no C++), builds each directory, runs it with MPICH's runtests driver
# (-maxnp, MPITEST_TIMEOUT per test, TAP output per directory), then accounts
# for every testlist line (account.awk):
#   - a failure listed in xfail.txt ("dir/name np reason", matched by test AND
#     process count) is XFAIL, counted as neither passed nor failed; those
#     entries run with the list's shorter timeLimit; one that passes is XPASS;
#     an entry that has no such run is stale and counts as a failure;
#   - a line left out (ci-skip.txt, rma's testlist.dtp) or skipped by runtests
#     is counted and listed as skipped;
#   - a program that does not build fails each of its runs;
#   - every expected run must be in the TAP output (runtests stops a directory
#     after many timeouts): each missing run is a failure.
# Ends with "skipped: N (listed above)" and "N passed, N failed".
#
# Knobs (environment):
#   SUITE_DIRS       directories to run (default: comm group topo pt2pt rma spawn init
#                    and the Fortran subset SUITE_FORTRAN_DIRS)
#   SUITE_FORTRAN_DIRS  Fortran directories added to the default (default below;
#                    "" for none); PREFIX without mpifort: none, listed as skipped
#   SUITE_OMIT_DIRS, SUITE_OMIT_REASON  directories not run, every line of their
#                    testlists listed as skipped with that reason (variants.sh)
#   SUITE_MAXNP      -maxnp for runtests (default 8)
#   MPITEST_TIMEOUT  per-test limit in seconds (default 90)
#   SUITE_FULL=1     run every test, ignoring the CI subset below
#   SUITE_JOBS       make -j for building the tests (default: nproc)
#   SUITE_SKIP_LIST  list used instead of ci-skip.txt (test/cluster/run.sh adds to it)
#   SUITE_SKIP_DTP   directories whose testlist.dtp is left out of the CI
#                    subset (default: rma; SUITE_FULL=1 runs them)
#   SUITE_XFAIL_LIST the expected-failures list used instead of xfail.txt
#                    (variants.sh: xfail.txt plus a placement's own list)
#   SUITE_ONLY       DIR/NAME list: in a directory it names (and this run
#                    covers; each such entry must match a run), only those
#                    programs are built and run (their testlist lines, and
#                    their testlist.cvar lines that select an smp algorithm),
#                    every other line counted as skipped
set -u
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
src=$(cd "$2" && pwd)/test/mpi
[ -x "$src/configure" ] || { echo "mpich-suite: no $src/configure" >&2; exit 2; }
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../mpienv.sh"
xfail_list=${SUITE_XFAIL_LIST:-$here/xfail.txt}
# Fortran subset in CI (145 runs, ~5 min with their build; test/README.md
# lists what is left out and the command that runs it): collectives
# (reductions on Fortran types), communicators and datatypes through all
# three bindings; topologies, point-to-point and RMA through mpif.h and
# use mpi_f08; spawn through use mpi_f08
fdirs_default="f77/coll f77/comm f77/topo f77/pt2pt f77/rma f77/datatype
               f90/coll f90/comm f90/f90types f90/datatype
               f08/coll f08/comm f08/topo f08/pt2pt f08/rma f08/spawn"
fdirs_default=$(echo $fdirs_default)
fdirs=${SUITE_FORTRAN_DIRS-$fdirs_default}
fortran=--enable-fortran=all
omit_dirs=${SUITE_OMIT_DIRS:-} omit_reason=${SUITE_OMIT_REASON:-left out by SUITE_OMIT_DIRS}
if [ ! -x "$prefix/bin/mpifort" ]; then
    # every line of their testlists is counted and listed as skipped
    fortran=--disable-fortran
    [ -z "${SUITE_DIRS:-}" ] && [ -n "$fdirs" ] &&
        omit_dirs="$omit_dirs $fdirs" omit_reason="PREFIX has no mpifort (built without Fortran)"
    fdirs=""
fi
dirs=${SUITE_DIRS:-"comm group topo pt2pt rma spawn init $fdirs"}
maxnp=${SUITE_MAXNP:-8}
MPITEST_TIMEOUT=${MPITEST_TIMEOUT:-90}
export MPITEST_TIMEOUT
jobs=${SUITE_JOBS:-$(nproc 2>/dev/null || echo 2)}
bld=$out/build
log() { echo "mpich-suite: $*"; }
# a selection of no directory (SUITE_DIRS=" ") is a failure, not "0 passed"
if [ -z "$(echo $dirs)" ]; then
    log "SUITE_DIRS selects no directory"; echo "0 passed, 1 failed"; exit 1
fi

# CI subset: tests left out of the default run, "dir/name reason" (every np);
# SUITE_FULL=1 runs them.
skip_list=${SUITE_SKIP_LIST:-$here/ci-skip.txt}

# --- configure (once per prefix) -----------------------------------------
t0=$(date +%s)
stamp="$prefix $src $fortran"
if [ ! -f "$bld/Makefile" ] || [ "$(cat "$bld/.avrm-configured" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$bld"; mkdir -p "$bld"
    log "configuring in $bld"
    (cd "$bld" && "$src/configure" --with-mpi="$prefix" $fortran --disable-cxx \
        --enable-rma --enable-spawn --disable-ft-tests --disable-perftest --disable-checkfaults \
        --disable-large-tests --disable-xfail > configure.log 2>&1) ||
        { tail -30 "$bld/configure.log"; log "configure failed: $bld/configure.log"; exit 2; }
    # MPICH's suite enables its f08 tests only when configured inside MPICH's
    # own build (FROM_MPICH=yes; its configure.ac has "FIXME if $FROM_MPICH is
    # no, we should test build an MPI F08 program"). PREFIX's mpi_f08 module
    # is that test: with it, turn on the f08 conditional (HAS_F08, f08dir) in
    # config.status and regenerate; its programs then build or fail as usual.
    if [ "$fortran" = --enable-fortran=all ] && [ -f "$prefix/include/mpi_f08.mod" ]; then
        (cd "$bld" && sed -i -e 's/^S\["HAS_F08_TRUE"\]="#"/S["HAS_F08_TRUE"]=""/' \
            -e 's/^S\["HAS_F08_FALSE"\]=""/S["HAS_F08_FALSE"]="#"/' \
            -e 's/^S\["f08dir"\]="#"/S["f08dir"]="f08"/' config.status &&
            ./config.status > config.status.log 2>&1) ||
            { log "enabling f08 in config.status failed: $bld/config.status.log"; exit 2; }
    fi
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
    # build everything the directory lists (or SUITE_ONLY's programs of it); a
    # program that does not build fails each of its runs (its failed targets
    # are read from make.log below)
    targets=$(for t in ${SUITE_ONLY:-}; do case $t in "$d"/*) echo "${t#"$d"/}" ;; esac; done)
    (cd "$bld/$d" && make -k -j"$jobs" $targets > make.log 2>&1) ||
        log "$d: some programs did not build (see $bld/$d/make.log)"
done
log "build: $(( $(date +%s) - t0 ))s"

# --- filtered testlists ----------------------------------------------------
# testlist.avrm in each build directory: the directory's testlist(s) minus the
# CI subset (unless SUITE_FULL=1), xfail.txt's timeLimit on its entries.
# Every line left out is recorded as skipped (testlist.awk).
summary=$out/summary.txt
: > "$summary"
# a SUITE_ONLY entry of a directory this run covers must match a run
for t in ${SUITE_ONLY:-}; do
    case " $dirs " in *" ${t%%/*} "*) echo "only $t" >> "$summary" ;; esac
done
skipf=$skip_list
[ "${SUITE_FULL:-0}" = 1 ] && skipf=""
for d in $omit_dirs; do
    for tl in "$src/$d"/testlist*; do
        [ -f "$tl" ] || continue
        awk -f "$here/testlist.awk" -v dir="$d" -v rec="$summary" -v maxnp="$maxnp" \
            -v skipf="" -v omit="$omit_reason" -v xf="" "$tl" > /dev/null
    done
done
for d in $dirs; do
    : > "$bld/$d/testlist.avrm"
    for f in testlist testlist.dtp testlist.cvar; do
        if [ -f "$bld/$d/$f" ]; then tl=$bld/$d/$f
        elif [ -f "$src/$d/$f" ]; then tl=$src/$d/$f
        else continue; fi
        omit=""
        # CI subset: rma's datatype-pool variants (testlist.dtp, 184 runs of
        # the same RMA operations over more datatypes, ~15 min on 2 cores)
        if [ "$f" = testlist.dtp ] && [ "${SUITE_FULL:-0}" != 1 ]; then
            case " ${SUITE_SKIP_DTP-rma} " in
                *" $d "*) omit="testlist.dtp left out of CI (SUITE_FULL=1 runs it)" ;;
            esac
        fi
        awk -f "$here/testlist.awk" -v dir="$d" -v rec="$summary" -v maxnp="$maxnp" \
            -v skipf="$skipf" -v omit="$omit" -v xf="$xfail_list" -v only="${SUITE_ONLY:-}" -v kind="$f" \
            "$tl" >> "$bld/$d/testlist.avrm"
    done
done

# --- run ---------------------------------------------------------------------
for d in $dirs; do
    t0=$(date +%s)
    mkdir -p "$(dirname "$out/$d.tap")"    # f77/coll: a subdirectory of OUTDIR
    rm -f "$out/$d.tap"
    (cd "$bld" && ./runtests -srcdir="$src" -tests=testlist.avrm -testdirs="$d" \
        -mpiexec="$prefix/bin/mpiexec" -maxnp="$maxnp" -tapfile="$out/$d.tap" \
        > "$out/$d.log" 2>&1 < /dev/null)
    secs=$(( $(date +%s) - t0 ))
    n=$(grep -c '^\(not \)\{0,1\}ok ' "$out/$d.tap" 2>/dev/null)
    log "$d: ${secs}s, ${n:-0} test runs"
    {
        echo "dir $d"
        echo "time $d $secs"
        # programs that did not build: make -k's failed targets, runtests' message
        # (an object prog-src.o or prog.o names the program prog)
        sed -n 's|^make[^:]*: \*\*\* \[[^]]*: \([^]/]*\)\] Error.*|nobuild '"$d"'/\1|p' "$bld/$d/make.log" |
            sed -e 's/-[^-/]*\.o$//' -e 's/\.o$//'
        sed -n 's|^Failed to build \([^;]*\);.*|nobuild '"$d"'/\1|p' "$out/$d.log"
        sed -n 's|^\(Terminating test because .*\)|stopped '"$d"' \1|p' "$out/$d.log"
        # one line per run: STATUS dir/name np
        sed -n 's|^ok [0-9]* - \./\([^ ]*\) \([0-9]*\) *# SKIP *\(.*\)|tapskip \1 \2 \3|p
                t
                s|^ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|ok \1 \2|p
                s|^not ok [0-9]* - \./\([^ ]*\) \([0-9]*\).*|fail \1 \2|p' "$out/$d.tap" 2>/dev/null
    } >> "$summary"
done

# --- account: expected failures, skips, build failures, run counts --------------
awk -v xf="$xfail_list" -f "$here/account.awk" "$summary"
