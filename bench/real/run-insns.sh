#!/bin/sh
# run-insns.sh [OUTDIR] - issue 25: libmpi's instructions per 8-byte
# MPI_Isend / MPI_Put over OFI, ours against stock MPICH 4.0.2 measured in
# the same run, every map mode and AV kind (stored, computed, on demand over
# tcp;ofi_rxm, shared memory): test/insns/run.sh with the stock build, then
# OUTDIR/cells.csv, OUTDIR/insns.png (ours - stock) and OUTDIR/SUMMARY.md
# (bench/report insns: the table, the command, commit and date). The
# profiles stay in bench/out/insns. Exit status: the check's. Step insns of
# bench/run, which stamps the SUMMARY.md.
# Environment: MPICH_PATCHED, MPICH_STOCK, INSNS_KINDS.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/bench/out/insns-results}
mkdir -p "$out"; out=$(cd "$out" && pwd)
: "${MPICH_PATCHED:=$top/mpich-build/mpich-patched}" "${MPICH_STOCK:=$top/mpich-build/mpich-stock}"
work=$top/bench/out/insns
# what the figures measure, when the run started: the commit, and the count
# of uncommitted files under what libmpi is built from (report.py's
# head_commit, the one label of every report; other steps' results written
# beside this run do not count)
when=$(cd "$top/bench/tools" && python3 -c 'import report; print(report.head_commit())')
"$top/test/insns/run.sh" default "$MPICH_PATCHED" "$work" "$MPICH_STOCK" > "$out/check.txt" 2>&1
rc=$?
cat "$out/check.txt"
cp "$work/cells.csv" "$out/cells.csv" || rc=1
"$top/bench/report" insns "$out" "$when ($(date -u '+%Y-%m-%d %H:%M UTC'))" || rc=1
exit $rc
