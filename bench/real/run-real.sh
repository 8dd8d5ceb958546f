#!/bin/sh
# run-real.sh [OUTDIR] - issue 8 on the real libraries: ours (mpich-patched),
# stock MPICH 4.0.2 (mpich-stock, same tarball and options, no patches) and
# Debian's Open MPI 4.1.4 (mpicc.openmpi), measured in the same run. Writes to
# OUTDIR (default bench/out/real) the CSVs of the steps below, SUMMARY.md and
# the PNGs (bench/report real). Steps (STEPS, in this order):
#   probe    libfabric providers (fiprov.c), the fastest one CH4 runs on: shm,
#            else sockets, else tcp (an MPI run on each MPICH build confirms)
#            -> provider.txt; every OFI run below uses it
#   av       AV bytes per peer, pvar avrm_av_entry_bytes (avbytes.c) -> av.csv
#   heap     heap bytes per created communicator, 11 shapes, HEAP_NPS, all
#            libraries, K creations each (commheap.c) -> heap.csv, maps.csv
#   ctime    creation time, CT_REPS interleaved repetitions per library at
#            CT_NPS (commheap.c, CT_K creations of 5 shapes) -> ctime.csv
#   insns    instructions per 8-byte MPI_Isend / MPI_Put over OFI, libmpi vs
#            libfabric (opcost.c under callgrind, cgsplit.py) -> insns.csv
#   rate     issue rate of the same calls, RATE_REPS interleaved runs
#            (opcost.c) -> rate.csv
#   gen      Put rate on 0..GENS generations of odd/even splits, -n
#            2^(GENS+1), all libraries (opcost.c) -> gen.csv
#   netpipe  Debian's NPmpich2 on ours and stock, shm path and OFI path
#            (MPIR_CVAR_NOLOCAL=1), NP_REPS interleaved -> netpipe.csv
#   msgrate  OSU-style message rate and 8-byte latency, one pair
#            (msgrate.c), same paths, MR_REPS interleaved -> msgrate.csv
#   mtrate   multi-threaded message rate, one pair over OFI, MT_THREADS
#            threads per process, each on its own communicator, with
#            MPIR_CVAR_CH4_NUM_VCIS = the thread count (msgrate.c's threads
#            mode), MR_REPS interleaved -> mtrate.csv. Needs builds
#            configured --enable-thread-cs=per-vci (make bench-vci): the
#            default builds stop at NUM_VCIS > 1. Not in the default STEPS.
# "Interleaved": repetition i runs ours then stock for odd i, stock then ours
# for even i, so drift in the machine's load falls on both alike.
# Heap and ctime runs set GLIBC_TUNABLES=glibc.malloc.tcache_count=0 (exact
# mallinfo2 in-use bytes). Oversubscribed runs (heap, ctime, rate, gen)
# preload yieldshim.so in both MPICH builds (our yield CVAR off), the
# rate/gen measurer excepted (YIELDSHIM_SKIP_RANK); Open MPI runs with
# --oversubscribe (it yields when idle by itself). NetPIPE and msgrate (2
# processes) spin in both builds. Every command is echoed with a leading "+ ". A library
# that is not there (prefix without libmpi, no mpicc.openmpi) is skipped and
# named in SUMMARY.md; a failed step makes the exit status nonzero.
# Environment: MPICH_PATCHED, MPICH_STOCK, LIBS ("ours stock ompi"), STEPS,
# NICE (10), HEAP_NPS ("8 16 32"), HEAP_K (creations per shape, one per
# HEAP_NPS entry), HEAP_SHAPES (commheap's SHAPES; default its 11 communicator shapes),
# HEAP_NODE_SIZE (set: the MPICH builds see emulated nodes of that many
# consecutive ranks, MPIR_CVAR_NUM_CLIQUES=np/size with CLIQUES_BY_BLOCK;
# unset: one node), CT_NPS ("8 16"), CT_K, CT_REPS, CG_NP (6), RATE_B, RATE_R,
# RATE_REPS, RATE_TABLES_NP (18: the rate step's second run, opcost's lut16
# and mseg regions with 2 spawned processes, as test/insns; 0: none), GENS, GEN_R, NP_MAX, NP_REPS, MR_N, MR_REPS, MT_THREADS ("1 2 4"), FI_PROVIDER (set: skip the
# choice), REPORT_COMMAND (the command SUMMARY.md names).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
out=${1:-$top/bench/out/real}
mkdir -p "$out"; out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${LIBS:=ours stock ompi}" "${NICE:=10}"
: "${STEPS:=probe av heap ctime insns rate gen netpipe msgrate}"
: "${HEAP_NPS:=8 16 32}" "${HEAP_K:=1000 250 250}" "${HEAP_SHAPES:=dup,oddeven,halves,reversed,random,cartrows,shared,create_group,intercomm}" "${HEAP_NODE_SIZE:=}"
: "${CT_NPS:=8 16}" "${CT_K:=40}" "${CT_REPS:=5}"
: "${CG_NP:=6}" "${RATE_B:=64}" "${RATE_R:=100}" "${RATE_REPS:=5}" "${GENS:=6}" "${GEN_R:=30}"
: "${RATE_TABLES_NP:=18}"
: "${NP_MAX:=65536}" "${NP_REPS:=2}" "${MR_N:=20000}" "${MR_REPS:=5}" "${MT_THREADS:=1 2 4}"
: "${REPORT_COMMAND:=bench/real/run-real.sh $*}"
provider_set=${FI_PROVIDER:-}
. "$top/test/mpienv.sh"
export MPIR_CVAR_AVRM_REPORT=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failed="" skipped=""
t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
hdr() { echo "== $* [$(( $(date +%s) - t0 )) s] =="; echo "$1 $(( $(date +%s) - t0 ))" >> "$out/steps.txt"; }
run() { echo "+ $*"; nice -n "$NICE" "$@"; }
prefix_of() { case $1 in ours) echo "$MPICH_PATCHED" ;; stock) echo "$MPICH_STOCK" ;; esac; }
has() { case " $libs " in *" $1 "*) return 0 ;; esac; return 1; }
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

# launch TIMEOUT STEP LIB NP [VAR=VALUE...] -- PROGRAM ARGS...: one MPI run
# (hydra's mpiexec of LIB's prefix, or Open MPI's mpirun); a failure is
# recorded, not fatal
launch() {
    t=$1 step=$2 lib=$3 np=$4; shift 4
    envs=""
    while [ "$1" != -- ]; do
        if [ "$lib" = ompi ]; then envs="$envs -x $1"; else envs="$envs -genv ${1%%=*} ${1#*=}"; fi
        shift
    done
    shift
    if [ "$lib" = ompi ]; then
        set -- mpirun.openmpi --oversubscribe $envs -n "$np" "$@"
    else
        set -- "$(prefix_of "$lib")/bin/mpiexec" $envs -n "$np" "$@"
    fi
    echo "+ $*"
    nice -n "$NICE" timeout -k 5 "$t" "$@" < /dev/null ||
        { echo "run-real: FAILED ($?): $step" >&2; failed="$failed $step"; return 1; }
}
# the MPICH builds among libs, in the order of repetition $1 (see above)
pair() { case $(( $1 % 2 )) in 1) l="ours stock" ;; *) l="stock ours" ;; esac
         for x in $l; do has "$x" && echo "$x"; done; }

echo "== run-real.sh $out, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $load0 =="
: > "$out/steps.txt"
echo "NICE=$NICE STEPS=\"$STEPS\" LIBS=\"$LIBS\" HEAP_NPS=\"$HEAP_NPS\" HEAP_K=\"$HEAP_K\" HEAP_SHAPES=$HEAP_SHAPES HEAP_NODE_SIZE=$HEAP_NODE_SIZE CT_NPS=\"$CT_NPS\"" \
    "CT_K=$CT_K CT_REPS=$CT_REPS CG_NP=$CG_NP RATE_B=$RATE_B RATE_R=$RATE_R RATE_REPS=$RATE_REPS GENS=$GENS" \
    "GEN_R=$GEN_R NP_MAX=$NP_MAX NP_REPS=$NP_REPS MR_N=$MR_N MR_REPS=$MR_REPS MT_THREADS=\"$MT_THREADS\"" | tee "$out/settings.txt"
hdr build
libs=""
for lib in $LIBS; do
    if [ "$lib" = ompi ]; then
        cc=mpicc.openmpi
        command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null ||
            { echo "run-real: skipping ompi: no mpicc.openmpi/mpirun.openmpi" >&2; skipped="$skipped ompi"; continue; }
    else
        p=$(prefix_of "$lib") cc=$(prefix_of "$lib")/bin/mpicc
        [ -x "$cc" ] && [ -x "$p/bin/mpiexec" ] && ls "$p"/lib/libmpi.so* >/dev/null 2>&1 ||
            { echo "run-real: skipping $lib: no libmpi/mpicc/mpiexec in $p (not built, or mid-rebuild)" >&2
              skipped="$skipped $lib"; continue; }
    fi
    libs="$libs $lib"
    mkdir -p "$out/bin-$lib"
    for prog in commheap avbytes opcost msgrate; do
        run "$cc" -std=gnu11 -O2 -g -Wall -Wno-stringop-overflow -pthread -o "$out/bin-$lib/$prog" "$here/$prog.c" ||
            failed="$failed build-$lib-$prog"
    done
done
[ -n "$libs" ] || { echo "run-real: no library to measure" >&2; exit 1; }
run "${CC:-cc}" -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl || failed="$failed build-yieldshim"
shim="LD_PRELOAD=$out/yieldshim.so MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=0"
shim_of() { [ "$1" = ompi ] || echo "$shim"; }
# cliques_of LIB NP: emulated nodes of HEAP_NODE_SIZE ranks (MPICH builds)
cliques_of() { [ -n "$HEAP_NODE_SIZE" ] && [ "$1" != ompi ] &&
               echo "MPIR_CVAR_NUM_CLIQUES=$(( ($2 + HEAP_NODE_SIZE - 1) / HEAP_NODE_SIZE )) MPIR_CVAR_CLIQUES_BY_BLOCK=1"; }
# heap runs: no tcache, so that mallinfo2's uordblks counts exactly the
# chunks in use (glibc counts a chunk parked in a tcache bin as in use: a
# free before the window and a malloc in it moved 64 B between shapes)
notcache=GLIBC_TUNABLES=glibc.malloc.tcache_count=0

if want probe; then
    hdr probe "libfabric provider for the OFI runs"
    run "${CC:-cc}" -O2 -Wall -o "$out/fiprov" "$here/fiprov.c" -lfabric || failed="$failed build-fiprov"
    echo "+ env -u FI_PROVIDER $out/fiprov shm sockets tcp > $out/provider.txt"
    env -u FI_PROVIDER "$out/fiprov" shm sockets tcp > "$out/provider.txt" || true
    cat "$out/provider.txt"
    if [ -z "$provider_set" ]; then
        chosen=sockets
        for prov in $(sed -n 's/ yes$//p' "$out/provider.txt"); do
            ok=1 FI_PROVIDER=$prov
            for lib in ours stock; do
                has "$lib" || continue
                launch 60 "probe-$lib-$prov" "$lib" 2 MPIR_CVAR_NOLOCAL=1 -- \
                    "$out/bin-$lib/msgrate" "$lib" probe 0 "$out/probe.csv" 8 100 || ok=0
            done
            [ $ok = 1 ] && { chosen=$prov; break; }
        done
        FI_PROVIDER=$chosen
        failed=$(echo "$failed" | sed 's/ probe-[a-z]*-[a-z]*//g')   # a refused provider is an answer
    fi
    echo "chosen $FI_PROVIDER" >> "$out/provider.txt"
else
    echo "chosen $FI_PROVIDER" > "$out/provider.txt"    # not probed: test/mpienv.sh's or the caller's
fi
export FI_PROVIDER
echo "FI_PROVIDER=$FI_PROVIDER"

if want av; then
    hdr av "AV bytes per peer (pvar avrm_av_entry_bytes / world size)"
    echo "library,np,computed_av,av_entry_bytes,bytes_per_peer" > "$out/av.csv"
    for lib in ours stock; do
        has "$lib" || continue
        for c in 0 1; do
            launch 60 "av-$lib-$c" "$lib" 8 MPIR_CVAR_AVRM_COMPUTED_AV=$c -- \
                "$out/bin-$lib/avbytes" "$lib" "$out/av.csv" || true
            [ "$lib" = ours ] || break     # stock has neither the CVAR nor the pvar
        done
    done
fi

heap_header="library,np,rep,shape,K,median_bytes,mean_bytes,avrm_median,avrm_mean,avrm_heap_mean,median_us,mean_us"
if want heap; then
    hdr heap "heap bytes per created communicator (np: $HEAP_NPS, K: $HEAP_K)"
    echo "$heap_header" > "$out/heap.csv"
    echo "library,np,shape,mode_rank0,map_bytes_max" > "$out/maps.csv"
    set -- $HEAP_K
    for np in $HEAP_NPS; do
        k=$1; [ $# -gt 1 ] && shift
        for lib in $libs; do
            s=$(date +%s)
            launch 1500 "heap-$lib-$np" "$lib" "$np" $(shim_of "$lib") $notcache $(cliques_of "$lib" "$np") -- \
                "$out/bin-$lib/commheap" "$lib" "$out/heap.csv" "$out/maps.csv" "$k" "$HEAP_SHAPES" || true
            echo "run heap-$lib-n$np-K$k $(( $(date +%s) - s ))" >> "$out/steps.txt"
        done
    done
fi

if want ctime; then
    hdr ctime "creation time, $CT_REPS interleaved repetitions (np: $CT_NPS, K=$CT_K)"
    echo "$heap_header" > "$out/ctime.csv"
    for np in $CT_NPS; do
        for rep in $(seq 1 "$CT_REPS"); do
            for lib in $(pair "$rep") $(has ompi && echo ompi); do
                launch 600 "ctime-$lib-$np-$rep" "$lib" "$np" $(shim_of "$lib") $notcache -- \
                    "$out/bin-$lib/commheap" "$lib" "$out/ctime.csv" "$out/ctime-maps.csv" "$CT_K" \
                    dup,oddeven,random,create_group,merge "$rep" || true
            done
        done
    done
fi

if want insns; then
    hdr insns "instructions per MPI_Isend / MPI_Put (callgrind on world rank $((CG_NP - 1)), NOLOCAL, $FI_PROVIDER)"
    echo "library,op,mode,map_mode,comm_size,calls,ir_total,ir_libfabric,ir_libmpi" > "$out/insns.csv"
    for lib in ours stock; do
        has "$lib" || continue
        cg=$out/cg-$lib; rm -rf "$cg"; mkdir -p "$cg"; rm -f "$out/modes-$lib.csv"
        launch 600 "insns-$lib" "$lib" "$CG_NP" CG_RANK=$((CG_NP - 1)) CG_OUT="$cg" MPIR_CVAR_NOLOCAL=1 -- \
            "$here/cgwrap.sh" "$out/bin-$lib/opcost" "$out/modes-$lib.csv" $((CG_NP / 2)) || true
        run python3 "$here/cgsplit.py" "$lib" "$out/bin-$lib/opcost" "$out/modes-$lib.csv" \
            "$out/insns.csv" "$cg"/cg.* || failed="$failed insns-split-$lib"
    done
fi

if want rate; then
    hdr rate "issue rate, $RATE_REPS interleaved runs (-n $CG_NP + $((CG_NP / 2)) spawned, then -n $RATE_TABLES_NP + 2 for lut16 and mseg, B=$RATE_B R=$RATE_R)"
    echo "library,rep,region,comm_size,map_mode,calls,batch,rate_median,rate_mean" > "$out/rate.csv"
    for rep in $(seq 1 "$RATE_REPS"); do
        for lib in $(pair "$rep"); do
            f=$out/rate-$lib-$rep.csv; rm -f "$f"
            launch 600 "rate-$lib-$rep" "$lib" "$CG_NP" $shim YIELDSHIM_SKIP_RANK=$((CG_NP - 1)) MPIR_CVAR_NOLOCAL=1 -- \
                "$out/bin-$lib/opcost" "$f" $((CG_NP / 2)) "$RATE_B" "$RATE_R" &&
                { [ "$RATE_TABLES_NP" = 0 ] ||
                  launch 600 "rate-tables-$lib-$rep" "$lib" "$RATE_TABLES_NP" $shim \
                      YIELDSHIM_SKIP_RANK=$((RATE_TABLES_NP - 1)) MPIR_CVAR_NOLOCAL=1 -- \
                      "$out/bin-$lib/opcost" "$f" 2 "$RATE_B" "$RATE_R" tables; } &&
                sed "s/^/$lib,$rep,/" "$f" >> "$out/rate.csv" || true
        done
    done
fi

if want gen; then
    gnp=$((2 << GENS))
    hdr gen "Put rate on generations 0..$GENS of odd/even splits (-n $gnp, B=$RATE_B R=$GEN_R)"
    echo "library,region,comm_size,map_mode,calls,batch,rate_median,rate_mean" > "$out/gen.csv"
    for lib in $(pair 1) $(has ompi && echo ompi); do
        f=$out/gen-$lib.csv; rm -f "$f"
        e="MPIR_CVAR_NOLOCAL=1 $shim YIELDSHIM_SKIP_RANK=$((gnp - 1))"
        [ "$lib" = ompi ] && e=""
        s=$(date +%s)
        launch 900 "gen-$lib" "$lib" "$gnp" $e -- "$out/bin-$lib/opcost" "$f" 0 "$RATE_B" "$GEN_R" "$GENS" &&
            sed "s/^/$lib,/" "$f" >> "$out/gen.csv" || true
        echo "run gen-$lib $(( $(date +%s) - s ))" >> "$out/steps.txt"
    done
fi

# NetPIPE and msgrate: 2 processes on 2 CPUs, no oversubscription, no shim;
# both builds spin in blocking waits (our yield CVAR off: with it, ours gave
# its CPU to other jobs on every wait and measured 16x stock's latency)
paths="shm:MPIR_CVAR_NOLOCAL=0 ofi:MPIR_CVAR_NOLOCAL=1"
spin=MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=0
if want netpipe; then
    hdr netpipe "NetPIPE (NPmpich2 -p 0 -u $NP_MAX), $NP_REPS interleaved runs"
    netpipe=$(command -v NPmpich2 || echo /usr/bin/NPmpich2)
    echo "library,path,rep,bytes,mbps,usec" > "$out/netpipe.csv"
    for pe in $paths; do
        for rep in $(seq 1 "$NP_REPS"); do
            for lib in $(pair "$rep"); do
                p=$(prefix_of "$lib") d=$out/np-$lib; mkdir -p "$d"
                ln -sf "$p/lib/libmpi.so.12" "$d/libmpich.so.12"   # as test/dropin/run.sh
                f=$d/${pe%%:*}-$rep.out; rm -f "$f"
                launch 300 "netpipe-$lib-${pe%%:*}-$rep" "$lib" 2 "${pe#*:}" $spin LD_LIBRARY_PATH="$d:$p/lib" -- \
                    "$netpipe" -p 0 -u "$NP_MAX" -o "$f" > "$d/${pe%%:*}-$rep.log" &&
                    awk -v l="$lib,${pe%%:*},$rep" '{ printf "%s,%d,%s,%.3f\n", l, $1, $2, $3 * 1e6 }' "$f" \
                        >> "$out/netpipe.csv" || true
            done
        done
    done
fi

# rate_reps STEP CSV LABEL THREADS VAR=VALUE...: MR_REPS interleaved msgrate.c
# runs of the MPICH builds, 2 processes (THREADS empty: one thread, with
# the latency; else its threads mode). Names differ from launch's globals.
rate_reps() {
    rstep=$1 rcsv=$2 rlabel=$3 rthreads=$4; shift 4
    for rrep in $(seq 1 "$MR_REPS"); do
        for rlib in $(pair "$rrep"); do
            launch 300 "$rstep-$rlib-$rlabel${rthreads:+-$rthreads}-$rrep" "$rlib" 2 "$@" $spin -- \
                "$out/bin-$rlib/msgrate" "$rlib" "$rlabel" "$rrep" "$rcsv" 64 "$MR_N" $rthreads || true
        done
    done
}
if want msgrate; then
    hdr msgrate "message rate (one pair, window 64 x 8 B) and 8-byte latency, $MR_REPS interleaved runs"
    echo "library,path,rep,window,windows,msgs_per_s,msgs_per_s_mean,latency_us" > "$out/msgrate.csv"
    for pe in $paths; do
        rate_reps msgrate "$out/msgrate.csv" "${pe%%:*}" "" "${pe#*:}"
    done
fi
if want mtrate; then
    hdr mtrate "multi-threaded message rate (one pair over OFI, threads: $MT_THREADS, NUM_VCIS = threads), $MR_REPS interleaved runs"
    echo "library,path,rep,threads,window,windows,msgs_per_s,msgs_per_s_mean" > "$out/mtrate.csv"
    for nthr in $MT_THREADS; do
        rate_reps mtrate "$out/mtrate.csv" ofi "$nthr" MPIR_CVAR_NOLOCAL=1 MPIR_CVAR_CH4_NUM_VCIS="$nthr"
    done
fi

hdr report
time="$(( $(date +%s) - t0 )) s wall, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "+ bench/report real $out ..."
"$top/bench/report" real "$out" "$REPORT_COMMAND" "$time" "$skipped" "$failed" || failed="$failed report"
echo "== done: $time =="
[ -z "$skipped" ] || echo "run-real: skipped:$skipped" >&2
[ -z "$failed" ] || { echo "run-real: failed:$failed" >&2; exit 1; }
