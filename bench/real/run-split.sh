#!/bin/sh
# run-split.sh [OUTDIR] - issue 54: what one MPI_Comm_split (and its kin)
# costs each process, ours against stock MPICH 4.0.2 (same tarball and
# options, no patches) in one run: bytes received and send calls on its
# sockets, peak transient heap and time (bench/real/splitcost.c under
# sockcount.so), every process on the netmod (MPIR_CVAR_NOLOCAL=1) over
# tcp;ofi_rxm with small receive buffers (so that 128 processes fit), ours
# at its default (MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=64: smaller parents gather
# as stock does), ours-nogather (=1: every parent tries first) and
# ours-sort (MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1: what no form settles is
# sorted, not gathered), at
# SPLIT_NPS (default "8 16 32 64 128"), shapes SPLIT_SHAPES, SPLIT_REPS (5)
# measured creations per shape after one warm-up. Runs alternate the
# libraries (ours first at odd P positions, stock first at even ones).
# Open MPI is left out: its allgather-based split is not what changes here,
# and its busy-polling runs take minutes each at P = 64 on 2 CPUs.
# Writes OUTDIR/split.csv, OUTDIR/slopes.csv, OUTDIR/split.png and
# OUTDIR/SUMMARY.md (bench/tools/splitreport.py).
# Environment: MPICH_PATCHED, MPICH_STOCK, SPLIT_LIBS, SPLIT_NPS, SPLIT_SHAPES, SPLIT_REPS,
# NICE (10).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
out=${1:-$top/bench/results/split}
mkdir -p "$out"
out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${SPLIT_NPS:=8 16 32 64 128}" "${SPLIT_REPS:=5}" "${NICE:=10}"
: "${SPLIT_SHAPES:=dup,oddeven,blocks8,reversed,rows,cols,cartsub,shared,randcolor,randkey}"
run() { echo "+ $*" >&2; "$@"; }
failed=""
run "${CC:-cc}" -shared -fPIC -O2 -Wall -o "$out/sockcount.so" "$here/sockcount.c" -ldl
run "${CC:-cc}" -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl
libs=""
prefix_of() { case $1 in stock) echo "$MPICH_STOCK" ;; *) echo "$MPICH_PATCHED" ;; esac; }
env_of() {
    case $1 in
        ours-nogather) echo "MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1" ;;
        ours-sort) echo "MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1" ;;
    esac
}
for lib in ${SPLIT_LIBS:-ours ours-nogather ours-sort stock}; do
    p=$(prefix_of $lib)
    [ -x "$p/bin/mpicc" ] && [ -x "$p/bin/mpiexec" ] ||
        { echo "run-split: no $lib build in $p" >&2; failed="$failed $lib-missing"; continue; }
    run "$p/bin/mpicc" -std=gnu11 -O2 -Wall -o "$out/splitcost-$lib" "$here/splitcost.c" -ldl
    libs="$libs $lib"
done
env_common="FI_PROVIDER=tcp;ofi_rxm MPIR_CVAR_NOLOCAL=1 FI_OFI_RXM_BUFFER_SIZE=4096 FI_OFI_RXM_MSG_RX_SIZE=16 HYDRA_LAUNCHER=fork MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=0"
echo "lib,shape,P,recv_bytes_mean,recv_bytes_max,sends_mean,sends_max,heap_peak_max,time_us_median,time_us_min,time_us_max" > "$out/split.csv"
i=0
for np in $SPLIT_NPS; do
    i=$((i + 1))
    order=$libs
    [ $((i % 2)) = 0 ] && order=$(echo $libs | tr ' ' '\n' | tac | tr '\n' ' ')
    for lib in $order; do
        p=$(prefix_of $lib)
        # both builds yield through the shim (ours' CVAR off: the same waits)
        run nice -n "$NICE" env $env_common $(env_of $lib) "LD_PRELOAD=$out/yieldshim.so $out/sockcount.so" \
            "$p/bin/mpiexec" -n "$np" "$out/splitcost-$lib" "$lib" "$SPLIT_SHAPES" "$SPLIT_REPS" \
            >> "$out/split.csv" || failed="$failed $lib-$np"
    done
done
python3 "$top/bench/tools/splitreport.py" "$out" "${REPORT_COMMAND:-bench/real/run-split.sh $out}"
[ -z "$failed" ] || { echo "run-split: failed:$failed" >&2; exit 1; }
