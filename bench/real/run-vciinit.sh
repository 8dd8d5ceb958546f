#!/bin/sh
# Issue 15: what MPI_Init leaves on the heap per process, ours vs stock
# built per-VCI (make mpich-vci mpich-vci-stock), at MPIR_CVAR_CH4_NUM_VCIS
# in VCIS (default "1 4") and np in NPS (default "8 16 32"), one emulated
# node per process (MPIR_CVAR_NOLOCAL=1: the netmod's addresses only);
# writes OUTDIR/initheap.csv and OUTDIR/slopes.csv (bytes per peer: the
# least-squares slope over NPS, and the constant).
#   run-vciinit.sh OURS_PREFIX STOCK_PREFIX OUTDIR
set -eu
ours=$1 stock=$2 out=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${NPS:=8 16 32}" "${VCIS:=1 4}"
mkdir -p "$out"
. "$top/test/mpienv.sh"
# glibc's tcache off: mallinfo2 counts a chunk parked in a tcache bin as in use
export GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MPIR_CVAR_NOLOCAL=1
csv=$out/initheap.csv
echo "library,vcis,np,init_heap_bytes" > "$csv"
for lib in ours stock; do
    eval prefix=\$$lib
    "$prefix/bin/mpicc" -O2 -o "$out/initheap-$lib" "$top/bench/real/initheap.c"
    for v in $VCIS; do
        for np in $NPS; do
            MPIR_CVAR_CH4_NUM_VCIS=$v timeout 300 "$prefix/bin/mpiexec" -n "$np" \
                "$out/initheap-$lib" "$lib" "$csv"
        done
    done
done
python3 - "$csv" "$out/slopes.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
g = {}
for r in rows:
    g.setdefault((r["library"], r["vcis"]), []).append((int(r["np"]), int(r["init_heap_bytes"])))
with open(sys.argv[2], "w") as f:
    f.write("library,vcis,bytes_per_peer,constant\n")
    for k, pts in sorted(g.items()):
        n = len(pts); mx = sum(p for p, _ in pts) / n; my = sum(b for _, b in pts) / n
        sxx = sum((p - mx) ** 2 for p, _ in pts)
        slope = sum((p - mx) * (b - my) for p, b in pts) / sxx if sxx else float("nan")
        f.write("%s,%s,%.1f,%.0f\n" % (k[0], k[1], slope, my - slope * mx))
PY
cat "$out/slopes.csv"
