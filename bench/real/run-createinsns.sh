#!/bin/sh
# run-createinsns.sh [OUTDIR] - issue 54: the instructions world rank 0
# executes inside one communicator creation, ours against stock (same
# tarball and options, no patches), at CI_NPS (default 8 16 32 64 128):
# bench/real/splitcost.c with rank 0 under callgrind (cgwrap.sh; collection
# only inside the measured creations, one profile per shape), every process
# on the netmod over tcp;ofi_rxm as bench/run split runs it. Per creation
# (the mean of CI_REPS, 3): the total, and the part outside the blocking
# waits (the total minus the inclusive cost of MPIR_Wait_state and
# MPIR_Waitall_state: how often a wait polls depends on how the 2
# oversubscribed cores were scheduled; what is left does not, or little).
# Libraries: ours (its defaults: parents below 64 gather their splits as
# MPICH does), ours-nogather (MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1), stock.
# Writes OUTDIR/createinsns.csv and OUTDIR/SUMMARY.md (bench/tools/createinsns.py):
# lib,shape,P,ir_total,ir_waits,ir_outside_waits
# Environment: MPICH_PATCHED, MPICH_STOCK, CI_NPS, CI_REPS, CI_SHAPES, NICE (10).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
out=${1:-$top/bench/results/create-insns}
mkdir -p "$out"
out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${CI_NPS:=8 16 32 64 128}" "${CI_REPS:=3}" "${NICE:=10}"
: "${CI_SHAPES:=dup,oddeven,blocks8,reversed,rows,shared,randcolor,icreate,icreate-rand,imerge,create,create-group}"
run() { echo "+ $*" >&2; "$@"; }
failed=""
run "${CC:-cc}" -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl
prefix_of() { case $1 in stock) echo "$MPICH_STOCK" ;; *) echo "$MPICH_PATCHED" ;; esac; }
env_of() { case $1 in ours-nogather) echo "MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1" ;; esac; }
libs=""
for lib in ours ours-nogather stock; do
    p=$(prefix_of $lib)
    [ -x "$p/bin/mpicc" ] || { echo "run-createinsns: no $lib build in $p" >&2; failed="$failed $lib-missing"; continue; }
    run "$p/bin/mpicc" -std=gnu11 -O2 -Wall -o "$out/splitcost-$lib" "$here/splitcost.c" -ldl
    libs="$libs $lib"
done
env_common="FI_PROVIDER=tcp;ofi_rxm MPIR_CVAR_NOLOCAL=1 FI_OFI_RXM_BUFFER_SIZE=4096 FI_OFI_RXM_MSG_RX_SIZE=16 HYDRA_LAUNCHER=fork MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=0"
rm -rf "$out/cg"
echo "lib,shape,P,ir_total,ir_waits,ir_outside_waits" > "$out/createinsns.csv"
for np in $CI_NPS; do
    for lib in $libs; do
        p=$(prefix_of $lib)
        d=$out/cg/$lib-$np
        mkdir -p "$d"
        run nice -n "$NICE" env $env_common $(env_of $lib) CG_RANK=0 CG_OUT="$d" \
            "LD_PRELOAD=$out/yieldshim.so" "$p/bin/mpiexec" -n "$np" "$here/cgwrap.sh" \
            "$out/splitcost-$lib" "$lib" "$CI_SHAPES" "$CI_REPS" > "$d/splitcost.csv" ||
            { failed="$failed $lib-$np"; continue; }
        python3 "$top/bench/tools/createinsns.py" "$lib" "$np" "$CI_REPS" "$d"/cg.*.* >> "$out/createinsns.csv" ||
            failed="$failed $lib-$np-parse"
    done
done
rm -rf "$out/cg"
python3 "$top/bench/tools/createinsns.py" report "$out" "${REPORT_COMMAND:-bench/real/run-createinsns.sh $out}"
[ -z "$failed" ] || { echo "run-createinsns: failed:$failed" >&2; exit 1; }
