/* avrm_alloc.c - allocation wrappers with failure injection (see avrm_alloc.h). */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "avrm_alloc.h"
#include "avrm/avrm_ctx.h"

static avrm_allocator_t alloc = { malloc, realloc, free };

void avrm_set_allocator(const avrm_allocator_t *a)
{
    static const avrm_allocator_t libc = { malloc, realloc, free };
    alloc = a ? *a : libc;
}

/* relaxed atomics: allocations come from any thread (per-VCI MPICH), and a
 * disarmed injector writes nothing shared (make check-tsan found the plain
 * counter incremented by every allocation) */
static _Atomic long fail_after = -1;   /* < 0: never fail */
static _Atomic long attempts;          /* counted while armed */

static int avrm__should_fail(void)
{
    long n = atomic_load_explicit(&fail_after, memory_order_relaxed);

    if (n < 0)
        return 0;
    atomic_fetch_add_explicit(&attempts, 1, memory_order_relaxed);
    while (n > 0)
        if (atomic_compare_exchange_weak_explicit(&fail_after, &n, n - 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return 0;
    return n == 0;
}

void *avrm__malloc(size_t bytes)
{
    return avrm__should_fail() ? NULL : alloc.malloc_fn(bytes ? bytes : 1);
}

void *avrm__calloc(size_t n, size_t size)
{
    if (avrm__should_fail()) return NULL;
    n = n ? n : 1, size = size ? size : 1;
    if (n > (size_t) -1 / size) return NULL;
    void *p = alloc.malloc_fn(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *avrm__realloc(void *p, size_t bytes)
{
    return avrm__should_fail() ? NULL : alloc.realloc_fn(p, bytes ? bytes : 1);
}

void avrm__free(void *p)
{
    alloc.free_fn(p);
}

size_t avrm__page_size(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    return ps > 0 ? (size_t) ps : 4096;
}

void *avrm__reserve(size_t bytes, size_t *len)
{
    size_t ps = avrm__page_size();
    if (avrm__should_fail() || bytes > (size_t) -1 - ps) return NULL;
    *len = (bytes + ps - 1) / ps * ps;
    void *p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_NOHUGEPAGE
    (void) madvise(p, *len, MADV_NOHUGEPAGE);   /* advice: failing leaves huge pages possible */
#endif
    return p;
}

void avrm__unreserve(void *p, size_t len)
{
    if (p) (void) munmap(p, len);
}

void avrm__alloc_fail_after(long n)
{
    atomic_store_explicit(&attempts, 0, memory_order_relaxed);
    atomic_store_explicit(&fail_after, n, memory_order_relaxed);
}

long avrm__alloc_count(void)
{
    return atomic_load_explicit(&attempts, memory_order_relaxed);
}
