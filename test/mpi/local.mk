# test/mpi: owned by its part; see top Makefile.am
# Our MPI tests (test/mpi), MPICH's own suite (test/mpich-suite) and the
# drop-in tests (test/dropin) all run against an installed MPICH prefix, so
# automake compiles nothing here: the scripts use PREFIX/bin/mpicc.
#   test/mpi/runtests.sh PREFIX OUTDIR        ours, 4 placements, sizes 2..16
#   test/mpich-suite/run.sh PREFIX SRC OUTDIR  MPICH's suite vs xfail.txt
#   test/dropin/run.sh PREFIX [OUTDIR]        Debian binaries on our libmpi
EXTRA_DIST += test/mpienv.sh test/README.md \
	test/mpi/runtests.sh test/mpi/include/avtest.h \
	test/mpi/comm/testlist test/mpi/comm/dup.c test/mpi/comm/split.c test/mpi/comm/split_regular.c \
	test/mpi/comm/create.c test/mpi/comm/split_type.c test/mpi/comm/intercomm.c \
	test/mpi/comm/comm_rand.c test/mpi/comm/connect_world.c test/mpi/group/testlist test/mpi/group/group_ops.c \
	test/mpi/group/group_random.c test/mpi/group/bad_args.c test/mpi/group/fuzz_args.c \
	test/mpi/topo/testlist test/mpi/topo/cart.c \
	test/mpi/rma/testlist test/mpi/rma/rma_comms.c test/mpi/rma/pscw_rotate.c \
	test/mpi/pt2pt/testlist test/mpi/pt2pt/procnull.c \
	test/mpich-suite/run.sh test/mpich-suite/xfail.txt test/mpich-suite/ci-skip.txt \
	test/dropin/run.sh

.PHONY: check-mpi check-mpich-suite check-dropin
# each target runs against the patched MPICH (MPICH_PREFIX=... to override)
check-mpi: mpich
	$(top_srcdir)/test/mpi/runtests.sh $${MPICH_PREFIX:-$(MPICH_PATCHED)} $(abs_top_builddir)/test-out/mpi
check-mpich-suite: mpich
	$(top_srcdir)/test/mpich-suite/run.sh $${MPICH_PREFIX:-$(MPICH_PATCHED)} $(MPICH_BUILD)/mpich-patched-src $(abs_top_builddir)/test-out/mpich-suite
check-dropin: mpich
	$(top_srcdir)/test/dropin/run.sh $${MPICH_PREFIX:-$(MPICH_PATCHED)} $(abs_top_builddir)/test-out/dropin
# the send/put path's instruction counts against test/insns/baseline-default.csv
# (the insns phase of make check), with stock measured in the same run when
# make mpich-stock has built it
.PHONY: check-insns
check-insns: mpich
	$(top_srcdir)/test/insns/run.sh default $(MPICH_PATCHED) $(abs_top_builddir)/test-out/insns \
	    $$( [ -x $(MPICH_BUILD)/mpich-stock/bin/mpicc ] && echo $(MPICH_BUILD)/mpich-stock)
# its control: the check must fail when one libavrm lookup is 2 instructions
# slower (test/insns/control.sh; ~3 minutes, needs the build tree)
.PHONY: check-insns-control
check-insns-control: mpich
	$(top_srcdir)/test/insns/control.sh $(MPICH_PATCHED) $(MPICH_BUILD)/mpich-patched-obj \
	    $(abs_top_builddir)/test-out/insns-control
