#!/bin/sh
# Install every Debian package the project needs (build, tests, benchmarks).
# Idempotent; run as root on a fresh Debian bookworm machine.
# slurm-wlm (slurmctld, slurmd, srun; mpi_pmi2 and mpi_pmix_v4 plugins) and munge:
# the cluster test phase (test/cluster) runs them inside emulated hosts (iproute2:
# veth links and a bridge between those hosts). gfortran: MPICH's Fortran
# bindings. libmpich-dev (Debian's mpif90.mpich) and nwchem-mpich: Fortran
# programs built against Debian's MPICH for the drop-in phase (test/dropin).
# patchelf: make install relocates RUNPATHs; lmod: the module file's test;
# fakeroot: make deb. With --deb also lintian (make check-deb runs it; left
# out of the default set: its Perl stack would only lengthen CI's setup).
set -eu
PKGS="build-essential gfortran autoconf automake libtool pkg-config ccache xz-utils dpkg-dev
      libfabric-dev libhwloc-dev libpmix-dev
      valgrind gnuplot-nox clang llvm libclang-rt-14-dev
      netpipe-mpich2 scalapack-mpi-test libscalapack-mpich2.2 scalapack-test-common libmpich12
      libmpich-dev nwchem-mpich
      openmpi-bin libopenmpi-dev python3
      slurm-wlm munge iproute2 patchelf lmod fakeroot"
[ "${1:-}" = --deb ] && PKGS="$PKGS lintian"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages:$missing (run as root)" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $missing
