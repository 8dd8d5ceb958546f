#!/bin/sh
# Turn edits made in an extracted, patched MPICH tree back into one patch.
#   refresh-patch.sh MPICH_TREE NNNN-name.patch FILE...
# Diffs FILE... (paths relative to the tree) against a pristine copy of the
# tarball with the series *before* NNNN applied, and rewrites those files'
# sections of patches/mpich/NNNN-name.patch; its header (lines before the
# first "--- ") and the sections of files not named are kept as they are, so
# a file that a later patch also changes need not be named (its section is
# then edited by hand). New files: pass them too; they show as additions.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "$1" && pwd); name=$2; shift 2
pdir=$top/patches/mpich
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tarball=$("$top/maint/fetch-mpich.sh")
mkdir -p "$tmp/a"; tar -xf "$tarball" -C "$tmp/a" --strip-components=1
# pristine base = tarball + every series entry before $name
sed "/^$name\$/,\$d" "$pdir/series" > "$tmp/series"
(cd "$tmp" && mkdir -p patches/mpich maint && cp "$tmp/series" patches/mpich/series &&
    cp "$pdir"/*.patch patches/mpich/ 2>/dev/null; true)
if [ -s "$tmp/series" ]; then
    while read -r first a b; do
        case "$first" in ''|'#'*) continue ;;
            add) mkdir -p "$(dirname "$tmp/a/$b")"; cp "$top/$a" "$tmp/a/$b" ;;
            *) patch -d "$tmp/a" -p1 -s -f < "$pdir/$first" ;;
        esac
    done < "$tmp/series"
fi
hdr=""
[ -f "$pdir/$name" ] && hdr=$(sed '/^--- /,$d' "$pdir/$name")
{
    [ -n "$hdr" ] && printf '%s\n' "$hdr" || printf 'Why: (write one line)\n\n'
    for f in "$@"; do
        if [ -f "$tmp/a/$f" ]; then
            diff -u --label "a/$f" --label "b/$f" "$tmp/a/$f" "$tree/$f" || true
        else
            diff -u --label /dev/null --label "b/$f" /dev/null "$tree/$f" || true
        fi
    done
} > "$tmp/named.patch"
if [ -f "$pdir/$name" ]; then
    # the old patch's sections of files not named, in their order, then ours
    python3 - "$pdir/$name" "$tmp/named.patch" "$tmp/new.patch" "$@" <<'PY'
import re, sys
old, named, out, files = sys.argv[1], sys.argv[2], sys.argv[3], set(sys.argv[4:])
def sections(text):
    parts = re.split(r'(?m)^(?=--- (?:a/\S+|/dev/null)\n\+\+\+ )', text)
    return parts[0], parts[1:]
_, old_secs = sections(open(old).read())
hdr, new_secs = sections(open(named).read())
def path(sec):
    plus = re.search(r'(?m)^\+\+\+ b/(\S+)', sec)
    return plus.group(1) if plus else None
kept = [x for x in old_secs if path(x) not in files]
open(out, 'w').write(hdr + ''.join(kept) + ''.join(new_secs))
PY
else
    mv "$tmp/named.patch" "$tmp/new.patch"
fi
mv "$tmp/new.patch" "$pdir/$name"
grep -qx "$name" "$pdir/series" || echo "$name" >> "$pdir/series"
echo "refresh-patch: wrote patches/mpich/$name" >&2
