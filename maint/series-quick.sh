#!/bin/sh
# The quick check of every prefix of the patch series: minutes, not the
# hours of maint/series-prefixes.sh (a configure and a build per prefix).
#   series-quick.sh [FIRST [LAST]]     (patch numbers, default every patch)
# Advances one scratch tree of the release with maint/apply-patches.sh on
# the series cut after each patch k in FIRST..LAST; at each it compiles
# (-O0 -c) our added files, every .c file a patch up to k changed and the
# CVAR table, with the compile line of the configured
# default build (mpich-build/mpich-patched-obj: its generated headers stand
# in for the prefix's own), then looks for the link: a symbol of MPICH or
# libavrm (MPI*, MPIR_*, MPII_*, MPID*, MPIU_*, avrm_*) that those objects
# use and none of them, libavrm_pic.a or a stock object of a file not
# compiled here (mpich-build/mpich-stock-obj) defines. One line per prefix:
#   PASS 0015-groups-on-avrm.patch
#   FAIL 0016-...: compile src/...c (first error) | link SYMBOL (object)
# then "N passed, N failed". What it cannot see: a generated header that
# differs between prefixes (CVARs are regenerated per prefix, configure's
# output is not), ch3/ucx/gpu/romio sources (not in the default build),
# and behaviour; series-prefixes.sh builds and links each prefix for real.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pdir=$top/patches/mpich
obj=$top/mpich-build/mpich-patched-obj
stockobj=$top/mpich-build/mpich-stock-obj
first=${1:-0001} last=${2:-9999}
for d in "$obj" "$stockobj"; do
    [ -f "$d/Makefile" ] || { echo "series-quick: $d is not configured (make mpich mpich-stock)" >&2; exit 2; }
done
[ -f "$top/libavrm_pic.a" ] || { echo "series-quick: make libavrm_pic.a first" >&2; exit 2; }
tarball=$("$top/maint/fetch-mpich.sh") || exit 2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tree=$work/tree; mkdir -p "$tree" "$work/o"
tar -xf "$tarball" -C "$tree" --strip-components=1
src=$(sed -n 's/^abs_top_srcdir = //p' "$obj/Makefile")
# the compile line of one libmpi source of the configured build, its source
# tree replaced by the scratch tree
flags=$(cd "$obj" && make -n -W "$src/src/mpid/ch4/src/ch4_avrm_comm.c" \
        src/mpid/ch4/src/lib_libmpi_la-ch4_avrm_comm.lo 2>/dev/null |
    sed -n 's/.*--mode=compile ccache gcc //p; s/.*--mode=compile gcc //p' | head -1 |
    sed "s/ -MT .*//; s| -O2||; s|$src|$tree|g")
[ -n "$flags" ] || { echo "series-quick: no compile line in $obj" >&2; exit 2; }
# stock definitions: symbol and source file of every global a stock libmpi
# object defines
(cd "$stockobj" && find . -path '*/.libs/lib_libmpi_la-*.o' | while read -r o; do
    s=$(echo "$o" | sed 's|^\./||; s|/\.libs/lib_libmpi_la-|/|; s|\.o$|.c|')
    nm --defined-only -g "$o" 2>/dev/null | awk -v s="$s" 'NF == 3 { print $3, s }'
done) > "$work/stock.defs"
nm --defined-only -g "$top/libavrm_pic.a" 2>/dev/null | awk 'NF == 3 { print $3 }' > "$work/core.defs"
# the tree is advanced by maint/apply-patches.sh itself (it copies the adds,
# applies what is not applied yet and regenerates the CVAR tables when an
# entry brings a CVAR block), on the series cut after each patch
# (maint/series-cut.sh)
repo=$work/repo
pass=0; fail=0
for e in $(awk '$1 ~ /^[0-9]+-.*\.patch$/ { print $1 }' "$pdir/series"); do
    n=$(echo "$e" | cut -c1-4)
    [ "$n" -lt "$first" ] && continue
    [ "$n" -gt "$last" ] && break
    "$top/maint/series-cut.sh" "$repo" "$n" &&
        "$repo/maint/apply-patches.sh" "$tree" > "$work/apply.log" 2>&1 ||
        { echo "FAIL $e: apply ($(tail -1 "$work/apply.log"))"; fail=$((fail + 1)); break; }
    # our added .c files, every .c file a patch so far changed, the CVAR table
    files="$(awk '$1 == "add" && $3 ~ /\.c$/ { print $3 }' "$repo/patches/mpich/series")
$(awk '$1 ~ /\.patch$/ { print $1 }' "$repo/patches/mpich/series" | while read -r q; do
        sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$pdir/$q"; done)
src/util/mpir_cvars.c"
    rm -f "$work"/o/*.o; verdict=""; : > "$work/changed"
    for f in $(echo $files | tr ' ' '\n' | sort -u); do
        # not in the default build: their stock objects' definitions stand
        case "$f" in src/mpid/ch3/*|*/ucx/*|*/gpu/*|src/mpi/romio/*) continue ;; esac
        echo "$f" >> "$work/changed"
        o=$work/o/$(echo "$f" | tr / _).o
        if ! (cd "$obj" && gcc $flags -O0 -c "$tree/$f" -o "$o" > "$work/cc.log" 2>&1); then
            verdict="compile $f ($(grep -m1 'error' "$work/cc.log" | sed "s|$tree/||" | cut -c1-160))"
            break
        fi
    done
    if [ -z "$verdict" ]; then
        # defined: our objects, libavrm, stock objects of files not compiled here
        { awk 'NR == FNR { changed[$1] = 1; next } !($2 in changed) { print $1 }' \
              "$work/changed" "$work/stock.defs"
          cat "$work/core.defs"
          for o in "$work"/o/*.o; do
              [ -f "$o" ] && nm --defined-only -g "$o" | awk 'NF == 3 { print $3 }'
          done
        } | sort -u > "$work/defs"
        und=$(for o in "$work"/o/*.o; do
                  [ -f "$o" ] || continue
                  nm -u "$o" | awk -v o="$(basename "$o" .o)" '{ print $NF, o }'
              done | grep -E '^(P?MPI|MPIR_|MPII_|MPID|MPIU_|avrm_)' | sort -u -k1,1 |
              awk 'NR == FNR { d[$1] = 1; next } !($1 in d)' "$work/defs" - | head -3 | tr '\n' ' ')
        [ -n "$und" ] && verdict="link $und"
    fi
    if [ -z "$verdict" ]; then echo "PASS $e"; pass=$((pass + 1))
    else echo "FAIL $e: $verdict"; fail=$((fail + 1)); fi
done < "$pdir/series"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
