#!/bin/sh
# Each strategy of avrm_map_translate alone (issue 28): bench-translate at
# the world sizes of SIZES (default 4096,262144), best of REPS (5), then
# bench/report translate: OUTDIR/translate.csv, translate.png and SUMMARY.md.
# Step translate of bench/run, which stamps the SUMMARY.md.
#   run.sh BUILDDIR OUTDIR
set -eu
build=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${SIZES:=4096,262144}" "${REPS:=5}"
[ -x "$build/bench/bench-translate" ] || { echo "missing $build/bench/bench-translate: make it first" >&2; exit 1; }
mkdir -p "$out"; out=$(cd "$out" && pwd)
rm -f "$out/translate.csv" "$out/translate.png" "$out/SUMMARY.md"
t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "+ bench-translate -n $SIZES -r $REPS -o $out/translate.csv"
nice -n "${NICE:-10}" "$build/bench/bench-translate" -n "$SIZES" -r "$REPS" -o "$out/translate.csv"
"$top/bench/report" translate "$out" "$(( $(date +%s) - t0 ))" "$SIZES" "$REPS" "$load0" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
