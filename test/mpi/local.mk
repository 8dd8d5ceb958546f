# test/mpi: owned by its part; see top Makefile.am
