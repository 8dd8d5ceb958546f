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
# what the figures measure: the commit, and whether the tree differed from it
# when the run started, apart from this run's own output
commit=$(git -C "$top" rev-parse --short HEAD)
case $out in "$top"/*) excl=":(exclude)${out#"$top"/}" ;; *) excl=":(exclude)bench/out" ;; esac
dirty=$(git -C "$top" status --porcelain --untracked-files=no -- . "$excl" | grep -q . &&
        echo "with uncommitted changes outside $out, ")
"$top/test/insns/run.sh" default "$MPICH_PATCHED" "$work" "$MPICH_STOCK" > "$out/check.txt" 2>&1
rc=$?
cat "$out/check.txt"
cp "$work/cells.csv" "$out/cells.csv" || rc=1
"$top/bench/report" insns "$out" "$commit (${dirty}$(date -u '+%Y-%m-%d %H:%M UTC'))" || rc=1
exit $rc
