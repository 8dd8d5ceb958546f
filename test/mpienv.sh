# Environment for running MPI programs built against our MPICH (CH4/OFI) on
# a single host with loopback networking and oversubscribed cores.
# Sourced by demo/run-demo.sh, test/mpi/runtests.sh, test/mpich-suite/run.sh
# and test/dropin/run.sh; a value already set in the environment wins.

# libfabric provider for the OFI netmod (see the note in test/README.md).
: "${FI_PROVIDER:=sockets}"
export FI_PROVIDER
# hydra: start every process locally, no ssh
: "${HYDRA_LAUNCHER:=fork}"
export HYDRA_LAUNCHER
# Oversubscribed cores (8-16 ranks on 2 cores): yield in blocking waits after
# this many polls without progress. Our patch ch4-progress-yield-cvar adds the CVAR (default 0);
# the stock build ignores it.
: "${MPIR_CVAR_CH4_POLLS_BEFORE_YIELD:=1}"
export MPIR_CVAR_CH4_POLLS_BEFORE_YIELD
