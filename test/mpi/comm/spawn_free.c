/* The last reference to a spawned group dropped while releasing a map that
 * spans two groups. The parents spawn 3 children and merge (parents low:
 * the world's ranks, then the children's; children low: the other order),
 * disconnect the intercomm first, and free the merged communicator last, so
 * that its release drops the children's group (pgid 1) while ranks of that
 * group are still to be walked. A release that decoded the next rank after
 * freeing the group's AV read a destroyed AV (a crash at -O0; at -O2 the
 * compiler dropped the load): the release now marks the groups first
 * (avrm_map_mark_groups). Each round checks traffic on the merge first;
 * two rounds in each order reuse the freed pgid. */
#include "avtest.h"

#define NCHILD 3

static void ring(MPI_Comm merged, const char *what)
{
    int size, rank, got = -1, sum = 0;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, merged,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    av_ctx = what;
    if (got != left || sum != size * (size - 1) / 2)
        av_err("ring got %d from left %d, rank sum %d of size %d", got, left, sum, size);
}

static int child(void)
{
    MPI_Comm parent, merged;
    char high[2];
    MPI_Comm_get_parent(&parent);
    /* the parents tell which side goes low */
    MPI_Bcast(high, 1, MPI_CHAR, 0, parent);
    MPI_Intercomm_merge(parent, high[0] == '1', &merged);
    ring(merged, "child");
    MPI_Comm_disconnect(&parent);
    MPI_Comm_free(&merged);
    MPI_Finalize();
    return av_errs != 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        MPI_Init(&argc, &argv);
        return child();
    }
    av_init(&argc, &argv);
    char *args[] = { "child", NULL };
    for (int round = 0; round < 4; round++) {
        int parents_low = round % 2 == 0;
        MPI_Comm inter, merged;
        MPI_Comm_spawn(argv[0], args, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        char high[2] = { parents_low ? '1' : '0', 0 };     /* the children's side */
        MPI_Bcast(high, 1, MPI_CHAR, av_wrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
        MPI_Intercomm_merge(inter, !parents_low, &merged);
        ring(merged, parents_low ? "merge, parents low" : "merge, children low");
        MPI_Comm_disconnect(&inter);
        MPI_Comm_free(&merged);    /* drops the children's group mid-map */
    }
    return av_finalize();
}
