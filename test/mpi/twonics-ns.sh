#!/bin/sh
# Two NICs per process on one host, for MPICH's multi-NIC path (the twonics
# placement of runtests.sh, bench/real/run-vciinit.sh's 2xV configurations).
#   twonics-ns.sh --shim SO   build test/mpi/nicshim.c into SO
#   twonics-ns.sh --pci       print the PCI addresses the shim gives the two
#                             NICs: devices hwloc knows, network devices
#                             first, never a bridge (class 0x06: hwloc lists
#                             bridges apart from PCI devices)
#   NICSHIM_SO=SO unshare -n twonics-ns.sh COMMAND...
#       run COMMAND in the new network namespace after giving it two NICs
#       (veth pairs nic0/peer0 and nic1/peer1, nic0 10.77.0.1/24 and nic1
#       10.77.1.1/24, all up) and the environment that makes MPICH use them:
#       libfabric's sockets provider (TWONICS_PROVIDER: another), SO
#       preloaded with NICSHIM_PCI (MPICH counts only PCI NICs, which these
#       providers never report), and MPIR_CVAR_CH4_OFI_MAX_NICS=2
#       (TWONICS_MAX_NICS: another value, -1 for MPICH's default). Every process of the run is on this one
#       host, so traffic to either address stays in the namespace.
set -e
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in
    --shim) exec cc -shared -fPIC -O2 -Wall -o "$2" "$here/nicshim.c" -ldl ;;
    --pci)
        for d in /sys/bus/pci/devices/*; do
            c=$(cat "$d/class" 2>/dev/null) || continue
            case $c in 0x06*) continue ;; 0x02*) k=0 ;; *) k=1 ;; esac
            echo "$k ${d##*/}"
        done | sort | head -2 | cut -d' ' -f2 | paste -sd, -
        exit 0 ;;
esac
: "${NICSHIM_SO:?set NICSHIM_SO to the shim built by twonics-ns.sh --shim}"
ip link set lo up
for i in 0 1; do
    ip link add nic$i type veth peer name peer$i
    ip addr add 10.77.$i.1/24 dev nic$i
    ip link set nic$i up
    ip link set peer$i up
done
NICSHIM_PCI=$("$0" --pci) FI_PROVIDER=${TWONICS_PROVIDER:-sockets} \
    MPIR_CVAR_CH4_OFI_MAX_NICS=${TWONICS_MAX_NICS:-2} LD_PRELOAD=$NICSHIM_SO exec "$@"
