/*
 * ondemand_threads.c: MPI_THREAD_MULTIPLE, every thread of every process
 * exchanges a message with every other process at once, before anything
 * else (no collective first): several threads reach the same peers' first
 * contact together. Each message is checked (source, tag, payload); with
 * AVTEST_EXPECT_ON_DEMAND=1 (runtests.sh rxm, every peer over the netmod)
 * every process resolved exactly n - 1 peers: a peer touched by several
 * threads at once is inserted once.
 * Argument "dups": thread t > 0 uses its own duplicate of MPI_COMM_WORLD
 * (made before the threads start; the dup's collective contacts a few
 * peers first), which the per-VCI build puts on VCI t with
 * MPIR_CVAR_CH4_NUM_VCIS >= 4: the same peers are then reached from
 * several VNIs at once, each VNI's AV catching up on its own, and still
 * each peer is resolved once.
 */
#include <pthread.h>
#include "avtest_mode.h"

#define NTHREADS 4

static int thread_errs[NTHREADS];
static MPI_Comm thread_comm[NTHREADS];

static void *worker(void *arg)
{
    int t = (int) (long) arg, n = av_wsize, r = av_wrank;
    int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * n);
    int k = 0;
    for (int i = 1; i < n; i++) {      /* every thread starts one peer further */
        int p = (r + (i + t - 1) % (n - 1) + 1) % n;
        out[p] = r * 1000 + t;
        MPI_Irecv(&in[p], 1, MPI_INT, p, t, thread_comm[t], &rq[k++]);
        MPI_Isend(&out[p], 1, MPI_INT, p, t, thread_comm[t], &rq[k++]);
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
    int dups = argc > 1 && !strcmp(argv[1], "dups");
    for (int t = 0; t < NTHREADS; t++) {
        thread_comm[t] = MPI_COMM_WORLD;
        if (dups && t > 0)
            MPI_Comm_dup(MPI_COMM_WORLD, &thread_comm[t]);
    }
    pthread_t th[NTHREADS];
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *) t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_errs[t])
            av_err("thread %d: %d messages wrong", t, thread_errs[t]);
    }
    for (int t = 1; t < NTHREADS; t++)
        if (thread_comm[t] != MPI_COMM_WORLD)
            MPI_Comm_free(&thread_comm[t]);
    av_check_all_resolved_once();
    av_ctx = "";
    av_mode_done();
    return av_finalize();
}
