# bench: simulator, MODELs of other MPIs, memory/lookup/build benchmarks, and
# the targets of bench/run's steps.
noinst_PROGRAMS += bench/bench-memory bench/bench-lookup bench/bench-build bench/bench-simbuild \
	bench/bench-predict
bench_bench_memory_SOURCES = bench/sim/memory.c bench/sim/scenarios.c bench/sim/scenarios.h \
	bench/sim/sim.c bench/sim/sim.h \
	bench/sim/backend_avrm.c bench/sim/backend_avrm.h \
	bench/models/models.c bench/models/models.h
bench_bench_memory_LDADD = libavrm.a
bench_bench_simbuild_SOURCES = bench/sim/simbuild.c bench/sim/scenarios.c bench/sim/scenarios.h \
	bench/sim/sim.c bench/sim/sim.h bench/sim/backend_avrm.c bench/sim/backend_avrm.h \
	bench/models/ch4build.c bench/models/ch4build.h
bench_bench_simbuild_LDADD = libavrm.a
# the simulator's prediction of the real library's pvars (test/simcheck)
bench_bench_predict_SOURCES = bench/sim/predict.c bench/common/namelist.h bench/sim/sim.c bench/sim/sim.h \
	bench/sim/backend_avrm.c bench/sim/backend_avrm.h
bench_bench_predict_LDADD = libavrm.a
bench_bench_lookup_SOURCES = bench/lookup/lookup.c bench/common/maps.c bench/common/maps.h
bench_bench_lookup_LDADD = libavrm.a
bench_bench_build_SOURCES = bench/build/buildtime.c bench/common/maps.c bench/common/maps.h
bench_bench_build_LDADD = libavrm.a
EXTRA_DIST += bench/run bench/report bench/steps.ini bench/steps.py bench/run-core.sh bench/tools bench/README.md \
	bench/sim/run-library.sh bench/real/run-memclass.sh bench/real/initonly.c \
	bench/real/run-vciinit.sh bench/real/run-groupinsns.sh bench/real/groupinsns.c

# Every benchmark is a step of bench/run (the table: bench/steps.ini); the
# targets below are its steps, with the libraries this Makefile builds.
# `bench/run list` says what each step measures, where it writes and whether
# its stamped results are fresh.
BENCH_RUN = $(top_srcdir)/bench/run --build $(abs_top_builddir) --lib ours=$(MPICH_PATCHED) --lib stock=$(MPICH_STOCK)
BENCH_CORE_BINS = bench/bench-memory bench/bench-lookup bench/bench-build bench/bench-simbuild
.PHONY: bench-stale bench-core bench-core-quick bench-library-memory bench-insns bench-insns-rate bench-real \
	bench-comm-memory bench-group-insns bench-group-time bench-ondemand bench-ondemand-pmi bench-memclass \
	bench-vci-init bench-vci
# every stamped step whose results are stale or unstamped, in turn, then the check
bench-stale: mpich mpich-stock
	$(BENCH_RUN) stale
	$(BENCH_RUN) check
bench-core: $(BENCH_CORE_BINS)
	$(BENCH_RUN) core
bench-core-quick: $(BENCH_CORE_BINS)
	$(BENCH_RUN) core-quick
bench-library-memory: bench/bench-memory
	$(BENCH_RUN) library-memory
bench-insns: mpich mpich-stock
	$(BENCH_RUN) insns
bench-insns-rate: mpich mpich-stock
	$(BENCH_RUN) insns-rate
bench-real: mpich mpich-stock
	$(BENCH_RUN) real
bench-comm-memory: mpich mpich-stock
	$(BENCH_RUN) comm-memory
bench-group-insns: mpich mpich-stock
	$(BENCH_RUN) group-insns
bench-group-time: mpich mpich-stock
	$(BENCH_RUN) group-time
bench-ondemand: mpich mpich-stock
	$(BENCH_RUN) ondemand
bench-ondemand-pmi: mpich mpich-stock
	$(BENCH_RUN) ondemand-pmi
bench-memclass: mpich-debug
	$(BENCH_RUN) memclass
bench-vci-init: mpich-vci mpich-vci-stock
	$(BENCH_RUN) vci-init
bench-vci: mpich-vci mpich-vci-stock
	$(BENCH_RUN) vci
