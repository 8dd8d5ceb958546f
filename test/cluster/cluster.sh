#!/bin/sh
# An emulated cluster on this machine: N hosts node1..nodeN, each a set of
# network, UTS, mount and IPC namespaces, with an eth0 (veth) on a bridge
# that lives in a network namespace of its own. Runs one command inside node1,
# set up so that hydra's mpiexec launches across the hosts, then tears
# everything down (also after a failure, an interrupt or the death of this
# script): the whole cluster is one PID namespace (hosts.sh is its init).
#
#   cluster.sh [-n N] [-s SLOTS] [-p block|rr] [--slurm] [--] CMD [ARG ...]
#
#   -n N       hosts, 2..4 (default 2)
#   -s SLOTS   processes per host in the block host file (default 4)
#   -p block   HYDRA_HOST_FILE = hosts.block: node1:SLOTS ... (fill a host first)
#   -p rr      HYDRA_HOST_FILE = hosts.rr: node1:1 ... (round-robin over hosts)
#   --slurm    also start munged + slurmctld on node1 and slurmd on every host
#              (test/cluster/slurm-up.sh); SLURM_CONF is set for CMD
#
# Every host sees the machine's file system (like a shared home), its own
# /etc/hosts naming all hosts (bind mount), /dev/shm and SysV IPC; the hosts
# share the cluster's PID namespace (a host's processes are those in its
# network namespace: test/cluster/procs.sh lists them).
# Host i has address $AVCLUSTER_NET.i/24 on eth0 (AVCLUSTER_NET, default
# 10.99.0); no address, route or link is added to the machine's own network
# namespace and the hosts have no route beyond the bridge.
# CMD runs in node1 in the current directory with, in its environment:
#   AVCLUSTER_DIR     state directory (hosts.block, hosts.rr, NODE.pid, slurm/)
#   AVCLUSTER_HOSTS   "node1 node2 ..."
#   HYDRA_LAUNCHER=ssh HYDRA_LAUNCHER_EXEC=test/cluster/enter.sh (the "ssh"
#                     enters the target host's namespaces), HYDRA_HOST_FILE,
#                     HYDRA_LAUNCHER_SSH_LIMIT(_TIME)=256 (spawn-heavy jobs)
#   FI_SOCKETS_IFACE=eth0 FI_TCP_IFACE=eth0
# Exit status: CMD's; 125 when the cluster could not be set up.
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=2 slots=4 place=block slurm=0
while [ $# -gt 0 ]; do
    case $1 in
        -n) n=$2; shift 2 ;;
        -s) slots=$2; shift 2 ;;
        -p) place=$2; shift 2 ;;
        --slurm) slurm=1; shift ;;
        --) shift; break ;;
        -*) echo "cluster: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { sed -n '8,14p' "$0" >&2; exit 2; }
case $n in 2|3|4) ;; *) echo "cluster: -n must be 2..4" >&2; exit 2 ;; esac
case $place in block|rr) ;; *) echo "cluster: -p block|rr" >&2; exit 2 ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/avcluster.XXXXXX") || exit 125

# teardown: the cluster's PID namespace dies with its init (hosts.sh), which
# dies with unshare; then no process may be left in the hosts' namespaces
teardown() {
    trap '' INT TERM HUP
    [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null
    wait
    cat "$dir"/*.ns > "$dir/ns.all" 2>/dev/null &&
    find /proc -mindepth 3 -maxdepth 3 -path '/proc/[0-9]*/ns/net' -printf '%h %l\n' 2>/dev/null |
        grep -F -f "$dir/ns.all" | sed 's|^/proc/\([0-9]*\)/ns|cluster: LEFTOVER process \1 in|' >&2
    rm -rf "$dir"
}
trap 'rc=$?; teardown; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# in the background so that a signal reaches the trap at once; stdin kept
exec 3<&0
AVCLUSTER_DIR=$dir setpriv --pdeathsig KILL unshare --pid --fork --kill-child --mount-proc \
    "$here/hosts.sh" "$n" "$slots" "$place" "$slurm" "$@" <&3 &
pid=$!
wait $pid
