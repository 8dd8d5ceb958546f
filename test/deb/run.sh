#!/bin/sh
# Debian package test (make check-deb; root; changes the machine and puts it
# back): the packages of maint/make-deb.sh install beside Debian's MPICH, plug
# into Debian's MPI alternatives, run C, Fortran and Debian-built programs, and
# leave the machine as it was when removed (issue 27 item 4).
#
#   run.sh DEBDIR OUTDIR
#
# DEBDIR holds the three .deb files (make deb). One PASS/FAIL line each:
#   clean       none of our packages installed before the test
#   lintian     every tag lintian reports is explained in lintian-expected.txt
#               (tag and why), and every explained tag still occurs
#   install     dpkg -i of the three, with Debian's mpich and libmpich12 kept
#   select      update-alternatives --set mpi / mpirun / mpi-MULTIARCH to ours
#   c, fortran  /usr/bin/mpicc and /usr/bin/mpifort (ours now) compile
#               test/install's program; /usr/bin/mpiexec runs it on 4 ranks,
#               each mapping libmpi from our prefix
#   pkgconfig   cc with `pkg-config --cflags --libs mpi` (the alternative's
#               mpi.pc) builds one that runs the same way
#   debian-prog Debian's NPmpich2 (built against Debian's libmpich.so.12) run
#               by /usr/bin/mpiexec on ours: our report line
#               (MPIR_CVAR_AVRM_REPORT) appears, which Debian's MPICH cannot print
#   restore     alternatives put back as they were (--set-selections)
#   remove      dpkg --purge of the three
#   as-before   the package list, the alternatives and the links in /usr/bin,
#               /usr/include/MULTIARCH, MULTIARCH pkgconfig, man1 and
#               /etc/alternatives are identical to before the test
# Final line "N passed, N failed".
set -u
[ $# -eq 2 ] || { echo "usage: $0 DEBDIR OUTDIR" >&2; exit 2; }
debdir=$(cd "$1" && pwd -P) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd -P) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
P=/usr/lib/$ma/avrm-mpich
pkgs="libavrm-mpich-dev avrm-mpich libavrm-mpich12"
. "$here/../checks.sh"
finish() { results_end; exit; }
[ "$(id -u)" = 0 ] || { echo "run.sh: needs root (dpkg -i, update-alternatives)" >&2; result FAIL clean "not root"; finish; }
debs=$(ls "$debdir"/*.deb 2>/dev/null)
[ "$(echo "$debs" | grep -c .)" -eq 3 ] || { result FAIL clean "expected 3 .deb files in $debdir (make deb)"; finish; }

snapshot() {  # FILE
    { dpkg-query -W -f '${Package} ${Version} ${Status}\n' | LC_ALL=C sort
      update-alternatives --get-selections
      find /usr/bin "/usr/include/$ma" "/usr/lib/$ma/pkgconfig" /usr/share/man/man1 /etc/alternatives \
          -maxdepth 1 -printf '%p %y %l\n' 2>/dev/null | LC_ALL=C sort
    } > "$1"
}
installed=""
for p in $pkgs; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "installed" && installed="$installed $p"
done
if [ -n "$installed" ]; then result FAIL clean "already installed:$installed (dpkg --purge them first)"; finish; fi
result PASS clean "none of$(echo " $pkgs" | sed 's/ /, /g; s/^,//') installed"
snapshot "$out/before.txt"
update-alternatives --get-selections > "$out/selections.txt"

# lintian against the explained list
lintian --no-tag-display-limit -I $debs 2>/dev/null | grep -E '^[EWI]: ' > "$out/lintian.txt"
seen=$(awk '{print $3}' "$out/lintian.txt" | sort -u)
explained=$(grep -vE '^(#|$)' "$here/lintian-expected.txt" | awk '{print $1}' | sort -u)
new=$(echo "$seen" | grep -vxF "$explained" | grep . | tr '\n' ' ')
gone=$(echo "$explained" | grep -vxF "$seen" | grep . | tr '\n' ' ')
counts=$(awk '{print $1 $3}' "$out/lintian.txt" | sort | uniq -c | awk '{printf "%s %s; ", $2, $1}')
if [ -n "$new" ]; then result FAIL lintian "unexplained: $new(see $out/lintian.txt)"
elif [ -n "$gone" ]; then result FAIL lintian "explained but no longer reported (drop from lintian-expected.txt): $gone"
else result PASS lintian "${counts:-no tags}"; fi

if dpkg -i $debs > "$out/dpkg-i.log" 2>&1 &&
   dpkg-query -W -f '${Status}' mpich libmpich12 2>/dev/null | grep -q "install ok installed"; then
    result PASS install "$(echo $pkgs) installed beside Debian's mpich and libmpich12"
else
    result FAIL install "see $out/dpkg-i.log"
fi

if update-alternatives --set mpi /usr/bin/mpicc.avrm-mpich > "$out/select.log" 2>&1 &&
   update-alternatives --set mpirun /usr/bin/mpirun.avrm-mpich >> "$out/select.log" 2>&1 &&
   update-alternatives --set "mpi-$ma" "$P/include" >> "$out/select.log" 2>&1 &&
   [ "$(readlink -f /usr/bin/mpicc)" = "$P/bin/mpicc" ]; then
    result PASS select "mpicc -> $(readlink -f /usr/bin/mpicc), mpiexec -> $(readlink -f /usr/bin/mpiexec)"
else
    result FAIL select "see $out/select.log"
fi

runprog() {  # name binary
    if ! /usr/bin/mpiexec -n 4 "$2" > "$out/$1.log" 2>&1; then result FAIL "$1" "mpiexec failed: $out/$1.log"; return; fi
    n=$(grep -c "^hello " "$out/$1.log")
    bad=$(grep "^hello " "$out/$1.log" | grep -v " libmpi=$P/lib/" | head -1)
    if [ "$n" -ne 4 ]; then result FAIL "$1" "$n of 4 ranks said hello: $out/$1.log"
    elif [ -n "$bad" ]; then result FAIL "$1" "$bad"
    else result PASS "$1" "4 ranks on $P/lib"; fi
}
if /usr/bin/mpicc -o "$out/hello-c" "$here/../install/hello.c" > "$out/cc.log" 2>&1; then runprog c "$out/hello-c"
else result FAIL c "mpicc failed: $out/cc.log"; fi
if /usr/bin/mpifort -o "$out/hello-f" "$here/../install/hello.f90" > "$out/fc.log" 2>&1; then runprog fortran "$out/hello-f"
else result FAIL fortran "mpifort failed: $out/fc.log"; fi
if flags=$(pkg-config --cflags --libs mpi 2> "$out/pc.log") &&
   cc -o "$out/hello-pc" "$here/../install/hello.c" $flags >> "$out/pc.log" 2>&1; then runprog pkgconfig "$out/hello-pc"
else result FAIL pkgconfig "pkg-config mpi or cc failed: $out/pc.log"; fi

np=$(command -v NPmpich2 || echo /usr/bin/NPmpich2)
if [ ! -x "$np" ]; then result FAIL debian-prog "no $np (netpipe-mpich2: maint/install-deps.sh)"
elif MPIR_CVAR_AVRM_REPORT=1 /usr/bin/mpiexec -n 2 "$np" -p 0 -u 4096 -o "$out/np.out" > "$out/netpipe.log" 2>&1 &&
     grep -q '^avrm report' "$out/netpipe.log"; then
    result PASS debian-prog "$np ($(readelf -d "$np" | sed -n 's/.*NEEDED.*\[\(libmpich[^]]*\)\]/\1/p')) ran on ours: $(grep -c 'bytes' "$out/netpipe.log") sizes, our report printed"
else
    result FAIL debian-prog "no report line of ours (or it failed): $out/netpipe.log"
fi

if update-alternatives --set-selections < "$out/selections.txt" > "$out/restore.log" 2>&1; then
    result PASS restore "mpicc -> $(readlink -f /usr/bin/mpicc)"
else result FAIL restore "see $out/restore.log"; fi
if dpkg --purge $pkgs > "$out/purge.log" 2>&1; then result PASS remove "$pkgs purged"
else result FAIL remove "see $out/purge.log"; fi
snapshot "$out/after.txt"
if diff "$out/before.txt" "$out/after.txt" > "$out/as-before.diff"; then
    result PASS as-before "packages, alternatives and links as before ($(wc -l < "$out/before.txt") lines compared)"
else
    result FAIL as-before "$(head -3 "$out/as-before.diff" | tr '\n' ' ') (see $out/as-before.diff)"
fi
finish
