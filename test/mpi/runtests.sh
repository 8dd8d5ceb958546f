#!/bin/sh
# Our MPI tests: compile with PREFIX/bin/mpicc, run every testlist entry
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
# testlist lines: name nprocs [arg=ARG ...] [env=VAR=VAL ...] [configs=a,b]
#                 [xfail=reason]
# configs= limits an entry to some placements (large sizes run in one or two
# placements each to keep the whole run near 6 minutes on 2 cores).
# A run passes when it exits 0 and prints "No Errors"; an xfail entry (one
# line: one test at one np) that fails is reported XFAIL and counted as
# neither passed nor failed, one that passes is reported XPASS (passed).
# A configs= name that is no placement is a failure of that entry.
# AVTEST_TIMEOUT: seconds per run (default 60).
set -u
[ $# -ge 2 ] || { echo "usage: $0 PREFIX OUTDIR [DIR|DIR/NAME ...]" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../mpienv.sh"

configs=${AVTEST_CONFIGS:-"shm nolocal oddeven block3"}
tmo=${AVTEST_TIMEOUT:-60}
cc=$prefix/bin/mpicc mpiexec=$prefix/bin/mpiexec
[ -x "$cc" ] && [ -x "$mpiexec" ] || { echo "runtests: no mpicc/mpiexec in $prefix/bin" >&2; exit 2; }

config_env() {
    case $1 in
        shm) echo "" ;;
        nolocal) echo "MPIR_CVAR_NOLOCAL=1" ;;
        oddeven) echo "MPIR_CVAR_ODD_EVEN_CLIQUES=1" ;;
        block3) echo "MPIR_CVAR_NUM_CLIQUES=3 MPIR_CVAR_CLIQUES_BY_BLOCK=1" ;;
        *) echo "runtests: unknown config $1" >&2; exit 2 ;;
    esac
}

# selection: empty = everything
selected() {  # dir name
    [ $# -ge 2 ] || return 0
    d=$1 n=$2; shift 2
    [ $# -eq 0 ] && return 0
    for s in "$@"; do
        [ "$s" = "$d" ] || [ "$s" = "$d/$n" ] && return 0
    done
    return 1
}

pass=0 fail=0 nxfail=0 t0=$(date +%s)
log=$out/runtests.log
: > "$log"
for tl in "$here"/*/testlist; do
    dir=$(basename "$(dirname "$tl")")
    mkdir -p "$out/$dir"
    # strip comments and blank lines
    grep -v '^[[:space:]]*\(#\|$\)' "$tl" > "$out/$dir/.testlist"
    while read -r name np rest; do
        selected "$dir" "$name" "$@" || continue
        exe=$out/$dir/$name
        src=$here/$dir/$name.c
        if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$here/include/avtest.h" -nt "$exe" ] ||
           [ "$cc" -nt "$exe" ]; then
            if ! "$cc" -std=c11 -Wall -Wextra -O2 -g -I"$here/include" -o "$exe" "$src" \
                    > "$out/$dir/$name.build.log" 2>&1; then
                cat "$out/$dir/$name.build.log" >&2
                echo "FAIL $dir/$name (build)"
                fail=$((fail + 1))
                continue
            fi
        fi
        args="" envs="" xfail="" only=""
        for w in $rest; do
            case $w in
                configs=*) only=$(echo "${w#configs=}" | tr , ' ') ;;
                arg=*) args="$args ${w#arg=}" ;;
                env=*) envs="$envs ${w#env=}" ;;
                xfail=*) xfail=${w#xfail=} ;;
            esac
        done
        for cfg in $only; do
            (config_env "$cfg") > /dev/null 2>&1 && continue
            echo "FAIL $dir/$name np=$np (configs= names no placement: $cfg)"; fail=$((fail + 1))
        done
        for cfg in $configs; do
            if [ -n "$only" ]; then
                case " $only " in *" $cfg "*) ;; *) continue ;; esac
            fi
            cenv=$(config_env "$cfg") || exit 2
            id="$dir/$name np=$np cfg=$cfg"
            rlog=$out/$dir/$name.$np.$cfg.log
            s0=$(date +%s)
            # shellcheck disable=SC2086
            env $cenv $envs timeout -k 5 "$tmo" "$mpiexec" -n "$np" "$exe" $args > "$rlog" 2>&1 < /dev/null
            rc=$?
            secs=$(( $(date +%s) - s0 ))
            ok=0
            [ $rc -eq 0 ] && grep -q "No Errors" "$rlog" && ok=1
            if [ -n "$xfail" ] && [ $ok = 0 ]; then r="XFAIL ($xfail)"; nxfail=$((nxfail + 1))
            elif [ -n "$xfail" ]; then r=XPASS; pass=$((pass + 1))
            elif [ $ok = 1 ]; then r=PASS; pass=$((pass + 1))
            else
                r=FAIL; fail=$((fail + 1))
                [ $rc -eq 124 ] || [ $rc -eq 137 ] && r="FAIL (timeout ${tmo}s)"
            fi
            echo "$r $id (${secs}s)"
            echo "$r $id (${secs}s) rc=$rc env=[$cenv$envs] log=$rlog" >> "$log"
            case $r in FAIL*) sed 's/^/    /' "$rlog" | head -20 ;; esac
        done
    done < "$out/$dir/.testlist"
done
echo "runtests: total $(( $(date +%s) - t0 ))s, log $log"
echo "expected failures: $nxfail"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
