#!/bin/sh
# MPICH's suite directories again under our CVAR variants, each a run of
# run.sh with the variant's environment:
#   tables    MPIR_CVAR_AVRM_PATTERNS=0     every rank map is a lookup table
#   computed  MPIR_CVAR_AVRM_COMPUTED_AV=1  the world AV stores no entry
#
#   variants.sh PREFIX MPICH_SRC OUTDIR
#
# VARIANT_DIRS (default: comm group topo spawn; the tables variant leaves
# spawn out of CI time, its runs listed as skipped: its maps are the same
# tables as any other's, while the computed variant's spawned groups are the
# stored AVs beside a computed world). AVRM_SUITE_BUILD: a suite
# build of the same prefix to reuse (the mpich phase's OUTDIR/build; run-all
# passes it), else run.sh configures and builds one. Prints each variant's
# output and one closing "N passed, N failed" (and "skipped: N") summed over
# the variants; exits nonzero when any variant failed.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
prefix=$1 src=$2 out=$3
p=0 f=0 s=0
for v in tables:MPIR_CVAR_AVRM_PATTERNS=0 computed:MPIR_CVAR_AVRM_COMPUTED_AV=1; do
    name=${v%%:*} cvar=${v#*:}
    vout=$out/$name
    mkdir -p "$vout"
    if [ -n "${AVRM_SUITE_BUILD:-}" ] && [ -d "$AVRM_SUITE_BUILD" ] && [ ! -e "$vout/build" ]; then
        ln -s "$AVRM_SUITE_BUILD" "$vout/build"
    fi
    echo "=== variant $name ($cvar)"
    vdirs=${VARIANT_DIRS:-comm group topo spawn} omit=""
    if [ -z "${VARIANT_DIRS:-}" ] && [ "$name" = tables ]; then vdirs="comm group topo" omit=spawn; fi
    env "$cvar" SUITE_DIRS="$vdirs" SUITE_OMIT_DIRS="$omit" \
        SUITE_OMIT_REASON="tables variant: spawn left out of CI (VARIANT_DIRS=spawn runs it)" \
        "$here/run.sh" "$prefix" "$src" "$vout" > "$vout/run.log" 2>&1
    rc=$?
    sed "s/^/[$name] /" "$vout/run.log" | grep -v '^\[[a-z]*\] [0-9]* passed, [0-9]* failed$'
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$vout/run.log" | tail -1)
    if [ -z "$line" ]; then
        echo "[$name] no closing line (exit $rc)"; f=$((f + 1)); continue
    fi
    vp=${line%% passed*} vf=$(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')
    vs=$(sed -n 's/^skipped: \([0-9]*\).*/\1/p' "$vout/run.log" | tail -1)
    [ "$rc" -ne 0 ] && [ "$vf" -eq 0 ] && vf=1 && echo "[$name] exit $rc with 0 failed"
    p=$((p + vp)) f=$((f + vf)) s=$((s + ${vs:-0}))
done
echo "skipped: $s (listed above)"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
