#!/bin/sh
# Give a patched prefix's static libraries libavrm's objects (build-mpich.sh,
# after make install).
#
#   fix-static-libs.sh PREFIX CORE_ARCHIVE
#
# libmpi is linked with the core archive as LIBS; for the static libraries
# libtool stores that archive itself as one member (libavrm_pic.a inside
# libmpi.a and libmpifort.a), which no linker reads: a program linked against
# libmpi.a would miss every avrm_* symbol. libmpi.a gets the archive's objects
# instead; libmpifort.a loses the member (it needs libmpi anyway, as its
# shared twin does). Idempotent: an archive without the member is left alone.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PREFIX CORE_ARCHIVE" >&2; exit 2; }
prefix=$1 core=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
member=$(basename "$core")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && ar x "$core")
for a in "$prefix"/lib/libmpi.a "$prefix"/lib/libmpifort.a; do
    [ -f "$a" ] && ar t "$a" | grep -qxF "$member" || continue
    ar d "$a" "$member"
    case $a in */libmpi.a) ar q "$a" "$tmp"/*.o ;; esac
    ranlib "$a"
done
