#!/bin/sh
# Two jobs of two mpiexecs meet through a port (jobkey.c), run in node1:
#   cluster.sh -n 2 -- jobkey.sh MPIEXEC EXE
# control: distinct job keys (their PMI job ids): both jobs print No Errors.
# clash: one key for both (MPIR_CVAR_AVRM_JOB_KEY=one-key): their active
#   messages' sender ids collide, so each job warns on stderr ("share the
#   AM sender id bits") and goes on: both print No Errors (our messages are
#   tagged sends, not active messages). Before the check nothing was said.
# Passes when both cases do; 2 processes per job.
set -u
mpiexec=$1 exe=$2 dir=$AVCLUSTER_DIR ok=1
pair() {   # NAME ENV...: the two jobs, outputs in $dir/NAME.{a,c}
    name=$1; shift
    rm -f "$dir/$name.port"
    timeout -k 5 40 env "$@" "$mpiexec" -n 2 "$exe" accept "$dir/$name.port" > "$dir/$name.a" 2>&1 &
    a=$!
    timeout -k 5 40 env "$@" "$mpiexec" -n 2 "$exe" connect "$dir/$name.port" > "$dir/$name.c" 2>&1
    rc_c=$?
    wait $a
    rc_a=$?
    echo "jobkey $name: acceptor exited $rc_a, connector $rc_c"
    for f in a c; do sed "s/^/    $name.$f: /" "$dir/$name.$f" | head -8; done
}
pair control MPIR_CVAR_AVRM_JOB_KEY=
[ $rc_a = 0 ] && [ $rc_c = 0 ] && grep -q "^No Errors" "$dir/control.a" &&
    grep -q "^No Errors" "$dir/control.c" || { echo "jobkey: FAIL control"; ok=0; }
for f in a c; do
    grep -q "share the AM sender id bits" "$dir/control.$f" &&
        { echo "jobkey: FAIL control ($f: a collision reported)"; ok=0; }
done
# stock MPICH has no job key (AVTEST_STOCK=1): the control alone
[ "${AVTEST_STOCK:-0}" = 1 ] && { [ $ok = 1 ]; exit; }
pair clash MPIR_CVAR_AVRM_JOB_KEY=one-key
for f in a c; do
    eval "rc=\$rc_$f"
    [ "$rc" = 0 ] && grep -q "^No Errors" "$dir/clash.$f" &&
        grep -q "share the AM sender id bits" "$dir/clash.$f" ||
        { echo "jobkey: FAIL clash ($f: exit $rc, or no No Errors, or no collision reported)"; ok=0; }
done
[ $ok = 1 ]
