#!/bin/sh
# Ours in the other builds users make (make check-debug, make check-fast):
#   run.sh debug|fast PREFIX MPICH_SRC OUTDIR
# debug  (make mpich-debug: --enable-g=dbg,mem --enable-fast=O0, assertions
#        on): our MPI tests (test/mpi) and MPICH's comm group spawn rma.
#        MPICH's memory tracing lists every block still allocated at
#        MPI_Finalize (MPIR_CVAR_MEMDUMP, on by default in such a build) as
#        "[rank] BYTES at [ADDR], FILE[LINE]". A block allocated by our glue
#        (FILE ch4_avrm*, ofi_avrm.h, ofi_ondemand*) or by libavrm (it allocates
#        through MPL in mpir_avrm_hier.c, patch mpir-node-hierarchy-on-avrm: every allocation of
#        that file is libavrm's) is a leak of ours: each distinct FILE[LINE]
#        counts one failure. Controls: a block the program leaks
#        (MPI_Alloc_mem) and one libavrm leaks (a searched group never freed)
#        must both show as such. Blocks left by
#        MPICH's own code are listed with their counts, not failed: the same
#        list comes from stock built the same way (STOCK_PREFIX=...).
# fast   (make mpich-fast: --enable-fast=all = O2, ndebug, alwaysinline, the
#        way distributions and Spack build): our MPI tests, again with
#        MPIR_CVAR_AVRM_COMPUTED_AV=1 (its fallback to a stored AV once sat
#        inside an assertion, which ndebug removes), and MPICH's comm group
#        spawn rma.
# vci    (make mpich-vci: --enable-thread-cs=per-vci, up to 64 VCIs): our
#        MPI tests (their threads test then runs under per-VCI locking: the
#        glue's UTIL mutex is a real lock, no global critical section), our
#        comm tests again on 4 VCIs (MPIR_CVAR_CH4_NUM_VCIS=4: communicators
#        hashed to VCIs, every endpoint's address computed, patch ch4-address-layer-on-avrm; in
#        the twonics placement 2 NICs x 4 VNIs, 8 endpoints per process), and
#        MPICH's comm group and threads (a directory of directories: each
#        is listed), then threads again on 4 VCIs; the send/put path's
#        instruction counts against baseline-vci.csv (test/insns/run.sh).
# asan   (make mpich-asan: per-VCI, libmpi built with -fsanitize=address, no
#        Fortran): our C MPI tests (comm group rma topo) on 4 VCIs, every
#        placement including twonics; an ASan report aborts the run, which
#        fails it. The tests are built with MPICH_CC="gcc -fsanitize=address"
#        (libtool leaves the runtime out of libmpi.so's needed list).
#        ASAN_OPTIONS: detect_leaks=0 (MPICH keeps blocks to exit; the debug
#        flavor's memory dump checks ours), verify_asan_link_order=0 (the
#        twonics placement preloads nicshim.so ahead of the runtime).
# tsan   (make mpich-tsan: per-VCI, libmpi and libavrm built with
#        -fsanitize=thread, no Fortran): our threaded tests (comm/threads,
#        pt2pt/ondemand_threads: concurrent first contact, rma/atomics_threads:
#        first contact from fetch-and-op and compare-and-swap beside a thread
#        progressing VCI 0, comm/spawn_threads: a spawn beside first
#        contacts, group/index_threads:
#        concurrent index builds) on 1 and 4 VCIs, built with
#        MPICH_CC="gcc -fsanitize=thread". Every TSan report (one file per
#        process: TSAN_OPTIONS log_path, OUTDIR/tsan-1vci and tsan-4vcis)
#        that tsan-mpich.supp does not name fails one check per distinct top
#        frame, and is called ours when its stack passes through our glue or
#        libavrm. Control: tsan_control.c (two threads bump a counter with no
#        lock) must be reported.
# Ends with "skipped: N" and "N passed, N failed" summed over the parts.
set -u
[ $# -eq 4 ] || { echo "usage: $0 debug|fast|vci|asan|tsan PREFIX MPICH_SRC OUTDIR" >&2; exit 2; }
flavor=$1 prefix=$2 src=$3
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case $flavor in debug|fast|vci|asan|tsan) ;; *) echo "run.sh: flavor debug, fast, vci, asan or tsan" >&2; exit 2 ;; esac
tp=0 tf=0 ts=0
part() {  # name command...: run, sum its closing line
    name=$1; shift
    echo "=== $flavor: $name"
    "$@" > "$out/$name.log" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|XFAIL|XPASS|mpich-suite:)' "$out/$name.log" | grep -v '^PASS' | head -40
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/$name.log" | tail -1)
    s=$(sed -n 's/^skipped: \([0-9]*\).*/\1/p' "$out/$name.log" | tail -1)
    if [ -z "$line" ]; then p=0 f=1; echo "FAIL $name: no closing line (exit $rc)"
    else
        p=${line%% passed*}; f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
        [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "${s:-0}" -eq 0 ] && { f=1; echo "FAIL $name: ran nothing"; }
    fi
    echo "$name: $p passed, $f failed, ${s:-0} skipped"
    tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + ${s:-0}))
}
# control NAME NP EXIT PATTERN WHAT: build test/builds/NAME.c, run it on NP
# processes, which must exit 0 (EXIT ok) or not (EXIT fail), and find
# PATTERN (grep -E) in its output: WHAT must be seen, or the check it
# controls could not fail
control() {
    cname=$1 cnp=$2 cexit=$3 cpat=$4 cwhat=$5 cok=0
    . "$top/test/mpienv.sh"
    mkdir -p "$out/control"
    if "$prefix/bin/mpicc" -o "$out/control/$cname" "$here/$cname.c"; then
        "$prefix/bin/mpiexec" -n "$cnp" "$out/control/$cname" > "$out/control/$cname.txt" 2>&1
        crc=$?
        case $cexit in ok) [ "$crc" -eq 0 ] ;; *) [ "$crc" -ne 0 ] ;; esac &&
            grep -qE "$cpat" "$out/control/$cname.txt" && cok=1
    fi
    if [ "$cok" = 1 ]; then echo "PASS control: $cwhat"; tp=$((tp + 1))
    else echo "FAIL control: not seen: $cwhat ($out/control)"; tf=$((tf + 1)); fi
}
finish() {
    echo "skipped: $ts (listed in $out/*.log)"
    echo "$tp passed, $tf failed"
    [ "$tf" -eq 0 ]
    exit
}
if [ "$flavor" = asan ]; then
    # the programs are built with -fsanitize=address too (MPICH's mpicc
    # takes its compiler from MPICH_CC): libmpi.so does not name the runtime
    export MPICH_CC="gcc -fsanitize=address"
    part ours-asan-4vcis env MPIR_CVAR_CH4_NUM_VCIS=4 \
        ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0:abort_on_error=1 \
        "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-asan" comm group rma topo
    export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0
    control asan_control 1 fail 'heap-buffer-overflow' \
        "an overflow into a heap block during a receive, reported by ASan"
    finish
fi
if [ "$flavor" = tsan ]; then
    export MPICH_CC="gcc -fsanitize=thread"
    # TSan slows these 3-8x: ondemand_threads 8 over tcp;ofi_rxm on 4 VCIs
    # took 78 s alone on 2 cores (2026-11-26), past runtests' 60 s
    export AVTEST_TIMEOUT=${AVTEST_TIMEOUT:-240}
    # exitcode 0: a test fails on its own checks; the reports are counted below
    export TSAN_OPTIONS="suppressions=$here/tsan-mpich.supp exitcode=0 report_signal_unsafe=0 second_deadlock_stack=1"
    threaded="comm/threads comm/spawn_threads pt2pt/ondemand_threads group/index_threads rma/atomics_threads"
    # one report file per process (log_path): ranks writing to one stderr
    # interleave their reports line by line
    rm -rf "$out/tsan-1vci" "$out/tsan-4vcis"; mkdir -p "$out/tsan-1vci" "$out/tsan-4vcis"
    part ours-tsan env TSAN_OPTIONS="$TSAN_OPTIONS log_path=$out/tsan-1vci/r" \
        "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-tsan" $threaded
    part ours-tsan-4vcis env MPIR_CVAR_CH4_NUM_VCIS=4 TSAN_OPTIONS="$TSAN_OPTIONS log_path=$out/tsan-4vcis/r" \
        "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-tsan-4vcis" $threaded
    control tsan_control 1 ok 'WARNING: ThreadSanitizer: data race' \
        "a race between two threads of the program, reported by TSan"
    # every report: its first frame, and whether a frame of either stack is
    # ours (libavrm: include/avrm, src/core, avrm_*; the glue's files and
    # functions; MPICH functions our patches rewrote around libavrm)
    ours_re='avrm_|/avrm/|src/core/|ch4_avrm|ofi_avrm\.h|ofi_ondemand|MPIDI_OFI_ondemand_|MPID_Rank_map_|MPIDI_OFI_av_resolve|resolve_locked|MPIDIU_av_|MPIDIU_comm_|MPIDIU_lpid_|MPIDI_comm_create_rank_map|MPIR_Group_index|MPIR_Find_hierarchy'
    find "$out/tsan-1vci" "$out/tsan-4vcis" -type f -exec awk -v ours="$ours_re" '
        /WARNING: ThreadSanitizer:/ { if (kind != "") print kind "\t" top "\t" mine; kind = $0; sub(/.*ThreadSanitizer: /, "", kind); sub(/ \(pid.*/, "", kind); top = ""; mine = "mpich" }
        kind != "" && /^ +#[0-9]+ / { if (top == "") top = $2; if ($0 ~ ours) mine = "ours" }
        /^SUMMARY: ThreadSanitizer/ { if (kind != "") print kind "\t" top "\t" mine; kind = "" }
        END { if (kind != "") print kind "\t" top "\t" mine }' {} + | sort | uniq -c | sort -rn > "$out/tsan-reports.txt"
    echo "=== tsan: reports by kind, first frame, whose (count): $out/tsan-reports.txt"
    cat "$out/tsan-reports.txt"
    n=$(grep -c . "$out/tsan-reports.txt")
    if [ "$n" -eq 0 ]; then echo "PASS no ThreadSanitizer report left unsuppressed"; tp=$((tp + 1))
    else sed 's/^/FAIL tsan: /' "$out/tsan-reports.txt"; tf=$((tf + n)); fi
    finish
fi
part ours "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi"
[ "$flavor" = fast ] &&
    part ours-computed env MPIR_CVAR_AVRM_COMPUTED_AV=1 "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-computed"
[ "$flavor" = vci ] &&
    part ours-4vcis env MPIR_CVAR_CH4_NUM_VCIS=4 "$top/test/mpi/runtests.sh" "$prefix" "$out/mpi-4vcis" comm pt2pt rma
# the send/put path's instructions on this build against its baseline
# (test/insns/baseline-vci.csv) and stock built the same way (make
# mpich-vci-stock, when present): VCI 0, and 4 VCIs (communicators on VCIs 1-3)
[ "$flavor" = vci ] &&
    part insns env INSNS_KINDS="stored ondemand shm vci4 ondemand4" "$top/test/insns/run.sh" vci "$prefix" "$out/insns" \
        $( [ -x "$(dirname "$prefix")/mpich-stock/bin/mpicc" ] && echo "$(dirname "$prefix")/mpich-stock")
# -O0 with memory tracing runs MPICH's slowest rma tests 2-5x longer than
# -O2: large_acc_flush_local 3 alone takes 162 s at load 3 and 300 s at load
# 5 (90 s limit; it failed at 3x, 270 s, beside a benchmark), so the debug
# flavor gives every test 5x MPICH's limit (a hang still fails, at 450 s).
mult=1
[ "$flavor" = debug ] && mult=${MPITEST_TIMEOUT_MULTIPLIER:-5}
dirs="comm group spawn rma"
# MPICH's threads directory is a directory of directories
threads="threads/pt2pt threads/comm threads/init threads/mpi_t threads/spawn threads/rma threads/part threads/coll"
[ "$flavor" = vci ] && dirs="comm group $threads"
part mpich env MPITEST_TIMEOUT_MULTIPLIER="$mult" SUITE_DIRS="${BUILDS_SUITE_DIRS:-$dirs}" \
    "$top/test/mpich-suite/run.sh" "$prefix" "$src" "$out/mpich-suite"
[ "$flavor" = vci ] &&
    part mpich-4vcis env MPIR_CVAR_CH4_NUM_VCIS=4 SUITE_DIRS="$threads" \
        "$top/test/mpich-suite/run.sh" "$prefix" "$src" "$out/mpich-suite-4vcis"
if [ "$flavor" = debug ]; then
    # a block the program never frees (MPI_Alloc_mem) must show in the dump,
    # or the dump is not working and no leak could be seen
    control leak_control 2 ok '\[[0-9]+\] [0-9]+ at \[' "a block left on purpose, in the memory dump"
    # blocks of ours: the glue's files and libavrm's allocator (mpir_avrm_hier.c)
    ours_re='ch4_avrm|ofi_avrm\.h|ofi_ondemand|mpir_avrm_hier\.c'
    # a libavrm block left on purpose must be counted as ours
    control leak_control_avrm 4 ok "\\[[0-9]+\\] [0-9]+ at \\[[^]]*\\], *[^ ]*($ours_re)" \
        "a libavrm block left on purpose (a group's rank index), in the memory dump as ours"
    # every memory dump line of every run: ours by FILE[LINE], MPICH's counted
    grep -rhoE '\[[0-9]+\] [0-9]+ at \[[^]]*\], *[^ ]*\[[0-9]+\]' "$out" --include='*.log' --include='*.tap' \
        --exclude-dir=control \
        | sed -E 's/.*\], *//' | sort | uniq -c | sort -rn > "$out/leaks.txt"
    ours=$(grep -cE "$ours_re" "$out/leaks.txt")
    echo "=== debug: blocks left at MPI_Finalize, by allocation site (count, FILE[LINE]): $out/leaks.txt"
    head -20 "$out/leaks.txt"
    if [ "$ours" -eq 0 ]; then echo "PASS no block of our glue or libavrm left at MPI_Finalize"; tp=$((tp + 1))
    else grep -E "$ours_re" "$out/leaks.txt" | sed 's/^/FAIL leak: /'; tf=$((tf + ours)); fi
fi
finish
