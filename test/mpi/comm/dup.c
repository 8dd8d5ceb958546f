/* MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup of world and of a
 * reordered communicator keep the parent's rank order exactly. */
#include "avtest.h"

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int *world = malloc(sizeof(int) * (size_t) av_wsize), *rev = malloc(sizeof(int) * (size_t) av_wsize);
    for (int i = 0; i < av_wsize; i++) {
        world[i] = i;
        rev[i] = av_wsize - 1 - i;
    }
    MPI_Comm c, d, e;
    MPI_Request req;

    av_ctx = "dup(world)";
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    av_check_comm(c, world, av_wsize);

    av_ctx = "dup(dup(world))";
    MPI_Comm_dup(c, &d);
    av_check_comm(d, world, av_wsize);
    MPI_Comm_free(&d);

    av_ctx = "idup(world)";
    MPI_Comm_idup(MPI_COMM_WORLD, &d, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    av_check_comm(d, world, av_wsize);
    MPI_Comm_free(&d);

    /* reversed parent, then its duplicates */
    av_ctx = "split(reversed)";
    MPI_Comm_split(c, 0, av_wsize - av_wrank, &d);
    av_check_comm(d, rev, av_wsize);
    av_ctx = "dup(reversed)";
    MPI_Comm_dup(d, &e);
    av_check_comm(e, rev, av_wsize);
    MPI_Comm_free(&e);
    av_ctx = "dup_with_info(reversed)";
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MPI_Comm_dup_with_info(d, info, &e);
    MPI_Info_free(&info);
    av_check_comm(e, rev, av_wsize);
    av_check_rma(e, rev, av_wsize);
    MPI_Comm_free(&e);
    av_ctx = "idup(reversed)";
    MPI_Comm_idup(d, &e, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    av_check_comm(e, rev, av_wsize);
    MPI_Comm_free(&e);

    /* many dups alive at once, freed in scrambled order */
    av_ctx = "dup chain";
    enum { K = 24 };
    MPI_Comm many[K];
    for (int i = 0; i < K; i++)
        MPI_Comm_dup(i % 2 ? d : c, &many[i]);
    for (int i = 0; i < K; i += 5)
        av_check_comm(many[i], i % 2 ? rev : world, av_wsize);
    for (int i = 0; i < K; i++)
        MPI_Comm_free(&many[(i * 7) % K]);

    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    free(world);
    free(rev);
    return av_finalize();
}
