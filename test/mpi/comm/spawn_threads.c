/*
 * spawn_threads: MPI_THREAD_MULTIPLE, one thread of every process calls
 * MPI_Comm_spawn over MPI_COMM_WORLD (its root names every member of the
 * world for the children: PMI gets for the members it has not contacted)
 * while another thread makes first contact with every other process of
 * the world (a message each way on a duplicate of the world, peers in a
 * different order per rank): the spawn's PMI calls and the first contacts'
 * PMI gets and inserts run together. Checked: every message (source and
 * payload), the children's answers (each child returns the value its
 * parent root sent plus its rank), and with AVTEST_EXPECT_ON_DEMAND=1 that
 * every process resolved exactly n - 1 peers (each once; the spawn's root
 * names members without resolving them).
 * Argument "root": no threads; the spawn first, then rank 0 checks that it
 * resolved fewer than n - 1 peers (the spawn's collectives contact a few,
 * its root names the others from PMI), then the first contacts.
 */
#include <pthread.h>
#include "avtest_mode.h"

#define NCHILD 2

static MPI_Comm dup_world;
static char *self_path;
static int spawn_errs, contact_errs;

static void *spawner(void *arg)
{
    (void) arg;
    char *args[] = { "child", NULL };
    MPI_Comm inter;
    MPI_Comm_spawn(self_path, args, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                   MPI_ERRCODES_IGNORE);
    if (av_wrank == 0) {
        for (int c = 0; c < NCHILD; c++) {
            int v = 100 * (c + 1), back = -1;
            MPI_Send(&v, 1, MPI_INT, c, 5, inter);
            MPI_Recv(&back, 1, MPI_INT, c, 6, inter, MPI_STATUS_IGNORE);
            if (back != v + c)
                spawn_errs++;
        }
    }
    MPI_Comm_disconnect(&inter);
    return NULL;
}

static void *contacter(void *arg)
{
    (void) arg;
    int n = av_wsize, r = av_wrank, k = 0;
    int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * n);
    MPI_Status *st = malloc(sizeof(MPI_Status) * 2 * n);
    for (int i = 1; i < n; i++) {
        /* even ranks go up, odd ranks down: pairs meet in different orders */
        int p = r % 2 ? (r + n - i) % n : (r + i) % n;
        in[p] = -1;
        out[p] = r * 1000 + p;
        MPI_Irecv(&in[p], 1, MPI_INT, p, 9, dup_world, &rq[k++]);
        MPI_Isend(&out[p], 1, MPI_INT, p, 9, dup_world, &rq[k++]);
    }
    MPI_Waitall(k, rq, st);
    for (int i = 0; i < k; i += 2)
        if (st[i].MPI_SOURCE < 0 || st[i].MPI_SOURCE >= n ||
            in[st[i].MPI_SOURCE] != st[i].MPI_SOURCE * 1000 + r)
            contact_errs++;
    free(in);
    free(out);
    free(rq);
    free(st);
    return NULL;
}

static int child(void)
{
    MPI_Comm parent;
    int v = -1, r;
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Recv(&v, 1, MPI_INT, 0, 5, parent, MPI_STATUS_IGNORE);
    v += r;
    MPI_Send(&v, 1, MPI_INT, 0, 6, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        return child();
    }
    if (!av_init_thread_multiple(&argc, &argv))
        return av_finalize();
    av_find_mode_pvar();
    self_path = argv[0];
    const char *expect = getenv("AVTEST_EXPECT_ON_DEMAND");
    unsigned long long got;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_world);
    if (argc > 1 && !strcmp(argv[1], "root")) {
        spawner(NULL);
        av_ctx = "peers resolved by the spawn";
        if (!av_read_ull_pvar("avrm_peers_resolved", &got))
            av_err("no MPI_T pvar avrm_peers_resolved");
        if (expect && !strcmp(expect, "1") && av_wrank == 0 && av_wsize >= 4 &&
            got >= (unsigned long long) av_wsize - 1)
            av_err("the spawn's root resolved %llu peers: every member (it needs none)", got);
        contacter(NULL);
    } else {
        pthread_t ts, tc;
        pthread_create(&ts, NULL, spawner, NULL);
        pthread_create(&tc, NULL, contacter, NULL);
        pthread_join(ts, NULL);
        pthread_join(tc, NULL);
    }
    av_ctx = "spawn beside first contacts";
    if (spawn_errs)
        av_err("%d children answered wrong", spawn_errs);
    if (contact_errs)
        av_err("%d first-contact messages wrong", contact_errs);
    av_check_all_resolved_once();
    MPI_Comm_free(&dup_world);
    av_ctx = "";
    av_mode_done();
    return av_finalize();
}
