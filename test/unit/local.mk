# test/unit: core unit tests (public API only, plus the allocation hook of
# src/core/avrm_alloc.h). Run them all with test/unit/run.sh BUILDDIR.
#
#   test_map, test_random, test_errors   check_PROGRAMS, linked to libavrm.a
#   *_san                                 same tests + core sources compiled
#                                         with -fsanitize=address,undefined
#                                         (EXTRA_PROGRAMS: `make unit-san`)
#   fuzz_build                            libFuzzer target, built with clang
#                                         when configure found it (`make unit-fuzz`)
#   test_threads_tsan                     one writer and lock-free readers (the
#                                         rule of avrm_ctx.h), test and core
#                                         sources compiled with -fsanitize=thread
#                                         (EXTRA_PROGRAMS: `make unit-tsan`;
#                                         test/unit/tsan.sh builds and runs it)
AVRM_UNIT_TESTS = test_map$(EXEEXT) test_random$(EXEEXT) test_errors$(EXEEXT) test_hooks$(EXEEXT) \
	test_hier$(EXEEXT) test_split$(EXEEXT) test_sort$(EXEEXT) test_sparse$(EXEEXT)
AVRM_UNIT_SAN = test_map_san$(EXEEXT) test_random_san$(EXEEXT) test_errors_san$(EXEEXT) \
	test_hooks_san$(EXEEXT) test_hier_san$(EXEEXT) test_split_san$(EXEEXT) \
	test_sort_san$(EXEEXT) test_sparse_san$(EXEEXT)
AVRM_UNIT_HDRS = test/unit/tu.h test/unit/tu_gen.h test/unit/tu_hier.h
AVRM_CORE_C = src/core/avrm_alloc.c src/core/avrm_av.c src/core/avrm_build.c src/core/avrm_find.c \
	src/core/avrm_ctx.c src/core/avrm_detect.c src/core/avrm_hier.c src/core/avrm_index.c \
	src/core/avrm_map.c src/core/avrm_sort.c src/core/avrm_split.c src/core/avrm_table.c
AVRM_SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
AVRM_TSAN_FLAGS = -fsanitize=thread -fno-omit-frame-pointer -pthread

check_PROGRAMS += test_map test_random test_errors test_hooks test_hier test_split test_sort test_sparse
test_map_SOURCES = test/unit/test_map.c $(AVRM_UNIT_HDRS)
test_map_LDADD = libavrm.a
test_random_SOURCES = test/unit/test_random.c $(AVRM_UNIT_HDRS)
test_random_LDADD = libavrm.a
test_errors_SOURCES = test/unit/test_errors.c $(AVRM_UNIT_HDRS)
test_errors_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_errors_LDADD = libavrm.a
test_hooks_SOURCES = test/unit/test_hooks.c $(AVRM_UNIT_HDRS)
test_hooks_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_hooks_LDADD = libavrm.a
test_hier_SOURCES = test/unit/test_hier.c $(AVRM_UNIT_HDRS)
test_hier_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_hier_LDADD = libavrm.a
test_split_SOURCES = test/unit/test_split.c $(AVRM_UNIT_HDRS)
test_split_LDADD = libavrm.a
test_sort_SOURCES = test/unit/test_sort.c $(AVRM_UNIT_HDRS)
test_sort_LDADD = libavrm.a
test_sparse_SOURCES = test/unit/test_sparse.c $(AVRM_UNIT_HDRS)
test_sparse_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_sparse_LDADD = libavrm.a

EXTRA_PROGRAMS = $(AVRM_UNIT_SAN) test_threads_tsan
CLEANFILES += $(AVRM_UNIT_SAN) test_threads_tsan$(EXEEXT) fuzz_build$(EXEEXT)
test_map_san_SOURCES = test/unit/test_map.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_map_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_map_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_map_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_random_san_SOURCES = test/unit/test_random.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_random_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_random_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_random_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_errors_san_SOURCES = test/unit/test_errors.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_errors_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_errors_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_errors_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_hooks_san_SOURCES = test/unit/test_hooks.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_hooks_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_hooks_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_hooks_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_split_san_SOURCES = test/unit/test_split.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_split_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_split_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_split_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_sort_san_SOURCES = test/unit/test_sort.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_sort_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_sort_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_sort_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_sparse_san_SOURCES = test/unit/test_sparse.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_sparse_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_sparse_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_sparse_san_LDFLAGS = $(AVRM_SAN_FLAGS)
test_hier_san_SOURCES = test/unit/test_hier.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_hier_san_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_hier_san_CFLAGS = $(AM_CFLAGS) $(AVRM_SAN_FLAGS)
test_hier_san_LDFLAGS = $(AVRM_SAN_FLAGS)

test_threads_tsan_SOURCES = test/unit/test_threads.c $(AVRM_UNIT_HDRS) $(AVRM_CORE_SOURCES)
test_threads_tsan_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/core
test_threads_tsan_CFLAGS = $(AM_CFLAGS) $(AVRM_TSAN_FLAGS)
test_threads_tsan_LDFLAGS = $(AVRM_TSAN_FLAGS)

.PHONY: unit-tests unit-san unit-tsan unit-fuzz
unit-tests: $(AVRM_UNIT_TESTS)
unit-san: $(AVRM_UNIT_SAN)
unit-tsan: test_threads_tsan$(EXEEXT)

if HAVE_CLANG
unit-fuzz: fuzz_build$(EXEEXT)
fuzz_build$(EXEEXT): $(top_srcdir)/test/unit/fuzz_build.c $(AVRM_CORE_C:%=$(top_srcdir)/%) \
		$(AVRM_UNIT_HDRS:%=$(top_srcdir)/%) $(top_srcdir)/include/avrm/*.h
	$(AM_V_CCLD)$(CLANG) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined -I$(top_srcdir)/include -I$(top_srcdir)/src/core \
	  $(top_srcdir)/test/unit/fuzz_build.c $(AVRM_CORE_C:%=$(top_srcdir)/%) -o $@
else
unit-fuzz:
	@echo "unit-fuzz: configure found no clang (maint/install-deps.sh installs it)"; exit 1
endif
EXTRA_DIST += test/unit/fuzz_build.c test/unit/run.sh test/unit/fuzz.sh test/unit/tsan.sh test/unit/tsan.supp
