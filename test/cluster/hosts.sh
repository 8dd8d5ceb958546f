#!/bin/sh
# The inside of test/cluster/cluster.sh: runs as init of the cluster's PID
# namespace (so every process of the cluster dies with it, and it reaps
# orphans), builds the hosts and runs the command in node1.
#
#   AVCLUSTER_DIR=DIR hosts.sh N SLOTS PLACEMENT SLURM CMD [ARG ...]
#
# Host i: network, UTS, mount and IPC namespaces held by a `sleep`, hostname
# nodei, eth0 = veth to br0 in the bridge's own network namespace, address
# $AVCLUSTER_NET.i/24, /etc/hosts (bind mount) naming every host, own /dev/shm,
# own /var/tmp (DIR/nodei.var-tmp: Slurm's TmpFS, where its PMIx plugin makes
# per-job directories whose names do not say the host; /tmp stays shared).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$AVCLUSTER_DIR n=$1 slots=$2 place=$3 slurm=$4
shift 4
net=${AVCLUSTER_NET:-10.99.0}
log() { echo "cluster: $*" >&2; }

# holder NAME: a process holding new namespaces for host NAME
holder() {
    unshare --uts --net --ipc --mount sh -c '
        hostname "$1" && mount --bind "$2" /etc/hosts &&
        mount -t tmpfs -o mode=1777 shm /dev/shm && mkdir -m 1777 "$4" &&
        mount --bind "$4" /var/tmp && ip link set lo up &&
        touch "$3" && exec sleep infinity' sh "$1" "$dir/hosts" "$dir/$1.ready" "$dir/$1.var-tmp" &
    t=0
    while [ ! -e "$dir/$1.ready" ]; do
        kill -0 $! 2>/dev/null && [ $t -lt 100 ] || { log "cannot create host $1"; return 1; }
        sleep 0.1; t=$((t + 1))
    done
    echo $! > "$dir/$1.pid"
    readlink "/proc/$!/ns/net" > "$dir/$1.ns"
}

hosts="" i=1
{
    echo "127.0.0.1 localhost"
    while [ $i -le "$n" ]; do
        echo "$net.$i node$i"; hosts="$hosts node$i"; i=$((i + 1))
    done
} > "$dir/hosts"
hosts=${hosts# }
: > "$dir/hosts.block"; : > "$dir/hosts.rr"
for h in $hosts; do
    echo "$h:$slots" >> "$dir/hosts.block"; echo "$h:1" >> "$dir/hosts.rr"
done

holder bridge || exit 125
br=$(cat "$dir/bridge.pid")
inbr() { nsenter -t "$br" -n "$@"; }
inbr ip link add br0 type bridge && inbr ip link set br0 up || exit 125
i=1
for h in $hosts; do
    holder "$h" || exit 125
    pid=$(cat "$dir/$h.pid")
    inbr ip link add "veth$i" type veth peer name eth0 netns "$pid" &&
    inbr ip link set "veth$i" master br0 up &&
    nsenter -t "$pid" -n ip addr add "$net.$i/24" dev eth0 &&
    nsenter -t "$pid" -n ip link set eth0 up || { log "cannot link $h"; exit 125; }
    i=$((i + 1))
done
log "$n hosts up ($hosts, $net.0/24, state $dir)"

if [ "$slurm" = 1 ]; then
    "$here/slurm-up.sh" $hosts || { log "slurm did not start"; exit 125; }
    SLURM_CONF=$dir/slurm/slurm.conf; export SLURM_CONF
fi

export AVCLUSTER_HOSTS="$hosts"
export HYDRA_LAUNCHER=ssh HYDRA_LAUNCHER_EXEC="$here/enter.sh" HYDRA_HOST_FILE="$dir/hosts.$place"
# hydra starts at most LIMIT (8) ssh connections per host in LIMIT_TIME (15) s
# (sshd's MaxStartups is 10) and prints a WARNING for each wait, which fails
# spawn-heavy tests; enter.sh has no such limit. Hydra 4.0.2 sizes its table
# by LIMIT_TIME but fills LIMIT entries (heap corruption when LIMIT is larger),
# so both are raised together.
export HYDRA_LAUNCHER_SSH_LIMIT=256 HYDRA_LAUNCHER_SSH_LIMIT_TIME=256
export FI_SOCKETS_IFACE=eth0 FI_TCP_IFACE=eth0
nsenter -t "$(cat "$dir/node1.pid")" -u -n -m -i --wd="$PWD" -- "$@"
