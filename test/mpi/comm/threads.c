/* MPI_THREAD_MULTIPLE: several threads per process create and free
 * communicators at the same time (dup, split odd/even, split reversed,
 * create_group), each on its own parent communicator so the collective
 * calls match across processes.  Every result is checked against the world
 * ranks it must hold (av_check_comm: groups, allgather, point-to-point).
 * The rank maps are built and released concurrently: libavrm's one-writer
 * rule must hold under the glue's locking. */
#include <pthread.h>
#include "avtest.h"

#define NTHREADS 4
#define ITERS 25

static MPI_Comm parents[NTHREADS];
static int thread_errs[NTHREADS];

static void *worker(void *arg)
{
    int t = (int) (long) arg, W = av_wsize, r = av_wrank;
    MPI_Comm parent = parents[t];
    int *expect = malloc(sizeof(int) * W);
    for (int it = 0; it < ITERS; it++) {
        MPI_Comm c;
        int n = 0, size, crank, wr;
        switch ((it + t) % 4) {
            case 0:
                MPI_Comm_dup(parent, &c);
                for (int i = 0; i < W; i++)
                    expect[n++] = i;
                break;
            case 1:
                MPI_Comm_split(parent, r % 2, r, &c);
                for (int i = r % 2; i < W; i += 2)
                    expect[n++] = i;
                break;
            case 2:
                MPI_Comm_split(parent, 0, -r, &c);
                for (int i = W - 1; i >= 0; i--)
                    expect[n++] = i;
                break;
            default:{
                    MPI_Group pg, g;
                    int range[1][3] = { {W - 1, 0, -2} };
                    MPI_Comm_group(parent, &pg);
                    MPI_Group_range_incl(pg, 1, range, &g);
                    for (int i = W - 1; i >= 0; i -= 2)
                        expect[n++] = i;
                    if ((W - 1 - r) % 2 == 0)
                        MPI_Comm_create_group(parent, g, it, &c);
                    else
                        c = MPI_COMM_NULL;
                    MPI_Group_free(&g);
                    MPI_Group_free(&pg);
                }
        }
        if (c == MPI_COMM_NULL)
            continue;
        /* thread-local checks (av_err's counters are not thread-safe):
         * size, my rank, and a ring exchange of world ranks */
        MPI_Comm_size(c, &size);
        MPI_Comm_rank(c, &crank);
        if (size != n || expect[crank] != r)
            thread_errs[t]++;
        int right = (crank + 1) % size, left = (crank + size - 1) % size;
        MPI_Sendrecv(&r, 1, MPI_INT, right, t, &wr, 1, MPI_INT, left, t, c, MPI_STATUS_IGNORE);
        if (wr != expect[left])
            thread_errs[t]++;
        MPI_Comm_free(&c);
    }
    free(expect);
    return NULL;
}

int main(int argc, char **argv)
{
    if (!av_init_thread_multiple(&argc, &argv))
        return av_finalize();
    av_ctx = "threads";
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *) (long) t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_errs[t])
            av_err("thread %d: %d wrong communicators", t, thread_errs[t]);
        MPI_Comm_free(&parents[t]);
    }
    /* after the storm, the builtin maps still translate correctly */
    int *all = malloc(sizeof(int) * av_wsize);
    for (int i = 0; i < av_wsize; i++)
        all[i] = i;
    av_check_comm(MPI_COMM_WORLD, all, av_wsize);
    free(all);
    return av_finalize();
}
