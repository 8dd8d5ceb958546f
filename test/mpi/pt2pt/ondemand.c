/*
 * ondemand.c: on-demand addressing (issue 24) seen from the application.
 *
 * 1. Synchronous-send acknowledgement from inside progress: rank 0 receives
 *    from MPI_ANY_SOURCE a MPI_Ssend of the last rank, which rank 0 has not
 *    contacted; the acknowledgement must reach it (resolved in progress).
 * 2. No misdelivery: ranks 2 .. n-2 send tag 7 to rank 0 at once, rank 1
 *    sends tag 7 a while later; rank 0 posts its receive for source 1 first
 *    and must get rank 1's message, then receives from each other source by
 *    name (reverse order). A provider that gives a message of a sender the
 *    receiver has not inserted to a receive posted for another source
 *    (sockets) fails here unless the library stays eager for it.
 * 3. The count: the MPI_T pvar avrm_peers_resolved of every rank, read
 *    before any collective. AVTEST_EXPECT_ON_DEMAND=1 (runtests.sh
 *    ondemand: every peer over the netmod): rank 0 resolved n - 1 peers,
 *    every other rank exactly 1 (rank 0); =0: nobody resolved any (eager);
 *    unset: not checked.
 * Needs n >= 4.
 */
#include "avtest_mode.h"

static unsigned long long resolved(void)
{
    unsigned long long v;
    if (!av_read_ull_pvar("avrm_peers_resolved", &v))
        av_err("no MPI_T pvar avrm_peers_resolved");
    return v;
}

static void pause_ms(double ms)
{
    double t = MPI_Wtime();
    while (MPI_Wtime() - t < ms / 1000.0)
        ;
}

int main(int argc, char **argv)
{
    int n, r, v;
    av_init(&argc, &argv);
    av_find_mode_pvar();
    n = av_wsize, r = av_wrank;
    if (n < 4) {
        av_err("needs at least 4 processes");
        return av_finalize();
    }
    unsigned long long before = resolved();

    /* 1: the acknowledgement of a synchronous send to a process that never
     * contacted the sender */
    av_ctx = "ssend ack";
    if (r == n - 1) {
        v = r;
        MPI_Ssend(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    } else if (r == 0) {
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
        if (v != n - 1 || st.MPI_SOURCE != n - 1)
            av_err("got %d from %d, expected %d", v, st.MPI_SOURCE, n - 1);
    }

    /* 2: receives by source while unknown senders' messages arrive */
    av_ctx = "receive by source";
    if (r == 0) {
        MPI_Request req;
        MPI_Irecv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (v != 1) {
            /* that sender's message is gone: its own receive would wait
             * for ever */
            av_err("the receive posted for source 1 got %d's message", v);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int s = n - 2; s >= 2; s--) {
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, s, 7, MPI_COMM_WORLD, &st);
            if (v != s || st.MPI_SOURCE != s)
                av_err("the receive posted for source %d got %d's message (status %d)", s, v,
                       st.MPI_SOURCE);
        }
    } else if (r < n - 1) {
        if (r == 1)
            pause_ms(300);      /* the others' messages arrive first */
        v = r;
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }

    /* 3: what was resolved, before any collective contacts more peers */
    av_ctx = "peers resolved";
    unsigned long long got = resolved() - before;
    const char *expect = getenv("AVTEST_EXPECT_ON_DEMAND");
    if (before != 0)
        av_err("%llu peers resolved at MPI_Init", before);
    if (expect && !strcmp(expect, "1")) {
        unsigned long long want = r == 0 ? (unsigned long long) n - 1 : 1;
        if (got != want)
            av_err("resolved %llu peers, expected %llu", got, want);
    } else if (expect && !strcmp(expect, "0") && got != 0) {
        av_err("resolved %llu peers with addresses exchanged at MPI_Init", got);
    }
    av_ctx = "";
    av_mode_done();
    return av_finalize();
}
