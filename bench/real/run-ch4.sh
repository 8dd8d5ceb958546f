#!/bin/sh
# run-ch4.sh [OUTDIR] - issue 7 item 9 (`make bench-ch4`): the av, heap and
# insns steps of run-real.sh on the two MPICH builds, as first measured:
# -n 8 and 16, K=200 creations per shape, FI_PROVIDER from test/mpienv.sh
# (sockets). OUTDIR defaults to bench/out/ch4. Every variable of run-real.sh
# can still be set (e.g. K=1000 is HEAP_K=1000).
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${STEPS:=av heap insns}" "${LIBS:=ours stock}" "${HEAP_NPS:=${NPS:-8 16}}" "${HEAP_K:=${K:-200}}"
export STEPS LIBS HEAP_NPS HEAP_K
export REPORT_COMMAND="bench/real/run-ch4.sh $*"
exec "$top/bench/real/run-real.sh" "${1:-$top/bench/out/ch4}"
