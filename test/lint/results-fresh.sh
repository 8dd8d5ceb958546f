#!/bin/sh
# Results that cannot go stale (issue 27 item 2): every set of bench/inputs.txt
# must carry the stamp its benchmark command wrote, with the digest of the
# code it measures as that code is now (maint/results-stamp.py check). Its
# controls, on copies of the insns set's SUMMARY.md: the copy as it is must
# pass, and with one digest digit changed must be reported stale.
# Last line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
chk=$top/maint/results-stamp.py
out=$("$chk" check); rc=$?
echo "$out" | sed '$d'
p=$(echo "$out" | tail -1 | sed 's/ passed.*//') f=$(echo "$out" | tail -1 | sed 's/.* \([0-9]*\) failed/\1/')
[ $rc -eq 0 ] || [ "$f" -gt 0 ] || f=$((f + 1))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/same/insns" "$tmp/changed/insns"
cp "$top/bench/results/insns/SUMMARY.md" "$tmp/same/insns/"
# one hex digit of the digest changed (0 -> 1, anything else -> 0)
sed '1{s/digest=0/digest=1/;t;s/digest=[0-9a-f]/digest=0/}' "$top/bench/results/insns/SUMMARY.md" > "$tmp/changed/insns/SUMMARY.md"
same=$(AVRM_RESULTS_DIR=$tmp/same "$chk" check insns)
changed=$(AVRM_RESULTS_DIR=$tmp/changed "$chk" check insns)
if echo "$same" | grep -q '^PASS insns' && echo "$changed" | grep -q '^FAIL insns: stale'; then
    echo "PASS control: the insns stamp passes as written and fails with its digest changed"; p=$((p + 1))
else
    echo "FAIL control: the checker did not tell the insns stamp from a changed copy"; f=$((f + 1))
fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
