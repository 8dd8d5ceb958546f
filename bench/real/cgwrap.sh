#!/bin/sh
# cgwrap.sh PROGRAM ARGS...: the mpiexec launcher shim of run-real.sh. World
# rank $CG_RANK (hydra's PMI_RANK) runs under callgrind with collection off
# until the program toggles it; every other rank runs PROGRAM plainly.
# Profiles go to $CG_OUT/cg.<pid>.<n>, one per CALLGRIND_DUMP_STATS_AT;
# CG_VALGRIND_OPTS adds callgrind options (--dump-instr=yes to read costs per
# instruction with callgrind_annotate --auto=no or objdump).
if [ "${PMI_RANK:-}" = "${CG_RANK:?}" ]; then
    exec env HWLOC_COMPONENTS=-x86 valgrind -q --tool=callgrind --collect-atstart=no --compress-strings=no \
        --compress-pos=no ${CG_VALGRIND_OPTS:-} --callgrind-out-file="${CG_OUT:?}/cg.%p" "$@"
fi
exec "$@"
