/* avrm_alloc.c - allocation wrappers with failure injection (see avrm_alloc.h). */
#include <stdlib.h>
#include <string.h>
#include "avrm_alloc.h"
#include "avrm/avrm_ctx.h"

static avrm_allocator_t alloc = { malloc, realloc, free };

void avrm_set_allocator(const avrm_allocator_t *a)
{
    static const avrm_allocator_t libc = { malloc, realloc, free };
    alloc = a ? *a : libc;
}

static long fail_after = -1;   /* < 0: never fail */
static long attempts;

static int avrm__should_fail(void)
{
    attempts++;
    if (fail_after < 0) return 0;
    if (fail_after == 0) return 1;
    fail_after--;
    return 0;
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

void avrm__alloc_fail_after(long n)
{
    fail_after = n;
    attempts = 0;
}

long avrm__alloc_count(void)
{
    return attempts;
}
