#!/bin/sh
# Turn edits made in an extracted, patched MPICH tree back into one patch.
#   refresh-patch.sh MPICH_TREE NNNN-name.patch FILE...
# Diffs FILE... (paths relative to the tree) against a pristine copy of the
# tarball with the series *before* NNNN applied, and rewrites
# patches/mpich/NNNN-name.patch keeping its header (lines before the first
# "--- "). New files: pass them too; they show as additions.
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
} > "$tmp/new.patch"
mv "$tmp/new.patch" "$pdir/$name"
grep -qx "$name" "$pdir/series" || echo "$name" >> "$pdir/series"
echo "refresh-patch: wrote patches/mpich/$name" >&2
