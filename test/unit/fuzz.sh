#!/bin/sh
# fuzz.sh SECONDS [BUILDDIR] - longer libFuzzer run of test/unit/fuzz_build.c
# (needs clang; the corpus is kept in BUILDDIR/fuzz-corpus).
secs=${1:?usage: fuzz.sh SECONDS [BUILDDIR]}
B=${2:-.}
cd "$B" && make unit-fuzz || exit 2
[ -x ./fuzz_build ] || { echo "fuzz: skipped (no clang)"; exit 0; }
mkdir -p fuzz-corpus
exec ./fuzz_build -max_total_time="$secs" -timeout=10 -print_final_stats=1 fuzz-corpus
