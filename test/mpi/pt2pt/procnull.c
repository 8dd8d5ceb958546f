/* The status of a receive from MPI_PROC_NULL (issue 26): MPI-4.0 section
 * 3.11 says it completes at once with source = MPI_PROC_NULL, tag =
 * MPI_ANY_TAG and count 0. MPICH 4.0.2 returned the shared pre-completed
 * receive request for MPI_Irecv, whose status nobody set (source 0, tag
 * 0) unless an MPI_Sendrecv from MPI_PROC_NULL had written into it before;
 * MPI_Isendrecv from MPI_PROC_NULL returned the send's request, whose status
 * says nothing of the receive, and from a real source a status of zeros.
 *
 * Every receive, probe and completion call is checked, MPI_Irecv first
 * (before anything could have written the shared request's status), each
 * status preset to garbage so that a call that leaves it untouched fails.
 * Run with any number of processes; the real peer of the sendrecv calls is
 * the neighbour on a ring (one process: itself), whose receive is posted
 * first: a send to a process that has not posted it may wait for it. */
#include "avtest.h"

#define GARBAGE 0x5a5a

static void preset(MPI_Status *s, int n)
{
    for (int i = 0; i < n; i++) {
        s[i].MPI_SOURCE = GARBAGE;
        s[i].MPI_TAG = GARBAGE;
        s[i].MPI_ERROR = MPI_SUCCESS;
    }
}

static void check(const MPI_Status *s, const char *what)
{
    int count = -1;
    MPI_Get_count(s, MPI_INT, &count);
    if (s->MPI_SOURCE != MPI_PROC_NULL || s->MPI_TAG != MPI_ANY_TAG || count != 0)
        av_err("%s: source %d tag %d count %d, expected MPI_PROC_NULL (%d), MPI_ANY_TAG (%d), 0",
               what, s->MPI_SOURCE, s->MPI_TAG, count, MPI_PROC_NULL, MPI_ANY_TAG);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int buf[4] = { 0 }, rbuf[4], sbuf[4] = { 1, 2, 3, 4 }, flag, idx, outc, outi[3];
    int right = (av_wrank + 1) % av_wsize, left = (av_wrank + av_wsize - 1) % av_wsize;
    MPI_Request rq[3], rr;
    MPI_Status st[3];
    av_ctx = "procnull";

    /* nonblocking receives, each completion call */
    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Wait");

    for (int i = 0; i < 3; i++)
        MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, i, MPI_COMM_WORLD, &rq[i]);
    preset(st, 3);
    MPI_Waitall(3, rq, st);
    for (int i = 0; i < 3; i++)
        check(&st[i], "MPI_Irecv + MPI_Waitall");

    for (int i = 0; i < 3; i++)
        MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, i, MPI_COMM_WORLD, &rq[i]);
    preset(st, 3);
    flag = 0;
    while (!flag)
        MPI_Testall(3, rq, &flag, st);
    for (int i = 0; i < 3; i++)
        check(&st[i], "MPI_Irecv + MPI_Testall");

    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    flag = 0;
    while (!flag)
        MPI_Test(&rq[0], &flag, &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Test");

    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    flag = 0;
    while (!flag)
        MPI_Request_get_status(rq[0], &flag, &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Request_get_status");
    MPI_Request_free(&rq[0]);

    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Waitany(1, rq, &idx, &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Waitany");

    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    flag = 0;
    while (!flag)
        MPI_Testany(1, rq, &idx, &flag, &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Testany");

    for (int i = 0; i < 3; i++)
        MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, i, MPI_COMM_WORLD, &rq[i]);
    preset(st, 3);
    MPI_Waitsome(3, rq, &outc, outi, st);
    for (int i = 0; i < outc; i++)
        check(&st[i], "MPI_Irecv + MPI_Waitsome");
    if (outc != 3)
        av_err("MPI_Waitsome completed %d of 3 receives from MPI_PROC_NULL", outc);

    for (int i = 0; i < 3; i++)
        MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, i, MPI_COMM_WORLD, &rq[i]);
    preset(st, 3);
    MPI_Testsome(3, rq, &outc, outi, st);
    for (int i = 0; i < outc; i++)
        check(&st[i], "MPI_Irecv + MPI_Testsome");
    if (outc != 3)
        av_err("MPI_Testsome completed %d of 3 receives from MPI_PROC_NULL", outc);

    MPI_Irecv_c(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Irecv_c + MPI_Wait");

    /* persistent receive */
    MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    for (int k = 0; k < 2; k++) {
        MPI_Start(&rq[0]);
        preset(st, 1);
        MPI_Wait(&rq[0], &st[0]);
        check(&st[0], "MPI_Recv_init + MPI_Start + MPI_Wait");
    }
    MPI_Startall(1, rq);
    preset(st, 1);
    MPI_Waitall(1, rq, st);
    check(&st[0], "MPI_Recv_init + MPI_Startall + MPI_Waitall");
    MPI_Request_free(&rq[0]);

    /* MPI_Cancel of a (complete) receive from MPI_PROC_NULL: not cancelled */
    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Cancel(&rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Cancel + MPI_Wait");
    MPI_Test_cancelled(&st[0], &flag);
    if (flag)
        av_err("MPI_Irecv(MPI_PROC_NULL) + MPI_Cancel: reported cancelled");
    MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Start(&rq[0]);
    MPI_Cancel(&rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Recv_init + MPI_Start + MPI_Cancel + MPI_Wait");
    MPI_Test_cancelled(&st[0], &flag);
    if (flag)
        av_err("MPI_Recv_init(MPI_PROC_NULL) + MPI_Cancel: reported cancelled");
    MPI_Request_free(&rq[0]);

    /* nonblocking sendrecv: the status is the receive's */
    MPI_Irecv(rbuf, 4, MPI_INT, left, 3, MPI_COMM_WORLD, &rr);
    MPI_Isendrecv(sbuf, 4, MPI_INT, right, 3, buf, 4, MPI_INT, MPI_PROC_NULL, 3,
                  MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Isendrecv (source MPI_PROC_NULL) + MPI_Wait");
    MPI_Wait(&rr, MPI_STATUS_IGNORE);

    /* and from a real source: 4.0.2 returned source 0, tag 0, count 0 */
    MPI_Isendrecv(sbuf, 4, MPI_INT, right, 8, buf, 4, MPI_INT, left, 8, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    MPI_Get_count(&st[0], MPI_INT, &outc);
    if (st[0].MPI_SOURCE != left || st[0].MPI_TAG != 8 || outc != 4)
        av_err("MPI_Isendrecv from %d: source %d tag %d count %d, expected %d, 8, 4", left,
               st[0].MPI_SOURCE, st[0].MPI_TAG, outc, left);
    MPI_Isendrecv_replace(buf, 4, MPI_INT, right, 9, left, 9, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    MPI_Get_count(&st[0], MPI_INT, &outc);
    if (st[0].MPI_SOURCE != left || st[0].MPI_TAG != 9 || outc != 4)
        av_err("MPI_Isendrecv_replace from %d: source %d tag %d count %d, expected %d, 9, 4",
               left, st[0].MPI_SOURCE, st[0].MPI_TAG, outc, left);

    MPI_Isendrecv(sbuf, 4, MPI_INT, MPI_PROC_NULL, 3, buf, 4, MPI_INT, MPI_PROC_NULL, 3,
                  MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Isendrecv (both MPI_PROC_NULL) + MPI_Wait");

    MPI_Irecv(rbuf, 4, MPI_INT, left, 4, MPI_COMM_WORLD, &rr);
    MPI_Isendrecv_replace(buf, 4, MPI_INT, right, 4, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Isendrecv_replace (source MPI_PROC_NULL) + MPI_Wait");
    MPI_Wait(&rr, MPI_STATUS_IGNORE);

    /* blocking calls */
    preset(st, 1);
    MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st[0]);
    check(&st[0], "MPI_Recv");

    MPI_Irecv(rbuf, 4, MPI_INT, left, 6, MPI_COMM_WORLD, &rr);
    preset(st, 1);
    MPI_Sendrecv(sbuf, 4, MPI_INT, right, 6, buf, 4, MPI_INT, MPI_PROC_NULL, 6,
                 MPI_COMM_WORLD, &st[0]);
    check(&st[0], "MPI_Sendrecv (source MPI_PROC_NULL)");
    MPI_Wait(&rr, MPI_STATUS_IGNORE);

    MPI_Irecv(rbuf, 4, MPI_INT, left, 7, MPI_COMM_WORLD, &rr);
    preset(st, 1);
    MPI_Sendrecv_replace(buf, 4, MPI_INT, right, 7, MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st[0]);
    check(&st[0], "MPI_Sendrecv_replace (source MPI_PROC_NULL)");
    MPI_Wait(&rr, MPI_STATUS_IGNORE);

    /* probes and matched receives */
    MPI_Message msg;
    preset(st, 1);
    MPI_Probe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st[0]);
    check(&st[0], "MPI_Probe");
    preset(st, 1);
    flag = 0;
    MPI_Iprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &flag, &st[0]);
    if (!flag)
        av_err("MPI_Iprobe(MPI_PROC_NULL): flag false");
    check(&st[0], "MPI_Iprobe");
    preset(st, 1);
    MPI_Mprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &msg, &st[0]);
    check(&st[0], "MPI_Mprobe");
    if (msg != MPI_MESSAGE_NO_PROC)
        av_err("MPI_Mprobe(MPI_PROC_NULL): message is not MPI_MESSAGE_NO_PROC");
    preset(st, 1);
    MPI_Mrecv(buf, 4, MPI_INT, &msg, &st[0]);
    check(&st[0], "MPI_Mrecv(MPI_MESSAGE_NO_PROC)");
    preset(st, 1);
    flag = 0;
    MPI_Improbe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &flag, &msg, &st[0]);
    check(&st[0], "MPI_Improbe");
    msg = MPI_MESSAGE_NO_PROC;
    MPI_Imrecv(buf, 4, MPI_INT, &msg, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Imrecv(MPI_MESSAGE_NO_PROC) + MPI_Wait");

    /* and MPI_Irecv again, after the blocking calls above */
    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Wait after MPI_Sendrecv");

    /* Collectives whose algorithms receive from MPI_PROC_NULL inside, each
     * checked before the next: a neighbour alltoall on a non-periodic ring
     * (schedule receives from MPI_PROC_NULL) and an intercomm MPI_Alltoall of
     * unequal groups (pairwise exchange: MPIC_Sendrecv from MPI_PROC_NULL,
     * then MPIC_Wait on the returned request). They must leave the shared
     * null receive as it was: a write into its status (patch proc-null-receive-status's first
     * version let MPIC_Wait clear the tag's error bits, turning MPI_ANY_TAG
     * into -1610612737) shows in every later MPI_Irecv. */
    MPI_Comm ring;
    int dims[1] = { av_wsize }, periods[1] = { 0 }, sn[2] = { 1, 2 }, rn[2];
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Neighbor_alltoall(sn, 1, MPI_INT, rn, 1, MPI_INT, ring);
    MPI_Comm_free(&ring);
    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[0]);
    preset(st, 1);
    MPI_Wait(&rq[0], &st[0]);
    check(&st[0], "MPI_Irecv + MPI_Wait after MPI_Neighbor_alltoall on a non-periodic ring");
    if (av_wsize >= 3) {
        MPI_Comm half, inter;
        int first = av_wrank == 0, rsize, *sa, *ra;
        MPI_Comm_split(MPI_COMM_WORLD, first, av_wrank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, first ? 1 : 0, 77, &inter);
        MPI_Comm_remote_size(inter, &rsize);
        sa = calloc((size_t) rsize, sizeof(int));
        ra = calloc((size_t) rsize, sizeof(int));
        MPI_Alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, inter);
        free(sa);
        free(ra);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
        MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[0]);
        preset(st, 1);
        MPI_Wait(&rq[0], &st[0]);
        check(&st[0], "MPI_Irecv + MPI_Wait after an intercomm MPI_Alltoall of unequal groups");
    }
    return av_finalize();
}
