#!/bin/sh
# Issue 15: what MPI_Init leaves on the heap per process, ours vs stock
# built per-VCI (make mpich-vci mpich-vci-stock), at MPIR_CVAR_CH4_NUM_VCIS
# in VCIS (default "1 4") and np in NPS (default "8 16 32"), one emulated
# node per process (MPIR_CVAR_NOLOCAL=1: the netmod's addresses only).
# commheap.c's mpi_init row (the max over ranks of mallinfo2 after minus
# before MPI_Init; no shape is run) -> OUTDIR/NvcI/heap.csv; commslope.py
# -> OUTDIR/NvcI/slopes.csv and slopes.png (bytes per peer: the
# least-squares slope over NPS, and the constant).
#   run-vciinit.sh OURS_PREFIX STOCK_PREFIX OUTDIR
set -eu
ours=$1 stock=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${NPS:=8 16 32}" "${VCIS:=1 4}"
mkdir -p "$out"
. "$top/test/mpienv.sh"
# glibc's tcache off: mallinfo2 counts a chunk parked in a tcache bin as in use
export GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MPIR_CVAR_NOLOCAL=1
for lib in ours stock; do
    eval prefix=\$$lib
    "$prefix/bin/mpicc" -std=gnu11 -O2 -Wall -Wno-stringop-overflow -o "$out/commheap-$lib" \
        "$here/commheap.c"
done
for v in $VCIS; do
    d=$out/${v}vci
    mkdir -p "$d"
    echo "library,np,rep,shape,K,median_bytes,mean_bytes,avrm_median,avrm_mean,avrm_heap_mean,median_us,mean_us" \
        > "$d/heap.csv"
    echo "library,np,shape,mode_rank0,map_bytes_max" > "$d/maps.csv"
    for lib in ours stock; do
        eval prefix=\$$lib
        for np in $NPS; do
            MPIR_CVAR_CH4_NUM_VCIS=$v timeout 300 "$prefix/bin/mpiexec" -n "$np" \
                "$out/commheap-$lib" "$lib" "$d/heap.csv" "$d/maps.csv" 1 none
        done
    done
    echo "== $v VCI(s)"
    python3 "$here/commslope.py" "$d"
done
