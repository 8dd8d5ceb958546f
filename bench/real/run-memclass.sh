#!/bin/sh
# Step memclass of bench/run (make bench-memclass): MPICH's memory by allocation class (MPL_MEM_*) around
# MPI_Init, against P: the debug build's memory tracing (make mpich-debug:
# --enable-g=dbg,mem) prints, at MPI_Finalize with MPIR_CVAR_DEBUG_SUMMARY=1,
# every class's largest allocated total over the run (init's temporaries
# included) and what is still allocated. Every allocation of MPICH and of
# libavrm goes through MPL and is counted; libfabric's and hwloc's are not
# (step ondemand's fiav.csv measures libfabric's AV).
#   run-memclass.sh PREFIX [OUTDIR]     (OUTDIR default bench/out/memclass)
# PREFIX: a build with memory tracing. Runs bench/real/initonly.c at
# MEMCLASS_NPS (default 8 16 32 64) ranks, nodes of 8 (MPIR_CVAR_NUM_CLIQUES
# by block). Writes memclass.csv (class, np, max over ranks of the largest
# total, of the bytes left) and slopes.csv (least squares of the largest
# total against np: bytes per process of the world, and the constant) and
# SUMMARY.md (bench/report memclass).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(cd "$1" && pwd)
out=${2:-$top/bench/out/memclass}
mkdir -p "$out"; out=$(cd "$out" && pwd)
. "$top/test/mpienv.sh"
t0=$(date +%s)
"$prefix/bin/mpicc" -O2 -o "$out/initonly" "$top/bench/real/initonly.c"
echo "class,np,max_allocated,left_at_finalize" > "$out/memclass.csv"
for np in ${MEMCLASS_NPS:-8 16 32 64}; do
    nodes=$(( (np + 7) / 8 ))
    echo "+ MPIR_CVAR_DEBUG_SUMMARY=1 MPIR_CVAR_NUM_CLIQUES=$nodes MPIR_CVAR_CLIQUES_BY_BLOCK=1 mpiexec -n $np initonly"
    env MPIR_CVAR_DEBUG_SUMMARY=1 MPIR_CVAR_MEMDUMP=0 MPIR_CVAR_NUM_CLIQUES=$nodes \
        MPIR_CVAR_CLIQUES_BY_BLOCK=1 MPIR_CVAR_AVRM_REPORT=0 \
        timeout 600 "$prefix/bin/mpiexec" -n "$np" "$out/initonly" > "$out/np$np.txt" 2>&1
    # a table per rank: CLASS MAX CURR TOT NUM (lines of ranks may interleave)
    awk -v np="$np" '$1 ~ /^MPL_MEM_/ && NF == 5 {
            if ($2 > mx[$1]) mx[$1] = $2; if ($3 > cur[$1]) cur[$1] = $3; seen[$1] = 1 }
        END { for (c in seen) printf "%s,%d,%d,%d\n", c, np, mx[c], cur[c] }' "$out/np$np.txt" |
        sort >> "$out/memclass.csv"
done
"$top/bench/report" memclass "$out" "$(( $(date +%s) - t0 ))"
cat "$out/SUMMARY.md"
