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

/* Address space of at least bytes (rounded up to pages, *len set) that
 * reads as zero and holds memory only for the pages written: an anonymous
 * private mapping, MAP_NORESERVE, without huge pages (a write would back 2
 * MiB). Not through the allocator hooks (they have no such call); counted
 * by the failure injection like an allocation. NULL when it cannot. */
void *avrm__reserve(size_t bytes, size_t *len);
void  avrm__unreserve(void *p, size_t len);
/* the kernel's page size (bytes) */
size_t avrm__page_size(void);

/* Test hook: n >= 0 allocations succeed, then all fail; n < 0 disables. */
void avrm__alloc_fail_after(long n);
/* Allocations attempted since the last avrm__alloc_fail_after() call. */
long avrm__alloc_count(void);

#endif /* AVRM_ALLOC_H */
