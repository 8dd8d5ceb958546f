#!/bin/sh
# Build every prefix of the patch series and say which fail.
#   series-prefixes.sh [FIRST [LAST]]     (patch numbers, default every patch)
# For patch k (FIRST..LAST) the tree is the release with every series entry
# up to and including k (its `add` lines and patches), configured with the
# default build's options (without Fortran) and built (make: libmpi needs
# ROMIO's and MPL's subdirectory builds; libavrm linked as in the real
# build), then an empty program linked against
# that libmpi (so that a symbol no prefix defines fails). One line per prefix:
#   PASS 0015-groups-on-avrm.patch
#   FAIL 0013-...: compile (first error line) | link | apply
# then "N passed, N failed". Logs in $AVRM_PREFIX_DIR (default
# mpich-build/prefixes/NNNN/). Not part of make check: each prefix is a
# configure and a libmpi build (ccache serves what an earlier prefix
# compiled with the same headers; a header most files include, changed,
# recompiles them all: 10-20 minutes on 2 cores).
# AVRM_PREFIX_INCREMENTAL=1: one tree and one build directory for the whole
# range ($AVRM_PREFIX_DIR/inc): the release with the entries up to FIRST,
# configured once, then advanced entry by entry with apply-patches.sh (new
# mtimes: make rebuilds what a patch touched and what includes it, and
# regenerates a Makefile whose Makefile.in a patch changed) and built and
# link-checked at each patch, as a developer bisecting would: minutes per
# prefix instead of a configure and a build from scratch. What it cannot
# see: a file an earlier prefix generated that a later one no longer would
# (the series generates only the CVAR tables, regenerated at every CVAR
# change).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pdir=$top/patches/mpich
out=${AVRM_PREFIX_DIR:-$top/mpich-build/prefixes}
first=${1:-0001} last=${2:-9999}
tarball=$("$top/maint/fetch-mpich.sh") || exit 1
core=$top/libavrm_pic.a
[ -f "$core" ] || { echo "series-prefixes: build libavrm_pic.a first (make libavrm_pic.a)" >&2; exit 1; }
# libfabric.pc without its static-only Libs.private, as build-mpich.sh
# gives configure (Debian lists psm, rdmacm... whose dev links are absent)
pcdir=$top/mpich-build/pkgconfig; mkdir -p "$pcdir"
syspc=$(pkg-config --variable=pcfiledir libfabric 2>/dev/null)/libfabric.pc
[ -f "$syspc" ] && sed 's/^Libs.private:.*/Libs.private:/' "$syspc" > "$pcdir/libfabric.pc"
export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
pass=0 fail=0
inc=${AVRM_PREFIX_INCREMENTAL:-0}
configured=no
# configure tree $1 in build directory $2 with the default build's options
configure_in() {
    (cd "$2" && CC="ccache gcc" CCACHE_BASEDIR=$3 CCACHE_NOHASHDIR=1 "$1/configure" \
        --with-device=ch4:ofi --with-libfabric=/usr --with-hwloc=/usr --disable-fortran \
        --disable-cxx --with-datatype-engine=dataloop --enable-romio --disable-doc \
        --enable-g=none --enable-fast=O2 \
        MPICHLIB_CPPFLAGS="-I$top/include" > configure.log 2>&1)
}
for p in $(awk '$1 ~ /^[0-9]+-.*\.patch$/ { print $1 }' "$pdir/series"); do
    n=$(echo "$p" | cut -c1-4)
    [ "$n" -lt "$first" ] || [ "$n" -gt "$last" ] && continue
    if [ "$inc" = 1 ]; then d=$out/inc; else d=$out/$n; fi
    if [ "$inc" = 0 ] || [ $configured = no ]; then
        rm -rf "$d"; mkdir -p "$d/src" "$d/obj"
        tar -xf "$tarball" -C "$d/src" --strip-components=1
    fi
    # apply-patches.sh on a scratch copy of the series cut after $p
    if ! { "$top/maint/series-cut.sh" "$d/repo" "$n" &&
           "$d/repo/maint/apply-patches.sh" "$d/src" > "$d/apply.log" 2>&1; }; then
        echo "FAIL $p: apply ($(tail -1 "$d/apply.log"))"; fail=$((fail + 1))
        [ "$inc" = 1 ] && break
        continue
    fi
    if [ "$inc" = 0 ] || [ $configured = no ]; then
        configure_in "$d/src" "$d/obj" "$d" || {
            echo "FAIL $p: configure"; fail=$((fail + 1))
            [ "$inc" = 1 ] && break
            continue
        }
        configured=yes
    fi
    # a shared library links with undefined symbols: an executable linked
    # against it does not (a hook calling glue that no prefix compiles)
    rm -f "$d/obj/link-check"
    if (cd "$d/obj" && CCACHE_BASEDIR=$d CCACHE_NOHASHDIR=1 make -j"$(nproc)" LIBS="$core" \
            > make.log 2>&1 &&
            echo 'int main(void) { return 0; }' | cc -x c - -o link-check -Llib/.libs -lmpi >> make.log 2>&1); then
        echo "PASS $p"; pass=$((pass + 1))
    elif grep -qi 'undefined reference' "$d/obj/make.log"; then
        echo "FAIL $p: link ($(grep -m1 -i 'undefined reference' "$d/obj/make.log" | cut -c1-200))"
        fail=$((fail + 1))
    else
        echo "FAIL $p: compile ($(grep -m1 'error' "$d/obj/make.log" | cut -c1-200))"; fail=$((fail + 1))
    fi
    [ "$inc" = 1 ] && cp "$d/obj/make.log" "$d/make-$n.log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
