#!/bin/sh
# Our MPICH-side files depend on each other one way (doc/design.md, "How
# our code enters MPICH"): file A depends on B when A's object uses a
# global symbol B's object defines. Reads the objects of the configured
# default build (OBJDIR, default mpich-build/mpich-patched-obj): every
# file of ours that MPICH compiles (its name in an `add` line of
# patches/mpich/series). One PASS line with the edges, or FAIL naming a
# circle; an object missing is a failure (the build is older than the
# series). Control: the same search on a graph with a circle must find it.
# Last line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
obj=${1:-$top/mpich-build/mpich-patched-obj}
p=0 f=0
pass() { echo "PASS $*"; p=$((p + 1)); }
fail() { echo "FAIL $*"; f=$((f + 1)); }
# circle EDGES: reads "A B" lines (A depends on B); prints one circle as
# "A -> B -> ... -> A", or nothing
circle() {
    python3 -c '
import sys
E = {}
for line in sys.stdin:
    a, b = line.split()
    E.setdefault(a, set()).add(b); E.setdefault(b, set())
state, path = {}, []
def visit(a):
    state[a] = 1; path.append(a)
    for b in sorted(E[a]):
        if state.get(b) == 1:
            return path[path.index(b):] + [b]
        if b not in state:
            c = visit(b)
            if c: return c
    state[a] = 2; path.pop()
    return None
for a in sorted(E):
    if a not in state:
        c = visit(a)
        if c: print(" -> ".join(c)); break
'
}
c=$(printf 'a b\nb c\nc a\n' | circle)
[ -n "$c" ] && pass "control: a circle is found ($c)" || fail "control: the search misses a circle a -> b -> c -> a"
if [ ! -f "$obj/Makefile" ]; then
    fail "no configured build in $obj (make mpich)"
else
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    missing=""
    for src in $(awk '$1 == "add" && $3 ~ /\.c$/ { print $3 }' "$top/patches/mpich/series"); do
        o=$obj/$(dirname "$src")/.libs/lib_libmpi_la-$(basename "$src" .c).o
        n=$(basename "$src" .c)
        if [ -f "$o" ]; then
            nm --defined-only -g "$o" | awk -v n="$n" 'NF == 3 { print $3, n }' >> "$work/defs"
            nm -u "$o" | awk -v n="$n" '{ print $NF, n }' >> "$work/uses"
        else missing="$missing $src"; fi
    done
    if [ -n "$missing" ]; then
        fail "objects missing (rebuild: make mpich):$missing"
    else
        awk 'NR == FNR { def[$1] = $2; next } ($1 in def) && def[$1] != $2 { print $2, def[$1] }' \
            "$work/defs" "$work/uses" | sort -u > "$work/edges"
        c=$(circle < "$work/edges")
        if [ -z "$c" ]; then
            pass "no circle among $(cut -d' ' -f2 "$work/defs" | sort -u | wc -l) files: $(awk '{ printf "%s%s>%s", sep, $1, $2; sep = ", " }' "$work/edges")"
        else fail "a circle: $c"; fi
    fi
fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
