#!/bin/sh
# run-ondemand-pmi.sh [OUTDIR] - issue 24: MPI_Init and a first contact per
# process manager. bench/real/ondemand.c (heap and RSS per process, MPI_Init
# time as the slowest process saw it, first and later message latency to a
# new peer) across emulated hosts (test/cluster/cluster.sh: one host per 8
# processes, filled in order), over tcp;ofi_rxm, launched by
#   hydra   MPICH's mpiexec: PMI-1 served by hydra's proxy on each host
#   srun    srun --mpi=pmi2: Slurm's PMI-2 plugin, MPICH's PMI-1 client
#           (test/cluster's slurmd per host)
#   srun-pmix  srun --mpi=pmix: Slurm's PMIx plugin, ours built --with-pmix
#           (MPICH_PATCHED_PMIX, `make mpich-pmix`; ours-ondemand and ours-eager
#           only: stock has no such build)
# for ours on demand (MPIR_CVAR_AVRM_ON_DEMAND_AV=1), ours eager (=0) and
# stock MPICH 4.0.2 (same tarball and options, no patches), PMI_REPS runs of
# each (default 3), P in PMI_NPS (default "16 32": 2 and 4 hosts; 24 is 3).
# One emulated cluster per P; every run of that P inside it, interleaved
# (rep, library, launcher); then, deterministic where the wall times on 2
# CPUs are not, the instructions the last rank executes inside MPI_Init
# (callgrind on that rank alone, MPMD: hydra's ':' and srun --multi-prog).
# Writes OUTDIR/pmi.csv (launcher,rep, then ondemand.c's columns: one row
# per run and point), OUTDIR/initinsns.csv (launcher,library,np,init_insns)
# and OUTDIR/SUMMARY.md (bench/report ondemand-pmi, in
# bench/tools/ondemandreport.py: medians over the runs), which bench/run
# stamps when OUTDIR is bench/results/ondemand-pmi (its step in bench/steps.ini).
# Needs root (namespaces), Slurm (maint/setup.sh installs it), `make mpich
# mpich-stock`. Wall times with up to 32 processes on 2 CPUs: what one
# library or launcher costs against another in the same run, not absolute.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/bench/real
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
: "${MPICH_PATCHED_PMIX:=$top/mpich-build/pmix/mpich-patched}"
: "${LIBS:=ours-ondemand ours-eager stock}" "${PMI_NPS:=16 32}" "${PMI_REPS:=3}"
prov="tcp;ofi_rxm"
prefix_of() { case $1 in ours*) echo "$MPICH_PATCHED" ;; stock) echo "$MPICH_STOCK" ;; esac; }
# the launchers of LIB: srun --mpi=pmix for ours (its --with-pmix build)
launchers_of() { case $1 in ours*) echo "hydra srun srun-pmix" ;; *) echo "hydra srun" ;; esac; }
# LIB's ondemand binary for LAUNCHER
exe_of() { case $2 in srun-pmix) echo "$out/bin-$1-pmix/ondemand" ;; *) echo "$out/bin-$1/ondemand" ;; esac; }
. "$here/libenv.sh"
# lib_env LIB: a run's environment on one line (out: the output directory)
lib_env() {
    { echo "GLIBC_TUNABLES=glibc.malloc.tcache_count=0 FI_PROVIDER=$prov"
      ondemand_lib_env "$1" "$out/yieldshim.so"; } | tr '\n' ' '
}

# --inner OUT NP: inside node1 of the cluster, every run of this P
if [ "${1:-}" = --inner ]; then
    set -f      # the callgrind toggle's '*' is valgrind's, not a glob
    out=$2 np=$3 hosts=$(( $3 / 8 ))
    # srun's launch of the runs and the callgrind run: LAUNCHER's PMI plugin
    srun_of() { echo "srun --mpi=$([ "$1" = srun-pmix ] && echo pmix || echo pmi2) -N $hosts --ntasks-per-node=8"; }
    for rep in $(seq 1 "$PMI_REPS"); do
        for lib in $LIBS; do
            e=$(lib_env "$lib")
            for launcher in $(launchers_of "$lib"); do
                case $launcher in
                    hydra) set -- "$(prefix_of "$lib")/bin/mpiexec" -n "$np" ;;
                    srun*) set -- $(srun_of "$launcher") ;;
                esac
                rm -f "$out/run.csv"
                echo "+ env $e $* ondemand ($rep)"
                if env $e timeout -k 5 300 "$@" "$(exe_of "$lib" "$launcher")" "$lib" "$prov" "$out/run.csv" \
                       < /dev/null > "$out/log-$lib-$launcher-$np-$rep.txt" 2>&1 && [ -s "$out/run.csv" ]; then
                    sed "s/^/$launcher,$rep,/" "$out/run.csv" >> "$out/pmi.csv"
                else
                    echo "run-ondemand-pmi: FAILED: $lib $launcher $np rep $rep ($out/log-$lib-$launcher-$np-$rep.txt)" >&2
                    echo "$lib-$launcher-$np-$rep" >> "$out/failed.txt"
                fi
            done
        done
    done
    # MPI_Init's instructions on the last rank (on the last host), callees
    # included (PMI, libfabric): callgrind on that rank alone, MPMD
    for lib in $LIBS; do
        e=$(lib_env "$lib")
        for launcher in $(launchers_of "$lib"); do
            exe=$(exe_of "$lib" "$launcher")
            cg=$out/cg-init-$lib-$launcher-$np.out
            rm -f "$cg"
            vg="valgrind --tool=callgrind --toggle-collect=*MPI_Init --callgrind-out-file=$cg"
            case $launcher in
                hydra) set -- "$(prefix_of "$lib")/bin/mpiexec" -n $((np - 1)) "$exe" "$lib" "$prov" "$out/.scratch.csv" : \
                           -n 1 $vg "$exe" "$lib" "$prov" "$out/.scratch.csv" ;;
                srun|srun-pmix)
                      printf '0-%d %s %s %s %s\n%d %s %s %s %s %s\n' $((np - 2)) "$exe" "$lib" "$prov" "$out/.scratch.csv" \
                          $((np - 1)) "$vg" "$exe" "$lib" "$prov" "$out/.scratch.csv" > "$out/multi-prog.conf"
                      set -- $(srun_of "$launcher") --multi-prog "$out/multi-prog.conf" ;;
            esac
            echo "+ env $e $*"
            if env $e timeout -k 5 600 "$@" < /dev/null > "$out/log-init-$lib-$launcher-$np.txt" 2>&1 &&
               ir=$(sed -n 's/^summary: //p' "$cg") && [ -n "$ir" ]; then
                echo "$launcher,$lib,$np,$ir" >> "$out/initinsns.csv"
            else
                echo "run-ondemand-pmi: FAILED: MPI_Init insns $lib $launcher $np ($out/log-init-$lib-$launcher-$np.txt)" >&2
                echo "init-$lib-$launcher-$np" >> "$out/failed.txt"
            fi
        done
    done
    rm -f "$out/.scratch.csv"
    exit 0
fi

out=${1:-$top/bench/out/ondemand-pmi}
mkdir -p "$out"; out=$(cd "$out" && pwd)
. "$top/test/mpienv.sh"
command -v srun >/dev/null || { echo "run-ondemand-pmi: no srun (maint/setup.sh installs Slurm)" >&2; exit 1; }
echo "== run-ondemand-pmi.sh $out, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null) =="
echo "LIBS=\"$LIBS\" PMI_NPS=\"$PMI_NPS\" PMI_REPS=$PMI_REPS provider $prov" | tee "$out/settings.txt"
[ -x "$MPICH_PATCHED_PMIX/bin/mpicc" ] ||
    { echo "run-ondemand-pmi: no $MPICH_PATCHED_PMIX (make mpich-pmix)" >&2; exit 1; }
for lib in $LIBS; do
    mkdir -p "$out/bin-$lib"
    "$(prefix_of "$lib")/bin/mpicc" -std=gnu11 -O2 -Wall -Wno-stringop-overflow -o "$out/bin-$lib/ondemand" "$here/ondemand.c"
    case $lib in ours*)
        mkdir -p "$out/bin-$lib-pmix"
        "$MPICH_PATCHED_PMIX/bin/mpicc" -std=gnu11 -O2 -Wall -Wno-stringop-overflow -o "$out/bin-$lib-pmix/ondemand" "$here/ondemand.c" ;;
    esac
done
cc -shared -fPIC -O2 -Wall -o "$out/yieldshim.so" "$here/yieldshim.c" -ldl
echo "launcher,rep,library,provider,np,point,heap_max,heap_mean,rss_max,rss_mean,init_s,first_us,later_us" > "$out/pmi.csv"
echo "launcher,library,np,init_insns" > "$out/initinsns.csv"
rm -f "$out/failed.txt"
export LIBS PMI_REPS MPICH_PATCHED MPICH_STOCK MPICH_PATCHED_PMIX
for np in $PMI_NPS; do
    case $np in 16|24|32) ;; *) echo "run-ondemand-pmi: P must be 16, 24 or 32 (2-4 hosts of 8)" >&2; exit 2 ;; esac
    s=$(date +%s)
    "$top/test/cluster/cluster.sh" -n $((np / 8)) -s 8 -p block --slurm -- \
        sh "$0" --inner "$out" "$np" || echo "cluster-$np" >> "$out/failed.txt"
    echo "   P=$np: $(( $(date +%s) - s )) s"
done
[ ! -s "$out/failed.txt" ] || { echo "run-ondemand-pmi: failed: $(tr '\n' ' ' < "$out/failed.txt")" >&2; exit 1; }
"$top/bench/report" ondemand-pmi "$out" \
    "${REPORT_COMMAND:-bench/real/run-ondemand-pmi.sh $(echo "$out" | sed "s|^$top/||")}" > "$out/SUMMARY.md"
cat "$out/SUMMARY.md"
exit 0
