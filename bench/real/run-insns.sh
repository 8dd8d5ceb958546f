#!/bin/sh
# run-insns.sh [OUTDIR] - issue 25: libmpi's instructions per 8-byte
# MPI_Isend / MPI_Put over OFI, ours against stock MPICH 4.0.2 measured in
# the same run, every map mode and AV kind (stored, computed, on demand over
# tcp;ofi_rxm, shared memory): test/insns/run.sh with the stock build, then
# OUTDIR/cells.csv, OUTDIR/insns.png (ours - stock, bench/real/insnsplot.py)
# and OUTDIR/SUMMARY.md (the table, the command, commit and date). The
# profiles stay in bench/out/insns. Exit status: the check's.
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
"$top/test/insns/run.sh" default "$MPICH_PATCHED" "$work" "$MPICH_STOCK" | tee "$out/check.txt"
rc=$?
cp "$work/cells.csv" "$out/cells.csv"
python3 "$top/bench/real/insnsplot.py" "$out/cells.csv" "$out/insns.png"
{
    echo "# libmpi instructions per 8-byte call over OFI, ours vs stock 4.0.2"
    echo
    echo "Command: \`bench/real/run-insns.sh ${1:-}\` at commit $commit"
    echo "(${dirty}$(date -u '+%Y-%m-%d %H:%M UTC')), callgrind on world rank 5 of 6 (bench/real/opcost.c),"
    echo "stock measured in the same run; the computed kind is compared with stock's stored run."
    echo "The test behind it: \`test/insns/run.sh\` against \`test/insns/baseline-default.csv\`."
    echo "Modes are opcost's communicators (bench/real/opcost.c): direct (a world dup), offset"
    echo "(upper half), stride (odd ranks), lut (a random permutation of 6: ours ilut), mlut (the"
    echo "world merged with 3 spawned processes: ours join), mlut-rand (that merge split in random"
    echo "order: ours mlut32); \"ours map\" is the map our library chose. Put direct is on a window"
    echo "over the world (both libraries' shortcut for it)."
    echo
    echo "| kind | op | mode | ours map | ours | stock | ours - stock | verdict |"
    echo "|---|---|---|---|---|---|---|---|"
    python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (r["kind"], r["op"], r["mode"], r["map_mode"], r["ours"], r["stock"], r["ours_minus_stock"], r["verdict"]))
' "$out/cells.csv"
    echo
    echo "![ours - stock](insns.png)"
} > "$out/SUMMARY.md"
# the stamp make check's staleness check reads (bench/inputs.txt, set insns)
"$top/maint/results-stamp.py" write insns "$out/SUMMARY.md"
exit $rc
