/*
 * atomics_threads.c: MPI_THREAD_MULTIPLE, first contact from
 * MPI_Fetch_and_op and MPI_Compare_and_swap while another thread of the
 * same process progresses the world's VCI (VCI 0): the atomics' address
 * lookup resolves a peer outside the VCI lock of the operation, and the
 * insert must still hold VCI 0's lock (libfabric's FI_THREAD_DOMAIN).
 *
 * Every process allocates a window of two counters; after MPI_Win_lock_all,
 * a progress thread spins on MPI_Iprobe of the world until the atomics are
 * done, while NTHREADS worker threads each add 1 to counter 0 of every other
 * process with MPI_Fetch_and_op (a different order per thread, so several
 * threads reach one new peer together) and add 1 to counter 1 with a
 * MPI_Compare_and_swap loop (read by MPI_NO_OP, swap in value + 1 until the
 * swap sees the value it read). Checked at the end, against counts the test
 * computes: counter 0 and counter 1 of every process equal
 * NTHREADS x (n - 1); every fetched value is in range. With
 * AVTEST_EXPECT_ON_DEMAND=1: at n >= 8 the atomics made first contact at
 * some process (MPI_Win_create's collectives contact a few peers, all of
 * them at the root of some of its steps: the pvar is read around the
 * atomics and the largest difference taken), and every process resolved
 * exactly n - 1 peers in the end (each once, whatever the threads raced
 * on). The window is made over memory zeroed before
 * MPI_Win_create, so no barrier contacts more peers first.
 */
#include <pthread.h>
#include <stdatomic.h>
#include "avtest_mode.h"

#define NTHREADS 3

static MPI_Win win;
static atomic_int done;
static int thread_errs[NTHREADS];

static void *progress(void *arg)
{
    (void) arg;
    while (!atomic_load(&done)) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    return NULL;
}

static void *worker(void *arg)
{
    int t = (int) (long) arg, n = av_wsize, r = av_wrank;
    long long one = 1, max = (long long) NTHREADS * (n - 1);
    for (int i = 1; i < n; i++) {
        /* thread t starts t peers further: several threads meet new peers */
        int p = (r + (i + t - 1) % (n - 1) + 1) % n;
        long long old = -1, seen = -1, want;
        MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, p, 0, MPI_SUM, win);
        MPI_Win_flush(p, win);
        if (old < 0 || old >= max)
            thread_errs[t]++;
        do {
            MPI_Fetch_and_op(NULL, &old, MPI_LONG_LONG, p, 1, MPI_NO_OP, win);
            MPI_Win_flush(p, win);
            want = old + 1;
            MPI_Compare_and_swap(&want, &old, &seen, MPI_LONG_LONG, p, 1, win);
            MPI_Win_flush(p, win);
        } while (seen != old);
        if (old < 0 || old >= max)
            thread_errs[t]++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long long *base = calloc(2, sizeof(long long));
    unsigned long long got;
    const char *expect = getenv("AVTEST_EXPECT_ON_DEMAND");
    if (!av_init_thread_multiple(&argc, &argv))
        return av_finalize();
    av_find_mode_pvar();
    int n = av_wsize;
    av_ctx = "atomics";
    MPI_Win_create(base, 2 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    unsigned long long before = 0;
    if (!av_read_ull_pvar("avrm_peers_resolved", &before))
        av_err("no MPI_T pvar avrm_peers_resolved");
    MPI_Win_lock_all(0, win);
    pthread_t pt, th[NTHREADS];
    pthread_create(&pt, NULL, progress, NULL);
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *) t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_errs[t])
            av_err("thread %d: %d fetched values out of range", t, thread_errs[t]);
    }
    atomic_store(&done, 1);
    pthread_join(pt, NULL);
    if (!av_read_ull_pvar("avrm_peers_resolved", &got))
        av_err("no MPI_T pvar avrm_peers_resolved");
    long long mine = (long long) (got - before), most = 0;
    MPI_Win_unlock_all(win);
    MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (expect && !strcmp(expect, "1") && n >= 8 && most < 1)
        av_err("no process made a first contact in the atomics: the window's creation "
               "contacted every peer first");
    MPI_Win_lock(MPI_LOCK_SHARED, av_wrank, 0, win);
    long long want = (long long) NTHREADS * (n - 1);
    if (base[0] != want || base[1] != want)
        av_err("counters %lld (fetch-and-op) and %lld (compare-and-swap), expected %lld each",
               base[0], base[1], want);
    MPI_Win_unlock(av_wrank, win);

    av_check_all_resolved_once();
    MPI_Win_free(&win);
    free(base);
    av_ctx = "";
    av_mode_done();
    return av_finalize();
}
