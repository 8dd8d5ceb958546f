/*
 * bad_args: erroneous arguments of group and communicator creation calls
 * return an error of the right class under MPI_ERRORS_RETURN, make no
 * object, and leave the job able to go on (MPI-4.0 7.3.2, 7.4.2):
 *   - MPI_Group_incl / MPI_Group_excl with a rank listed twice: MPI_ERR_RANK;
 *   - MPI_Group_incl with a rank out of range: MPI_ERR_RANK (control: the
 *     check ran before the fix too);
 *   - MPI_Comm_split where one process (rank 1) gives color -5: every
 *     process gets MPI_ERR_ARG and MPI_COMM_NULL;
 *   - MPI_Comm_create_group on the even ranks' communicator with the
 *     world's group {0, 1} (rank 1 is not in it): MPI_ERR_GROUP at rank 0,
 *     the group's one member in the communicator.
 * Then a good split and a barrier: the job goes on.
 */
#include <mpi.h>
#include <stdio.h>

static int errs;

static void expect(int rc, int cls, int rank, const char *what)
{
    int got = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    if (got != cls) {
        printf("[world %d] %s: error class %d, want %d\n", rank, what, got, cls);
        errs++;
    }
}

int main(int argc, char **argv)
{
    int rank, size, total = 0;
    MPI_Group world, g = MPI_GROUP_NULL;
    MPI_Comm c = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    int twice[2] = { 0, 0 }, out[1] = { size };
    expect(MPI_Group_incl(world, 2, twice, &g), MPI_ERR_RANK, rank, "MPI_Group_incl {0, 0}");
    if (g != MPI_GROUP_NULL) {
        printf("[world %d] MPI_Group_incl {0, 0} made a group\n", rank);
        errs++;
        MPI_Group_free(&g);
    }
    g = MPI_GROUP_NULL;
    expect(MPI_Group_excl(world, 2, twice, &g), MPI_ERR_RANK, rank, "MPI_Group_excl {0, 0}");
    if (g != MPI_GROUP_NULL)
        MPI_Group_free(&g);
    g = MPI_GROUP_NULL;
    expect(MPI_Group_incl(world, 1, out, &g), MPI_ERR_RANK, rank, "MPI_Group_incl {size}");
    if (g != MPI_GROUP_NULL)
        MPI_Group_free(&g);

    expect(MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? -5 : 0, rank, &c), MPI_ERR_ARG, rank,
           "MPI_Comm_split with color -5 at rank 1");
    if (c != MPI_COMM_NULL) {
        printf("[world %d] the bad split made a communicator\n", rank);
        errs++;
        MPI_Comm_free(&c);
    }

    MPI_Comm even = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank, &even);
    if (rank == 0) {
        int pair[2] = { 0, 1 };
        MPI_Group g01;
        MPI_Comm_set_errhandler(even, MPI_ERRORS_RETURN);
        MPI_Group_incl(world, 2, pair, &g01);
        c = MPI_COMM_NULL;
        expect(MPI_Comm_create_group(even, g01, 5, &c), MPI_ERR_GROUP, rank,
               "MPI_Comm_create_group with a member outside the communicator");
        if (c != MPI_COMM_NULL) {
            printf("[world %d] the bad create_group made a communicator\n", rank);
            errs++;
        }
        MPI_Group_free(&g01);
    }
    if (even != MPI_COMM_NULL)
        MPI_Comm_free(&even);

    /* the job goes on */
    c = MPI_COMM_NULL;
    expect(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c), MPI_SUCCESS, rank, "a good split");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Group_free(&world);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
