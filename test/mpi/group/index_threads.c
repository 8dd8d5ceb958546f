/* MPI_THREAD_MULTIPLE: several threads search the same new irregular group
 * at the same time (MPI_Group_translate_ranks into it, MPI_Group_compare
 * with it), the first search of each group, ROUNDS times. A permuted group
 * is a table map whose searches need a rank index, built on the first
 * search: exactly one index per group must be built and freed with the
 * group. Checked: every answer against the permutation, and at the end the
 * pvar avrm_rank_index_bytes back at its value before the rounds (an index
 * built twice leaks one, whose bytes stay counted). On a per-VCI build
 * (no global lock around group calls) two threads once each built an index
 * and one leaked (issue 28). Local: no communication between processes. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "avtest_mode.h"

#define NTHREADS 2
#define ROUNDS 2000

static MPI_Group shared_group;
static int *perm, W;
static int thread_errs[NTHREADS];
/* Rounds start on a flag the threads spin on (a barrier wakes them microseconds
 * apart, wider than the index build they must overlap): go = the round that
 * may start, done = searches finished in it. Spins yield: the run shares
 * its cores. */
static atomic_int go = -1, done;

static void wait_until(atomic_int * v, int want)
{
    for (long spins = 0; atomic_load(v) != want; spins++)
        if (spins > 1000)
            sched_yield();
}

static void *searcher(void *arg)
{
    int t = (int) (long) arg;
    int *in = malloc(sizeof(int) * W), *out = malloc(sizeof(int) * W);
    for (int i = 0; i < W; i++)
        in[i] = i;
    for (int round = 0; round < ROUNDS; round++) {
        wait_until(&go, round);                 /* main made shared_group */
        if ((round + t) % 2 == 0) {
            MPI_Group_translate_ranks(av_wgroup, W, in, shared_group, out);
            for (int i = 0; i < W; i++)         /* world rank perm[j] is member j */
                if (perm[out[i]] != i)
                    thread_errs[t]++;
        } else {
            int result;
            MPI_Group_compare(av_wgroup, shared_group, &result);  /* searches shared_group */
            if (result != (W > 1 ? MPI_SIMILAR : MPI_IDENT))
                thread_errs[t]++;
        }
        atomic_fetch_add(&done, 1);             /* main frees it */
    }
    free(in);
    free(out);
    return NULL;
}

int main(int argc, char **argv)
{
    int multiple = av_init_thread_multiple(&argc, &argv);
    av_find_mode_pvar();
    av_need_mode_pvar();
    W = av_wsize;
    av_ctx = "index_threads";
    if (!multiple) {
        av_mode_done();
        return av_finalize();
    }

    unsigned long long before, after;
    int have_pvar = av_read_ull_pvar("avrm_rank_index_bytes", &before);
    perm = malloc(sizeof(int) * W);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, searcher, (void *) (long) t);
    unsigned seed = 12345;
    int indexed = 0;            /* rounds whose group had an index */
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < W; i++)
            perm[i] = i;
        av_shuffle(perm, W, &seed);
        if (W > 1 && perm[0] == 0) {    /* never the identity: a table map */
            perm[0] = perm[1];
            perm[1] = 0;
        }
        MPI_Group_incl(av_wgroup, W, perm, &shared_group);
        atomic_store(&done, 0);
        atomic_store(&go, round);
        wait_until(&done, NTHREADS);
        unsigned long long during;
        av_read_ull_pvar("avrm_rank_index_bytes", &during);
        indexed += during > before;
        MPI_Group_free(&shared_group);
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_errs[t])
            av_err("thread %d: %d wrong answers", t, thread_errs[t]);
    }
    av_read_ull_pvar("avrm_rank_index_bytes", &after);
    if (have_pvar && indexed < ROUNDS / 4)
        av_err("only %d of %d permuted groups had a rank index: the race is not exercised",
               indexed, ROUNDS);
    if (have_pvar && after != before)
        av_err("avrm_rank_index_bytes %llu after %d groups were searched and freed, %llu "
               "before: an index was built twice and one leaked", after, ROUNDS, before);
    free(perm);
    av_mode_done();
    return av_finalize();
}
