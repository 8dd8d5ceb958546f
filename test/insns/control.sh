#!/bin/sh
# The insns check's control: it must fail when one libavrm lookup is made 2
# instructions slower.
#   control.sh PREFIX OBJDIR OUT        (make check-insns-control)
# Copies include/ to OUT/inc with two nops in the OFFSET class of
# avrm__map_hot_ (include/avrm/avrm_lookup.h), recompiles the two objects of
# OBJDIR (PREFIX's build tree) that hold MPI_Isend's and MPI_Put's paths
# (src/binding/c/pt2pt/isend.c, src/binding/c/rma/put.c) against it,
# relinks libmpi into OUT/lib, restores OBJDIR (the two objects rebuilt from
# the real headers, libmpi relinked; PREFIX is never touched), then runs
# test/insns/run.sh's stored kind with OUT/lib first in LD_LIBRARY_PATH.
# Passes when that run fails with REGRESSION on the direct and offset cells.
# About 3 minutes. Ends with "N passed, N failed".
set -u
prefix=${1:?prefix} obj=${2:?objdir} out=${3:?outdir}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${AVRM_CORE_LIB:=$top/libavrm_pic.a}"
mkdir -p "$out"; out=$(cd "$out" && pwd); obj=$(cd "$obj" && pwd)
objs="src/binding/c/pt2pt/lib_libmpi_la-isend src/binding/c/rma/lib_libmpi_la-put"
fail() { echo "FAIL control: $*"; echo "0 passed, 1 failed"; exit 1; }
[ -f "$obj/Makefile" ] || fail "no build tree at $obj"
rm -rf "$out/inc" "$out/lib"; cp -r "$top/include" "$out/inc"; mkdir -p "$out/lib"
python3 - "$out/inc/avrm/avrm_lookup.h" <<'EOF' || fail "could not seed the slower lookup"
import sys
p = sys.argv[1]; s = open(p).read()
old = """    if (__builtin_expect(p == AVRM_PATH_OFFSET, 1))
        avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_offset(m, r), ent, lpid, pgid);"""
new = """    if (__builtin_expect(p == AVRM_PATH_OFFSET, 1)) {
        __asm__ volatile ("nop\\n\\tnop");     /* the control: 2 instructions */
        avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_offset(m, r), ent, lpid, pgid);
    }"""
if old not in s: sys.exit("the OFFSET class of avrm__map_hot_ is not where the control expects it")
open(p, "w").write(s.replace(old, new))
EOF
cppflags=$(sed -n 's/^CPPFLAGS = //p' "$obj/Makefile" | sed "s|-I$top/include|-I$out/inc|")
case $cppflags in *"-I$out/inc"*) ;; *) fail "$obj/Makefile's CPPFLAGS do not name $top/include" ;; esac
relink() {  # [CPPFLAGS]: rebuild the two objects and libmpi
    for o in $objs; do rm -f "$obj/$o.lo" "$obj/$o.o" "$(dirname "$obj/$o")/.libs/$(basename "$o").o"; done
    if [ $# -gt 0 ]; then
        (cd "$obj" && CCACHE_DISABLE=1 make CPPFLAGS="$1" LIBS="$AVRM_CORE_LIB" lib/libmpi.la)
    else    # as maint/build-mpich.sh compiles (ccache's relative paths reach __FILE__)
        (cd "$obj" && CCACHE_BASEDIR=$(dirname "$obj") CCACHE_NOHASHDIR=1 make LIBS="$AVRM_CORE_LIB" lib/libmpi.la)
    fi
}
trap 'relink > "$out/restore.log" 2>&1' EXIT
relink "$cppflags" > "$out/slow.log" 2>&1 || fail "building the slower libmpi ($out/slow.log)"
cp -a "$obj"/lib/.libs/libmpi.so* "$out/lib/"
relink > "$out/restore.log" 2>&1 || fail "restoring $obj ($out/restore.log)"
trap - EXIT
cmp -s "$obj/lib/.libs/libmpi.so.12.2.2" "$prefix/lib/libmpi.so.12.2.2" ||
    echo "control: note: $obj's relinked libmpi differs from $prefix's (built from another tree state?)"
LD_LIBRARY_PATH=$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} INSNS_KINDS=stored \
    "$top/test/insns/run.sh" default "$prefix" "$out/check" > "$out/check.log" 2>&1
rc=$?
grep -E '^stored +(isend|put) +(direct|offset) ' "$out/check.log"
n=$(grep -cE '^stored +isend +(direct|offset) .*REGRESSION' "$out/check.log")
if [ "$rc" -ne 0 ] && [ "$n" -eq 2 ]; then
    echo "PASS control: the check failed (exit $rc) with Isend direct and offset regressed"
    echo "1 passed, 0 failed"
else
    fail "the check did not catch the slower lookup (exit $rc, $n of 2 Isend cells regressed; $out/check.log)"
fi
