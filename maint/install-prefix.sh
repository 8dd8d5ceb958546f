#!/bin/sh
# Install the patched MPICH built in the checkout into a prefix of the user's
# choice, relocated, and remove it again (make install / make uninstall,
# make deb).
#
#   install-prefix.sh install   BUILD_PREFIX MPICH_SRC PREFIX [DESTDIR]
#   install-prefix.sh uninstall PREFIX [DESTDIR]
#
# BUILD_PREFIX is what maint/build-mpich.sh installed (mpich-build/mpich-patched);
# MPICH_SRC its source tree (the tarball's prebuilt man pages come from there:
# the build runs --disable-doc). Files are written under DESTDIR/PREFIX and
# work from PREFIX (DESTDIR is for packaging).
#
# What relocation changes, and nothing else:
#   - every text file naming BUILD_PREFIX (the wrappers mpicc/mpifort/mpif77,
#     mpich.pc, the libtool .la files) names PREFIX instead; the wrappers call
#     the compiler without ccache (the build's CC="ccache gcc");
#   - RUNPATH BUILD_PREFIX/lib (libtool's, in libmpifort, mpivars and
#     mpichversion) becomes $ORIGIN (lib) or $ORIGIN/../lib (bin), so they find
#     the libmpi of their own install wherever it is;
#   - a text file still naming BUILD_PREFIX afterwards is an error.
# Binaries keep BUILD_PREFIX only inside configure's option string (what
# MPI_Get_library_version and mpichversion print) and hydra's optional
# BUILD_PREFIX/etc/mpiexec.hydra.conf; hydra finds its proxy beside mpiexec.
#
# Added: PREFIX/share/man (MPICH's man pages from the tarball), an environment
# module PREFIX/share/modulefiles/avrm-mpich/VERSION (Tcl: Lmod and
# environment-modules; sets PATH, MANPATH, PKG_CONFIG_PATH), and the list of
# every path installed, PREFIX/share/avrm-mpich/manifest, which uninstall
# reads: it removes exactly those paths, then the directories they leave empty.
set -eu
die() { echo "install-prefix: $*" >&2; exit 1; }
version=4.0.2-avrm
manifest_rel=share/avrm-mpich/manifest

strip_slash() { echo "$1" | sed 's:/*$::'; }

do_install() {
    build=$(cd "$1" && pwd -P) || die "no build prefix $1"
    src=$2 prefix=$(strip_slash "$3") destdir=${4:-}
    case $prefix in /*) ;; *) die "PREFIX must be absolute: $prefix" ;; esac
    [ -x "$build/bin/mpicc" ] && [ -e "$build/lib/libmpi.so.12" ] ||
        die "$build holds no MPICH install (make mpich first)"
    dest=$destdir$prefix
    [ "$(cd "$dest" 2>/dev/null && pwd -P)" != "$build" ] || die "PREFIX is the build prefix itself"
    if [ -e "$dest/$manifest_rel" ]; then
        echo "install-prefix: $dest has an install: removing it first"
        do_uninstall "$prefix" "$destdir"
    fi
    mkdir -p "$dest"
    for d in bin include lib share; do
        [ -d "$build/$d" ] && cp -a "$build/$d" "$dest/"
    done
    for sec in man1 man3; do
        [ -d "$src/man/$sec" ] || die "no man pages in $src/man/$sec"
        mkdir -p "$dest/share/man/$sec"
        cp -p "$src/man/$sec"/* "$dest/share/man/$sec/"
    done
    # text files naming the build prefix: rewrite (grep -I skips binaries)
    grep -rIl --null -F "$build" "$dest" | xargs -0 -r sed -i "s|$build|$prefix|g"
    for w in mpicc mpicxx mpif77 mpifort; do
        [ -f "$dest/bin/$w" ] && [ ! -L "$dest/bin/$w" ] &&
            sed -i -e 's|^CC="ccache |CC="|' -e 's|^CXX="ccache |CXX="|' \
                   -e 's|^FC="ccache |FC="|' "$dest/bin/$w"
    done
    left=$(grep -rIl -F "$build" "$dest" || true)
    [ -z "$left" ] || die "still naming $build: $left"
    # ELF files whose RUNPATH names the build prefix's lib: $ORIGIN-relative
    for f in "$dest"/lib/*.so.* "$dest"/bin/*; do
        [ -f "$f" ] && [ ! -L "$f" ] && [ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ] || continue
        rp=$(patchelf --print-rpath "$f")
        case $rp in
            "$build/lib") case $f in "$dest"/lib/*) new='$ORIGIN' ;; *) new='$ORIGIN/../lib' ;; esac
                          patchelf --set-rpath "$new" "$f" ;;
            *"$build"*) die "$f: RUNPATH $rp" ;;
        esac
    done
    write_module "$prefix" "$dest"
    mkdir -p "$dest/share/avrm-mpich"
    { (cd "$dest" && find . ! -type d | sed 's:^\./::' | grep -vxF "$manifest_rel" | LC_ALL=C sort)
      echo "$manifest_rel"; } > "$dest/$manifest_rel"
    echo "install-prefix: $(wc -l < "$dest/$manifest_rel") files in $prefix${destdir:+ (under $destdir)}"
}

write_module() {  # PREFIX DEST
    mkdir -p "$2/share/modulefiles/avrm-mpich"
    cat > "$2/share/modulefiles/avrm-mpich/$version" <<EOF
#%Module1.0
## MPICH $version with the avrm address layer (Lmod and environment-modules).
## Sets PATH, MANPATH and PKG_CONFIG_PATH; programs built with its mpicc or
## mpifort find its libmpi by RUNPATH, so LD_LIBRARY_PATH is left alone.
proc ModulesHelp { } { puts stderr "MPICH $version (avrm): mpicc, mpifort, mpiexec, mpivars in $1/bin" }
module-whatis "MPICH $version with the avrm address layer"
conflict avrm-mpich
if { [info commands family] ne "" } { family mpi }
set prefix $1
prepend-path PATH            \$prefix/bin
prepend-path MANPATH         \$prefix/share/man
prepend-path PKG_CONFIG_PATH \$prefix/lib/pkgconfig
EOF
}

do_uninstall() {
    prefix=$(strip_slash "$1") destdir=${2:-}
    dest=$destdir$prefix
    [ -f "$dest/$manifest_rel" ] || die "no install in $dest (no $manifest_rel)"
    dirs=$(mktemp)
    while IFS= read -r f; do
        case $f in ""|/*|*..*) die "bad manifest line: $f" ;; esac
        rm -f "$dest/$f"
        dirname "$f" >> "$dirs"
    done < "$dest/$manifest_rel"
    # the directories left empty, deepest first, never above PREFIX
    LC_ALL=C sort -u "$dirs" | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- |
    while IFS= read -r d; do
        while [ "$d" != . ] && rmdir "$dest/$d" 2>/dev/null; do d=$(dirname "$d"); done
    done
    rm -f "$dirs"
    rmdir "$dest" 2>/dev/null || true
    echo "install-prefix: removed the install in $prefix${destdir:+ (under $destdir)}"
}

case ${1:-} in
    install)   [ $# -ge 4 ] && [ $# -le 5 ] || die "usage: $0 install BUILD_PREFIX MPICH_SRC PREFIX [DESTDIR]"
               shift; do_install "$@" ;;
    uninstall) [ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 uninstall PREFIX [DESTDIR]"
               shift; do_uninstall "$@" ;;
    *) die "usage: $0 install BUILD_PREFIX MPICH_SRC PREFIX [DESTDIR] | uninstall PREFIX [DESTDIR]" ;;
esac
