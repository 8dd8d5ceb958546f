#!/bin/sh
# The cluster phase of `make check`: MPI jobs across emulated hosts
# (test/cluster/cluster.sh), launched by hydra's mpiexec and by Slurm's srun.
#
#   run.sh PREFIX MPICH_SRC OUTDIR
#
# Hydra, FI_PROVIDER from test/mpienv.sh (sockets) on eth0, 8 processes in
# 4 layouts: 2 hosts x 4 and 4 hosts x 2, block and round-robin (rr):
#   hostmap (test/cluster/hostmap.c: placement, node communicators) and the
#   demo in every layout; our MPI tests (test/mpi, shm placement): all in 2x4
#   block, AVCLUSTER_RR_TESTS in 4x2 rr; FI_PROVIDER=tcp once; on-demand
#   addressing (placement rxm: tcp;ofi_rxm) for AVCLUSTER_ONDEMAND_TESTS in 2x4 block;
#   MPIR_CVAR_CH4_ROOTS_ONLY_PMI=1 once (hostmap, demo, AVCLUSTER_ROOTS_TESTS
#   at 4x2 block); MPICH's comm, topo, spawn (test/mpich-suite/run.sh) across
#   2 hosts round-robin, less test/cluster/suite-skip.txt. The subsets (DIR or
#   DIR/NAME lists, defaults below) keep the phase near 8 minutes on 2 cores.
# Slurm (--slurm): srun --mpi=pmi2 -N 2 -n 8: hostmap block and cyclic, the
#   demo, a few of our tests (AVCLUSTER_SRUN_TESTS) and the on-demand ones
#   (placement rxm: addresses from Slurm's PMI on first contact); with
#   AVCLUSTER_PMIX_PREFIX=DIR (an MPICH built --with-pmix) the same with
#   --mpi=pmix on that build; with AVCLUSTER_PMIX_MAKEDIR=BUILDDIR too, it is
#   first built by `make -C BUILDDIR mpich-pmix` (make check sets both).
# Fault: a rank killed on node2 during a 2x4 job: mpiexec must exit nonzero
#   with an error report and leave no process on any host (fault.sh).
# Two jobs: two mpiexecs on node1 meet through a port, with distinct job
#   keys and with one key (MPIR_CVAR_AVRM_JOB_KEY): the collision of their
#   AM sender ids is reported, never otherwise (jobkey.sh).
# Each job is one line PASS/FAIL; test/mpi and MPICH's suite add their own
# counts. Where namespaces cannot be made, nothing runs: each job is a SKIP
# line with the runs it would have made (one, or for test/mpi and MPICH's
# suite the runs their lists hold: planned()), summed in "skipped: N" with
# the reason. AVCLUSTER_JOB_TIMEOUT: seconds per hydra job (default 120).
# On the stock build set AVTEST_STOCK=1 (test/mpi/comm/mapmode reads it).
set -u
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
src=$2
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/test/mpienv.sh"
tmo=${AVCLUSTER_JOB_TIMEOUT:-120}
pass=0 fail=0 skip=0 t00=$(date +%s)

# --- can namespaces be made here? (else dry: every job a counted SKIP) ------
dry=""
why=$(unshare --pid --fork --mount-proc --uts --net --ipc \
          ip link add avprobe0 type veth peer name avprobe1 2>&1) ||
    dry="cannot create namespaces or veth links here: ${why:-unshare failed}"
[ -z "$dry" ] || echo "cluster: $dry; every job is skipped"

# --- bookkeeping ---------------------------------------------------------------
# job NAME CHECK CLUSTER-ARGS -- CMD...: one cluster, one command; CHECK is
# "noerrors" (exit 0 and "No Errors"), "exit0", or "counts" (the command's
# own "N passed, N failed" line is added; nonzero exit with 0 failed = 1 fail)
job() {
    name=$1 check=$2; shift 2
    if [ -n "$dry" ]; then
        n=1
        if [ $check = counts ] && ! n=$(planned "$@"); then
            echo "FAIL $name: its runs cannot be counted: $n"; fail=$((fail + 1)); return
        fi
        echo "SKIP $name (runs: $n)"; skip=$((skip + n)); return
    fi
    log=$out/$(echo "$name" | tr ' /=' '___').log
    s0=$(date +%s)
    timeout -k 10 "${jobtmo:-$tmo}" "$here/cluster.sh" "$@" > "$log" 2>&1 < /dev/null
    rc=$? secs=$(( $(date +%s) - s0 )) ok=0 counted=""
    case $check in
        noerrors) [ $rc -eq 0 ] && grep -q "^No Errors" "$log" && ok=1 ;;
        exit0) [ $rc -eq 0 ] && ok=1 ;;
        counts)
            line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
            jp=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
            jf=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
            js=$(sed -n 's/^skipped: \([0-9]*\).*/\1/p' "$log" | tail -1)
            [ -n "$jp" ] && [ $rc -ne 0 ] && [ "$jf" = 0 ] && jf=1
            if [ -n "$jp" ]; then
                pass=$((pass + jp)) fail=$((fail + jf)) skip=$((skip + ${js:-0}))
                counted=" [$jp passed, $jf failed${js:+, $js skipped}]"
                [ "$jf" = 0 ] && ok=1
            fi ;;
    esac
    grep -q LEFTOVER "$log" && ok=0 counted="$counted [processes left over]"
    if [ $ok = 1 ]; then
        [ $check = counts ] || pass=$((pass + 1))
        echo "PASS $name (${secs}s)$counted"
    else
        [ $check = counts ] && [ -n "$counted" ] || fail=$((fail + 1))
        echo "FAIL $name (${secs}s, exit $rc)$counted, log $log"
        grep -E '^(FAIL|not ok)|rank [0-9]+:|BAD TERM|LEFTOVER|rror' "$log" | head -15 | sed 's/^/    /'
    fi
}
# planned CLUSTER-ARGS -- CMD...: the runs of a counts job, from the lists
# CMD runs: test/mpi/runtests.sh lists them (AVTEST_LIST=1); MPICH's suite
# expects the lines test/mpich-suite/testlist.awk keeps (suite_planned)
planned() {
    while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done; shift
    case $1 in
        */runtests.sh)
            AVTEST_LIST=1 "$@" > "$out/planned.log" 2>&1 || { grep FAIL "$out/planned.log"; return 1; }
            grep -c '^RUN ' "$out/planned.log" || : ;;
        */mpich-suite/run.sh) suite_planned "$3" ;;
        *) echo "no list for $1"; return 1 ;;
    esac
}
# suite_planned MPICH_SRC: the runs test/mpich-suite/run.sh expects of
# SUITE_DIRS (its testlists, the configured build's first, filtered alike)
suite_planned() {
    s=$(cd "$1" && pwd)/test/mpi b=$out/mpich-suite/build rec=$out/suite-planned.txt n=0
    skipf=$SUITE_SKIP_LIST; [ "${SUITE_FULL:-0}" = 1 ] && skipf=""
    : > "$rec"
    for d in $SUITE_DIRS; do
        for f in testlist testlist.dtp testlist.cvar; do
            if [ -f "$b/$d/$f" ]; then tl=$b/$d/$f
            elif [ -f "$s/$d/$f" ]; then tl=$s/$d/$f
            elif [ -f "$s/$d/$f.in" ]; then  # not configured: its @substitutions@ empty
                tl=$out/suite-planned.in; sed 's/@[A-Za-z_]*@//g' "$s/$d/$f.in" > "$tl"
            else continue; fi
            omit=""
            if [ $f = testlist.dtp ] && [ "${SUITE_FULL:-0}" != 1 ]; then
                case " ${SUITE_SKIP_DTP-rma} " in *" $d "*) omit="left out" ;; esac
            fi
            awk -f "$top/test/mpich-suite/testlist.awk" -v dir="$d" -v rec="$rec" \
                -v maxnp="${SUITE_MAXNP:-8}" -v skipf="$skipf" -v omit="$omit" \
                -v xf="$top/test/mpich-suite/xfail.txt" "$tl" > /dev/null || return 1
        done
    done
    n=$(grep -c '^expect ' "$rec")
    [ "$n" -gt 0 ] || { echo "no testlist of '$SUITE_DIRS' in $s"; return 1; }
    echo "$n"
}
build_hostmap() {  # PREFIX EXE
    [ -z "$dry" ] || return 0
    "$1/bin/mpicc" -std=c11 -Wall -Wextra -O2 -o "$2" "$here/hostmap.c" > "$2.build.log" 2>&1 ||
        { cat "$2.build.log"; echo "FAIL $2 (build)"; fail=$((fail + 1)); }
}
mpiexec=$prefix/bin/mpiexec
hostmap=$out/hostmap
build_hostmap "$prefix" "$hostmap"
jobkey=$out/jobkey
[ -n "$dry" ] || "$prefix/bin/mpicc" -std=c11 -Wall -O2 -o "$jobkey" "$here/jobkey.c" > "$jobkey.build.log" 2>&1 ||
    { cat "$jobkey.build.log"; echo "FAIL $jobkey (build)"; fail=$((fail + 1)); }
leftover_before=$(ls -d "${TMPDIR:-/tmp}"/avcluster.* 2>/dev/null | wc -l)

# --- hydra: 4 layouts -------------------------------------------------------
for lay in "2 4 block" "2 1 rr" "4 2 block" "4 1 rr"; do
    set -- $lay; h=$1 s=$2 p=$3 tag="${1}x$((8 / $1)) $3"
    c="-n $h -s $s -p $p --"
    job "hostmap $tag" noerrors $c "$mpiexec" -n 8 "$hostmap" "$h" "$s"
    job "demo $tag" exit0 $c "$top/demo/run-demo.sh" "$prefix" 8
done
# inter-host data on eth0: node2's received bytes during a 2 s 1 MiB bcast loop
job "eth0 traffic 2x4 block" noerrors -n 2 -s 4 -p block -- sh -c '
    rx() { "$HYDRA_LAUNCHER_EXEC" "$1" cat /proc/net/dev | awk -v i="$2:" "\$1 == i { print \$2 }"; }
    e0=$(rx node2 eth0) l0=$(rx node1 lo)
    "$0" -n 8 "$1" 2 4 2 || exit 1
    e=$(( $(rx node2 eth0) - e0 )) l=$(( $(rx node1 lo) - l0 ))
    echo "bytes received: node2 eth0 $e, node1 lo $l"
    [ $e -gt 4000000 ] || { echo "rank 0: too little on eth0"; exit 1; }' "$mpiexec" "$hostmap"
grep -h "^bytes received" "$out/eth0_traffic_2x4_block.log" 2>/dev/null | sed 's/^/    /'
FI_PROVIDER=tcp job "hostmap 2x4 block FI_PROVIDER=tcp" noerrors -n 2 -s 4 -p block -- \
    "$mpiexec" -n 8 "$hostmap" 2 4
# on-demand addressing across hosts (tcp;ofi_rxm, every peer over the netmod,
# addresses fetched from hydra's PMI-1 on first contact): our tests' rxm placement
AVTEST_CONFIGS=rxm jobtmo=600 job "test/mpi 2x4 block on demand ${AVCLUSTER_ONDEMAND_TESTS:=pt2pt comm/intercomm comm/spawn_free}" \
    counts -n 2 -s 4 -p block -- "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-2x4-ondemand" \
    $AVCLUSTER_ONDEMAND_TESTS

export AVTEST_CONFIGS=shm
jobtmo=900 job "test/mpi 2x4 block" counts -n 2 -s 4 -p block -- \
    "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-2x4-block"
jobtmo=900 job "test/mpi 4x2 rr ${AVCLUSTER_RR_TESTS:=comm/split_type comm/intercomm comm/hier rma}" counts \
    -n 4 -p rr -- "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-4x2-rr" $AVCLUSTER_RR_TESTS

# --- roots-only PMI, once -----------------------------------------------------
export MPIR_CVAR_CH4_ROOTS_ONLY_PMI=1
job "hostmap 4x2 block ROOTS_ONLY_PMI" noerrors -n 4 -s 2 -p block -- "$mpiexec" -n 8 "$hostmap" 4 2
job "demo 4x2 block ROOTS_ONLY_PMI" exit0 -n 4 -s 2 -p block -- "$top/demo/run-demo.sh" "$prefix" 8
jobtmo=900 job "test/mpi 4x2 block ROOTS_ONLY_PMI ${AVCLUSTER_ROOTS_TESTS:=comm/split_type comm/dup comm/intercomm}" \
    counts -n 4 -s 2 -p block -- "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-4x2-block-roots" \
    $AVCLUSTER_ROOTS_TESTS
unset MPIR_CVAR_CH4_ROOTS_ONLY_PMI

# --- MPICH's comm, topo, spawn across 2 hosts, round-robin -------------------------
# AVCLUSTER_SUITE_BUILD: the suite's configured build of the mpich phase, reused
# (run.sh reconfigures it only when it was made for another prefix)
if [ -d "${AVCLUSTER_SUITE_BUILD:-}" ]; then
    mkdir -p "$out/mpich-suite"
    [ -L "$out/mpich-suite/build" ] || rm -rf "$out/mpich-suite/build"
    ln -sfn "$AVCLUSTER_SUITE_BUILD" "$out/mpich-suite/build"
fi
cat "$top/test/mpich-suite/ci-skip.txt" "$here/suite-skip.txt" > "$out/suite-skip.txt"
SUITE_SKIP_LIST=$out/suite-skip.txt SUITE_DIRS="comm topo spawn" jobtmo=1800 job "MPICH suite comm topo spawn 2 hosts rr" counts \
    -n 2 -p rr -- "$top/test/mpich-suite/run.sh" "$prefix" "$src" "$out/mpich-suite"

# --- Slurm: srun --mpi=pmi2 (and pmix with AVCLUSTER_PMIX_PREFIX) ----------------
# a launcher prefix: PREFIX's mpicc, and an mpiexec that is srun (srun-mpiexec.sh)
srun_prefix() {  # PREFIX DIR
    mkdir -p "$2/bin"
    ln -sf "$1/bin/mpicc" "$2/bin/mpicc"
    ln -sf "$here/srun-mpiexec.sh" "$2/bin/mpiexec"
}
srun_jobs() {  # MPI PREFIX
    sp=$out/srun-$1; srun_prefix "$2" "$sp"
    build_hostmap "$2" "$sp/hostmap"
    job "srun --mpi=$1 hostmap 2x4 block" noerrors -n 2 --slurm -- \
        srun --mpi="$1" -N 2 --ntasks-per-node=4 "$sp/hostmap" 2 4
    job "srun --mpi=$1 hostmap 2x4 cyclic" noerrors -n 2 --slurm -- \
        srun --mpi="$1" -N 2 --ntasks-per-node=4 -m cyclic "$sp/hostmap" 2 1
    AVCLUSTER_SRUN_ARGS="--mpi=$1 -N 2 --ntasks-per-node=4" job "srun --mpi=$1 demo" exit0 \
        -n 2 --slurm -- "$top/demo/run-demo.sh" "$sp" 8
    # Slurm's 2 emulated nodes have 8 CPUs each: an entry of more than 16
    # processes would wait for resources forever (a listed skip instead)
    AVTEST_MAXNP=16 AVCLUSTER_SRUN_ARGS="--mpi=$1 -N 2" jobtmo=600 job "srun --mpi=$1 test/mpi ${AVCLUSTER_SRUN_TESTS:=comm/split_type comm/intercomm group topo}" \
        counts -n 2 --slurm -- "$top/test/mpi/runtests.sh" "$sp" "$out/mpi-srun-$1" $AVCLUSTER_SRUN_TESTS
    # on demand: addresses fetched through Slurm's PMI (pmi2 or PMIx) on first contact
    AVTEST_CONFIGS=rxm AVTEST_MAXNP=16 AVCLUSTER_SRUN_ARGS="--mpi=$1 -N 2" jobtmo=600 \
        job "srun --mpi=$1 test/mpi on demand pt2pt/ondemand pt2pt/ondemand_threads" counts -n 2 --slurm -- \
        "$top/test/mpi/runtests.sh" "$sp" "$out/mpi-srun-$1-ondemand" pt2pt/ondemand pt2pt/ondemand_threads
}
srun_jobs pmi2 "$prefix"
# ours built --with-pmix: made here first (make -C AVCLUSTER_PMIX_MAKEDIR
# mpich-pmix) when that is set; a failed build is one failure, its jobs not run
if [ -n "${AVCLUSTER_PMIX_MAKEDIR:-}" ]; then
    s0=$(date +%s)
    if [ -n "$dry" ]; then echo "SKIP build ours --with-pmix (runs: 1)"; skip=$((skip + 1))
    elif make -C "$AVCLUSTER_PMIX_MAKEDIR" mpich-pmix > "$out/pmix-build.log" 2>&1; then
        echo "PASS build ours --with-pmix ($(( $(date +%s) - s0 ))s)"; pass=$((pass + 1))
    else
        echo "FAIL build ours --with-pmix, log $out/pmix-build.log"; fail=$((fail + 1))
        tail -5 "$out/pmix-build.log" | sed 's/^/    /'; AVCLUSTER_PMIX_PREFIX=""
    fi
fi
[ -n "${AVCLUSTER_PMIX_PREFIX:-}" ] &&
    srun_jobs pmix "$(cd "$AVCLUSTER_PMIX_PREFIX" 2>/dev/null && pwd || echo "$AVCLUSTER_PMIX_PREFIX")"
# not asked for (make check leaves the pmix build out for CI time; make
# check-pmix runs this phase with it): the build and every srun --mpi=pmix run
# are listed as skipped, counted as if they ran
if [ -z "${AVCLUSTER_PMIX_MAKEDIR:-}${AVCLUSTER_PMIX_PREFIX:-}" ]; then
    echo "SKIP build ours --with-pmix (runs: 1): not asked for (make check-pmix runs it)"
    skip=$((skip + 1))
    saved_dry=$dry dry=${dry:-"ours --with-pmix not asked for"}
    srun_jobs pmix "$prefix"
    dry=$saved_dry
fi

# --- fault: kill one rank on node2 mid-job ---------------------------------------
job "fault: rank killed on node2" exit0 -n 2 -s 4 -p block -- "$here/fault.sh" "$mpiexec" "$hostmap"

# --- two jobs of two mpiexecs through a port: their AM sender ids ---------------
job "two jobs: AM sender id collision reported" exit0 -n 2 -s 4 -p block -- "$here/jobkey.sh" "$mpiexec" "$jobkey"

# --- nothing left behind ---------------------------------------------------------
n=$(ls -d "${TMPDIR:-/tmp}"/avcluster.* 2>/dev/null | wc -l)
if [ -n "$dry" ]; then echo "SKIP no cluster state left (runs: 1)"; skip=$((skip + 1))
elif [ "$n" -le "$leftover_before" ]; then echo "PASS no cluster state left"; pass=$((pass + 1))
else echo "FAIL cluster state directories left in ${TMPDIR:-/tmp}"; fail=$((fail + 1)); fi
echo "cluster: total $(( $(date +%s) - t00 ))s, logs in $out"
echo "skipped: $skip (listed above${dry:+; $dry})"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
