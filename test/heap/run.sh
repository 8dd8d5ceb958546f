#!/bin/sh
# Heap per peer after MPI_Init (issue 24's goal, kept): the process's heap
# in use right after MPI_Init, on demand over tcp;ofi_rxm, must grow by at
# most HEAP_LIMIT (baseline.txt) per added peer of the job, for the mean
# process and for the largest one, and its resident set by at most
# RSS_LIMIT per added peer (the largest process).
#
#   run.sh PREFIX OUTDIR
#
# bench/real/ondemand.c (the benchmark's own measurement: mallinfo2 with
# tcache off, and /proc/self/statm; mean and max over processes) at P = 4,
# 8 and 16 in emulated nodes of 4; growth = the least-squares slope over
# those P. One PASS/FAIL line each:
#   on-demand       ours on demand: heap slope of the mean and of the max
#                   process <= HEAP_LIMIT
#   on-demand-rss   ours on demand: RSS slope of the max process <= RSS_LIMIT
#   control         the same run with a known growth: every process
#                   allocates and writes 4 x RSS_LIMIT bytes per peer after
#                   MPI_Init (ondemand.c's ONDEMAND_BALLAST); the mean heap
#                   slope must exceed HEAP_LIMIT and the max RSS slope
#                   RSS_LIMIT, or the check cannot see growth and proves
#                   nothing. Not ours eager: right after MPI_Init it has only
#                   libfabric's AV per peer (~300 B), beneath ofi_rxm's
#                   buffer pools that step by megabytes at whichever P (CI
#                   measured its RSS slope at -223 KB per peer)
#   creation-*     the peak heap inside a communicator creation (below)
# Final line "N passed, N failed".
set -u
[ $# -eq 2 ] || { echo "usage: $0 PREFIX OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/test/mpienv.sh"
limit=$(sed -n 's/^limit_bytes_per_peer=//p' "$here/baseline.txt")
rss_limit=$(sed -n 's/^rss_limit_bytes_per_peer=//p' "$here/baseline.txt")
. "$here/../checks.sh"
"$prefix/bin/mpicc" -std=gnu11 -O2 -o "$out/ondemand" "$top/bench/real/ondemand.c" > "$out/build.log" 2>&1 ||
    { result FAIL build "see $out/build.log"; results_end; exit 1; }
NPS="4 8 16"
# growth NAME BALLAST: runs the job on demand at every P of NPS, every
# process with BALLAST bytes per peer of its own (0: none), then prints
# "heap_mean_slope heap_max_slope rss_max_slope" (bytes per added peer), or
# nothing when a run failed
growth() {
    csv=$out/$1.csv; : > "$csv"
    for np in $NPS; do
        env GLIBC_TUNABLES=glibc.malloc.tcache_count=0 FI_PROVIDER="tcp;ofi_rxm" \
            MPIR_CVAR_NUM_CLIQUES=$((np / 4)) MPIR_CVAR_CLIQUES_BY_BLOCK=1 \
            MPIR_CVAR_AVRM_ON_DEMAND_AV=1 ONDEMAND_BALLAST=$2 \
            MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=1 MPIR_CVAR_AVRM_REPORT=0 \
            timeout 300 "$prefix/bin/mpiexec" -n $np "$out/ondemand" "$1" "tcp;ofi_rxm" "$csv" \
            > "$out/$1-$np.log" 2>&1 || return 0
    done
    # columns: library,provider,np,point,heap_max,heap_mean,rss_max,rss_mean,...
    awk -F, -v want="$(echo $NPS | wc -w)" '$4 == "init" {
            n++; x = $3; sx += x; sxx += x * x
            for (c = 5; c <= 7; c++) { y[c] += $c; xy[c] += x * $c } }
        function slope(c) { return (n * xy[c] - sx * y[c]) / (n * sxx - sx * sx) }
        END { if (n == want) printf "%.1f %.1f %.1f\n", slope(6), slope(5), slope(7) }' "$csv"
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
set -- $(growth on-demand 0)
if [ $# -ne 3 ]; then result FAIL on-demand "no figure (see $out/on-demand-*.log)"
else
    if le "$1" "$limit" && le "$2" "$limit"; then
        result PASS on-demand "heap grows $1 B (mean process), $2 B (largest) per added peer after MPI_Init, P = $NPS (limit $limit B)"
    else result FAIL on-demand "heap grows $1 B (mean process), $2 B (largest) per added peer after MPI_Init, P = $NPS: above the limit $limit B"; fi
    if le "$3" "$rss_limit"; then
        result PASS on-demand-rss "resident set of the largest process grows $3 B per added peer (limit $rss_limit B)"
    else result FAIL on-demand-rss "resident set of the largest process grows $3 B per added peer, above the limit $rss_limit B"; fi
fi
ballast=$((4 * rss_limit))
set -- $(growth ballast $ballast)
if [ $# -ne 3 ]; then result FAIL control "no figure (see $out/ballast-*.log)"
elif ! le "$1" "$limit" && ! le "$3" "$rss_limit"; then
    result PASS control "$ballast B of ballast per peer grows $1 B of heap, $3 B of resident set per added peer, above the limits: the check sees growth"
else result FAIL control "$ballast B of ballast per peer grows only $1 B of heap, $3 B of resident set per added peer: the check cannot tell"; fi

# Transient heap inside a communicator creation (issue 54): the peak above
# the live heap at the call's start, new communicator included
# (bench/real/splitcost.c under sockcount.so, max over processes), at
# P = 4, 8, 16 with every process its own node (MPIR_CVAR_NOLOCAL=1, the
# most nodes), must grow at most CREATION_LIMIT per added process for
# MPI_Comm_dup, MPI_Intercomm_create between the halves, an odd/even
# MPI_Comm_split settled without a gather (MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1),
# MPI_Comm_create of the odd ranks and MPI_Comm_create_group of each half.
# Control: random colours gathered (MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=0: 8 B per
# process of the parent into every process, as MPICH does) must grow more.
creation_limit=$(sed -n 's/^creation_limit_bytes_per_process=//p' "$here/baseline.txt")
cc -shared -fPIC -O2 -o "$out/sockcount.so" "$top/bench/real/sockcount.c" -ldl > "$out/sockcount.log" 2>&1 &&
"$prefix/bin/mpicc" -std=gnu11 -O2 -o "$out/splitcost" "$top/bench/real/splitcost.c" -ldl > "$out/splitcost.log" 2>&1 ||
    { result FAIL creation "build failed: see $out/sockcount.log, $out/splitcost.log"; results_end; exit 1; }
# creation NAME SPLIT_MIN_SIZE SHAPES: "shape slope" lines (bytes of peak
# heap per added process), nothing when a run failed
creation() {
    csv=$out/creation-$1.csv; : > "$csv"
    for np in $NPS; do
        env FI_PROVIDER="tcp;ofi_rxm" MPIR_CVAR_NOLOCAL=1 MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=$2 \
            MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=1 LD_PRELOAD="$out/sockcount.so" \
            timeout 300 "$prefix/bin/mpiexec" -n $np "$out/splitcost" ours "$3" 3 \
            >> "$csv" 2> "$out/creation-$1-$np.log" || return 0
    done
    # columns: lib,shape,P,recv_bytes_mean,recv_bytes_max,sends_mean,sends_max,heap_peak_max,...
    awk -F, '{ n[$2]++; sx[$2] += $3; sxx[$2] += $3 * $3; sy[$2] += $8; sxy[$2] += $3 * $8 }
        END { for (s in n) if (n[s] == 3)
                printf "%s %.1f\n", s, (n[s] * sxy[s] - sx[s] * sy[s]) / (n[s] * sxx[s] - sx[s] * sx[s]) }' "$csv"
}
got=$(creation regular 1 dup,icreate,oddeven,create,create-group)
for shape in dup icreate oddeven create create-group; do
    slope=$(echo "$got" | awk -v s=$shape '$1 == s { print $2 }')
    if [ -z "$slope" ]; then result FAIL "creation-$shape" "no figure (see $out/creation-regular-*.log)"
    elif le "$slope" "$creation_limit"; then
        result PASS "creation-$shape" "peak heap inside the call grows $slope B per added process, P = $NPS, a node each (limit $creation_limit B)"
    else result FAIL "creation-$shape" "peak heap inside the call grows $slope B per added process, P = $NPS: above the limit $creation_limit B"; fi
done
slope=$(creation gathered 0 randcolor | awk '$1 == "randcolor" { print $2 }')
if [ -z "$slope" ]; then result FAIL creation-control "no figure (see $out/creation-gathered-*.log)"
elif ! le "$slope" "$creation_limit"; then
    result PASS creation-control "a gathered split grows $slope B per added process, above the limit: the check sees growth"
else result FAIL creation-control "a gathered split grows only $slope B per added process: the check cannot tell"; fi
results_end
