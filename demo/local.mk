# demo: owned by its part; see top Makefile.am
# The demo must be built with the MPICH under test (its mpicc), so automake
# does not compile it: demo/run-demo.sh PREFIX [NP] builds and runs it.
EXTRA_DIST += demo/commdemo.c demo/run-demo.sh

# make demo (target declared .PHONY in the top Makefile.am): patched MPICH, 8 ranks
demo: mpich
	$(top_srcdir)/demo/run-demo.sh $(MPICH_PATCHED) 8
