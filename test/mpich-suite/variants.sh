#!/bin/sh
# MPICH's suite directories again under our CVAR variants and emulated node
# placements, each a run of run.sh with the variant's environment:
#   tables    MPIR_CVAR_AVRM_PATTERNS=0     every rank map is a lookup table
#   computed  MPIR_CVAR_AVRM_COMPUTED_AV=1  the world AV stores no entry
#   oddeven   MPIR_CVAR_ODD_EVEN_CLIQUES=1  two nodes, round-robin (cyclic
#             node hierarchies; node-aware collectives cross nodes)
#   block3    MPIR_CVAR_NUM_CLIQUES=3 + _CLIQUES_BY_BLOCK=1: three nodes by
#             block, uneven for most sizes
#   ondemand  FI_PROVIDER=tcp;ofi_rxm with MPIR_CVAR_NOLOCAL=1: every peer
#             over the netmod, its address resolved on first contact
#             (on-demand addressing, the default with ofi_rxm): comm pt2pt
#             rma spawn, every test (a command of its own: 20-30 minutes on
#             2 cores; doc/developer.md)
#   sort      MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1: every MPI_Comm_split that
#             no regular form settles is sorted across the processes (the
#             path of parents of 8192 and more): comm topo, every test (a
#             command of its own)
#   sort-ci   the same, SORT_SUBSET below (make check): MPICH's tests that
#             split (or Cart_sub) with colours and keys of their own; of
#             them cmsplit2 is sorted (10 splits at 6 processes, read by
#             MPI_T at its end), the others settle as regular forms
#   ondemand-ci  the same placement, ONDEMAND_SUBSET below (make check):
#             receives by and from any source, probes, cancels, huge and
#             synchronous messages, RMA through AM and lock/PSCW, spawn,
#             connect/accept and join, a communicator half the world makes
#
#   variants.sh PREFIX MPICH_SRC OUTDIR
#
# Directories (VARIANT_DIRS overrides them for every variant, whole: a
# variant's subsets and omissions are dropped):
#   tables    comm group topo; spawn left out of CI time, its runs listed as
#             skipped (its maps are the same tables as any other's)
#   computed  comm group topo and COMPUTED_SPAWN of spawn (spawned groups
#             are stored AVs beside a computed world; the whole spawn
#             directory is VARIANTS=computed VARIANT_DIRS=spawn: left out of
#             make check for the insns phase's CI time)
#   oddeven, block3  comm group topo and a subset of coll (COLL_SUBSET below:
#             reductions, broadcasts, gathers, all-to-all, scans, each with
#             its smp-algorithm variants of testlist.cvar: 37 runs; the rest
#             of coll listed as skipped; allredmany is left out: its default
#             run takes over 90 s across two emulated nodes on 2 cores, on
#             stock as on ours). rma in these placements is one
#             command: VARIANTS="oddeven block3" VARIANT_DIRS=rma (doc/developer.md).
# VARIANTS selects variants (default, what make check runs: computed oddeven
# ondemand-ci sort-ci; sort, tables, block3, ondemand and rma in the placements by command
# (tables left make check for ondemand-ci's CI time), doc/history.md:
# comm's ctxalloc alone takes 2-3 minutes in a placement on 2 cores).
# AVRM_SUITE_BUILD: a suite
# build of the same prefix to reuse (the mpich phase's OUTDIR/build; run-all
# passes it), else run.sh configures and builds one. Prints each variant's
# output and one closing "N passed, N failed" (and "skipped: N") summed over
# the variants; exits nonzero when any variant failed or a VARIANTS name is
# unknown.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
prefix=$1 src=$2 out=$3
p=0 f=0 s=0
COLL_SUBSET="coll/allred coll/allred2 coll/reduce coll/bcasttest coll/allgather2
             coll/allgatherv2 coll/alltoall1 coll/alltoallv coll/scantst coll/exscan coll/redscat
             coll/red_scat_block coll/gather coll/scattern coll/coll2"
COLL_SUBSET=$(echo $COLL_SUBSET)
ONDEMAND_SUBSET="pt2pt/anyall pt2pt/sendall pt2pt/many_isend pt2pt/probe_unexp pt2pt/mprobe
             pt2pt/icsend pt2pt/icprobe pt2pt/huge_ssend pt2pt/huge_anysrc pt2pt/scancel
             pt2pt/cancelanysrc pt2pt/isendirecv pt2pt/recv_any pt2pt/precv_anysrc
             rma/accfence2_am rma/fetchandadd_am rma/lockcontention2 rma/nullpscw rma/test2_am
             rma/mixedsync spawn/spawn1 spawn/spawnintra spawn/spaconacc spawn/selfconacc
             spawn/join spawn/disconnect_reconnect comm/comm_group_half comm/cmsplit comm/ic1"
ONDEMAND_SUBSET=$(echo $ONDEMAND_SUBSET)
COMPUTED_SPAWN="spawn/spawn1 spawn/spawn2 spawn/spawnintra spawn/spaconacc spawn/selfconacc
             spawn/spaiccreate spawn/join spawn/disconnect_reconnect spawn/concurrent_spawns
             spawn/pgroup_intercomm_test"
COMPUTED_SPAWN=$(echo $COMPUTED_SPAWN)
SORT_SUBSET="comm/cmsplit comm/cmsplit2 comm/cmsplit_type comm/commcreate1
             comm/comm_group_rand comm/comm_idup_comm topo/cartsuball topo/cartmap1
             topo/cartcreates coll/allgatherv4 coll/coll4 coll/coll6"
SORT_SUBSET=$(echo $SORT_SUBSET)
known="tables computed oddeven block3 ondemand ondemand-ci sort sort-ci"
for name in ${VARIANTS:-computed oddeven ondemand-ci sort-ci}; do
    only="" omit=""
    case $name in
        tables)   cvar=MPIR_CVAR_AVRM_PATTERNS=0 vdirs="comm group topo" omit=spawn ;;
        computed) cvar=MPIR_CVAR_AVRM_COMPUTED_AV=1 vdirs="comm group topo spawn" only=$COMPUTED_SPAWN ;;
        oddeven)  cvar=MPIR_CVAR_ODD_EVEN_CLIQUES=1 vdirs="comm group topo coll" only=$COLL_SUBSET ;;
        block3)   cvar="MPIR_CVAR_NUM_CLIQUES=3 MPIR_CVAR_CLIQUES_BY_BLOCK=1"
                  vdirs="comm group topo coll" only=$COLL_SUBSET ;;
        ondemand) cvar="FI_PROVIDER=tcp;ofi_rxm MPIR_CVAR_NOLOCAL=1" vdirs="comm pt2pt rma spawn" ;;
        ondemand-ci) cvar="FI_PROVIDER=tcp;ofi_rxm MPIR_CVAR_NOLOCAL=1" vdirs="comm pt2pt rma spawn"
                  only=$ONDEMAND_SUBSET ;;
        sort)     cvar=MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1 vdirs="comm topo" ;;
        sort-ci)  cvar=MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1 vdirs="comm topo coll"
                  only=$SORT_SUBSET ;;
        *) echo "[$name] FAIL: no such variant (known: $known)"; f=$((f + 1)); continue ;;
    esac
    [ -n "${VARIANT_DIRS:-}" ] && vdirs=$VARIANT_DIRS omit="" only=""
    vout=$out/$name
    mkdir -p "$vout"
    # a placement's own expected failures (xfail-NAME.txt: runs that fail
    # the same way on stock 4.0.2 in that placement) join xfail.txt
    cat "$here/xfail.txt" $( [ -f "$here/xfail-$name.txt" ] && echo "$here/xfail-$name.txt") \
        > "$vout/xfail.txt"
    if [ -n "${AVRM_SUITE_BUILD:-}" ] && [ -d "$AVRM_SUITE_BUILD" ] && [ ! -e "$vout/build" ]; then
        ln -s "$AVRM_SUITE_BUILD" "$vout/build"
    fi
    echo "=== variant $name ($cvar)"
    env $cvar SUITE_DIRS="$vdirs" SUITE_OMIT_DIRS="$omit" SUITE_ONLY="$only" \
        SUITE_XFAIL_LIST="$vout/xfail.txt" \
        SUITE_OMIT_REASON="tables variant: spawn left out of CI (VARIANT_DIRS=spawn runs it)" \
        "$here/run.sh" "$prefix" "$src" "$vout" > "$vout/run.log" 2>&1
    rc=$?
    sed "s/^/[$name] /" "$vout/run.log" | grep -v '^\[[a-z0-9]*\] [0-9]* passed, [0-9]* failed$'
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$vout/run.log" | tail -1)
    if [ -z "$line" ]; then
        echo "[$name] no closing line (exit $rc)"; f=$((f + 1)); continue
    fi
    vp=${line%% passed*} vf=$(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')
    vs=$(sed -n 's/^skipped: \([0-9]*\).*/\1/p' "$vout/run.log" | tail -1)
    [ "$rc" -ne 0 ] && [ "$vf" -eq 0 ] && vf=1 && echo "[$name] exit $rc with 0 failed"
    p=$((p + vp)) f=$((f + vf)) s=$((s + ${vs:-0}))
done
echo "skipped: $s (listed above)"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
