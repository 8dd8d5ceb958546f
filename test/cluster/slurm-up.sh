#!/bin/sh
# Start Slurm on the emulated hosts of test/cluster/cluster.sh (which calls
# it for --slurm and stops everything with the hosts):
#
#   AVCLUSTER_DIR=DIR slurm-up.sh HOST1 HOST2 ...
#
# munged (its own key and socket in DIR/slurm) and slurmctld on HOST1, one
# slurmd per host (each sees its own hostname: node name = hostname).
# No cgroups: proctrack/linuxproc, task/none; root runs everything. Each host
# has CPUs=8 whatever the machine has (config_overrides), so `srun -N 2 -n 8`
# and `-N 4 -n 8` fit. Writes DIR/slurm/slurm.conf; waits until every node
# is idle (up to 30 s). Logs: DIR/slurm/*.log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
d=$AVCLUSTER_DIR/slurm
mkdir -p "$d/ctld"
head=$1 n=$#
nodes=$(echo "$@" | tr ' ' ,)
mungekey -c -k "$d/munge.key"
cat > "$d/slurm.conf" <<EOF
ClusterName=avcluster
SlurmctldHost=$head
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/ctld
SlurmdSpoolDir=$d/spool.%n
TmpFS=/var/tmp
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
KillWait=5
NodeName=$nodes CPUs=8 State=UNKNOWN
PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$d/slurm.conf
"$here/enter.sh" "$head" munged --force --socket="$d/munge.sock" --key-file="$d/munge.key" \
    --pid-file="$d/munged.pid" --log-file="$d/munged.log" --seed-file="$d/munged.seed"
"$here/enter.sh" "$head" slurmctld -f "$SLURM_CONF"
for h in "$@"; do mkdir -p "$d/spool.$h"; "$here/enter.sh" "$h" slurmd -f "$SLURM_CONF"; done
t=0
while [ "$("$here/enter.sh" "$head" sinfo -h -t idle -o %D 2>/dev/null)" != "$n" ]; do
    [ $t -lt 60 ] || { echo "slurm-up: nodes not idle after 30 s:" >&2
                       "$here/enter.sh" "$head" sinfo -N >&2; tail -5 "$d"/*.log >&2; exit 1; }
    sleep 0.5; t=$((t + 1))
done
echo "slurm-up: $n nodes idle ($nodes), SLURM_CONF=$SLURM_CONF" >&2
