/*
 * yieldshim.so: LD_PRELOAD aid for the oversubscribed heap runs (16 ranks on
 * 2 cores). Stock MPICH 4.0.2 polls without yielding (test/README.md); each
 * poll of its progress loop reads the sockets provider's completion queue,
 * which locks and unlocks the queue's pthread mutex. Calling sched_yield()
 * after every pthread_mutex_unlock() makes a waiting rank give its core away
 * once per poll (3x faster at -n 16). It changes timing only, never the heap:
 * it allocates nothing. run-ch4.sh loads it for both libraries alike in the
 * heap step (with our yield CVAR off) and never under callgrind.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>

int pthread_mutex_unlock(pthread_mutex_t *m)
{
    static int (*real)(pthread_mutex_t *);
    if (!real)
        real = (int (*)(pthread_mutex_t *)) dlsym(RTLD_NEXT, "pthread_mutex_unlock");
    int r = real(m);
    sched_yield();
    return r;
}
