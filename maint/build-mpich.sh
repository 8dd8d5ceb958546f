#!/bin/sh
# Build MPICH 4.0.2 out of tree and install it into a prefix.
#   build-mpich.sh patched|stock BUILDDIR
# patched: extract, apply patches/mpich/series (+ our files), regenerate CVARs,
#          link our core library (libavrm, PIC archive) into libmpi.
# stock:   the same tarball and configure options, no patches.
# Stamps make reruns cheap; a changed patch series or core library rebuilds.
set -eu
# MPICH's makes get this script's settings only: a variable given to the make
# that called us (make install prefix=DIR) travels in MAKEFLAGS and would
# relink and install MPICH itself for that prefix
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
flavor=$1; top=$(cd "$(dirname "$0")/.." && pwd); bdir=$(mkdir -p "$2" && cd "$2" && pwd)
log() { echo "build-mpich[$flavor]: $*" >&2; }
# one build per flavor and directory at a time
exec 9>"$bdir/.lock-$flavor"
flock -n 9 || { log "another $flavor build is running in $bdir; wait for it"; exit 1; }
tarball=$("$top/maint/fetch-mpich.sh")
src=$bdir/mpich-$flavor-src obj=$bdir/mpich-$flavor-obj prefix=$bdir/mpich-$flavor
jobs=${JOBS:-$(nproc)}
if [ "$flavor" = patched ]; then
    : "${AVRM_CORE_LIB:?set AVRM_CORE_LIB to our libavrm_pic.a (make mpich does)}"
    [ -f "$AVRM_CORE_LIB" ] || { log "missing $AVRM_CORE_LIB"; exit 1; }
fi

# Options are one list for both flavors (side-by-side fairness).
opts="--prefix=$prefix --with-device=ch4:ofi --with-libfabric=/usr --with-hwloc=/usr
      --enable-fortran=all --disable-cxx --with-datatype-engine=${AVRM_DATATYPE_ENGINE:-dataloop}
      --enable-romio --disable-doc --enable-g=none --enable-fast=O2
      ${AVRM_MPICH_CONFIGURE_EXTRA:-}"
opts=$(echo $opts)   # one line for eval
# Fortran (mpif.h, use mpi, use mpi_f08): Debian's gfortran, not through ccache
# (ccache does not cache Fortran compiles that write module files). gfortran
# >= 10 rejects mpif.h's choice-buffer calls without -fallow-argument-mismatch
# (MPICH's configure says so and stops; Debian's mpich package passes it too).
FC=gfortran F77=gfortran FFLAGS_MPI=-fallow-argument-mismatch

# what decides whether we must rebuild from scratch: tarball + series content
# + the configure options and compilers
key=$( { echo "$tarball"; echo "$flavor"; [ "$flavor" = stock ] || cat "$top"/patches/mpich/series "$top"/patches/mpich/*.patch
         echo "$opts $FC $F77 $FFLAGS_MPI"; } | sha256sum | cut -c1-16)
# AVRM_PRINT_KEY=1: print the key and stop (a tree whose edits were just
# turned into the series by maint/refresh-patch.sh already is tarball +
# series: writing this key to its .avrm-key spares the rebuild from scratch)
[ "${AVRM_PRINT_KEY:-0}" = 1 ] && { echo "$key"; exit 0; }
if [ ! -f "$src/.avrm-key" ] || [ "$(cat "$src/.avrm-key")" != "$key" ]; then
    log "extracting $tarball"
    rm -rf "$src" "$obj"; mkdir -p "$src"
    if [ -d "$tarball" ]; then cp -a "$tarball/." "$src/"
    else tar -xf "$tarball" -C "$src" --strip-components=1; fi
    echo "$key" > "$src/.avrm-key"
fi
if [ "$flavor" = patched ]; then
    "$top/maint/apply-patches.sh" "$src"     # idempotent; copies changed files of ours
    # libavrm is not a make dependency of libmpi: relink when it differs from
    # the archive the last successful build linked
    if [ -f "$obj/lib/libmpi.la" ] && ! cmp -s "$AVRM_CORE_LIB" "$obj/.avrm-core-linked"; then
        rm -f "$obj/lib/libmpi.la"
    fi
fi

if command -v ccache >/dev/null 2>&1; then
    CC="ccache gcc"; export CCACHE_BASEDIR=$bdir CCACHE_NOHASHDIR=1
    # Share objects between stock and patched: paths differ only below $bdir
else CC=gcc; fi

extra="" makelibs=""
if [ "$flavor" = patched ]; then
    # our headers reach MPICH's compiles through its library-only CPPFLAGS;
    # the core archive is given to make (below) as LIBS, which libmpi's link
    # rule places after its objects. Configure never sees it, so the mpicc
    # wrapper and applications never link it: see doc/design.md.
    extra="MPICHLIB_CPPFLAGS=-I$top/include"
    makelibs="LIBS=$AVRM_CORE_LIB"
fi
# MPICH's configure adds `pkg-config --static --libs libfabric` to libmpi's link;
# Debian's libfabric.pc lists static-only deps there (psm, rdmacm, efa...) whose
# shared dev links are not installed. Give configure a copy without them.
pcdir=$bdir/pkgconfig; mkdir -p "$pcdir"
syspc=$(pkg-config --variable=pcfiledir libfabric 2>/dev/null)/libfabric.pc
[ -f "$syspc" ] && sed 's/^Libs.private:.*/Libs.private:/' "$syspc" > "$pcdir/libfabric.pc"
export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
if [ ! -f "$obj/config.status" ]; then
    mkdir -p "$obj"; log "configure"
    t0=$(date +%s)
    (cd "$obj" && eval "\"$src/configure\" $opts CC=\"$CC\" FC=$FC F77=$F77 FFLAGS=$FFLAGS_MPI FCFLAGS=$FFLAGS_MPI $extra" > configure.log 2>&1) ||
        { tail -30 "$obj/configure.log" >&2; log "configure failed: $obj/configure.log"; exit 1; }
    log "configure took $(( $(date +%s) - t0 ))s"
fi
t0=$(date +%s)
(cd "$obj" && make -j"$jobs" $makelibs > make.log 2>&1 && make install $makelibs > install.log 2>&1) ||
    { grep -m5 -B2 -A5 'error' "$obj/make.log" >&2 || tail -30 "$obj/make.log" >&2; log "build failed: $obj/make.log"; exit 1; }
# The sonames Debian's libmpich12 package gives these libraries: a program
# built against Debian's MPICH (mpicc/mpif90 there) then runs on this prefix
# with LD_LIBRARY_PATH=$prefix/lib alone. (libmpichcxx.so.12: no C++
# bindings are built.)
ln -sf libmpi.so.12 "$prefix/lib/libmpich.so.12"
if [ -e "$prefix/lib/libmpifort.so.12" ]; then ln -sf libmpifort.so.12 "$prefix/lib/libmpichfort.so.12"
else rm -f "$prefix/lib/libmpichfort.so.12"; fi
if [ "$flavor" = patched ]; then
    "$top/maint/fix-static-libs.sh" "$prefix" "$AVRM_CORE_LIB"
    cp "$AVRM_CORE_LIB" "$obj/.avrm-core-linked"
fi
log "make+install took $(( $(date +%s) - t0 ))s -> $prefix"
