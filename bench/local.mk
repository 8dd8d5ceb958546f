# bench: owned by its part; see top Makefile.am
