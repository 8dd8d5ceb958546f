#!/bin/sh
# Apply our series onto an extracted MPICH 4.0.2 tree:
#   apply-patches.sh MPICH_TREE
# patches/mpich/series lists, in order:
#   NNNN-name.patch            a patch (-p1), applied with `patch`
#   add REPO_PATH TREE_PATH    one of our files, copied into the tree
# Idempotent: a patch already applied is skipped: TREE/.avrm-applied names
# each patch applied (name and content hash; a later patch may change the
# context an earlier one's reverse dry run needs), else a reverse dry run
# says so; a patch that applies neither way stops with its name. When any patch
# changed in this run touches MPIR_CVAR blocks, MPICH's CVAR tables are
# regenerated (only then: their timestamps drive a large rebuild).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "$1" && pwd)
pdir=$top/patches/mpich
die() { echo "apply-patches: $*" >&2; exit 1; }
[ -f "$tree/maint/extractcvars" ] || die "$tree is not an MPICH source tree"

cvars=no
# a CVAR declaration line of an MPI_T_CVAR_INFO_BLOCK (mere uses of a CVAR
# in code or comments must not trigger the regeneration: it rebuilds libmpi)
cvar_decl='.*- name *: *MPIR_CVAR_'
while read -r first a b; do
    case "$first" in ''|'#'*) continue ;; esac
    if [ "$first" = add ]; then
        [ -f "$top/$a" ] || die "series: missing file $a"
        mkdir -p "$(dirname "$tree/$b")"
        cmp -s "$top/$a" "$tree/$b" 2>/dev/null && continue
        cp "$top/$a" "$tree/$b"
        echo "apply-patches: added $b" >&2
        grep -q "$cvar_decl" "$top/$a" && cvars=yes
        continue
    fi
    p=$pdir/$first
    [ -f "$p" ] || die "series: missing patch $first"
    stamp="$first $(sha256sum < "$p" | cut -c1-16)"
    if grep -qxF "$stamp" "$tree/.avrm-applied" 2>/dev/null; then
        continue    # applied by an earlier run (a later patch may have changed its context)
    elif patch -d "$tree" -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1; then
        echo "$stamp" >> "$tree/.avrm-applied"
        continue    # already applied: nothing changed
    elif patch -d "$tree" -p1 --dry-run -s -f < "$p" >/dev/null 2>&1; then
        patch -d "$tree" -p1 -s -f --no-backup-if-mismatch < "$p" || die "FAILED to apply $first"
        echo "$stamp" >> "$tree/.avrm-applied"
        echo "apply-patches: applied $first" >&2
    else
        patch -d "$tree" -p1 --dry-run -f < "$p" >&2 || true
        die "patch $first does not apply to $tree (refresh it: maint/refresh-patch.sh)"
    fi
    grep -q "^+$cvar_decl" "$p" && cvars=yes
done < "$pdir/series"

if [ $cvars = yes ]; then
    # MPICH generates its CVAR tables from comment blocks (autogen.sh does
    # this with maint/extractcvars; we run only that step).
    (cd "$tree" && perl -I maint/local_perl/lib maint/extractcvars \
        --dirs="src/mpi src/mpi_t src/nameserv src/util src/binding src/include src/mpid src/pmi" \
        --header=src/include/mpir_cvars.h --c-file=src/util/mpir_cvars.c \
        --readme-file=README.envvar >/dev/null 2>&1) || die "extractcvars failed"
    # every CVAR the series' entries declare is in the tables (a prefix of
    # the series declares only some of ours, or none: series-quick.sh)
    name='s/.*- name *: *\(MPIR_CVAR_[A-Z0-9_]*\).*/\1/p'
    for v in $(while read -r first a b; do
                   case "$first" in
                       ''|'#'*) ;;
                       add) sed -n "$name" "$top/$a" ;;
                       *) sed -n "/^+/$name" "$pdir/$first" ;;
                   esac
               done < "$pdir/series"); do
        grep -qw "$v" "$tree/src/include/mpir_cvars.h" || die "$v is missing from mpir_cvars.h"
    done
    echo "apply-patches: regenerated CVAR tables" >&2
fi
