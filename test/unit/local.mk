# test/unit: owned by its part; see top Makefile.am
