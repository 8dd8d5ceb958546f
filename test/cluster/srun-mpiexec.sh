#!/bin/sh
# An mpiexec that launches through Slurm: srun $AVCLUSTER_SRUN_ARGS ARGS...
# (default --mpi=pmi2). test/cluster/run.sh links it as bin/mpiexec of a
# launcher prefix (beside the build's mpicc), so that demo/run-demo.sh and
# test/mpi/runtests.sh run their `mpiexec -n N prog` jobs under srun unchanged.
exec srun ${AVCLUSTER_SRUN_ARGS:---mpi=pmi2} "$@"
