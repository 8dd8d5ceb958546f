#!/bin/sh
# Each fix of issue 53 (and issue 54's split_type and sorted paths) undone in a built tree, one at a time, and the test
# that guards it run against the result: the test must FAIL (make
# check-mutants; not in make check: each mutant relinks and installs libmpi
# twice, ~3 min). The tree is the build of make mpich (default) or make
# mpich-vci (vci); only files of ours (mpich/ of this repo) are mutated, and
# each is put back and rebuilt before the next mutant, also when the script
# is stopped (a trap) -- make mpich would restore it anyway (apply-patches
# copies our changed files).
#
#   mutants.sh BUILD_DIR CORE_LIB OUTDIR [NAME ...]
#
# BUILD_DIR: mpich-build (holds mpich-patched{,-src,-obj} and vci/).
# Prints one line per mutant: "caught NAME: TEST failed" or "MISSED NAME",
# then "N caught, N missed": a mutant is caught when its tests fail on the
# mutated tree and pass on the restored one (the control); exits 1 when a
# mutant is missed or a build fails.
set -u
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR CORE_LIB OUTDIR [NAME ...]" >&2; exit 2; }
bdir=$(cd "$1" && pwd) || exit 2
core=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
f=src/mpid/ch4/netmod/ofi/ofi_ondemand_resolve.c
g=src/mpid/ch4/src/ch4_avrm_split.c
h=src/mpid/ch4/src/ch4_avrm_intercomm.c

# NAME @ build @ file @ perl substitution (must change the file) @
# AVTEST_CONFIGS @ tests (runtests.sh arguments) @ issue.item (53: its Why list; 54: What to build)
mutants="
one-identity@default@$f@s/if \(t\.job_key == job_key\(\) \&\& t\.rank/if (0 \&\& t.job_key == job_key() \&\& t.rank/@rxm@comm/connect_world@53.1: a world peer reached through a port is the world's rank, not a dynamic one
insert-lock@vci@$f@s/int took = !MPIDI_OFI_ondemand\.log\.on &&/int took = 0 \&\& !MPIDI_OFI_ondemand.log.on \&\&/@rxm@rma/atomics_threads comm/spawn_threads@53.2: an insert into VNI 0's AV holds VCI 0's lock
errors-returned@default@$f@s/ : NULL, __func__\);/ : \"mutant: every failure aborts\", __func__);/@twonics@comm/nic_count@53.4: a failed first contact is the call's error
root-names@default@$f@s/    if \(avtid == 0\)\n        return world_root_name/    if (0 \&\& avtid == 0)\n        return world_root_name/@rxm@comm/spawn_threads@53.5: the spawn root names its members without contacting them
split-type-affine@default@$g@s/fs\[1\] = reverse \? -up : up;/fs[1] = up;/@oddeven block3@comm/split_type@54.3: split_type SHARED from the node hierarchy keeps the keys' order (a formula map)
split-sorted-keep@default@$g@s/\(avrm_split_item_cmp\(&theirs, a->item\) < 0\) == keep_low/(avrm_split_item_cmp(&theirs, a->item) < 0) != keep_low/@nolocal@comm/split_regular@54.2: a sorted split's comparators keep the right item
split-sorted-order@default@$g@s/    reverse\(run, 0, n\);\n//@nolocal@comm/split_regular@54.2: a sorted split's members in their run's order
split-sorted-agree@default@$g@s/fail = agree_fail\(comm, nlist && !have_map/fail = 0 \&\& agree_fail(comm, nlist \&\& !have_map/@nolocal@comm/nomem@54.6: one process's failed map table fails a sorted split on every process
split-type-list@default@$g@s/reverse \? rev : \(const int32_t \*\) h->words/(const int32_t *) h->words/@block3@comm/split_type@54.3: split_type SHARED from the node hierarchy keeps the keys' order (a list map)
intercomm-formula-stride@default@$h@s/    w\[1\] = f->stride;/    w[1] = 1;/@oddeven@comm/intercomm@54.3: MPI_Intercomm_create's formula carries the group's stride
intercomm-list-widen@default@$h@s/for \(int i = n - 1; i >= 0; i--\)/for (int i = 0; i < n; i++)/@nolocal@comm/intercomm@54.3: MPI_Intercomm_create's list of world ranks widened in place from the top
"
[ $# -eq 0 ] || { sel=" $* "; mutants=$(printf "%s\n" "$mutants" | while IFS='@' read -r n rest; do
    case $sel in *" $n "*) printf "%s\n" "$n@$rest" ;; esac; done); }
[ -n "$(echo "$mutants" | tr -d '[:space:]')" ] || { echo "mutants: no such mutant: $*" >&2; exit 2; }

tree() {   # build -> "src obj prefix"
    case $1 in
        default) echo "$bdir/mpich-patched-src $bdir/mpich-patched-obj $bdir/mpich-patched" ;;
        vci) echo "$bdir/vci/mpich-patched-src $bdir/vci/mpich-patched-obj $bdir/vci/mpich-patched" ;;
    esac
}
rebuild() {   # obj log
    (cd "$1" && make -j2 LIBS="$core" > "$2" 2>&1 && make install LIBS="$core" >> "$2" 2>&1)
}
restore=""
put_back() {
    [ -n "$restore" ] || return 0
    set -- $restore; restore=""
    cp "$out/orig.c" "$1/$3" && touch "$1/$3"
    rebuild "$2" "$out/restore.log" || { echo "mutants: rebuild after restoring $3 failed: $out/restore.log" >&2; exit 1; }
}
trap 'put_back; exit 1' INT TERM HUP

caught=0 missed=0
while IFS='@' read -r name build file subst configs tests item; do
    [ -n "$name" ] || continue
    set -- $(tree "$build"); src=$1 obj=$2 prefix=$3
    [ -f "$src/$file" ] && [ -f "$obj/config.status" ] ||
        { echo "mutants: $build tree not built (make mpich${build#default})" >&2; missed=$((missed + 1)); continue; }
    cp -p "$src/$file" "$out/orig.c"
    perl -0pi -e "$subst" "$src/$file"
    if cmp -s "$src/$file" "$out/orig.c"; then
        echo "MISSED $name: the substitution no longer matches $file ($item)"
        missed=$((missed + 1)); continue
    fi
    restore="$src $obj $file"
    if ! rebuild "$obj" "$out/$name.build.log"; then
        echo "mutants: build of $name failed: $out/$name.build.log" >&2; put_back; exit 1
    fi
    # shellcheck disable=SC2086
    AVTEST_CONFIGS=$configs "$top/test/mpi/runtests.sh" "$prefix" "$out/$name" $tests > "$out/$name.log" 2>&1
    put_back
    # the control: the same tests on the restored tree must pass, so a
    # failure above is the mutant's, not the machine's
    # shellcheck disable=SC2086
    AVTEST_CONFIGS=$configs "$top/test/mpi/runtests.sh" "$prefix" "$out/$name.control" $tests > "$out/$name.control.log" 2>&1
    if ! tail -1 "$out/$name.control.log" | grep -q ', 0 failed'; then
        echo "MISSED $name ($item): the restored tree fails too: $out/$name.control.log"
        missed=$((missed + 1))
    elif tail -1 "$out/$name.log" | grep -Eq ', [1-9][0-9]* failed'; then
        echo "caught $name ($item): $(grep -E '^FAIL' "$out/$name.log" | cut -d' ' -f2-4 | tr '\n' ';')"
        caught=$((caught + 1))
    else
        echo "MISSED $name ($item): $(tail -1 "$out/$name.log")"
        missed=$((missed + 1))
    fi
done <<EOF
$mutants
EOF
echo "$caught caught, $missed missed"
[ "$missed" -eq 0 ]
