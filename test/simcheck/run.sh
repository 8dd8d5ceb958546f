#!/bin/sh
# The simcheck phase of make check: the simulator's prediction of the
# address layer's bytes (bench/bench-predict) against the real library's
# MPI_T pvars (pvars.c under PREFIX's mpiexec), byte for byte, on every rank.
#
#   run.sh BUILDDIR PREFIX OUTDIR
#
# For each size (SIMCHECK_SIZES, default "8 16 32") and placement
# (SIMCHECK_CONFIGS, default "shm nolocal block2 rr2"):
#   shm      one node (MPICH's default on one host)   bench-predict -P N
#   nolocal  MPIR_CVAR_NOLOCAL=1: a node per process   -P 1
#   block2   MPIR_CVAR_NUM_CLIQUES=2, CLIQUES_BY_BLOCK  -P N/2
#   rr2      MPIR_CVAR_NUM_CLIQUES=2 (round-robin)      -r 2
# and, for the sizes in SIMCHECK_COMPUTED_SIZES (default "16"), each
# placement again with MPIR_CVAR_AVRM_COMPUTED_AV=1 (bench-predict -c);
# and, for the sizes in SIMCHECK_ONDEMAND_SIZES (default "16"), each
# placement again on demand (FI_PROVIDER="tcp;ofi_rxm": the world AV
# sparse, bench-predict -o);
# one mpiexec runs every scenario; each scenario (its lines after creation
# and after the frees, every rank) is one test: PASS when the real lines
# equal the predicted ones, else FAIL with the differing lines.
# Two controls per size, on the real shm run, each one test: the nolocal
# prediction, filtered like the run (every scenario's lines), must differ
# from it; and the shm prediction with one entry changed (split's first
# line, av_entry_bytes + 8) must fail the scenario comparison of the tests.
# Without a shm run of that size both are listed skips.
# A run that fails (exit status, timeout SIMCHECK_TIMEOUT s, default 120)
# fails each of its scenarios. Ends with "skipped: N" and "N passed, N failed".
# Beside it, not a test: OUTDIR/heap.txt, per run and scenario, the bytes
# libavrm added and the rest of the malloc heap's growth (what neither side
# counts: MPICH's communicator objects, libfabric), min..max over ranks;
# the n=32 shm rows are printed.
set -u
[ $# -eq 3 ] || { echo "usage: $0 BUILDDIR PREFIX OUTDIR" >&2; exit 2; }
bdir=$(cd "$1" && pwd) || exit 2
prefix=$(cd "$2" && pwd) || exit 2
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../mpienv.sh"

sizes=${SIMCHECK_SIZES:-"8 16 32"}
csizes=${SIMCHECK_COMPUTED_SIZES:-"16"}
osizes=${SIMCHECK_ONDEMAND_SIZES:-"16"}
configs=${SIMCHECK_CONFIGS:-"shm nolocal block2 rr2"}
tmo=${SIMCHECK_TIMEOUT:-120}
scens="init split dup reorder incl colsplit inter cart workers spawn"
predict=$bdir/bench/bench-predict
pass=0 fail=0 skip=0 t0=$(date +%s)
printf '%-12s %-9s %-20s %-20s\n' run scenario "libavrm bytes" "rest of the heap" > "$out/heap.txt"

# heap lines of a run -> one row per scenario: libavrm bytes and the rest
heap_rows() {  # tag file
    grep '^heap ' "$2" | awk -v tag="$1" '
        { s = $2; a = $5; o = $4 - $5
          if (!(s in n)) { ord[++k] = s; amin[s] = amax[s] = a; omin[s] = omax[s] = o }
          n[s]++
          if (a < amin[s]) amin[s] = a; if (a > amax[s]) amax[s] = a
          if (o < omin[s]) omin[s] = o; if (o > omax[s]) omax[s] = o }
        END { for (i = 1; i <= k; i++) { s = ord[i]
              printf "%-12s %-9s %9d..%-9d %9d..%-9d\n", tag, s, amin[s], amax[s], omin[s], omax[s] } }'
}

finish() {
    [ $((pass + fail + skip)) -gt 0 ] ||
        { echo "FAIL simcheck: SIMCHECK_SIZES='$sizes' SIMCHECK_CONFIGS='$configs' select nothing"; fail=1; }
    echo "simcheck: $(($(date +%s) - t0)) s"
    echo "skipped: $skip"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

if [ ! -x "$predict" ]; then
    echo "FAIL simcheck: no $predict (make bench/bench-predict)"
    fail=1; echo "heap growth per scenario (bytes per rank, min..max over ranks; all runs in $out/heap.txt):"
grep -E '^(run|n32-shm) ' "$out/heap.txt" | sed 's/^/    /'
finish
fi
if ! "$prefix/bin/mpicc" -std=c11 -Wall -Wextra -O2 -I"$top/bench/real" -o "$out/pvars" \
        "$here/pvars.c" > "$out/pvars.build.log" 2>&1; then
    cat "$out/pvars.build.log"
    echo "FAIL simcheck: pvars.c does not build"
    fail=1; echo "heap growth per scenario (bytes per rank, min..max over ranks; all runs in $out/heap.txt):"
grep -E '^(run|n32-shm) ' "$out/heap.txt" | sed 's/^/    /'
finish
fi

# predict options and MPICH environment of a placement
placement() {  # cfg n
    case $1 in
        shm) popt="-P $2" penv="" ;;
        nolocal) popt="-P 1" penv="MPIR_CVAR_NOLOCAL=1" ;;
        block2) popt="-P $(($2 / 2))" penv="MPIR_CVAR_NUM_CLIQUES=2 MPIR_CVAR_CLIQUES_BY_BLOCK=1" ;;
        rr2) popt="-r 2" penv="MPIR_CVAR_NUM_CLIQUES=2" ;;
        *) return 1 ;;
    esac
}

# lines of scenario s (both phases), sorted; s may be an alternation:
# $every is every scenario, the heap lines left out (what a control compares)
lines() { grep -E "^($1)(-freed)? " "$2" | sort; }
every=$(echo $scens | tr ' ' '|')
# same S REAL SIM BASE: scenario S's lines of both into BASE.real and
# BASE.sim; true when they are equal (the comparison of every test)
same() {
    lines "$1" "$2" > "$4.real"
    lines "$1" "$3" > "$4.sim"
    cmp -s "$4.real" "$4.sim"
}

for n in $sizes; do
    avs=stored shm=""
    case " $csizes " in *" $n "*) avs="$avs computed" ;; esac
    case " $osizes " in *" $n "*) avs="$avs ondemand" ;; esac
    for cfg in $configs; do
      for av in $avs; do
        if ! placement "$cfg" "$n"; then
            echo "FAIL n=$n $cfg: unknown placement"
            fail=$((fail + 1)); continue
        fi
        tag=n$n-$cfg name="n=$n $cfg"
        if [ "$av" = computed ]; then
            tag=$tag-computed name="$name computed" popt="$popt -c"
            penv="$penv MPIR_CVAR_AVRM_COMPUTED_AV=1"
        elif [ "$av" = ondemand ]; then
            tag=$tag-ondemand name="$name ondemand" popt="$popt -o"
            penv="$penv FI_PROVIDER=tcp;ofi_rxm"
        fi
        t1=$(date +%s)
        # shellcheck disable=SC2086
        env $penv timeout "$tmo" "$prefix/bin/mpiexec" -n "$n" "$out/pvars" \
            > "$out/$tag.real" 2> "$out/$tag.err"
        rc=$?
        # shellcheck disable=SC2086
        "$predict" -n "$n" $popt > "$out/$tag.sim" 2>> "$out/$tag.err"
        prc=$?
        dt=$(($(date +%s) - t1))
        if [ $rc -ne 0 ] || [ $prc -ne 0 ]; then
            echo "FAIL $name: mpiexec exit $rc, bench-predict exit $prc (${dt}s; $out/$tag.err):"
            sed 's/^/    /' "$out/$tag.err" | head -20
            for s in $scens; do fail=$((fail + 1)); done
            continue
        fi
        [ "$cfg $av" = "shm stored" ] && shm=$out/$tag
        for s in $scens; do
            if same "$s" "$out/$tag.real" "$out/$tag.sim" "$out/$tag.$s"; then r=0; else r=1; fi
            if [ ! -s "$out/$tag.$s.real" ]; then
                echo "FAIL $name $s: no lines from pvars"
                fail=$((fail + 1))
            elif [ $r -eq 0 ]; then
                echo "PASS $name $s"
                pass=$((pass + 1))
            else
                echo "FAIL $name $s: real (<) and simulator (>) differ:"
                diff "$out/$tag.$s.real" "$out/$tag.$s.sim" | grep '^[<>]' | head -12 | sed 's/^/    /'
                fail=$((fail + 1))
            fi
        done
        echo "     $name: ${dt}s"
        heap_rows "$tag" "$out/$tag.real" >> "$out/heap.txt"
      done
    done
    # controls on this size's shm run (this invocation's, run without error)
    if [ -z "$shm" ]; then
        echo "SKIP n=$n controls (2): no shm run of this size (SIMCHECK_CONFIGS, or it failed)"
        skip=$((skip + 2)); continue
    fi
    # another placement's prediction, filtered alike, must not match
    "$predict" -n "$n" -P 1 > "$out/n$n.nolocal-pred" 2>/dev/null
    same "$every" "$shm.real" "$out/n$n.nolocal-pred" "$out/n$n.control"; r=$?
    if [ ! -s "$out/n$n.control.real" ] || [ ! -s "$out/n$n.control.sim" ]; then
        echo "FAIL n=$n control: no lines to compare (run or nolocal prediction)"; fail=$((fail + 1))
    elif [ $r -eq 0 ]; then
        echo "FAIL n=$n control: the nolocal prediction equals the shm run (the check cannot fail)"
        fail=$((fail + 1))
    else
        echo "PASS n=$n control: the nolocal prediction differs from the shm run"
        pass=$((pass + 1))
    fi
    # negative control: the shm prediction with one entry + 8 must be flagged
    awk '!d && $1 == "split" { $3 += 8; d = 1 } 1' "$shm.sim" > "$out/n$n.perturbed-pred"
    nd=$(diff "$shm.sim" "$out/n$n.perturbed-pred" | grep -c '^>')
    if [ "$nd" -ne 1 ]; then
        echo "FAIL n=$n negative control: the perturbation changed $nd lines, not 1"; fail=$((fail + 1))
    elif same split "$shm.real" "$out/n$n.perturbed-pred" "$out/n$n.perturbed"; then
        echo "FAIL n=$n negative control: a prediction with one byte count + 8 (split) passes the comparison"
        fail=$((fail + 1))
    else
        echo "PASS n=$n negative control: a prediction with one byte count + 8 (split) is flagged"
        pass=$((pass + 1))
    fi
done
echo "heap growth per scenario (bytes per rank, min..max over ranks; all runs in $out/heap.txt):"
grep -E '^(run|n32-shm) ' "$out/heap.txt" | sed 's/^/    /'
finish
