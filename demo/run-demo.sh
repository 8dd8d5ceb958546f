#!/bin/sh
# Build and run the communicator demo against an installed MPICH.
#   run-demo.sh PREFIX [NP=8]
# Compiles demo/commdemo.c with PREFIX/bin/mpicc into $DEMO_OUTDIR (default:
# a temporary directory) and runs it with PREFIX/bin/mpiexec -n NP.
# Exit status: the demo's (nonzero when any communicator check failed).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PREFIX [NP]" >&2; exit 2; }
prefix=$(cd "$1" && pwd)
np=${2:-8}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../test/mpienv.sh"
if [ -n "${DEMO_OUTDIR:-}" ]; then
    mkdir -p "$DEMO_OUTDIR"; out=$(cd "$DEMO_OUTDIR" && pwd)
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/commdemo.XXXXXX")
    trap 'rm -rf "$out"' EXIT
fi
"$prefix/bin/mpicc" -std=c11 -Wall -Wextra -O2 -g -o "$out/commdemo" "$here/commdemo.c"
set +e
timeout -k 5 "${DEMO_TIMEOUT:-120}" "$prefix/bin/mpiexec" -n "$np" "$out/commdemo" ${DEMO_SEED:-} < /dev/null
rc=$?
[ $rc -eq 124 ] && echo "run-demo: timed out" >&2
exit $rc
