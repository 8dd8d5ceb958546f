#!/bin/sh
# run-ondemand.sh [OUTDIR] - issue 24: what a process keeps per peer and
# what MPI_Init costs, ours with on-demand addressing (the default where the
# provider allows it), ours eager (MPIR_CVAR_AVRM_ON_DEMAND_AV=0), stock
# MPICH 4.0.2 (same tarball and options, no patches) and Open MPI 4.1
# (Debian's, ob1 over self/vader/tcp: it cannot emulate nodes, so every peer
# is on its node; its rows are labelled ompi-ob1 under each provider's
# heading, whose FI_PROVIDER it ignores), in one run, per
# provider (ONDEMAND_PROVIDERS, default "tcp;ofi_rxm sockets") and process
# count (ONDEMAND_NPS, default "8 16 24 32 64 128": five counts of more than
# one emulated node for the slopes; Open MPI only at those of
# ONDEMAND_OMPI_NPS, default the same: its runs busy-poll, minutes each at
# P = 64 on 2 CPUs, so its slopes span fewer points, as slopes.csv's nps
# column says; over sockets at ONDEMAND_SOCKETS_NPS, default the same: its
# processes hold ~15 MB where tcp;ofi_rxm's hold ~100 MB, so sockets alone
# reaches P = 256 in 23 GB; "tcp;ofi_rxm+lean", tcp;ofi_rxm with
# ONDEMAND_LEAN_ENV, default FI_OFI_RXM_BUFFER_SIZE=4096
# FI_OFI_RXM_MSG_RX_SIZE=16: ofi_rxm's receive buffers, ~70 of the ~97 MB
# a process holds at P = 16 with the defaults, made small enough that 256
# processes fit, at ONDEMAND_LEAN_NPS, default "64 128 256": memory only,
# no Open MPI, no MPI_Init instruction counts); emulated nodes of
# ONDEMAND_NODE (8) consecutive ranks for the MPICH builds. Each run is
# bench/real/ondemand.c: heap (mallinfo2, no tcache) and RSS per process
# right after MPI_Init, after a 2-D stencil, after an MPI_Alltoall; MPI_Init
# time; first vs later message latency with a new peer.
# MPI_Init's instructions on one process against P (callgrind), ours on demand,
# ours eager and stock: OUTDIR/initinsns.csv.
# Writes OUTDIR/ondemand.csv (every run), OUTDIR/slopes.csv (bytes per added
# peer and the constant, least squares over the process counts of more
# than one emulated node, per library, provider and point), OUTDIR/ondemand.png (bench/report ondemand-plot),
# and the whole process at up to 786432 processes: OUTDIR/wholeproc.csv and
# wholeproc.md (bench/report wholeproc: the simulator's address layer plus the
# provider model of the slopes), and OUTDIR/SUMMARY.md (bench/report
# ondemand-summary; the reports are bench/tools/ondemandreport.py's).
# Oversubscribed: our builds yield (MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=1),
# stock preloads yieldshim.so, Open MPI yields by itself.
# Environment: MPICH_PATCHED, MPICH_STOCK, LIBS ("ours-ondemand ours-eager stock ompi"),
# ONDEMAND_NPS, ONDEMAND_OMPI_NPS, ONDEMAND_SOCKETS_NPS, ONDEMAND_LEAN_NPS, ONDEMAND_LEAN_ENV, ONDEMAND_PROVIDERS, ONDEMAND_NODE, ONDEMAND_INIT_REPS (2), NICE (10),
# REPORT_COMMAND (the command SUMMARY.md names; bench/run ondemand sets it).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
out=${1:-$top/bench/out/ondemand}
mkdir -p "$out"; out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${LIBS:=ours-ondemand ours-eager stock ompi}" "${ONDEMAND_NPS:=8 16 24 32 64 128}"
: "${ONDEMAND_PROVIDERS:=tcp;ofi_rxm sockets tcp;ofi_rxm+lean}" "${ONDEMAND_NODE:=8}" "${NICE:=10}"
: "${ONDEMAND_OMPI_NPS:=$ONDEMAND_NPS}" "${ONDEMAND_SOCKETS_NPS:=$ONDEMAND_NPS}"
: "${ONDEMAND_LEAN_NPS:=64 128 256}"
: "${ONDEMAND_LEAN_ENV:=FI_OFI_RXM_BUFFER_SIZE=4096 FI_OFI_RXM_MSG_RX_SIZE=16}"
# the process counts of a provider
nps_of() {
    case $1 in
        sockets) echo "$ONDEMAND_SOCKETS_NPS" ;;
        *+lean) echo "$ONDEMAND_LEAN_NPS" ;;
        *) echo "$ONDEMAND_NPS" ;;
    esac
}
. "$top/test/mpienv.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MPIR_CVAR_AVRM_REPORT=0
failed=""
prefix_of() { case $1 in ours*) echo "$MPICH_PATCHED" ;; stock) echo "$MPICH_STOCK" ;; esac; }
. "$here/libenv.sh"
# mpich_env LIB PROVIDER NP: the environment of an MPICH build's run (both
# the memory runs and the MPI_Init instruction counts): the provider,
# emulated nodes of ONDEMAND_NODE consecutive ranks, the library's own
mpich_env() {
    case $2 in *+lean) echo "$ONDEMAND_LEAN_ENV" ;; esac
    echo "FI_PROVIDER=${2%+lean} MPIR_CVAR_NUM_CLIQUES=$(( ($3 + ONDEMAND_NODE - 1) / ONDEMAND_NODE )) MPIR_CVAR_CLIQUES_BY_BLOCK=1"
    ondemand_lib_env "$1" "$out/yieldshim.so"
}
echo "== run-ondemand.sh $out, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null) =="
echo "LIBS=\"$LIBS\" ONDEMAND_NPS=\"$ONDEMAND_NPS\" ONDEMAND_OMPI_NPS=\"$ONDEMAND_OMPI_NPS\" ONDEMAND_SOCKETS_NPS=\"$ONDEMAND_SOCKETS_NPS\" ONDEMAND_LEAN_NPS=\"$ONDEMAND_LEAN_NPS\" ONDEMAND_LEAN_ENV=\"$ONDEMAND_LEAN_ENV\" ONDEMAND_PROVIDERS=\"$ONDEMAND_PROVIDERS\" ONDEMAND_NODE=$ONDEMAND_NODE" | tee "$out/settings.txt"

libs=""
for lib in $LIBS; do
    case $lib in
        ompi) cc=mpicc.openmpi; command -v mpirun.openmpi >/dev/null || cc="" ;;
        *) cc=$(prefix_of "$lib")/bin/mpicc; [ -x "$cc" ] || cc="" ;;
    esac
    [ -n "$cc" ] || { echo "run-ondemand: skipping $lib (not built)" >&2; continue; }
    libs="$libs $lib"
    mkdir -p "$out/bin-$lib"
    echo "+ $cc -O2 -Wno-stringop-overflow -o $out/bin-$lib/ondemand $here/ondemand.c"
    # -Wno-stringop-overflow: gcc reads MPICH's MPI_STATUSES_IGNORE (a
    # sentinel pointer) as an array too small for MPI_Waitall's count
    "$cc" -std=gnu11 -O2 -Wall -Wno-stringop-overflow -o "$out/bin-$lib/ondemand" "$here/ondemand.c" || failed="$failed build-$lib"
done
cc -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl

csv=$out/ondemand.csv
echo "library,provider,np,point,heap_max,heap_mean,rss_max,rss_mean,init_s,first_us,later_us" > "$csv"
for prov in $ONDEMAND_PROVIDERS; do
    for np in $(nps_of "$prov"); do
        for lib in $libs; do
            exe=$out/bin-$lib/ondemand
            case $lib in
                ompi) [ "$prov" = "tcp;ofi_rxm" ] || continue   # one row for Open MPI: ob1/tcp
                      case " $ONDEMAND_OMPI_NPS " in *" $np "*) ;; *) continue ;; esac
                      set -- mpirun.openmpi --oversubscribe --mca pml ob1 --mca btl self,vader,tcp \
                          -x GLIBC_TUNABLES=glibc.malloc.tcache_count=0 -n "$np" "$exe" ompi-ob1 "$prov" "$csv" ;;
                *) set -- env GLIBC_TUNABLES=glibc.malloc.tcache_count=0 $(mpich_env "$lib" "$prov" "$np") \
                       "$(prefix_of "$lib")/bin/mpiexec" -n "$np" "$exe" "$lib" "$prov" "$csv" ;;
            esac
            echo "+ $*"
            s=$(date +%s)
            nice -n "$NICE" timeout -k 5 600 "$@" < /dev/null > "$out/log-$lib-$np-$(echo "$prov" | tr ';' _).txt" 2>&1 ||
                { echo "run-ondemand: FAILED ($?): $lib $prov $np" >&2; failed="$failed $lib-$prov-$np"; }
            echo "   $(( $(date +%s) - s )) s"
        done
    done
done
"$top/bench/report" ondemand-plot "$csv" "$out/slopes.csv" "$out/ondemand.png" || failed="$failed plot"
# MPI_Init's work against P, deterministic where its wall time on 2 CPUs is
# not: the instructions the last rank executes inside MPI_Init (callgrind,
# --toggle-collect, callees included: PMI, libfabric), that rank alone under
# valgrind (MPMD), for the MPICH builds at each P (ONDEMAND_INIT_REPS runs,
# default 2: the spread shows what blocking waits leave in the count).
# -> OUTDIR/initinsns.csv: library,provider,np,rep,init_insns
icsv=$out/initinsns.csv
echo "library,provider,np,rep,init_insns" > "$icsv"
for prov in $ONDEMAND_PROVIDERS; do
    case $prov in *+lean) continue ;; esac    # memory only
    for np in $(nps_of "$prov"); do
        for lib in $libs; do
            case $lib in ompi) continue ;; esac
            exe=$out/bin-$lib/ondemand
            e=$(mpich_env "$lib" "$prov" "$np")
            for rep in $(seq 1 "${ONDEMAND_INIT_REPS:-2}"); do
                cg=$out/cg-init-$lib-$np-$(echo "$prov" | tr ';' _)-$rep.out
                rm -f "$cg"
                set -- env $e "$(prefix_of "$lib")/bin/mpiexec" -n $((np - 1)) "$exe" "$lib" "$prov" "$out/.scratch.csv" : \
                    -n 1 valgrind --tool=callgrind --toggle-collect='*MPI_Init' --callgrind-out-file="$cg" \
                    "$exe" "$lib" "$prov" "$out/.scratch.csv"
                echo "+ $*"
                nice -n "$NICE" timeout -k 5 900 "$@" < /dev/null > "$out/log-init-$lib-$np-$(echo "$prov" | tr ';' _).txt" 2>&1 ||
                    { echo "run-ondemand: FAILED ($?): MPI_Init insns $lib $prov $np" >&2; failed="$failed init-$lib-$prov-$np"; continue; }
                ir=$(sed -n 's/^summary: //p' "$cg")
                echo "$lib,$prov,$np,$rep,$ir" >> "$icsv"
            done
        done
    done
done
rm -f "$out/.scratch.csv"
cat "$icsv"
cat "$out/slopes.csv"
# at scale: the simulator's address layer after MPI_Init (the real libavrm,
# bench-memory's "world" scenario) plus the provider model these slopes give
# (bench/report wholeproc), N up to 16777216, and the first contacts of
# four applications (bench-memory's contact scenarios)
# libfabric's AV alone, per inserted peer (no MPI): the model's per-peer AV cost
cc -O2 -Wall -o "$out/fiavbytes" "$here/fiavbytes.c" -lfabric
echo "provider,peers,heap_bytes,bytes_per_peer" > "$out/fiav.csv"
for prov in sockets tcp; do
    env -u FI_PROVIDER "$out/fiavbytes" -n 1000,10000 "$prov" |
        awk 'NF == 4 { print $1 "," $2 "," $3 "," $4 }' >> "$out/fiav.csv"
done
# what libavrm adds to a first contact: the resolved word's store, sparse
# against dense world AV (bench/lookup/firstwrite.c)
if [ -x "$top/bench/bench-firstwrite" ]; then
    "$top/bench/bench-firstwrite" > "$out/firstwrite.csv" && cat "$out/firstwrite.csv" ||
        failed="$failed firstwrite"
else
    echo "run-ondemand: no bench/bench-firstwrite (make bench/bench-firstwrite)" >&2
    failed="$failed firstwrite"
fi
if [ -x "$top/bench/bench-memory" ]; then
    "$top/bench/bench-memory" -n 8192,65536,262144,786432,16777216 -s world,contact -o "$out/world.csv" > /dev/null &&
        "$top/bench/report" wholeproc "$out/world.csv" "$out/slopes.csv" "$out/fiav.csv" "$out/wholeproc.csv" \
            > "$out/wholeproc.md" && cat "$out/wholeproc.md" || failed="$failed wholeproc"
else
    echo "run-ondemand: no bench/bench-memory (make bench-memory): no simulated figures" >&2
    failed="$failed wholeproc"
fi
[ -z "$failed" ] || { echo "run-ondemand: failed:$failed" >&2; exit 1; }
# SUMMARY.md from the files above (bench/run stamps it after the step)
"$top/bench/report" ondemand-summary "$out" \
    "${REPORT_COMMAND:-ONDEMAND_NPS=\"$ONDEMAND_NPS\" bench/real/run-ondemand.sh $(echo "$out" | sed "s|^$top/||")}" > "$out/SUMMARY.md"
