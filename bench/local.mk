# bench: simulator, MODELs of other MPIs, memory/lookup/build benchmarks.
# `make bench-core` runs bench/run-core.sh quick (CSV/JSON/PNG in bench/out/).
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
EXTRA_DIST += bench/run-core.sh bench/tools/report.py bench/README.md \
	bench/sim/run-library.sh bench/sim/libmemory.py bench/real/run-memclass.sh bench/real/initonly.c \
	bench/real/run-vciinit.sh bench/real/run-groupinsns.sh bench/real/groupinsns.c

# Rerun the command of every stamped results set (bench/inputs.txt) whose
# stamp is missing or stale, in turn: what make check's results-fresh test
# asks for after a change to the code the figures measure.
bench-stale:
	cd $(top_srcdir) && $(top_srcdir)/maint/results-stamp.py stale | while read -r cmd; do \
	    echo "+ $$cmd"; sh -c "$$cmd" || exit 1; done
	$(top_srcdir)/maint/results-stamp.py check

.PHONY: bench-stale bench-core bench-core-full bench-ch4 bench-real bench-comm-memory bench-group-time bench-library-memory bench-memclass bench-vci-init bench-vci bench-group-insns bench-insns bench-ondemand-pmi bench-insns-rate
bench-core: bench/bench-memory bench/bench-lookup bench/bench-build
	$(top_srcdir)/bench/run-core.sh quick $(abs_top_builddir)
bench-core-full: bench/bench-memory bench/bench-lookup bench/bench-build
	$(top_srcdir)/bench/run-core.sh full $(abs_top_builddir)
# `make bench-ch4`: ours vs stock MPICH, measured on both builds (bench/real/README.md)
bench-ch4:
	MPICH_PATCHED=$(MPICH_PATCHED) MPICH_STOCK=$(MPICH_STOCK) $(top_srcdir)/bench/real/run-ch4.sh $(abs_top_builddir)/bench/out/ch4
# `make bench-real`: ours vs stock MPICH vs Open MPI, issue 8 (bench/real/README.md);
# needs `make mpich mpich-stock`, builds its programs, writes bench/out/real
# Issue 14: the whole library's O(P) state per process, simulated to 768K
# processes (address layer + node hierarchies + node map), ours vs the
# MODELs of 4.0.2 and main: bench/results/library-memory (bench/sim/run-library.sh)
bench-library-memory: bench/bench-memory
	$(top_srcdir)/bench/sim/run-library.sh $(abs_top_builddir) $(abs_top_builddir)/bench/results/library-memory
# Issue 14: MPICH's allocations by class (MPL_MEM_*) around MPI_Init against
# P, from the debug build's memory tracing: bench/out/memclass (slopes.csv)
bench-memclass: mpich-debug
	$(top_srcdir)/bench/real/run-memclass.sh $(MPICH_DEBUG_BUILD)/mpich-patched \
	    $(abs_top_builddir)/bench/out/memclass
# Issue 15: MPI_Init's heap per process against P, ours vs stock built
# per-VCI, NICs x VCIs = 1x1 1x4 2x8 1x16 (two NICs: test/mpi's twonics
# namespace and shim): bench/out/vci-init (SUMMARY.md, NxV/slopes.csv)
bench-vci-init: mpich-vci mpich-vci-stock
	$(top_srcdir)/bench/real/run-vciinit.sh $(MPICH_VCI_BUILD)/mpich-patched \
	    $(MPICH_VCI_BUILD)/mpich-stock $(abs_top_builddir)/bench/out/vci-init
# Issue 15: ours vs stock built per-VCI, in one run each: AV bytes per peer,
# instructions per 8-byte MPI_Isend / MPI_Put (callgrind) at 1 and at 4
# VCIs, and the multi-threaded message rate with 1, 2, 4 threads, each on its
# own communicator and VCI: bench/out/vci/{1vci,4vci}/SUMMARY.md
bench-vci: mpich-vci mpich-vci-stock
	MPICH_PATCHED=$(MPICH_VCI_BUILD)/mpich-patched MPICH_STOCK=$(MPICH_VCI_BUILD)/mpich-stock LIBS="ours stock" \
	STEPS="probe av insns mtrate" MR_N=4000 MR_REPS=7 REPORT_COMMAND="make bench-vci" \
	STOCK_AV_ENTRY_BYTES=4104 STOCK_AV_ENTRY_WHAT="fi_addr_t dest[8][64] + int is_local (per-VCI: MPIDI_CH4_MAX_VCIS = 64)" \
		$(top_srcdir)/bench/real/run-real.sh $(abs_top_builddir)/bench/out/vci/1vci
	MPICH_PATCHED=$(MPICH_VCI_BUILD)/mpich-patched MPICH_STOCK=$(MPICH_VCI_BUILD)/mpich-stock LIBS="ours stock" \
	MPIR_CVAR_CH4_NUM_VCIS=4 FI_PROVIDER=$$(sed -n 's/^chosen //p' $(abs_top_builddir)/bench/out/vci/1vci/provider.txt) \
	STEPS="insns" REPORT_COMMAND="make bench-vci (its second run: MPIR_CVAR_CH4_NUM_VCIS=4)" \
		$(top_srcdir)/bench/real/run-real.sh $(abs_top_builddir)/bench/out/vci/4vci

# Issue 14: heap per created communicator/group/window against P, emulated
# nodes of 8, ours vs stock vs Open MPI: bench/results/comm-memory/slopes.csv
# (bytes per process of the world, least squares) and slopes.png; creation
# time at 16 and 64 ranks (ctime.csv); libfabric's AV per peer (fiav.csv)
bench-comm-memory:
	MPICH_PATCHED=$(MPICH_PATCHED) MPICH_STOCK=$(MPICH_STOCK) REPORT_COMMAND="make bench-comm-memory" \
	STEPS="fiav heap ctime" HEAP_NPS="8 16 32 64 128" HEAP_K="40 40 40 40 20" HEAP_NODE_SIZE=8 \
	CT_NPS="16 64" CT_REPS=3 CT_K=20 \
	HEAP_SHAPES=dup,oddeven,cart,cartrows,win,comm_group,range_incl,group_rand,group_excl \
		$(top_srcdir)/bench/real/run-real.sh $(abs_top_builddir)/bench/results/comm-memory
	python3 $(top_srcdir)/bench/real/commslope.py $(abs_top_builddir)/bench/results/comm-memory
	$(top_srcdir)/maint/results-stamp.py write comm-memory $(abs_top_builddir)/bench/results/comm-memory/SUMMARY.md

# Issue 14: group lookup time (translate, compare, union), ours vs stock,
# interleaved rounds: bench/results/group-time/SUMMARY.md (stamped)
bench-group-time:
	$(top_srcdir)/bench/real/run-grouptime.sh $(MPICH_PATCHED) $(MPICH_STOCK) $(abs_top_builddir)/bench/results/group-time
# Issue 14: instructions per MPI_Group_translate_ranks call (callgrind on
# rank 0; deterministic), ours vs stock: bench/results/group-insns (groupinsns.csv,
# SUMMARY.md, stamped)
bench-group-insns:
	$(top_srcdir)/bench/real/run-groupinsns.sh $(MPICH_PATCHED) $(MPICH_STOCK) $(abs_top_builddir)/bench/results/group-insns

# (bench/results/real: SUMMARY.md, stamped; every step, all three libraries)
bench-real: mpich mpich-stock
	MPICH_PATCHED=$(MPICH_PATCHED) MPICH_STOCK=$(MPICH_STOCK) REPORT_COMMAND="make bench-real" \
		$(top_srcdir)/bench/real/run-real.sh $(abs_top_builddir)/bench/results/real
	$(top_srcdir)/maint/results-stamp.py write real $(abs_top_builddir)/bench/results/real/SUMMARY.md
# libmpi instructions per MPI_Isend / MPI_Put, ours vs stock in one run, every
# map mode and AV kind (issue 25): bench/results/insns (cells.csv, insns.png,
# SUMMARY.md); the same measurement as make check's insns phase
bench-insns: mpich mpich-stock
	MPICH_PATCHED=$(MPICH_PATCHED) MPICH_STOCK=$(MPICH_STOCK) \
		$(top_srcdir)/bench/real/run-insns.sh $(abs_top_builddir)/bench/results/insns
# Issue 24: MPI_Init time, first-contact latency and heap after MPI_Init
# per process manager (hydra, srun --mpi=pmi2) across emulated hosts, ours
# on demand / eager vs stock: bench/results/ondemand-pmi (SUMMARY.md, stamped)
bench-ondemand-pmi: mpich mpich-stock
	$(top_srcdir)/bench/real/run-ondemand-pmi.sh $(abs_top_builddir)/bench/results/ondemand-pmi
# Issue 25: the issue rate of the same calls as bench-insns (MPI_Isend and
# MPI_Put per map mode, opcost.c run plainly), ours vs stock, RATE_REPS
# interleaved runs: bench/results/insns/rate (SUMMARY.md, stamped); wall
# clock, so run it on a quiet machine
bench-insns-rate: mpich mpich-stock
	MPICH_PATCHED=$(MPICH_PATCHED) MPICH_STOCK=$(MPICH_STOCK) LIBS="ours stock" STEPS="probe rate" RATE_REPS=5 \
	REPORT_COMMAND="make bench-insns-rate" \
		$(top_srcdir)/bench/real/run-real.sh $(abs_top_builddir)/bench/results/insns/rate
	$(top_srcdir)/maint/results-stamp.py write insns/rate $(abs_top_builddir)/bench/results/insns/rate/SUMMARY.md
