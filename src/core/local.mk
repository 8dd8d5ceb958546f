# src/core: libavrm, the core library (plain C11, no MPI/libfabric headers).
#
# Two archives from the same sources:
#   libavrm.a      for the simulator, benchmarks and unit tests
#   libavrm_pic.a  -fPIC -fvisibility=hidden: linked into MPICH's libmpi.so
#                  (MPICHLIB_LIBS); every avrm_* symbol stays internal to
#                  libmpi.so, so nothing of the core leaks into the MPI ABI.
AVRM_CORE_SOURCES = \
	src/core/avrm_alloc.c src/core/avrm_alloc.h \
	src/core/avrm_av.c \
	src/core/avrm_build.c \
	src/core/avrm_ctx.c src/core/avrm_ctxi.h \
	src/core/avrm_detect.c src/core/avrm_detect.h \
	src/core/avrm_find.c \
	src/core/avrm_hier.c \
	src/core/avrm_index.c src/core/avrm_index.h \
	src/core/avrm_map.c src/core/avrm_mapi.h \
	src/core/avrm_sort.c \
	src/core/avrm_split.c \
	src/core/avrm_table.c src/core/avrm_table.h

noinst_LIBRARIES += libavrm.a libavrm_pic.a
libavrm_a_SOURCES = $(AVRM_CORE_SOURCES)
libavrm_pic_a_SOURCES = $(AVRM_CORE_SOURCES)
libavrm_pic_a_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
# libavrm_tsan_pic.a: the same, instrumented for ThreadSanitizer, for the
# per-VCI TSan build of libmpi (make mpich-tsan); built only when asked
EXTRA_LIBRARIES = libavrm_tsan_pic.a
libavrm_tsan_pic_a_SOURCES = $(AVRM_CORE_SOURCES)
libavrm_tsan_pic_a_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden -fsanitize=thread -fno-omit-frame-pointer
