#!/bin/sh
# Results sets and their age (maint/results-stamp.py check): every stamped
# step of bench/steps.ini must have the stamp bench/run wrote, over the files
# it wrote: a set without one, or whose files differ from it, fails. A set
# older than the code or settings it measures is listed (STALE) and counted
# ("stale: N"), not failed: tests guard behaviour, benchmarks measure it, and
# make release-check reruns the stale sets. README.md's figures block and
# doc/results.md must be what bench/report readme and results write now,
# a stale set's rows marked. Controls: on copies of the insns set's files,
# with its stamp's digests made current it must pass, and with one digest
# digit changed it must be listed stale, not failed, and fail --strict; a
# hand-edited README figure is rewritten; with that digit changed in a copy
# of bench/results, every insns row of what bench/report readme and results
# write is marked stale, and none with the digests current; in a scratch
# repository, results-stamp.py rebase must take a comment-only change and
# refuse a code change, a changed run line must make a stamp stale, and a
# results file changed after stamping must fail its set, stale or not.
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
# the set's files git does not ignore (its stamp digests them), its nested set rate/ left out
git -C "$top/bench/results/insns" ls-files --cached --others --exclude-standard -- . ':!rate' | while read -r f; do
    for c in same changed; do mkdir -p "$tmp/$c/insns/$(dirname "$f")"; cp "$top/bench/results/insns/$f" "$tmp/$c/insns/$f"; done
done
# its stamp with the inputs and settings digests of the tree as it is (so
# the control does not depend on whether the set is stale), then with one
# hex digit of the digest changed (0 -> 1, anything else -> 0); "-" when
# the digests cannot be read (the control then fails)
set -- $("$chk" digest insns) - -
sed "1s/ digest=[0-9a-f]* / digest=$1 /; 1s/ settings=[0-9a-f]* / settings=$2 /" \
    "$top/bench/results/insns/SUMMARY.md" > "$tmp/same/insns/SUMMARY.md"
sed '1{s/digest=0/digest=1/;t;s/digest=[0-9a-f]/digest=0/}' "$tmp/same/insns/SUMMARY.md" > "$tmp/changed/insns/SUMMARY.md"
same=$(AVRM_RESULTS_DIR=$tmp/same "$chk" check insns); src=$?
changed=$(AVRM_RESULTS_DIR=$tmp/changed "$chk" check insns); crc=$?
strict=$(AVRM_RESULTS_DIR=$tmp/changed "$chk" check --strict insns); trc=$?
if echo "$same" | grep -q '^PASS insns' && [ $src -eq 0 ] &&
    echo "$changed" | grep -q '^STALE insns: figures of' && ! echo "$changed" | grep -q '^PASS insns' &&
    echo "$changed" | grep -q '^stale: 1 (insns' && echo "$changed" | tail -1 | grep -q ' 0 failed$' && [ $crc -eq 0 ] &&
    echo "$strict" | grep -q '^FAIL insns: stale' && [ $trc -ne 0 ]; then
    echo "PASS control: the insns stamp passes with its digests current; with one changed it is listed stale, not failed, and fails --strict"
    p=$((p + 1))
else
    echo "FAIL control: the checker did not tell a current insns stamp from a changed one: $(echo "$same" | sed -n 1p) (exit $src) | $(echo "$changed" | sed -n 1p) (exit $crc) | --strict: $(echo "$strict" | sed -n 1p) (exit $trc)"
    f=$((f + 1))
fi
# doc/results.md is what bench/report writes from the stamps now
if "$top/bench/report" results "$tmp/results.md" && cmp -s "$tmp/results.md" "$top/doc/results.md"; then
    echo "PASS doc/results.md: what \`bench/report results\` writes from the stamps"; p=$((p + 1))
else
    echo "FAIL doc/results.md: not what \`bench/report results doc/results.md\` writes now (run it: seconds, no rerun; it marks stale sets)"; f=$((f + 1))
fi
# README.md's figures block is what bench/report readme writes now; control:
# a copy with one figure changed must differ from what it rewrites
cp "$top/README.md" "$tmp/README.md"
if "$top/bench/report" readme "$tmp/README.md" && cmp -s "$tmp/README.md" "$top/README.md"; then
    echo "PASS README.md: its figures block is what \`bench/report readme\` writes from bench/results"; p=$((p + 1))
else
    echo "FAIL README.md: its figures block is not what \`bench/report readme README.md\` writes now (run it: seconds, no rerun; it marks stale sets)"; f=$((f + 1))
fi
# (on the copy bench/report readme just wrote, so the control does not
# depend on the README's state; the block's first table row gets an x: nor
# on a figure's value)
awk '/^<!-- figures:/ { f = 1 } /^<!-- figures end/ { f = 0 } f && /^\|/ && ++n == 3 { $0 = $0 "x" } { print }' \
    "$tmp/README.md" > "$tmp/README.changed.md"
cp "$tmp/README.changed.md" "$tmp/README.rewritten.md"
if ! cmp -s "$tmp/README.changed.md" "$tmp/README.md" && "$top/bench/report" readme "$tmp/README.rewritten.md" &&
    cmp -s "$tmp/README.rewritten.md" "$tmp/README.md"; then
    echo "PASS control: a hand-edited README figure differs from what bench/report readme writes"; p=$((p + 1))
else
    echo "FAIL control: the README figure was not changed by the control, or not restored by bench/report readme"; f=$((f + 1))
fi
# stale marks: in a copy of bench/results (the files git does not ignore),
# the insns stamp with its digests current, then with one digit changed:
# what bench/report readme and results write marks no insns row, then every
# one of them (and only those: the other rows are the same in both);
# results-stamp.py stale (make release-check's list) names it then only
git -C "$top" ls-files --cached --others --exclude-standard -- bench/results | while read -r f; do
    mkdir -p "$tmp/marked/$(dirname "${f#bench/results/}")"; cp "$top/$f" "$tmp/marked/${f#bench/results/}"
done
cm=$(sed -n '1s/.* commit=\([^ ]*\) .*/\1/p' "$top/bench/results/insns/SUMMARY.md")
for c in same changed; do
    cp "$tmp/$c/insns/SUMMARY.md" "$tmp/marked/insns/SUMMARY.md"
    cp "$top/README.md" "$tmp/README.$c.md"
    AVRM_RESULTS_DIR=$tmp/marked "$top/bench/report" readme "$tmp/README.$c.md" &&
        AVRM_RESULTS_DIR=$tmp/marked "$top/bench/report" results "$tmp/results.$c.md" || echo > "$tmp/results.$c.md"
    AVRM_RESULTS_DIR=$tmp/marked "$chk" stale > "$tmp/stale.$c"
done
rows=$(grep -c '^|.*\[insns\](bench/results/insns/SUMMARY.md)' "$tmp/README.changed.md")
if [ "$rows" -gt 0 ] && ! grep -q '(stale: .*\[insns\]\|\[insns\].*(stale: ' "$tmp/README.same.md" &&
    [ "$(grep -c "\[insns\](bench/results/insns/SUMMARY.md).* (stale: code changed since $cm) |\$" "$tmp/README.changed.md")" -eq "$rows" ] &&
    [ "$(grep -v '\[insns\]' "$tmp/README.same.md")" = "$(grep -v '\[insns\]' "$tmp/README.changed.md")" ] &&
    grep '^| insns |' "$tmp/results.same.md" | grep -qv '(stale: ' &&
    grep '^| insns |' "$tmp/results.changed.md" | grep -q " (stale: code changed since $cm) |" &&
    [ "$(grep -v '^| insns |' "$tmp/results.same.md")" = "$(grep -v '^| insns |' "$tmp/results.changed.md")" ] &&
    ! grep -qx 'bench/run insns' "$tmp/stale.same" && grep -qx 'bench/run insns' "$tmp/stale.changed" &&
    [ "$(grep -vx 'bench/run insns' "$tmp/stale.changed")" = "$(cat "$tmp/stale.same")" ]; then
    echo "PASS control: bench/report readme and results mark the $rows README rows and the index row of a stale insns set, and none when it is fresh; results-stamp.py stale names it then only"
    p=$((p + 1))
else
    echo "FAIL control: the stale insns set's rows were not marked by bench/report readme and results (or a fresh one's were)"
    f=$((f + 1))
fi
# rebase's controls, in a scratch repository with the stamp tool and a
# one-step table: a change to comments (shell) and a docstring and comment
# (Python) may be rebased and then passes; a change to code may not (the set
# stays stale); a stamp with settings fails once the step's run line changes.
g=$tmp/repo
mkdir -p "$g/maint" "$g/bench/results/toy" "$g/src"
cp "$chk" "$g/maint/"; cp "$top/bench/steps.py" "$g/bench/"
printf '[inputs]\n@toy = src\n[step toy]\nrun = true\nout = bench/results/toy\ninputs = @toy\n' > "$g/bench/steps.ini"
printf '#!/bin/sh\n# a comment\necho 1\n' > "$g/src/toy.sh"
printf '"""a docstring"""\nX = 1  # a comment\n' > "$g/src/toy.py"
echo "# toy" > "$g/bench/results/toy/SUMMARY.md"
(cd "$g" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm toy &&
 maint/results-stamp.py write toy bench/results/toy/SUMMARY.md && git add -A &&
 git -c user.name=t -c user.email=t@t commit -qm stamped) >/dev/null 2>&1
sed -i 's/# a comment/# another comment/; s/a docstring/another docstring/' "$g/src/toy.sh" "$g/src/toy.py"
r1=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
"$g/maint/results-stamp.py" rebase toy >/dev/null 2>&1; rc2=$?
r2=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
sed -i 's/echo 1/echo 2/' "$g/src/toy.sh"
"$g/maint/results-stamp.py" rebase toy >/dev/null 2>&1; rc3=$?
r3=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
sed -i 's/echo 2/echo 1/; s/^run = true/run = false/' "$g/src/toy.sh" "$g/bench/steps.ini"
r4=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
case "$r1|$rc2|$r2|$rc3|$r3|$r4" in
"STALE toy: figures of"*"|0|PASS toy"*"|1|STALE toy: figures of"*"|STALE toy: its libs, env or run lines"*)
    echo "PASS control: rebase takes a change to comments and docstrings and refuses a code change (the set stays stale); a changed run line is stale"
    p=$((p + 1)) ;;
*)  echo "FAIL control: rebase or the settings check misbehaved: $r1 | $rc2 | $r2 | $rc3 | $r3 | $r4"
    f=$((f + 1)) ;;
esac
# outputs: the toy set's stamp digests its files; restored to its run line
# it passes, then a results file edited after stamping fails it, and
# rebase refuses it; once its code changes too (stale) it still fails
sed -i 's/^run = false/run = true/' "$g/bench/steps.ini"
echo "1,2" > "$g/bench/results/toy/figures.csv"
(cd "$g" && maint/results-stamp.py write toy bench/results/toy/SUMMARY.md) >/dev/null 2>&1
o1=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
echo "1,3" > "$g/bench/results/toy/figures.csv"
o2=$("$g/maint/results-stamp.py" check toy | sed -n 1p)
"$g/maint/results-stamp.py" rebase toy >/dev/null 2>&1; orc=$?
sed -i 's/echo 1/echo 3/' "$g/src/toy.sh"
o3=$("$g/maint/results-stamp.py" check toy); o3rc=$?
o3=$(echo "$o3" | sed -n 1p)
case "$o1|$o2|$orc|$o3|$o3rc" in
"PASS toy"*"files unchanged|FAIL toy: its files changed since they were stamped"*"|1|FAIL toy: its files changed since they were stamped"*"|1")
    echo "PASS control: a results file changed after its set was stamped fails the check, stale or not, and rebase refuses it"
    p=$((p + 1)) ;;
*)  echo "FAIL control: the outputs digest misbehaved: $o1 | $o2 | rebase exit $orc | stale: $o3 (exit $o3rc)"
    f=$((f + 1)) ;;
esac
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
