#!/bin/sh
# Issue 15: what MPI_Init leaves on the heap per process, ours vs stock
# built per-VCI (make mpich-vci mpich-vci-stock), for each NICSxVCIS in
# CONFIGS (default "1x1 1x4 2x8 1x16": endpoints per process 1, 4, 16, 16)
# and np in NPS (default "8 16 32"), one emulated node per process
# (MPIR_CVAR_NOLOCAL=1: the netmod's addresses only). VCIs:
# MPIR_CVAR_CH4_NUM_VCIS. Two NICs: the runs are made in a network namespace
# with two veth NICs, libfabric's sockets provider and test/mpi/nicshim.so
# (test/mpi/runtests.sh's twonics placement), MPIR_CVAR_CH4_OFI_MAX_NICS=2.
# commheap.c's mpi_init row (the max over ranks of mallinfo2 after minus
# before MPI_Init; no shape is run) -> OUTDIR/NxV/heap.csv; commslope.py ->
# OUTDIR/NxV/slopes.csv (bytes per peer: the least-squares slope over NPS,
# and the constant); OUTDIR/SUMMARY.md, the table of every configuration.
#   run-vciinit.sh OURS_PREFIX STOCK_PREFIX OUTDIR
set -eu
ours=$1 stock=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${NPS:=8 16 32}" "${CONFIGS:=1x1 1x4 2x8 1x16}"
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
    nics=${c%x*} vcis=${c#*x} d=$out/$c
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
            env MPIR_CVAR_CH4_NUM_VCIS="$vcis" NICSHIM_SO="$out/nicshim.so" timeout 300 $ns \
                "$prefix/bin/mpiexec" -n "$np" \
                "$out/commheap-$lib" "$lib" "$d/heap.csv" "$d/maps.csv" 1 none
        done
    done
    echo "== $nics NIC(s) x $vcis VCI(s)"
    python3 "$here/commslope.py" "$d"
    rm -f "$d/slopes.png"   # commslope.py's plot is titled for communicators
done
{
    echo "# MPI_Init's heap per process, ours vs stock built per-VCI (\`make bench-vci-init\`)"
    echo
    echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') ($(( $(date +%s) - t0 )) s, load average $load0 at the start) at"
    echo "$(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD -- patches src bench/real || echo ' + uncommitted changes') by"
    echo "\`bench/real/run-vciinit.sh $ours $stock $out\`: ours (patched, per-VCI), stock 4.0.2"
    echo "from the same tarball and options. \`MPIR_CVAR_NOLOCAL=1\`, np = $NPS, glibc's tcache off;"
    echo "\`commheap.c\`'s mpi_init row (the max over ranks of mallinfo2 after minus before"
    echo "MPI_Init), least-squares slope by \`commslope.py\`. Two NICs: a network namespace with"
    echo "two veth NICs, the sockets provider and \`test/mpi/nicshim.so\` (MPICH counts only PCI NICs)."
    echo
    echo "| NICs x VCIs | endpoints per process | ours B/peer | stock B/peer | ours constant | stock constant |"
    echo "|---|---:|---:|---:|---:|---:|"
    for c in $CONFIGS; do
        awk -F, -v c="$c" -v e="$(( ${c%x*} * ${c#*x} ))" '
            $1 == "ours" { os = $3; oc = $4 } $1 == "stock" { ss = $3; sc = $4 }
            END { printf "| %s | %d | %.0f | %.0f | %.1f MB | %.1f MB |\n", c, e, os, ss, oc / 1e6, sc / 1e6 }' \
            "$out/$c/slopes.csv"
    done
    echo
    echo "Stock's per-VCI \`MPIDI_av_entry_t\` is \`fi_addr_t dest[8][64]\` + int per peer (4104 B);"
    echo "ours keeps one 8-byte word and computes the other endpoints' fi_addrs (patch 0009)."
    echo "What grows with the endpoints in both is libfabric's: each of E contexts' FI_AV_TABLEs"
    echo "holds all E endpoints of every peer (E^2 inserts per peer, the same in both libraries)."
    echo "Three process counts on a 2-core machine: slopes move by ~30 B between runs."
    echo "Files: \`NxV/heap.csv\`, \`NxV/slopes.csv\`."
} > "$out/SUMMARY.md"
cat "$out/SUMMARY.md"
