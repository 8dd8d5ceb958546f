#!/bin/sh
# Heap per peer after MPI_Init (issue 24's goal, kept): the whole process's
# heap in use right after MPI_Init, on demand over tcp;ofi_rxm, must grow by
# at most HEAP_LIMIT (baseline.txt) per added peer of the job.
#
#   run.sh PREFIX OUTDIR
#
# bench/real/ondemand.c (the benchmark's own measurement: mallinfo2 with
# tcache off, mean over processes) at 4 and 16 processes in emulated nodes
# of 4; growth = (mean heap at 16 - at 4) / 12 (measured -3.0 B here on
# 2026-11-26 with Debian's libfabric 1.17; 128 B before the AV size hint
# became a constant). One PASS/FAIL line each:
#   on-demand   ours on demand: growth <= the limit
#   control     ours eager (MPIR_CVAR_AVRM_ON_DEMAND_AV=0), the same
#               measurement: growth must exceed the limit (libfabric's AV
#               alone is ~300 B per inserted peer), or the check cannot see
#               growth and proves nothing
# Final line "N passed, N failed".
set -u
[ $# -eq 2 ] || { echo "usage: $0 PREFIX OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/test/mpienv.sh"
limit=$(sed -n 's/^limit_bytes_per_peer=//p' "$here/baseline.txt")
. "$here/../checks.sh"
"$prefix/bin/mpicc" -std=gnu11 -O2 -o "$out/ondemand" "$top/bench/real/ondemand.c" > "$out/build.log" 2>&1 ||
    { result FAIL build "see $out/build.log"; results_end; exit 1; }
growth() {  # NAME ON_DEMAND(0|1) -> prints bytes per added peer, or nothing
    csv=$out/$1.csv; : > "$csv"
    for np in 4 16; do
        env GLIBC_TUNABLES=glibc.malloc.tcache_count=0 FI_PROVIDER="tcp;ofi_rxm" \
            MPIR_CVAR_NUM_CLIQUES=$((np / 4)) MPIR_CVAR_CLIQUES_BY_BLOCK=1 \
            MPIR_CVAR_AVRM_ON_DEMAND_AV=$2 MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=1 MPIR_CVAR_AVRM_REPORT=0 \
            timeout 300 "$prefix/bin/mpiexec" -n $np "$out/ondemand" "$1" "tcp;ofi_rxm" "$csv" \
            > "$out/$1-$np.log" 2>&1 || return 0
    done
    awk -F, '$4 == "init" { h[$3] = $6 } END { if (4 in h && 16 in h) printf "%.1f\n", (h[16] - h[4]) / 12 }' "$csv"
}
g=$(growth on-demand 1)
if [ -z "$g" ]; then result FAIL on-demand "no figure (see $out/on-demand-*.log)"
elif awk -v g="$g" -v l="$limit" 'BEGIN { exit !(g <= l) }'; then
    result PASS on-demand "heap grows $g B per added peer after MPI_Init (limit $limit B)"
else result FAIL on-demand "heap grows $g B per added peer after MPI_Init, above the limit $limit B"; fi
c=$(growth eager 0)
if [ -z "$c" ]; then result FAIL control "no figure (see $out/eager-*.log)"
elif awk -v g="$c" -v l="$limit" 'BEGIN { exit !(g > l) }'; then
    result PASS control "eager grows $c B per added peer, above the limit: the check sees growth"
else result FAIL control "eager grows only $c B per added peer: the check cannot tell"; fi
results_end
