/*
 * ondemand_threads.c: MPI_THREAD_MULTIPLE, every thread of every process
 * exchanges a message with every other process at once, before anything
 * else (no collective first): several threads reach the same peers' first
 * contact together. Each message is checked (source, tag, payload); with
 * AVTEST_EXPECT_ON_DEMAND=1 (runtests.sh rxm, every peer over the netmod)
 * every process resolved exactly n - 1 peers: a peer touched by several
 * threads at once is inserted once.
 */
#include <pthread.h>
#include "avtest_mode.h"

#define NTHREADS 4

static int thread_errs[NTHREADS];

static void *worker(void *arg)
{
    int t = (int) (long) arg, n = av_wsize, r = av_wrank;
    int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * n);
    int k = 0;
    for (int i = 1; i < n; i++) {      /* every thread starts one peer further */
        int p = (r + (i + t - 1) % (n - 1) + 1) % n;
        out[p] = r * 1000 + t;
        MPI_Irecv(&in[p], 1, MPI_INT, p, t, MPI_COMM_WORLD, &rq[k++]);
        MPI_Isend(&out[p], 1, MPI_INT, p, t, MPI_COMM_WORLD, &rq[k++]);
    }
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    for (int p = 0; p < n; p++)
        if (p != r && in[p] != p * 1000 + t)
            thread_errs[t]++;
    free(in);
    free(out);
    free(rq);
    return NULL;
}

int main(int argc, char **argv)
{
    if (!av_init_thread_multiple(&argc, &argv))
        return av_finalize();
    av_find_mode_pvar();
    pthread_t th[NTHREADS];
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *) t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_errs[t])
            av_err("thread %d: %d messages wrong", t, thread_errs[t]);
    }
    unsigned long long got;
    if (!av_read_ull_pvar("avrm_peers_resolved", &got))
        av_err("no MPI_T pvar avrm_peers_resolved");
    const char *expect = getenv("AVTEST_EXPECT_ON_DEMAND");
    av_ctx = "peers resolved";
    if (expect && !strcmp(expect, "1") && got != (unsigned long long) av_wsize - 1)
        av_err("resolved %llu peers, expected %d (each once)", got, av_wsize - 1);
    if (expect && !strcmp(expect, "0") && got != 0)
        av_err("resolved %llu peers with addresses exchanged at MPI_Init", got);
    av_ctx = "";
    av_mode_done();
    return av_finalize();
}
