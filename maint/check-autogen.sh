#!/bin/sh
# make check-autogen: MPICH's autogen.sh (-quick) run on a copy of the
# patched tree keeps our sources. MPICH 4.0.2's build never reruns automake
# (our patches edit its generated Makefile.in); a developer
# who does must get the same libmpi, so the Makefile.mk files name our
# sources too. Passes when the .c files the regenerated Makefile.in compiles
# are exactly those of the patched Makefile.in, ours among them.
#   check-autogen.sh PATCHED_TREE OUTDIR
set -u
[ $# -eq 2 ] || { echo "usage: $0 PATCHED_TREE OUTDIR" >&2; exit 2; }
src=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
no() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$out/tree"
cp -a "$src" "$out/tree" || exit 2
if (cd "$out/tree" && ./autogen.sh -quick) > "$out/autogen.log" 2>&1; then
    ok "autogen.sh -quick on the patched tree ($out/autogen.log)"
    python3 - "$src/Makefile.in" "$out/tree/Makefile.in" <<'PY' > "$out/sources.txt"
import re, sys
def sources(path):
    return set(re.findall(r'\bsrc/[A-Za-z0-9_/.-]+\.c\b', open(path).read()))
a, b = sources(sys.argv[1]), sources(sys.argv[2])
ours = sorted(s for s in a if re.search(r'/(ch4_avrm_[a-z_]+|ofi_ondemand_[a-z]+|mpir_avrm_[a-z]+|group_avrm)\.c$', s))
print("ours", len(ours), " ".join(ours))
print(" ".join(["only-patched"] + sorted(a - b)))
print(" ".join(["only-regenerated"] + sorted(b - a)))
PY
    n=$(sed -n 's/^ours \([0-9]*\).*/\1/p' "$out/sources.txt")
    [ "${n:-0}" -ge 8 ] && ok "the patched Makefile.in compiles our $n sources" ||
        no "the patched Makefile.in names ${n:-0} of our sources, expected 8 or more ($out/sources.txt)"
    if grep -qx 'only-patched' "$out/sources.txt" && grep -qx 'only-regenerated' "$out/sources.txt"; then
        ok "the regenerated Makefile.in compiles the same sources"
    else
        no "the source lists differ ($out/sources.txt):"; grep '^only' "$out/sources.txt"
    fi
else
    no "autogen.sh -quick failed: tail of $out/autogen.log:"; tail -20 "$out/autogen.log"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
