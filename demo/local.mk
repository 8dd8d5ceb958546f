# demo: owned by its part; see top Makefile.am
# The demo must be built with the MPICH under test (its mpicc), so automake
# does not compile it: demo/run-demo.sh PREFIX [NP] builds and runs it.
EXTRA_DIST += demo/commdemo.c demo/run-demo.sh

# make demo (target declared .PHONY in the top Makefile.am): patched MPICH, 8
# ranks, over sockets (test/mpienv.sh's provider: addresses exchanged at
# MPI_Init) and over tcp;ofi_rxm on 4 emulated nodes of 2 (on-demand
# addressing: each process shows how many off-node peers it resolved; a
# peer on its node is reached through shared memory and never resolved)
demo: mpich
	$(top_srcdir)/demo/run-demo.sh $(MPICH_PATCHED) 8
	FI_PROVIDER='tcp;ofi_rxm' MPIR_CVAR_NUM_CLIQUES=4 MPIR_CVAR_CLIQUES_BY_BLOCK=1 \
	    $(top_srcdir)/demo/run-demo.sh $(MPICH_PATCHED) 8
