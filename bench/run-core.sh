#!/bin/sh
# run-core.sh [quick|full] [BUILDDIR] [OUTDIR] - memory (simulator + MODELs),
# lookup instructions/ns, map build time (alone, and inside the simulator's
# scenarios against a MODEL of MPICH 4.0.2's builder); prints the tables;
# CSV/JSON/PNG and SUMMARY.md (the tables, bench/report core-summary) in
# OUTDIR (default bench/out of the source tree). Steps core and core-quick
# of bench/run.
#   quick: N = 4K, 64K (+ 768K for the split/dup scenarios); lookup at 256K;
#          builds in the simulator at 64K; a few minutes on 2 cores
#   full:  N = 4K, 64K, 768K, 1M (+ 16M for the regular and app scenarios); lookup at 1M;
#          builds in the simulator at 64K and 1M (+ 16M for the regular and app scenarios)
# Every command is echoed with a leading "+ " (the exact command behind each table).
# NICE (default 10) is the niceness of the runs: the CPU is often shared.
set -e
run() { echo "+ $*"; nice -n "${NICE:-10}" "$@"; }
NICE_SHOWN=${NICE:-10}
MODE=${1:-quick}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${2:-$SRC}
OUT=${3:-$SRC/bench/out}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
REPORT=$SRC/bench/report
# a file of an earlier run must not pass for this run's (a part skipped below)
( cd "$OUT" && rm -f SUMMARY.md memory.csv memory.json features.csv insns.csv insns-modes.txt \
    callgrind.lookup.out lookup.csv build.csv simbuild.csv memory_*.png mem_*.dat insns.png insns.dat \
    lookup_ns.png lookup.dat simbuild.png simbuild.dat )
missing=""
t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
for p in bench-memory bench-lookup bench-build bench-simbuild; do
    [ -x "$B/bench/$p" ] || { echo "missing $B/bench/$p: run make first" >&2; exit 1; }
done
case $MODE in
quick) NS=4096,65536; LN=262144; K=2000000; BN=1048576; SBN=65536; SBEXTRA=""
       EXTRA="-n 786432 -s split10,split100,dup10,dup100,isplit100,idup100,nek5000,nwchem,fft3d,kumar" ;;
full)  NS=4096,65536,786432,1048576; LN=1048576; K=8000000; BN=1048576; SBN=65536,1048576
       EXTRA="-n 16777216 -s split10,split100,dup10,dup100,isplit10,isplit100,idup10,idup100,nek5000,nwchem,lsms,workers,fft3d,kumar"
       SBEXTRA="-n 16777216 -s split100,dup100,isplit100,idup100,nek5000,nwchem,lsms,workers,fft3d,kumar" ;;
*) echo "usage: $0 [quick|full] [builddir] [outdir]" >&2; exit 1 ;;
esac
echo "== run-core.sh $MODE, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) =="
echo "== memory (simulated process, P=16 per node) =="
run "$B/bench/bench-memory" -n $NS -o "$OUT/memory.csv"
run "$B/bench/bench-memory" $EXTRA -a -o "$OUT/memory.csv"
run "$REPORT" core-memory "$OUT/memory.csv" "$OUT/memory.json"
echo
echo "== lookup: instructions (callgrind) =="
if command -v valgrind >/dev/null; then
    echo "+ valgrind --tool=callgrind --toggle-collect='loop_*' --callgrind-out-file=$OUT/callgrind.lookup.out $B/bench/bench-lookup --insns -n 262144 -k 200000 > $OUT/insns-modes.txt"
    nice -n "${NICE:-10}" valgrind --tool=callgrind --toggle-collect='loop_*' --callgrind-out-file="$OUT/callgrind.lookup.out" \
        "$B/bench/bench-lookup" --insns -n 262144 -k 200000 > "$OUT/insns-modes.txt" 2>/dev/null
    run "$REPORT" core-insns "$OUT/callgrind.lookup.out" "$OUT/insns-modes.txt" "$OUT/insns.csv"
else
    echo "valgrind not found: skipped"; missing="$missing valgrind"
fi
echo
echo "== lookup: ns per lookup (best of 5; n = map size) =="
run "$B/bench/bench-lookup" -n $LN -k $K -o "$OUT/lookup.csv"
echo
echo "== map build time per rank at N=$BN (target <= 10 ns/rank) =="
run "$B/bench/bench-build" -n $BN -o "$OUT/build.csv"
echo
echo "== map build cost per rank inside the simulator's scenarios: ours vs MODEL of MPICH 4.0.2's builder =="
run "$B/bench/bench-simbuild" -n $SBN -o "$OUT/simbuild.csv"
[ -z "$SBEXTRA" ] || run "$B/bench/bench-simbuild" $SBEXTRA -a -o "$OUT/simbuild.csv"
echo
if command -v gnuplot >/dev/null; then
    run "$REPORT" core-plots "$OUT"
else
    echo "gnuplot not found: no plots"; missing="$missing gnuplot"
fi
echo "== done, load average $(cut -d' ' -f1-3 /proc/loadavg) =="
{
    echo "# libavrm alone: simulated memory, lookup and build cost (\`bench/run-core.sh $MODE\`)"
    echo
    echo "Run $(date -u -d "@$t0" '+%Y-%m-%d %H:%M UTC') ($(( $(date +%s) - t0 )) s wall, $(nproc) CPUs, load average"
    echo "$load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; runs niced $NICE_SHOWN) at"
    echo "\`$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)\`. Bytes and instruction counts do not depend on the"
    echo "load; ns (thread CPU time, best of 5) do, by 10-50% on a shared machine. What each"
    echo "scenario, MODEL and column is: bench/README.md. Files: memory.csv, memory.json, features.csv,"
    echo "insns.csv, lookup.csv, build.csv, simbuild.csv and the PNGs (memory_<scenario>.png,"
    echo "lookup_ns.png, insns.png, simbuild.png)."
    echo
    "$REPORT" core-summary "$OUT"
    echo
    echo "![memory, split100](memory_split100.png) ![lookup ns](lookup_ns.png)"
} > "$OUT/SUMMARY.md"
echo "CSV/JSON/PNG and SUMMARY.md in $OUT"
# a run with a part skipped is not a whole result (bench/run does not stamp it)
[ -z "$missing" ] || { echo "run-core: skipped for want of:$missing" >&2; exit 3; }
