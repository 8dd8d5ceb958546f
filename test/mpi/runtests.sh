#!/bin/sh
# Our MPI tests: compile with PREFIX/bin/mpicc (C) or mpifort (fortran/), run every testlist entry
# under several process placements, one line per run, then "N passed, N failed".
#
#   runtests.sh PREFIX OUTDIR [DIR|DIR/NAME ...]
#
# Placements (AVTEST_CONFIGS selects a subset, space separated):
#   shm      shared memory between all processes + netmod (default MPICH)
#   nolocal  netmod only: every process acts as its own node (MPIR_CVAR_NOLOCAL)
#   oddeven  two emulated nodes, odd/even ranks (MPIR_CVAR_ODD_EVEN_CLIQUES)
#   block3   three emulated nodes of consecutive ranks
#            (MPIR_CVAR_NUM_CLIQUES=3 MPIR_CVAR_CLIQUES_BY_BLOCK)
#   twonics  netmod only over two NICs per process: each run in its own
#            network namespace with two veth NICs, the sockets provider and
#            nicshim.so preloaded so that MPICH counts them as two PCI NICs
#            (twonics-ns.sh, needs unshare -n), multi-NIC hashing on (messages
#            spread over both NICs by context, rank and tag, on communicators
#            that assert no wildcards: comm/multinic). Every test checks that
#            MPI_INFO_ENV's num_nics is 2 (AVTEST_EXPECT_NICS).
#   rxm      netmod only over tcp;ofi_rxm, where addresses are resolved on
#            first contact (on-demand addressing, the default there; the
#            sockets provider of the other placements stays eager):
#            AVTEST_EXPECT_ON_DEMAND=1 for the tests that check it (several
#            VNIs too: each VNI's AV catches up on first use).
# testlist lines: name nprocs [arg=ARG ...] [env=VAR=VAL ...] [configs=a,b]
#                 [xfail=reason] [aborts=TEXT]
# configs= limits an entry to some placements (large sizes run in one or two
# placements each to keep the whole run near 6 minutes on 2 cores).
# A run passes when it exits 0 and prints "No Errors"; an xfail entry (one
# line: one test at one np) that fails is reported XFAIL and counted as
# neither passed nor failed, one that passes is reported XPASS (passed).
# An aborts= entry tests an error: it passes when the job ends non-zero
# before the timeout and its output holds TEXT (underscores read as spaces;
# TEXT|TEXT2 for either of two texts).
# A configs= name that is no placement is a failure of that entry; an entry
# none of whose configs= placements is in AVTEST_CONFIGS is a SKIP line,
# counted in "skipped: N" before the closing line. A DIR or DIR/NAME argument
# that matches no entry, or an AVTEST_CONFIGS with an unknown name or none,
# is a failure.
# AVTEST_MAXNP: entries of more processes are listed skips (test/cluster sets it
# for srun, whose emulated nodes have 16 slots). AVTEST_TIMEOUT: seconds per run (default 60). AVTEST_LIST=1: build and run
# nothing, print "RUN DIR/NAME np=N cfg=C" for each run (test/cluster/run.sh
# counts them where it cannot run).
set -u
[ $# -ge 2 ] || { echo "usage: $0 PREFIX OUTDIR [DIR|DIR/NAME ...]" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../mpienv.sh"

configs=${AVTEST_CONFIGS:-"shm nolocal oddeven block3 twonics rxm"}
tmo=${AVTEST_TIMEOUT:-60}
list=${AVTEST_LIST:-}
cc=$prefix/bin/mpicc fc=$prefix/bin/mpifort mpiexec=$prefix/bin/mpiexec
if [ -z "$list" ] && { [ ! -x "$cc" ] || [ ! -x "$mpiexec" ]; }; then
    echo "runtests: no mpicc/mpiexec in $prefix/bin" >&2; exit 2
fi

config_env() {
    case $1 in
        shm) echo "" ;;
        nolocal) echo "MPIR_CVAR_NOLOCAL=1" ;;
        oddeven) echo "MPIR_CVAR_ODD_EVEN_CLIQUES=1" ;;
        block3) echo "MPIR_CVAR_NUM_CLIQUES=3 MPIR_CVAR_CLIQUES_BY_BLOCK=1" ;;
        twonics) echo "MPIR_CVAR_NOLOCAL=1 MPIR_CVAR_CH4_OFI_ENABLE_MULTI_NIC_HASHING=1" \
                      "NICSHIM_SO=$out/nicshim.so AVTEST_EXPECT_NICS=2" ;;
        rxm) echo "MPIR_CVAR_NOLOCAL=1 FI_PROVIDER=tcp;ofi_rxm AVTEST_EXPECT_ON_DEMAND=1" ;;
        *) echo "runtests: unknown config $1" >&2; exit 2 ;;
    esac
}

# build_test DIR NAME: $out/DIR/NAME from NAME.c (mpicc), or from NAME.f90 /
# NAME.f (mpifort) linked with the C checks for Fortran (fortran/avtest_f.c,
# its bind(C) module avtest_f.f90); rebuilt when older than a source, a
# header or the compiler
build_test() {
    bd=$out/$1 bexe=$out/$1/$2 hdrs="$here/include/avtest.h $here/include/avtest_mode.h"
    if [ -f "$here/$1/$2.c" ]; then
        newer "$bexe" "$here/$1/$2.c" $hdrs "$cc" || return 0
        "$cc" -std=c11 -Wall -Wextra -O2 -g -I"$here/include" -o "$bexe" "$here/$1/$2.c"
        return
    fi
    bsrc=$(ls "$here/$1/$2.f90" "$here/$1/$2.f" 2>/dev/null | head -1)
    [ -n "$bsrc" ] || { echo "no $1/$2.c, .f90 or .f"; return 1; }
    [ -x "$fc" ] || { echo "no mpifort in $prefix/bin (built without Fortran)"; return 1; }
    fh=$here/fortran
    newer "$bexe" "$bsrc" "$fh/avtest_f.c" "$fh/avtest_f.f90" $hdrs "$cc" "$fc" || return 0
    "$cc" -std=c11 -Wall -O2 -g -I"$here/include" -c -o "$bd/avtest_f_c.o" "$fh/avtest_f.c" &&
        "$fc" -O2 -g -J"$bd" -c -o "$bd/avtest_f.o" "$fh/avtest_f.f90" &&
        "$fc" -O2 -g -I"$bd" -o "$bexe" "$bsrc" "$bd/avtest_f.o" "$bd/avtest_f_c.o"
}
newer() {  # EXE FILE...: true when EXE is missing or older than a FILE
    e=$1; shift
    [ -x "$e" ] || return 0
    for f in "$@"; do [ "$f" -nt "$e" ] && return 0; done
    return 1
}

# selection: empty = everything; the arguments that matched go to $matched
matched=""
selected() {  # dir name [DIR|DIR/NAME ...]
    d=$1 n=$2; shift 2
    [ $# -eq 0 ] && return 0
    hit=1
    for s in "$@"; do
        [ "$s" = "$d" ] || [ "$s" = "$d/$n" ] || continue
        hit=0; case " $matched " in *" $s "*) ;; *) matched="$matched $s" ;; esac
    done
    return $hit
}

pass=0 fail=0 nxfail=0 skip=0 t0=$(date +%s)
finish() {
    echo "runtests: total $(( $(date +%s) - t0 ))s, log $log"
    echo "expected failures: $nxfail"
    if [ $skip -gt 0 ]; then echo "skipped: $skip (listed above)"; else echo "skipped: 0"; fi
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}
log=$out/runtests.log
: > "$log"
for cfg in $configs; do
    (config_env "$cfg") > /dev/null 2>&1 && continue
    echo "FAIL AVTEST_CONFIGS: $cfg names no placement"; fail=$((fail + 1))
done
[ -n "$(echo $configs)" ] || { echo "FAIL AVTEST_CONFIGS selects no placement"; fail=$((fail + 1)); }
[ $fail -eq 0 ] || finish
# twonics: the shim, two PCI devices hwloc knows (MPICH asserts on an
# unknown one), and a network namespace of our own; any missing is a failure
case " $configs " in *" twonics "*)
    if [ -z "$list" ]; then
        if ! "$here/twonics-ns.sh" --shim "$out/nicshim.so"; then
            echo "FAIL twonics: nicshim.c does not build"; fail=$((fail + 1))
        elif [ "$("$here/twonics-ns.sh" --pci | tr , ' ' | wc -w)" -lt 2 ]; then
            echo "FAIL twonics: fewer than two PCI devices (not bridges) in /sys/bus/pci/devices"; fail=$((fail + 1))
        elif ! NICSHIM_SO="$out/nicshim.so" unshare -n "$here/twonics-ns.sh" true; then
            echo "FAIL twonics: cannot make a network namespace with two veth NICs (unshare -n, ip)"
            fail=$((fail + 1))
        fi
    fi ;;
esac
[ $fail -eq 0 ] || finish
for tl in "$here"/*/testlist; do
    dir=$(basename "$(dirname "$tl")")
    mkdir -p "$out/$dir"
    # strip comments and blank lines
    grep -v '^[[:space:]]*\(#\|$\)' "$tl" > "$out/$dir/.testlist"
    seen=" "
    while read -r name np rest; do
        # a test listed again at the same size (other env= or arg=) logs to
        # NAME.NP.CFG.N.log, N = its occurrence, so no run's log is overwritten
        nth=$(( $(echo "$seen" | tr ' ' '\n' | grep -cxF "$name.$np") + 1 ))
        seen="$seen$name.$np "
        sfx=""; [ "$nth" -gt 1 ] && sfx=".$nth"
        selected "$dir" "$name" "$@" || continue
        args="" envs="" xfail="" only="" aborts=""
        for w in $rest; do
            case $w in
                configs=*) only=$(echo "${w#configs=}" | tr , ' ') ;;
                arg=*) args="$args ${w#arg=}" ;;
                env=*) envs="$envs ${w#env=}" ;;
                xfail=*) xfail=${w#xfail=} ;;
                aborts=*) aborts=$(echo "${w#aborts=}" | tr '_|' ' \n') ;;
            esac
        done
        for cfg in $only; do
            (config_env "$cfg") > /dev/null 2>&1 && continue
            echo "FAIL $dir/$name np=$np (configs= names no placement: $cfg)"; fail=$((fail + 1))
        done
        # more processes than the launcher has slots (AVTEST_MAXNP, set by
        # test/cluster for srun): a listed skip
        if [ -n "${AVTEST_MAXNP:-}" ] && [ "$np" -gt "$AVTEST_MAXNP" ]; then
            echo "SKIP $dir/$name np=$np (more processes than AVTEST_MAXNP=$AVTEST_MAXNP slots)"
            skip=$((skip + 1)); continue
        fi
        # an entry that runs in no selected placement is a listed skip
        if [ -n "$only" ]; then
            runs=""
            for cfg in $configs; do case " $only " in *" $cfg "*) runs=1 ;; esac; done
            if [ -z "$runs" ]; then
                echo "SKIP $dir/$name np=$np (configs=$(echo $only | tr ' ' ,), none in AVTEST_CONFIGS)"
                skip=$((skip + 1)); continue
            fi
        fi
        exe=$out/$dir/$name
        if [ -z "$list" ] && ! build_test "$dir" "$name" > "$out/$dir/$name.build.log" 2>&1; then
            cat "$out/$dir/$name.build.log" >&2
            echo "FAIL $dir/$name (build)"
            fail=$((fail + 1))
            continue
        fi
        for cfg in $configs; do
            if [ -n "$only" ]; then
                case " $only " in *" $cfg "*) ;; *) continue ;; esac
            fi
            cenv=$(config_env "$cfg") || exit 2
            id="$dir/$name np=$np cfg=$cfg"
            [ -n "$list" ] && { echo "RUN $id"; continue; }
            rlog=$out/$dir/$name.$np.$cfg$sfx.log
            s0=$(date +%s)
            # shellcheck disable=SC2086
            ns=""; [ "$cfg" = twonics ] && ns="unshare -n $here/twonics-ns.sh"
            env $cenv $envs timeout -k 5 "$tmo" $ns "$mpiexec" -n "$np" "$exe" $args > "$rlog" 2>&1 < /dev/null
            rc=$?
            secs=$(( $(date +%s) - s0 ))
            ok=0 timed_out=0
            case $rc in 124|137) timed_out=1 ;; esac
            if [ -n "$aborts" ]; then
                # an error test: the job must end (not time out) with an
                # error whose message holds the text (or one of them: grep
                # -F reads one pattern per line)
                [ $rc -ne 0 ] && [ $timed_out = 0 ] && grep -qF "$aborts" "$rlog" && ok=1
            else
                [ $rc -eq 0 ] && grep -q "No Errors" "$rlog" && ok=1
            fi
            if [ -n "$xfail" ] && [ $ok = 0 ]; then r="XFAIL ($xfail)"; nxfail=$((nxfail + 1))
            elif [ -n "$xfail" ]; then r=XPASS; pass=$((pass + 1))
            elif [ $ok = 1 ]; then r=PASS; pass=$((pass + 1))
            else
                r=FAIL; fail=$((fail + 1))
                [ $timed_out = 1 ] && r="FAIL (timeout ${tmo}s)"
            fi
            echo "$r $id (${secs}s)"
            echo "$r $id (${secs}s) rc=$rc env=[$cenv$envs] log=$rlog" >> "$log"
            case $r in FAIL*) sed 's/^/    /' "$rlog" | head -20 ;; esac
        done
    done < "$out/$dir/.testlist"
done
for s in "$@"; do
    case " $matched " in *" $s "*) continue ;; esac
    echo "FAIL $s (matches no testlist entry)"; fail=$((fail + 1))
done
finish
