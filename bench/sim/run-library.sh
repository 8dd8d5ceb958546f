#!/bin/sh
# The whole library's O(P) state per process
# (address layer, communicators' node hierarchies, the node map), simulated
# by bench-memory, ours vs the MODELs of MPICH 4.0.2 and main (issue 14):
#   run-library.sh BUILDDIR [OUTDIR]     (default BUILDDIR/bench/out/library-memory)
# Scenarios (16 processes per node): split100 and dup100 (the paper's Figs
# 9-10), reorder10 (irregular communicators: table hierarchies), spawn10
# (dynamic processes: no node ids). N: LIBMEM_NS (default 8192,65536,262144,786432).
# Writes memory.csv, library.csv, slopes.csv, library.png and SUMMARY.md (the
# table at the largest N and the slopes: bench/report library). Step
# library-memory of bench/run, which stamps the SUMMARY.md.
set -eu
b=$(cd "$1" && pwd)
out=${2:-$b/bench/out/library-memory}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$b/bench/bench-memory" -n "${LIBMEM_NS:-8192,65536,262144,786432}" \
    -s split100,dup100,reorder10,spawn10 -o "$out/memory.csv"
{
    echo "# Whole-library O(P) memory per process, simulated"
    echo
    echo "Command: \`bench/run library-memory\` (bench/sim/run-library.sh): bench-memory"
    echo "runs the real libavrm (ours) and the MODELs of MPICH 4.0.2 and main (bench/models/models.c"
    echo "says what each keeps) for one process; 16 processes per node. Files: memory.csv"
    echo "(bench-memory's rows), library.csv, slopes.csv (least squares of the whole library"
    echo "against N: bytes per process of the world), library.png."
    echo
    "$here/../report" library "$out"
} > "$out/SUMMARY.md"
cat "$out/SUMMARY.md"
