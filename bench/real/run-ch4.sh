#!/bin/sh
# run-ch4.sh [OUTDIR] - issue 7 item 9 on the real MPICH builds: ours
# (mpich-patched) against stock (mpich-stock) in the same run. Writes to
# OUTDIR (default bench/out/ch4):
#   av.csv     AV bytes per peer: pvar avrm_av_entry_bytes / world size,
#              MPIR_CVAR_AVRM_COMPUTED_AV=0 and 1 (stock: struct size, no pvar)
#   heap.csv   heap bytes per created communicator (commheap.c), -n 8 and 16
#   maps.csv   map mode and bytes of each shape (pvars avrm_comm_map_*)
#   insns.csv  instructions per MPI_Isend / 8-byte MPI_Put over OFI, libmpi
#              vs libfabric (opcost.c under callgrind, cgsplit.py)
#   SUMMARY.md the tables and this command; heap.png (ch4report.py)
# The heap runs preload yieldshim.so (both libraries; YIELDSHIM=0: off): stock
# polls without yielding and is 3x slower without it at -n 16.
# Every command is echoed with a leading "+ ". Environment: MPICH_PATCHED,
# MPICH_STOCK (prefixes), LIBS (default "ours stock"), K (200 creations per
# shape), NPS ("8 16"), CG_NP (6 parents + CG_NP/2 spawned for callgrind),
# NICE (10). A library whose prefix has no libmpi (mid-rebuild) is skipped
# and listed; the exit status is nonzero when a step failed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
out=${1:-$top/bench/out/ch4}
mkdir -p "$out"; out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${LIBS:=ours stock}" "${K:=200}" "${NPS:=8 16}" "${CG_NP:=6}" "${NICE:=10}" "${YIELDSHIM:=1}"
. "$top/test/mpienv.sh"
export MPIR_CVAR_AVRM_REPORT=0
failed="" skipped=""
run() { echo "+ $*"; nice -n "$NICE" "$@"; }
# mpirun TIMEOUT STEP PREFIX ARGS...: one mpiexec; a failure is recorded, not fatal
mpirun() {
    t=$1 step=$2 p=$3; shift 3
    echo "+ $p/bin/mpiexec $*"
    nice -n "$NICE" timeout -k 5 "$t" "$p/bin/mpiexec" "$@" < /dev/null ||
        { echo "run-ch4: FAILED ($?): $step" >&2; failed="$failed $step"; }
}
t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
hdr() { echo "== $* [$(( $(date +%s) - t0 )) s] =="; }
prefix_of() { case $1 in ours) echo "$MPICH_PATCHED" ;; stock) echo "$MPICH_STOCK" ;; esac; }

echo "== run-ch4.sh $out, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $load0 =="
libs=""
for lib in $LIBS; do
    p=$(prefix_of "$lib")
    if [ -x "$p/bin/mpicc" ] && [ -x "$p/bin/mpiexec" ] && ls "$p"/lib/libmpi.so* >/dev/null 2>&1; then
        libs="$libs $lib"
        mkdir -p "$out/bin-$lib"
        for prog in commheap avbytes opcost; do
            run "$p/bin/mpicc" -std=gnu11 -O2 -g -Wall -Wno-stringop-overflow -o "$out/bin-$lib/$prog" "$here/$prog.c" ||
                failed="$failed build-$lib-$prog"
        done
    else
        echo "run-ch4: skipping $lib: no libmpi/mpicc/mpiexec in $p (not built, or mid-rebuild)" >&2
        skipped="$skipped $lib"
    fi
done
[ -n "$libs" ] || { echo "run-ch4: no MPICH build to measure" >&2; exit 1; }
# heap step only: both libraries yield the same way (yieldshim.c), ours' CVAR off
shim=""
if [ "$YIELDSHIM" = 1 ]; then
    run "${CC:-cc}" -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl &&
        shim="-genv LD_PRELOAD $out/yieldshim.so -genv MPIR_CVAR_CH4_POLLS_BEFORE_YIELD 0" ||
        failed="$failed build-yieldshim"
fi

hdr "AV bytes per peer (pvar avrm_av_entry_bytes / world size)"
echo "library,np,computed_av,av_entry_bytes,bytes_per_peer" > "$out/av.csv"
for lib in $libs; do
    p=$(prefix_of "$lib")
    for c in 0 1; do
        mpirun 60 "av-$lib-$c" "$p" -genv MPIR_CVAR_AVRM_COMPUTED_AV $c -n 8 "$out/bin-$lib/avbytes" "$lib" "$out/av.csv"
        [ "$lib" = ours ] || break     # stock has neither the CVAR nor the pvar
    done
done
cat "$out/av.csv"

hdr "heap bytes per created communicator (K=$K creations per shape)"
echo "library,np,shape,median_bytes,mean_bytes" > "$out/heap.csv"
echo "library,np,shape,mode_rank0,map_bytes_max" > "$out/maps.csv"
for np in $NPS; do
    for lib in $libs; do
        mpirun 900 "heap-$lib-$np" "$(prefix_of "$lib")" $shim -n "$np" \
            "$out/bin-$lib/commheap" "$lib" "$out/heap.csv" "$out/maps.csv" "$K"
    done
done

hdr "instructions per MPI_Isend / MPI_Put (callgrind on world rank $((CG_NP - 1)), MPIR_CVAR_NOLOCAL=1)"
echo "library,op,mode,map_mode,comm_size,calls,ir_total,ir_libfabric,ir_libmpi" > "$out/insns.csv"
for lib in $libs; do
    cg=$out/cg-$lib; rm -rf "$cg"; mkdir -p "$cg"; rm -f "$out/modes-$lib.csv"
    mpirun 300 "insns-$lib" "$(prefix_of "$lib")" -genv CG_RANK $((CG_NP - 1)) -genv CG_OUT "$cg" \
        -genv MPIR_CVAR_NOLOCAL 1 -n "$CG_NP" "$here/cgwrap.sh" \
        "$out/bin-$lib/opcost" "$out/modes-$lib.csv" $((CG_NP / 2))
    run python3 "$here/cgsplit.py" "$lib" "$out/bin-$lib/opcost" "$out/modes-$lib.csv" \
        "$out/insns.csv" "$cg"/cg.* || failed="$failed insns-split-$lib"
done

time="$(( $(date +%s) - t0 )) s wall, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "+ python3 $here/ch4report.py $out ..."
python3 "$here/ch4report.py" "$out" "run-ch4.sh $*" "$time" "$skipped" "$failed" || failed="$failed report"
cat "$out/SUMMARY.md"
hdr "done: $time"
[ -z "$skipped" ] || echo "run-ch4: skipped:$skipped" >&2
[ -z "$failed" ] || { echo "run-ch4: failed:$failed" >&2; exit 1; }
