/* avrm_alloc.c - allocation wrappers with failure injection (see avrm_alloc.h). */
#include <stdlib.h>
#include "avrm_alloc.h"

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
    return avrm__should_fail() ? NULL : malloc(bytes ? bytes : 1);
}

void *avrm__calloc(size_t n, size_t size)
{
    return avrm__should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *avrm__realloc(void *p, size_t bytes)
{
    return avrm__should_fail() ? NULL : realloc(p, bytes ? bytes : 1);
}

void avrm__free(void *p)
{
    free(p);
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
