#!/bin/sh
# "ssh" into an emulated host of test/cluster/cluster.sh: runs a command in
# the host's network, UTS, mount and IPC namespaces.
#
#   enter.sh [-x] [USER@]HOST [CMD ...]
#
# Hydra's ssh launcher calls it (HYDRA_LAUNCHER_EXEC) as `enter.sh -x HOST
# "proxy" ARGS...`; like ssh, the words of CMD are joined by spaces and run
# by sh -c. Without CMD: an interactive sh. The cluster is the one in
# $AVCLUSTER_DIR (set by cluster.sh); the working directory is kept (the
# hosts share the file system). Exit status: CMD's, 255 when HOST is unknown.
[ "${1:-}" = -x ] && shift
[ $# -ge 1 ] || { echo "usage: enter.sh [-x] HOST [CMD ...]" >&2; exit 255; }
host=${1#*@}; shift
pid=$(cat "${AVCLUSTER_DIR:-/nonexistent}/$host.pid" 2>/dev/null) ||
    { echo "enter.sh: no host $host in cluster '${AVCLUSTER_DIR:-}'" >&2; exit 255; }
[ $# -gt 0 ] || set -- exec sh -i
exec nsenter -t "$pid" -u -n -m -i --wd="$PWD" -- sh -c "$*"
