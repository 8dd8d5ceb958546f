#!/bin/sh
# The benchmark driver's table (bench/steps.ini) is whole: it parses; every
# step prints its commands (bench/run -n, nothing run: a library not built
# is named, not fatal); every `make bench-X` target of bench/local.mk runs
# step X through bench/run and every step but core-quick's variants has
# one; every script a run line names exists. bench/run's environment: a
# knob in the caller's environment does not reach a step (and is named),
# --env does; --table, --env, --build and --lib with another prefix on a stamped
# step are refused without --out, --out inside bench/results and --env of
# a variable the table sets are refused, make bench-X's own form is
# accepted (control). Control: a table whose run line names a library the
# step does not list must be refused.
# Last line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
p=0 f=0
pass() { echo "PASS $*"; p=$((p + 1)); }
fail() { echo "FAIL $*"; f=$((f + 1)); }
steps=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import steps; print(" ".join(steps.read()[1]))' "$top/bench") ||
    { fail "bench/steps.ini does not parse"; echo "$p passed, $f failed"; exit 1; }
[ -n "$steps" ] || fail "bench/steps.ini has no step"
for s in $steps; do
    if out=$("$top/bench/run" -n "$s" 2>/dev/null) && echo "$out" | grep -q '^+ '; then
        missing=$(echo "$out" | sed -n 's/^+ //p' | tr ' ' '\n' | grep -E '^(bench|maint|test)/[^ ]*\.(sh|py)$|^bench/(run|report)$' |
                  while read -r x; do [ -e "$top/$x" ] || echo "$x"; done)
        [ -z "$missing" ] && pass "step $s: bench/run -n prints its commands" ||
            fail "step $s: names missing scripts: $missing"
    else
        fail "step $s: bench/run -n $s failed"
    fi
    group=$(sed -n "s/^\(BENCH_STEPS_[A-Z]*\) = \(.* \)*$s\( .*\)*\$/\1/p" "$top/bench/local.mk")
    if [ -n "$group" ]; then
        grep -A1 "^\$($group:%=bench-%): bench-%:" "$top/bench/local.mk" | grep -q '\$(BENCH_RUN) \$\*$' &&
            pass "make bench-$s runs bench/run $s ($group)" || fail "$group has no rule running bench/run"
    elif grep -q "^bench-$s:" "$top/bench/local.mk"; then
        grep -A1 "^bench-$s:" "$top/bench/local.mk" | grep -q "\$(BENCH_RUN) $s\$" &&
            pass "make bench-$s runs bench/run $s" || fail "make bench-$s does not run bench/run $s"
    else
        fail "step $s has no make bench-$s target"
    fi
done
for t in $(sed -n 's/^bench-\([a-z0-9-]*\):.*/\1/p; s/^BENCH_STEPS_[A-Z]* = //p' "$top/bench/local.mk"); do
    [ "$t" = stale ] && continue
    echo " $steps " | grep -q " $t " || fail "make bench-$t names no step of bench/steps.ini"
done
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
sed 's#^run = bench/real/run-groupinsns.sh {ours} {stock} {out}#run = bench/real/run-groupinsns.sh {ours-vci} {stock} {out}#' \
    "$top/bench/steps.ini" > "$tmp"
if python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import steps; steps.read(sys.argv[2])' "$top/bench" "$tmp" 2>/dev/null; then
    fail "control: a run line naming a library its step does not list was accepted"
else
    grep -q '{ours-vci} {stock} {out}' "$tmp" && pass "control: a run line naming a library its step does not list is refused" ||
        fail "control: the doctored table was not made (the group-insns run line changed?)"
fi
# a step's environment: the caller's knobs do not reach it (and are named
# when its script reads them), --env does; --env and --table on a stamped
# step need --out (what they measure is not the table's set)
d=$(mktemp -d); trap 'rm -f "$tmp"; rm -rf "$d"' EXIT
printf '%s\n' '#!/bin/sh' 'echo "STEPS=${STEPS-unset} X=${X-unset} HOME=${HOME:+set}" > "$1/env.txt"' > "$d/probe.sh"
chmod +x "$d/probe.sh"
printf '%s\n' '[lib core]' 'prefix = .' 'has = bench/steps.ini' 'build = true' '[step probe]' 'libs = core' \
    "run = $d/probe.sh {out}" 'out = bench/out/probe' '[step stamped]' 'libs = core' 'run = true' \
    'out = bench/results/probe' 'inputs = bench/steps.ini' > "$d/t.ini"
STEPS=leak "$top/bench/run" --table "$d/t.ini" --out "$d/o" probe > "$d/log" 2>&1
grep -q '^STEPS=unset X=unset HOME=set$' "$d/o/env.txt" 2>/dev/null && grep -q 'not passed from your environment.*STEPS' "$d/log" &&
    pass "bench/run: a knob left in the caller's environment does not reach a step, and is named" ||
    fail "bench/run: the caller's STEPS reached the step or was not named: $(cat "$d/o/env.txt" "$d/log" 2>&1)"
"$top/bench/run" --table "$d/t.ini" --env X=1 --out "$d/o" probe > "$d/log" 2>&1
grep -q '^STEPS=unset X=1 HOME=set$' "$d/o/env.txt" && pass "bench/run --env X=1 reaches the step" ||
    fail "bench/run --env X=1 did not reach the step: $(cat "$d/o/env.txt")"
# (-n: were a refusal to regress, nothing runs; the refusals come first)
for opt in "--table $d/t.ini stamped" "--env X=1 insns" "--lib ours=$d insns" "--build $d insns" \
           "--out $top/bench/results/insns insns|inside bench/results" \
           "--env STEPS=x --out $d/o comm-memory|the table sets STEPS"; do
    want=${opt#*|}; opt=${opt%%|*}; [ "$want" = "$opt" ] && want="give --out DIR"
    # shellcheck disable=SC2086
    if "$top/bench/run" -n $opt > "$d/log" 2>&1; then
        fail "bench/run $opt was accepted"
    else
        grep -q "$want" "$d/log" && pass "bench/run $opt: refused ($want)" ||
            fail "bench/run $opt failed for another reason: $(cat "$d/log")"
    fi
done
# control: make bench-X's own form (the table's prefixes, here with a
# trailing slash) is accepted for a stamped step
if "$top/bench/run" -n --build "$top" --lib "ours=$top/mpich-build/mpich-patched/" \
       --lib "stock=$top/mpich-build/mpich-stock" insns > "$d/log" 2>&1; then
    pass "control: bench/run -n --lib ours=<the table's prefix>/ insns is accepted"
else
    fail "control: make bench-insns's form was refused: $(cat "$d/log")"
fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
