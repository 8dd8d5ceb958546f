#!/bin/sh
# Fault test, run in node1 of a 2-host cluster:
#   cluster.sh -n 2 -s 4 -p block -- fault.sh MPIEXEC HOSTMAP
# An 8-rank job (hostmap, busy for 60 s) loses one rank on node2 to SIGKILL.
# Passes when mpiexec ends the whole job within 30 s with a nonzero exit and
# an error report (hydra's BAD TERMINATION or a rank's Abort), and no process
# of the job is left on any host.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mpiexec=$1 exe=$2
res=$AVCLUSTER_DIR/fault.out
"$mpiexec" -n 8 "$exe" 2 4 60 > "$res" 2>&1 &
mp=$!
t=0
while victim=$("$here/procs.sh" "$AVCLUSTER_DIR" node2 | awk -v e="$exe" '$3 == e { print $2; exit }')
      [ -z "$victim" ]; do
    [ $t -lt 150 ] || { echo "fault: no rank appeared on node2"; kill $mp; exit 1; }
    sleep 0.2; t=$((t + 1))
done
sleep 2
echo "fault: killing rank process $victim on node2"
kill -KILL "$victim"
t=0
while kill -0 $mp 2>/dev/null; do
    [ $t -lt 60 ] || { echo "fault: mpiexec still running 30 s after the kill"; kill $mp; exit 1; }
    sleep 0.5; t=$((t + 1))
done
wait $mp
rc=$? ok=1
echo "fault: mpiexec exited $rc after $((t / 2)) s; its output:"
sed 's/^/    /' "$res"
[ $rc -ne 0 ] || { echo "fault: mpiexec exited 0"; ok=0; }
# hydra's report of the killed rank, or a surviving rank's abort on the lost
# peer (then mpiexec exits with that abort's code), whichever comes first
grep -q -E "BAD TERMINATION|^Abort\(" "$res" || { echo "fault: no BAD TERMINATION or Abort report"; ok=0; }
# what is still running on the hosts, but this script (procs.sh's parent)
t=0
while "$here/procs.sh" > "$res.all" && grep -v "^node1 $$ " "$res.all" > "$res.left" &&
      [ $t -lt 10 ]; do
    sleep 0.5; t=$((t + 1))
done
[ -s "$res.left" ] && { echo "fault: processes left on the hosts:"; cat "$res.left"; ok=0; }
[ $ok = 1 ] && echo "fault: job ended with an error, no process left on any host"
[ $ok = 1 ]
