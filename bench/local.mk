# bench: simulator, MODELs of other MPIs, memory/lookup/build benchmarks, and
# the targets of bench/run's steps.
noinst_PROGRAMS += bench/bench-memory bench/bench-lookup bench/bench-build bench/bench-simbuild \
	bench/bench-predict bench/bench-translate bench/bench-splitsim bench/bench-firstwrite
bench_bench_memory_SOURCES = bench/sim/memory.c bench/sim/scenarios.c bench/sim/scenarios.h \
	bench/sim/sim.c bench/sim/sim.h \
	bench/sim/backend_avrm.c bench/sim/backend_avrm.h \
	bench/models/models.c bench/models/models.h
bench_bench_memory_LDADD = libavrm.a
bench_bench_simbuild_SOURCES = bench/sim/simbuild.c bench/sim/scenarios.c bench/sim/scenarios.h \
	bench/sim/sim.c bench/sim/sim.h bench/sim/backend_avrm.c bench/sim/backend_avrm.h \
	bench/models/ch4build.c bench/models/ch4build.h
bench_bench_simbuild_LDADD = libavrm.a
# MPI_Comm_split without a gather, the protocol replayed for every process
# (libavrm's avrm_split.h) against MPICH 4.0.2's allgather (bench step split)
bench_bench_splitsim_SOURCES = bench/sim/splitsim.c
bench_bench_splitsim_LDADD = libavrm.a
# the simulator's prediction of the real library's pvars (test/simcheck)
bench_bench_predict_SOURCES = bench/sim/predict.c bench/common/namelist.h bench/sim/sim.c bench/sim/sim.h \
	bench/sim/backend_avrm.c bench/sim/backend_avrm.h
bench_bench_predict_LDADD = libavrm.a
# what libavrm adds to a first contact, sparse against dense world AV (issue 55)
bench_bench_firstwrite_SOURCES = bench/lookup/firstwrite.c
bench_bench_firstwrite_LDADD = libavrm.a
bench_bench_lookup_SOURCES = bench/lookup/lookup.c bench/common/maps.c bench/common/maps.h
bench_bench_lookup_LDADD = libavrm.a
bench_bench_build_SOURCES = bench/build/buildtime.c bench/common/maps.c bench/common/maps.h
bench_bench_build_LDADD = libavrm.a
bench_bench_translate_SOURCES = bench/translate/translate.c bench/common/maps.c bench/common/maps.h
bench_bench_translate_LDADD = libavrm.a
EXTRA_DIST += bench/run bench/report bench/steps.ini bench/steps.py bench/run-core.sh bench/tools bench/README.md \
	bench/sim/run-library.sh bench/real/run-memclass.sh bench/real/initonly.c \
	bench/real/run-vciinit.sh bench/real/run-groupinsns.sh bench/real/groupinsns.c \
	bench/translate/run.sh

# Every benchmark is a step of bench/run (the table: bench/steps.ini); the
# targets below are its steps, with the libraries this Makefile builds.
# `bench/run list` says what each step measures, where it writes and whether
# its stamped results are fresh or stale.
BENCH_RUN = $(top_srcdir)/bench/run --build $(abs_top_builddir) --lib ours=$(MPICH_PATCHED) --lib stock=$(MPICH_STOCK)
BENCH_CORE_BINS = bench/bench-memory bench/bench-lookup bench/bench-build bench/bench-simbuild \
	bench/bench-translate bench/bench-splitsim bench/bench-firstwrite
# the steps, by the builds they need (one rule per group; a step in no
# group has its own rule below)
BENCH_STEPS_CORE = core core-quick translate
BENCH_STEPS_MPICH = insns insns-rate real comm-memory group-insns group-time ondemand ondemand-pmi split split-sort intercomm create-insns
BENCH_STEPS_VCI = vci-init vci
.PHONY: bench-stale bench-library-memory bench-memclass \
	$(BENCH_STEPS_CORE:%=bench-%) $(BENCH_STEPS_MPICH:%=bench-%) $(BENCH_STEPS_VCI:%=bench-%)
# every stamped step whose results are stale or unstamped, in turn, then the
# check, strict: a set left stale fails it (make release-check makes each
# step's own builds first)
bench-stale: mpich mpich-stock
	$(BENCH_RUN) stale
	$(BENCH_RUN) --strict check
$(BENCH_STEPS_CORE:%=bench-%): bench-%: $(BENCH_CORE_BINS)
	$(BENCH_RUN) $*
$(BENCH_STEPS_MPICH:%=bench-%): bench-%: mpich mpich-stock
	$(BENCH_RUN) $*
bench-ondemand: bench/bench-memory      # its simulated whole process at scale
bench-ondemand-pmi: mpich-pmix            # its srun --mpi=pmix runs
bench-split bench-split-sort: bench/bench-splitsim   # its replay to 2^24 processes
$(BENCH_STEPS_VCI:%=bench-%): bench-%: mpich-vci mpich-vci-stock
	$(BENCH_RUN) $*
bench-library-memory: bench/bench-memory
	$(BENCH_RUN) library-memory
bench-memclass: mpich-debug
	$(BENCH_RUN) memclass
