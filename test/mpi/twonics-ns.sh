#!/bin/sh
# twonics-ns.sh COMMAND...: run COMMAND in the network namespace this script
# is started in (runtests.sh's twonics placement: `unshare -n twonics-ns.sh
# mpiexec ...`) after giving it two NICs: veth pairs nic0/peer0 and
# nic1/peer1, nic0 10.77.0.1/24 and nic1 10.77.1.1/24, all up. Every
# process of the run is on this one host, so traffic to either address stays
# in the namespace (the kernel delivers it locally). nicshim.so makes MPICH
# count nic0 and nic1 as two PCI NICs.
#   twonics-ns.sh --pci: print the PCI addresses nicshim.so should give the
# two NICs (NICSHIM_PCI): two devices hwloc knows, network devices first,
# never a bridge (class 0x06: hwloc lists bridges apart from PCI devices).
set -e
if [ "${1:-}" = --pci ]; then
    for d in /sys/bus/pci/devices/*; do
        c=$(cat "$d/class" 2>/dev/null) || continue
        case $c in 0x06*) continue ;; 0x02*) k=0 ;; *) k=1 ;; esac
        echo "$k ${d##*/}"
    done | sort | head -2 | cut -d' ' -f2 | paste -sd, -
    exit 0
fi
ip link set lo up
for i in 0 1; do
    ip link add nic$i type veth peer name peer$i
    ip addr add 10.77.$i.1/24 dev nic$i
    ip link set nic$i up
    ip link set peer$i up
done
exec "$@"
