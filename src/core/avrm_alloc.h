/*
 * avrm_alloc.h - the core's only allocator entry points (private).
 *
 * Every allocation of libavrm goes through these wrappers so that tests can
 * inject failures: avrm__alloc_fail_after(n) lets the next n allocations
 * succeed and makes every later one fail (return NULL) until it is called
 * again with a negative n (= never fail, the default).
 *
 * Thread safety: the countdown and the attempt counter are relaxed
 * atomics; with injection off an allocation only loads the countdown and is
 * as thread-safe as malloc. Cost: one relaxed load per allocation (plus an
 * atomic add and a compare-exchange while armed).
 */
#ifndef AVRM_ALLOC_H
#define AVRM_ALLOC_H

#include <stddef.h>

void *avrm__malloc(size_t bytes);
void *avrm__calloc(size_t n, size_t size);
void *avrm__realloc(void *p, size_t bytes);
void  avrm__free(void *p);

/* Test hook: n >= 0 allocations succeed, then all fail; n < 0 disables. */
void avrm__alloc_fail_after(long n);
/* Allocations attempted since the last avrm__alloc_fail_after() call. */
long avrm__alloc_count(void);

#endif /* AVRM_ALLOC_H */
