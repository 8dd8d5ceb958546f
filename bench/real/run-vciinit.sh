#!/bin/sh
# Issue 15: what MPI_Init leaves on the heap per process, ours vs stock
# built per-VCI (make mpich-vci mpich-vci-stock), for each NICSxVCIS[-rxm]
# in CONFIGS (default "1x1 1x4 2x8 1x16 1x4-rxm 2x4-rxm": endpoints per
# process 1, 4, 16, 16, 4, 8) and np in NPS (default "8 16 32"), one
# emulated node per process (MPIR_CVAR_NOLOCAL=1: the netmod's addresses
# only). VCIs: MPIR_CVAR_CH4_NUM_VCIS. Provider: sockets (test/mpienv.sh),
# where ours stays eager; "-rxm": tcp;ofi_rxm, where ours addresses on
# demand over every VNI and NIC. 1x16-rxm is left out of the
# default: ofi_rxm's buffers per endpoint put each process near 0.8 GB of
# RSS at 16 VCIs, and -n 32 does not fit a 23 GB machine (the OOM killer
# ended it on 2026-11-27); CONFIGS=1x16-rxm NPS="8 16" runs it. Two NICs: the runs are made in a network namespace
# with two veth NICs, libfabric's sockets provider and test/mpi/nicshim.so
# (test/mpi/runtests.sh's twonics placement), MPIR_CVAR_CH4_OFI_MAX_NICS=2.
# commheap.c's mpi_init row (the max over ranks of mallinfo2 after minus
# before MPI_Init; no shape is run) -> OUTDIR/NxV/heap.csv; bench/report comm-slopes ->
# OUTDIR/NxV/slopes.csv (bytes per peer: the least-squares slope over NPS,
# and the constant); OUTDIR/SUMMARY.md, the table of every configuration
# (bench/report vci-init). Step vci-init of bench/run.
#   run-vciinit.sh OURS_PREFIX STOCK_PREFIX OUTDIR
set -eu
ours=$1 stock=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${NPS:=8 16 32}" "${CONFIGS:=1x1 1x4 2x8 1x16 1x4-rxm 2x4-rxm}"
mkdir -p "$out"; out=$(cd "$out" && pwd)
. "$top/test/mpienv.sh"
# glibc's tcache off: mallinfo2 counts a chunk parked in a tcache bin as in use
export GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MPIR_CVAR_NOLOCAL=1
t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
for lib in ours stock; do
    eval prefix=\$$lib
    "$prefix/bin/mpicc" -std=gnu11 -O2 -Wall -Wno-stringop-overflow -o "$out/commheap-$lib" \
        "$here/commheap.c"
done
"$top/test/mpi/twonics-ns.sh" --shim "$out/nicshim.so"
for c in $CONFIGS; do
    shape=${c%-*} prov=$FI_PROVIDER
    case $c in *-rxm) prov="tcp;ofi_rxm" ;; *-*) echo "run-vciinit: $c: -rxm or nothing" >&2; exit 2 ;; esac
    nics=${shape%x*} vcis=${shape#*x} d=$out/$c
    mkdir -p "$d"
    echo "library,np,rep,shape,K,median_bytes,mean_bytes,avrm_median,avrm_mean,avrm_heap_mean,median_us,mean_us" \
        > "$d/heap.csv"
    echo "library,np,shape,mode_rank0,map_bytes_max" > "$d/maps.csv"
    ns=""      # two NICs: twonics-ns.sh's namespace and environment
    case $nics in 1) ;; 2) ns="unshare -n $top/test/mpi/twonics-ns.sh" ;;
        *) echo "run-vciinit: $c: 1 or 2 NICs (twonics-ns.sh makes two)" >&2; exit 2 ;; esac
    for lib in ours stock; do
        eval prefix=\$$lib
        for np in $NPS; do
            # shellcheck disable=SC2086
            env FI_PROVIDER="$prov" TWONICS_PROVIDER="$prov" MPIR_CVAR_CH4_NUM_VCIS="$vcis" NICSHIM_SO="$out/nicshim.so" timeout 300 $ns \
                "$prefix/bin/mpiexec" -n "$np" \
                "$out/commheap-$lib" "$lib" "$d/heap.csv" "$d/maps.csv" 1 none
        done
    done
    echo "== $nics NIC(s) x $vcis VCI(s), $prov"
    "$top/bench/report" comm-slopes "$d"
    rm -f "$d/slopes.png"   # comm-slopes titles its plot for communicators
done
"$top/bench/report" vci-init "$out" "$(( $(date +%s) - t0 ))" "$NPS" "$CONFIGS" "$load0"
cat "$out/SUMMARY.md"
