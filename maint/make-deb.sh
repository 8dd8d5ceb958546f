#!/bin/sh
# Debian binary packages of the patched MPICH, from the build in the checkout
# (make deb): no rebuild, the same files make install gives, relocated into a
# private prefix so that they install beside Debian's mpich and libmpich12.
#
#   make-deb.sh BUILD_PREFIX MPICH_SRC OUTDIR [VERSION]
#
# P = /usr/lib/MULTIARCH/avrm-mpich holds bin, lib, include, share/man and the
# module file (maint/install-prefix.sh). The packages:
#   libavrm-mpich12    P/lib's shared libraries (libmpi.so.12, libmpifort.so.12
#                      and Debian's names for them, libmpich.so.12 and
#                      libmpichfort.so.12)
#   avrm-mpich         hydra (P/bin/mpiexec ...), mpivars, mpichversion;
#                      /usr/bin/mpiexec.avrm-mpich and mpirun.avrm-mpich, in
#                      Debian's `mpirun` alternative (priority 30, below Debian's
#                      mpich 40 and openmpi 50: installing it switches nothing)
#   libavrm-mpich-dev  headers, Fortran modules, libmpi.so links, static
#                      libraries, mpich.pc (public as avrm-mpich.pc), the module
#                      file, mpicc/mpifort; /usr/bin/mpicc.avrm-mpich and
#                      mpifort.avrm-mpich in Debian's `mpi` alternative and P's
#                      include/libmpi.so/mpi.pc in `mpi-MULTIARCH`, as Debian's
#                      libmpich-dev registers them (no C++ wrapper: the build
#                      runs --disable-cxx, so mpicxx/mpic++ are absent while ours
#                      is selected)
# mpiexec.avrm-mpich puts P/lib first in LD_LIBRARY_PATH for the job it
# launches: a program built against Debian's libmpich.so.12 then runs on ours
# (P/lib has that name); programs built with our mpicc find P/lib by RUNPATH.
# Binaries are stripped (--strip-unneeded) as dh_strip does; .la files and the
# HTML pages are left out (Debian drops .la files; the man pages are in).
set -eu
die() { echo "make-deb: $*" >&2; exit 1; }
[ $# -ge 3 ] && [ $# -le 4 ] || die "usage: $0 BUILD_PREFIX MPICH_SRC OUTDIR [VERSION]"
build=$(cd "$1" && pwd -P) || die "no build prefix $1"
src=$(cd "$2" && pwd -P) || die "no MPICH source $2"
mkdir -p "$3" && out=$(cd "$3" && pwd -P)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
count=$(git -C "$top" rev-list --count HEAD 2>/dev/null || echo 0)
version=${4:-4.0.2+avrm$count}
arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
P=/usr/lib/$ma/avrm-mpich
prio=30
maint="avrm-mpich maintainers <$(git -C "$top" config user.email 2>/dev/null || echo root@localhost)>"

stage=$out/stage
rm -rf "$stage" "$out"/*.deb
"$here/install-prefix.sh" install "$build" "$src" "$P" "$stage/all" > /dev/null
all=$stage/all$P
rm -f "$all"/lib/*.la "$all/share/avrm-mpich/manifest"
rm -rf "$all/share/doc"
rmdir "$all/share/avrm-mpich"

# move PATHS (relative to P) from the whole install into package PKG
take() {  # PKG PATH...
    pkg=$1; shift
    for f in "$@"; do
        [ -e "$all/$f" ] || [ -L "$all/$f" ] || die "nothing at $P/$f"
        mkdir -p "$(dirname "$stage/$pkg$P/$f")"
        mv "$all/$f" "$stage/$pkg$P/$f"
    done
}
cd "$all"
take libavrm-mpich12 $(ls -d lib/*.so.*)
take avrm-mpich bin/mpiexec bin/mpiexec.hydra bin/mpirun bin/hydra_nameserver bin/hydra_persist \
    bin/hydra_pmi_proxy bin/parkill bin/mpivars bin/mpichversion \
    share/man/man1/mpiexec.1 share/man/man1/hydra_nameserver.1 share/man/man1/hydra_persist.1 \
    share/man/man1/hydra_pmi_proxy.1
take libavrm-mpich-dev bin include lib share
cd "$out"
left=$(find "$all" ! -type d)
[ -z "$left" ] || die "files in no package: $left"

# public names
pub() {  # PKG LINK TARGET
    mkdir -p "$(dirname "$stage/$1$2")"; ln -s "$3" "$stage/$1$2"
}
for w in mpiexec mpirun; do
    mkdir -p "$stage/avrm-mpich/usr/bin"
    cat > "$stage/avrm-mpich/usr/bin/$w.avrm-mpich" <<EOF
#!/bin/sh
# hydra of avrm-mpich; the job's processes find avrm-mpich's libmpi (also
# under Debian's name libmpich.so.12) first
LD_LIBRARY_PATH=$P/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
exec $P/bin/mpiexec.hydra "\$@"
EOF
    chmod 755 "$stage/avrm-mpich/usr/bin/$w.avrm-mpich"
done
pub libavrm-mpich-dev /usr/bin/mpicc.avrm-mpich "../lib/$ma/avrm-mpich/bin/mpicc"
pub libavrm-mpich-dev /usr/bin/mpifort.avrm-mpich "../lib/$ma/avrm-mpich/bin/mpifort"
pub libavrm-mpich-dev /usr/lib/$ma/pkgconfig/avrm-mpich.pc "../avrm-mpich/lib/pkgconfig/mpich.pc"
# Debian's policy path for bash (configure found it as /usr/bin/bash)
sed -i '1s|^#! */usr/bin/bash|#!/bin/bash|' "$stage/libavrm-mpich-dev$P/bin/mpicc" \
    "$stage/libavrm-mpich-dev$P/bin/mpifort" "$stage/libavrm-mpich-dev$P/bin/mpif77"
chmod 644 "$stage/libavrm-mpich12$P"/lib/*.so.*.*
# the gfortran module format the .mod files need (a Depends, as Debian's libmpich-dev has)
modver=$(gzip -dc < "$stage/libavrm-mpich-dev$P/include/mpi.mod" | sed -n "1s/^GFORTRAN module version '\([0-9]*\)'.*/\1/p")
[ -n "$modver" ] || die "cannot read the gfortran module version of mpi.mod"
man() {  # PKG NAME SOURCE-PAGE
    mkdir -p "$stage/$1/usr/share/man/man1"
    gzip -9n < "$src/man/man1/$3.1" > "$stage/$1/usr/share/man/man1/$2.1.gz"
}
man avrm-mpich mpiexec.avrm-mpich mpiexec
man avrm-mpich mpirun.avrm-mpich mpiexec
man libavrm-mpich-dev mpicc.avrm-mpich mpicc
man libavrm-mpich-dev mpifort.avrm-mpich mpifort

# maintainer scripts: the alternatives Debian's mpich packages use
cat > "$stage/avrm-mpich.postinst" <<EOF
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
    update-alternatives --install /usr/bin/mpirun mpirun /usr/bin/mpirun.avrm-mpich $prio \\
        --slave /usr/bin/mpiexec mpiexec /usr/bin/mpiexec.avrm-mpich \\
        --slave /usr/share/man/man1/mpirun.1.gz mpirun.1.gz /usr/share/man/man1/mpirun.avrm-mpich.1.gz \\
        --slave /usr/share/man/man1/mpiexec.1.gz mpiexec.1.gz /usr/share/man/man1/mpiexec.avrm-mpich.1.gz
fi
EOF
cat > "$stage/avrm-mpich.prerm" <<EOF
#!/bin/sh
set -e
if [ "\$1" = remove ] || [ "\$1" = deconfigure ]; then
    update-alternatives --remove mpirun /usr/bin/mpirun.avrm-mpich
fi
EOF
cat > "$stage/libavrm-mpich-dev.postinst" <<EOF
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
    update-alternatives --install /usr/bin/mpicc mpi /usr/bin/mpicc.avrm-mpich $prio \\
        --slave /usr/bin/mpif77 mpif77 /usr/bin/mpifort.avrm-mpich \\
        --slave /usr/bin/mpif90 mpif90 /usr/bin/mpifort.avrm-mpich \\
        --slave /usr/bin/mpifort mpifort /usr/bin/mpifort.avrm-mpich \\
        --slave /usr/share/man/man1/mpicc.1.gz mpicc.1.gz /usr/share/man/man1/mpicc.avrm-mpich.1.gz \\
        --slave /usr/share/man/man1/mpifort.1.gz mpifort.1.gz /usr/share/man/man1/mpifort.avrm-mpich.1.gz
    update-alternatives --install /usr/include/$ma/mpi mpi-$ma $P/include $prio \\
        --slave /usr/lib/$ma/libmpi.so libmpi.so-$ma $P/lib/libmpi.so \\
        --slave /usr/lib/$ma/libmpifort.so libmpifort.so-$ma $P/lib/libmpifort.so \\
        --slave /usr/lib/$ma/libmpif77.so libmpif77.so-$ma $P/lib/libmpifort.so \\
        --slave /usr/lib/$ma/libmpif90.so libmpif90.so-$ma $P/lib/libmpifort.so \\
        --slave /usr/lib/$ma/pkgconfig/mpi.pc mpi.pc-$ma /usr/lib/$ma/pkgconfig/avrm-mpich.pc
fi
EOF
cat > "$stage/libavrm-mpich-dev.prerm" <<EOF
#!/bin/sh
set -e
if [ "\$1" = remove ] || [ "\$1" = deconfigure ]; then
    update-alternatives --remove mpi /usr/bin/mpicc.avrm-mpich
    update-alternatives --remove mpi-$ma $P/include
fi
EOF

# /usr/share/doc: copyright (ours and MPICH's) and a changelog
date_r=$(date -R -d "@$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)")
for pkg in libavrm-mpich12 avrm-mpich libavrm-mpich-dev; do
    d=$stage/$pkg/usr/share/doc/$pkg
    mkdir -p "$d"
    { echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
      echo "Upstream-Name: avrm-mpich (MPICH 4.0.2 with the avrm address layer)"
      echo "Source: https://www.mpich.org/static/downloads/4.0.2/"
      echo
      echo "Files: *"
      echo "Copyright: 1998-2022 UChicago Argonne, LLC and the MPICH contributors"
      echo "License: MPICH"
      sed -e 's/^$/./' -e 's/^/ /' "$src/COPYRIGHT"
      echo
      echo "Files: $P/lib/libmpi.so.*"
      echo "Copyright: 2026 the avrm-mpich authors"
      echo "License: BSD-3-clause"
      echo " The address layer (libavrm) linked into libmpi and the patches applied to"
      echo " MPICH 4.0.2 before it is built:"
      echo " ."
      sed -n '/^Redistribution/,/^OF THIS SOFTWARE/p' "$top/COPYRIGHT" | sed -e 's/^$/./' -e 's/^/ /'
    } > "$d/copyright"
    printf '%s (%s) unstable; urgency=medium\n\n  * Binary packages of the build at commit %s.\n\n -- %s  %s\n' \
        avrm-mpich "$version" "$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
        "$maint" "$date_r" | gzip -9n > "$d/changelog.gz"
done

# strip as dh_strip does (ELF only)
find "$stage" -type f | while read -r f; do
    [ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ] || continue
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
done
for f in "$stage/libavrm-mpich-dev$P"/lib/*.a; do
    strip --strip-debug --remove-section=.comment --remove-section=.note --enable-deterministic-archives "$f"
done

# dependencies from the ELF files' NEEDED libraries (dpkg-shlibdeps), ours excluded
shlibdeps() {  # PKG -> Depends value
    elfs=$(find "$stage/$1" -type f | while read -r f; do
        if [ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ]; then echo "$f"; fi; done)
    [ -n "$elfs" ] || return 0
    tmp=$(mktemp -d); mkdir "$tmp/debian"
    printf 'Source: avrm-mpich\n\nPackage: %s\nArchitecture: any\n' "$1" > "$tmp/debian/control"
    (cd "$tmp" && dpkg-shlibdeps -O -e$(echo $elfs | sed 's/ / -e/g') \
        -l"$stage/libavrm-mpich12$P/lib" --ignore-missing-info 2> "$out/shlibdeps-$1.log") |
        sed -n 's/^shlibs:Depends=//p'
    rm -rf "$tmp"
}
control() {  # PKG DEPENDS SECTION SUMMARY DESCRIPTION [PROVIDES]
    mkdir -p "$stage/$1/DEBIAN"
    size=$(du -k -s --exclude=DEBIAN "$stage/$1" | cut -f1)
    { echo "Package: $1"
      echo "Version: $version"
      echo "Architecture: $arch"
      echo "Maintainer: $maint"
      echo "Installed-Size: $size"
      [ -n "$2" ] && echo "Depends: $2"
      [ -n "${6:-}" ] && echo "Provides: $6"
      echo "Section: $3"
      echo "Priority: optional"
      echo "Homepage: https://www.mpich.org/"
      echo "Description: $4"
      echo "$5" | fold -s -w 72 | sed -e 's/ *$//' -e 's/^/ /'
    } > "$stage/$1/DEBIAN/control"
    for s in postinst prerm; do
        [ -f "$stage/$1.$s" ] && install -m 755 "$stage/$1.$s" "$stage/$1/DEBIAN/$s"
    done
    (cd "$stage/$1" && find . -path ./DEBIAN -prune -o -type f -print | sed 's:^\./::' |
        LC_ALL=C sort | xargs -r md5sum) > "$stage/$1/DEBIAN/md5sums"
    chmod 644 "$stage/$1/DEBIAN/control" "$stage/$1/DEBIAN/md5sums"
    fakeroot dpkg-deb --build -Zxz "$stage/$1" "$out/${1}_${version}_$arch.deb" > /dev/null
    echo "make-deb: $out/${1}_${version}_$arch.deb ($size KiB installed)"
}
about="MPICH 4.0.2 (ch4:ofi over libfabric) whose address layer keeps 8 bytes per peer and computes communicators' rank maps, installed in $P beside Debian's MPICH."
d_lib=$(shlibdeps libavrm-mpich12)
d_bin=$(shlibdeps avrm-mpich)
d_dev=$(shlibdeps libavrm-mpich-dev)
find "$stage" -type d -exec chmod 755 {} +
control libavrm-mpich12 "$d_lib" libs "MPI library with a compact address layer (runtime)" \
    "$about This package has the shared libraries, also under Debian's names libmpich.so.12 and libmpichfort.so.12."
control avrm-mpich "libavrm-mpich12 (= $version)${d_bin:+, $d_bin}" net "MPI library with a compact address layer (hydra launcher)" \
    "$about This package has the hydra process manager (mpiexec.avrm-mpich, registered in the mpirun alternative; it runs programs built against Debian's libmpich.so.12 on this library), mpivars and mpichversion."
control libavrm-mpich-dev "libavrm-mpich12 (= $version), avrm-mpich (= $version), gcc, gfortran | fortran-compiler, gfortran-$(gfortran -dumpversion | cut -d. -f1) | gfortran-mod-$modver, libfabric-dev, libhwloc-dev${d_dev:+, $d_dev}" libdevel \
    "MPI library with a compact address layer (development files)" \
    "$about This package has the headers, Fortran modules, static libraries, pkg-config file, an environment module and the mpicc and mpifort wrappers (registered in the mpi alternative)."
rm -rf "$stage"
