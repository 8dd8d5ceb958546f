#!/bin/sh
# Install test: `make install prefix=DIR` gives a patched MPICH that works from
# DIR alone, its environment module loads under Lmod, and `make uninstall`
# leaves nothing behind (issue 27 item 3 and 5).
#
#   run.sh BUILDDIR OUTDIR
#
# BUILDDIR is the configured checkout (its mpich-build/mpich-patched is what
# gets installed). Checks, one PASS/FAIL line each:
#   install      make install prefix=OUTDIR/prefix succeeds
#   masked       (control) inside a mount namespace with BUILDDIR/mpich-build
#                hidden under an empty tmpfs, a program linked against the
#                build prefix must fail to start: otherwise the checks below
#                could pass on the build tree and prove nothing
#   c, fortran   mpicc / mpifort from DIR compile a program; DIR's mpiexec
#                runs it on 4 ranks; each rank names the libmpi it runs on
#                (from /proc/self/maps, C) and it must be under DIR
#   pkgconfig    cc with `pkg-config --cflags --libs mpich` (PKG_CONFIG_PATH
#                DIR/lib/pkgconfig) builds one that runs the same way
#   static       cc linking DIR/lib/libmpi.a builds one that runs with no
#                libmpi mapped (libavrm's objects are in the archive:
#                maint/fix-static-libs.sh)
#   mpivars      DIR/bin/mpivars lists our CVAR MPIR_CVAR_AVRM_ON_DEMAND_AV
#   module       Lmod: `module load avrm-mpich` puts DIR/bin first in PATH,
#                DIR/share/man in MANPATH (man -w MPI_Send finds DIR's page and
#                man -w ls still works), DIR/lib/pkgconfig in PKG_CONFIG_PATH,
#                and changes no other variable but Lmod's own bookkeeping;
#                `module unload` restores PATH
#   uninstall    make uninstall prefix=DIR removes DIR entirely
# The masked checks need a private mount namespace (root, unshare -m, a tmpfs
# mount); without one they run unmasked and the control is a SKIP line. Final line "N passed, N failed".
set -u
[ $# -eq 2 ] || { echo "usage: $0 BUILDDIR OUTDIR" >&2; exit 2; }
bdir=$(cd "$1" && pwd -P) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd -P) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../mpienv.sh"
build=$bdir/mpich-build/mpich-patched
dir=$out/prefix
. "$here/../checks.sh"
finish() { results_end; exit; }

rm -rf "$dir"
# (the build's own libtool files must not learn DIR: prefix= on make's command
# line once reached MPICH's make through MAKEFLAGS and relinked it for DIR)
if make -C "$bdir" install prefix="$dir" > "$out/install.log" 2>&1 && [ -x "$dir/bin/mpicc" ]; then
    leak=$(grep -l -F "$dir" "$bdir"/mpich-build/mpich-patched-obj/lib/*.la 2>/dev/null | tr '\n' ' ')
    if [ -n "$leak" ]; then result FAIL install "the build's libtool files now name $dir: $leak"
    else result PASS install "$(grep '^install-prefix:' "$out/install.log" | tail -1)"; fi
else
    result FAIL install "see $out/install.log"; finish
fi

# a program against the build prefix, for the control
"$build/bin/mpicc" -o "$out/hello-build" "$here/hello.c" 2> "$out/hello-build.log" ||
    { result FAIL masked "cannot build the control program: $out/hello-build.log"; finish; }

# the checks that must work from DIR alone; run by sh inside the namespace
cat > "$out/checks.sh" <<EOF
set -u
dir=$dir out=$out here=$here build=$build masked=\$1
step() { echo "=== \$1"; }
if [ "\$masked" = yes ]; then
    step masked
    if [ -e "$build/bin/mpicc" ]; then echo "FAIL masked: $build still visible"
    elif "$build/bin/mpiexec" -n 1 "$out/hello-build" > "$out/masked.log" 2>&1 ||
         "$out/hello-build" >> "$out/masked.log" 2>&1; then
        echo "FAIL masked: a program linked against the build prefix still runs"
    else echo "PASS masked: the build prefix is hidden (its program cannot start)"; fi
fi
runprog() {  # name binary [libmpi it must map: default one in DIR/lib]
    want=\${3:-\$dir/lib/}
    if ! "\$dir/bin/mpiexec" -n 4 "\$2" > "\$out/\$1.log" 2>&1; then
        echo "FAIL \$1: mpiexec failed: \$out/\$1.log"; return
    fi
    n=\$(grep -c "^hello " "\$out/\$1.log")
    bad=\$(grep "^hello " "\$out/\$1.log" | grep -v " libmpi=\$want" | head -1)
    if [ "\$n" -ne 4 ]; then echo "FAIL \$1: \$n of 4 ranks said hello: \$out/\$1.log"
    elif [ -n "\$bad" ]; then echo "FAIL \$1: \$bad"
    else echo "PASS \$1: 4 ranks, libmpi=\$want"; fi
}
step c
if "\$dir/bin/mpicc" -o "\$out/hello-c" "\$here/hello.c" > "\$out/cc.log" 2>&1; then runprog c "\$out/hello-c"
else echo "FAIL c: mpicc failed: \$out/cc.log"; fi
step fortran
if "\$dir/bin/mpifort" -o "\$out/hello-f" "\$here/hello.f90" > "\$out/fc.log" 2>&1; then runprog fortran "\$out/hello-f"
else echo "FAIL fortran: mpifort failed: \$out/fc.log"; fi
step pkgconfig
if flags=\$(PKG_CONFIG_PATH=\$dir/lib/pkgconfig pkg-config --cflags --libs mpich) &&
   cc -o "\$out/hello-pc" "\$here/hello.c" \$flags > "\$out/pc.log" 2>&1; then runprog pkgconfig "\$out/hello-pc"
else echo "FAIL pkgconfig: pkg-config or cc failed: \$out/pc.log"; fi
step static
if cc -o "\$out/hello-static" "\$here/hello.c" -I"\$dir/include" -L"\$dir/lib" -Wl,-Bstatic -lmpi -Wl,-Bdynamic \
      -lfabric -lhwloc -lpthread -lm > "\$out/static.log" 2>&1; then runprog static "\$out/hello-static" none
else echo "FAIL static: linking DIR/lib/libmpi.a failed: \$out/static.log"; fi
step mpivars
if "\$dir/bin/mpivars" 2>&1 | grep -q MPIR_CVAR_AVRM_ON_DEMAND_AV; then echo "PASS mpivars: lists MPIR_CVAR_AVRM_ON_DEMAND_AV"
else echo "FAIL mpivars: no MPIR_CVAR_AVRM_ON_DEMAND_AV in its list"; fi
EOF

mkdir -p "$out/probe"
if [ "$(id -u)" = 0 ] && unshare -m sh -c "mount -t tmpfs none '$out/probe'" 2>/dev/null; then
    unshare -m sh -c "mount -t tmpfs none '$bdir/mpich-build' && sh '$out/checks.sh' yes" > "$out/checks.log" 2>&1
else
    result SKIP masked "no private mount namespace here (not root, or no CAP_SYS_ADMIN): the checks run with the build tree visible"
    sh "$out/checks.sh" no > "$out/checks.log" 2>&1
fi
grep -E '^(PASS|FAIL) ' "$out/checks.log" > "$out/checks.res"
for name in masked c fortran pkgconfig static mpivars; do
    [ "$name" = masked ] && ! grep -q '^=== masked' "$out/checks.log" && continue
    line=$(grep -E "^(PASS|FAIL) $name:" "$out/checks.res" | head -1)
    if [ -n "$line" ]; then
        result "${line%% *}" "$name" "${line#*: }"
    else
        result FAIL "$name" "no result (see $out/checks.log)"
    fi
done

# the module file under Lmod, in a shell of its own that starts Lmod the way
# a login shell does (Debian's /etc/profile.d/lmod.sh: it also gives MANPATH
# the trailing ':' that keeps the system's pages)
lmod_init=/etc/profile.d/lmod.sh
if [ -r "$lmod_init" ]; then
    env -i HOME="$HOME" PATH=/usr/bin:/bin LMOD_ALLOW_ROOT_USE=yes sh -c "
        . $lmod_init
        env | LC_ALL=C sort > '$out/env-before'
        module use '$dir/share/modulefiles' && module load avrm-mpich || { echo 'FAIL module: load failed'; exit; }
        env | LC_ALL=C sort > '$out/env-after'
        [ \"\$(command -v mpicc)\" = '$dir/bin/mpicc' ] || { echo \"FAIL module: mpicc is \$(command -v mpicc)\"; exit; }
        case :\$MANPATH: in *:$dir/share/man:*) ;; *) echo \"FAIL module: MANPATH \$MANPATH\"; exit ;; esac
        case :\$PKG_CONFIG_PATH: in *:$dir/lib/pkgconfig:*) ;; *) echo \"FAIL module: PKG_CONFIG_PATH \$PKG_CONFIG_PATH\"; exit ;; esac
        m=\$(man -w MPI_Send 2>/dev/null); case \$m in $dir/*) ;; *) echo \"FAIL module: man -w MPI_Send gives '\$m'\"; exit ;; esac
        man -w ls > /dev/null 2>&1 || { echo 'FAIL module: man -w ls fails with MANPATH='\$MANPATH; exit; }
        module unload avrm-mpich
        case :\$PATH: in *:$dir/bin:*) echo 'FAIL module: unload left PATH with the prefix'; exit ;; esac
        echo 'PASS module: PATH, MANPATH, PKG_CONFIG_PATH set; unload restores PATH'
    " > "$out/module.log" 2>&1
    line=$(grep -E '^(PASS|FAIL) module' "$out/module.log" | tail -1)
    [ -n "$line" ] || line="FAIL module: no result (see $out/module.log)"
    # any other variable the load changed, beside Lmod's own bookkeeping
    if [ "${line%% *}" = PASS ]; then
        other=$(comm -13 "$out/env-before" "$out/env-after" | cut -d= -f1 |
                grep -vE '^(PATH|MANPATH|PKG_CONFIG_PATH|MODULEPATH|LOADEDMODULES|_LMFILES_|_ModuleTable[0-9A-Za-z_]*|__LMOD_REF_COUNT_[A-Z_]+|LMOD_[A-Z_]+|__LMOD_[A-Z_]+|_LMFILES_)$' | tr '\n' ' ')
        [ -z "$other" ] || line="FAIL module: it also changed $other"
    fi
    result "${line%% *}" module "${line#*: }"
else
    result SKIP module "no Lmod ($lmod_init): maint/install-deps.sh installs lmod"
fi

if make -C "$bdir" uninstall prefix="$dir" > "$out/uninstall.log" 2>&1 && [ ! -e "$dir" ]; then
    result PASS uninstall "$dir removed"
else
    result FAIL uninstall "$(find "$dir" 2>/dev/null | head -3 | tr '\n' ' ') (see $out/uninstall.log)"
fi
finish
