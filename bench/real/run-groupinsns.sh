#!/bin/sh
# Instructions per MPI_Group_translate_ranks call, ours vs stock (issue 14):
# groupinsns.c with rank 0 under callgrind, at each np of NPS (default
# "16 64"). Prints and writes OUTDIR/groupinsns.csv:
#   np,shape,op,stock_insns_per_call,ours_insns_per_call,ours_per_stock
# and OUTDIR/SUMMARY.md (bench/report group-insns: the table, command,
# commit, date). Step group-insns of bench/run, which stamps the SUMMARY.md.
#   run-groupinsns.sh OURS_PREFIX STOCK_PREFIX OUTDIR
set -eu
ours=$1 stock=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${NPS:=16 64}"
mkdir -p "$out"; out=$(cd "$out" && pwd)
. "$top/test/mpienv.sh"
csv=$out/groupinsns.csv
echo "np,shape,op,stock_insns_per_call,ours_insns_per_call,ours_per_stock" > "$csv"
for lib in ours stock; do
    eval prefix=\$$lib
    "$prefix/bin/mpicc" -O2 -I"$here" -o "$out/groupinsns-$lib" "$here/groupinsns.c"
done
for np in $NPS; do
    for lib in ours stock; do
        eval prefix=\$$lib
        rm -f "$out/cg.$lib.$np".*
        MPIR_CVAR_CH4_POLLS_BEFORE_YIELD=1 "$prefix/bin/mpiexec" -n 1 valgrind --tool=callgrind \
            --callgrind-out-file="$out/cg.$lib.$np.%p" "$out/groupinsns-$lib" : \
            -n $((np - 1)) "$out/groupinsns-$lib" > "$out/run.$lib.$np.log" 2>&1
        for f in "$out/cg.$lib.$np".*.*; do
            what=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
            ir=$(sed -n 's/^summary: //p' "$f")
            echo "$what $ir"
        done > "$out/$lib.$np.txt"
    done
    join "$out/stock.$np.txt" "$out/ours.$np.txt" | awk -v np="$np" '{
        split($1, a, "-"); printf "%s,%s,%s,%.0f,%.0f,%.2f\n", np, a[2], a[1], $2 / 1000, $3 / 1000, $3 / $2 }' \
        | sort >> "$csv"
done
"$top/bench/report" group-insns "$out" "$NPS"
column -s, -t "$csv"
