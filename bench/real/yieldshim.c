/*
 * yieldshim.so: LD_PRELOAD aid for the oversubscribed heap runs (16 ranks on
 * 2 cores). Stock MPICH 4.0.2 polls without yielding (test/README.md); each
 * poll of its progress loop reads the sockets provider's completion queue,
 * which locks and unlocks the queue's pthread mutex. Calling sched_yield()
 * after every pthread_mutex_unlock() makes a waiting rank give its core away
 * once per poll (3x faster at -n 16). It changes timing only, never the heap:
 * it allocates nothing. run-real.sh loads it for both MPICH
 * libraries alike in their oversubscribed steps, run-grouptime.sh for the
 * waiting ranks (with our yield CVAR off), never under callgrind.
 * YIELDSHIM_SKIP_RANK=r: the process whose PMI_RANK is r never yields (the
 * measurer of an issue-rate run: its own calls lock libfabric's mutexes, and
 * a yield there would be counted as issue time).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

int pthread_mutex_unlock(pthread_mutex_t *m)
{
    static int (*real)(pthread_mutex_t *);
    static int yield = -1;
    if (!real)
        real = (int (*)(pthread_mutex_t *)) dlsym(RTLD_NEXT, "pthread_mutex_unlock");
    if (yield < 0) {
        const char *skip = getenv("YIELDSHIM_SKIP_RANK"), *me = getenv("PMI_RANK");
        yield = !(skip && me && !strcmp(skip, me));
    }
    int r = real(m);
    if (yield)
        sched_yield();
    return r;
}
