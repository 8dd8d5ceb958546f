# Sourced by bench/real/run-ondemand.sh and bench/real/run-ondemand-pmi.sh:
# the environment of one library's run in the on-demand benchmarks, one
# NAME=VALUE per line (callers pass it to env unquoted).
#   ondemand_lib_env LIB YIELDSHIM
# ours-ondemand asks for on-demand addressing (it engages where the provider
# allows it; the report says why not), ours-eager turns it off, stock gets
# the yield shim preloaded: stock spins in blocking waits, which on
# oversubscribed cores costs a scheduler slice per wait (ours yields through
# MPIR_CVAR_CH4_POLLS_BEFORE_YIELD, set by test/mpienv.sh).
ondemand_lib_env() {
    case $1 in
        ours-ondemand) echo "MPIR_CVAR_AVRM_ON_DEMAND_AV=1" ;;
        ours-eager) echo "MPIR_CVAR_AVRM_ON_DEMAND_AV=0" ;;
        stock) echo "LD_PRELOAD=$2 MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=0" ;;
    esac
}
