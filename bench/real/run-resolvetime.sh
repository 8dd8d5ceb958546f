#!/bin/sh
# A first contact's cost as ours counts it, in one or more builds,
# interleaved (issue 55):
#   run-resolvetime.sh OUTDIR LABEL PREFIX [LABEL PREFIX ...]
# bench/real/resolvetime.c at RT_NP processes (default 16, one emulated
# node each: MPIR_CVAR_NOLOCAL=1) over tcp;ofi_rxm, RT_REPS rounds
# (default 7) of one run of each build: rank 0 contacts every other rank
# once; the pvars avrm_resolve_time / avrm_peers_resolved give its
# microseconds per first contact (PMI get, AV insert, the word stored).
# Writes OUTDIR/resolvetime.csv (label,rep,np,peers,seconds,us_per_peer)
# and prints each build's median and range. Wall clock on a shared
# machine: compare builds within one run only.
set -eu
[ $# -ge 3 ] && [ $(( ($# - 1) % 2 )) -eq 0 ] ||
    { echo "usage: $0 OUTDIR LABEL PREFIX [LABEL PREFIX ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" && out=$(cd "$1" && pwd)
shift
np=${RT_NP:-16} reps=${RT_REPS:-7}
csv=$out/resolvetime.csv
echo "label,rep,np,peers,seconds,us_per_peer" > "$csv"
builds="$*"
set -- $builds
while [ $# -ge 2 ]; do
    "$2/bin/mpicc" -O2 -o "$out/resolvetime-$1" "$here/resolvetime.c"
    shift 2
done
for rep in $(seq 1 "$reps"); do
    set -- $builds
    while [ $# -ge 2 ]; do
        line=$(FI_PROVIDER="tcp;ofi_rxm" MPIR_CVAR_NOLOCAL=1 timeout 120 \
            "$2/bin/mpiexec" -n "$np" "$out/resolvetime-$1" < /dev/null)
        echo "$1,$rep,$np,$line" >> "$csv"
        shift 2
    done
done
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for lab in dict.fromkeys(r["label"] for r in rows):
    mine = [r for r in rows if r["label"] == lab]
    v = sorted(float(r["us_per_peer"]) for r in mine)
    print("%s: %.1f us per first contact (median of %d runs; %.1f..%.1f), %s peers resolved by rank 0 each"
          % (lab, statistics.median(v), len(v), v[0], v[-1], mine[0]["peers"]))
PY
