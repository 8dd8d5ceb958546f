#include <mpi.h>
#include <stdio.h>
/* control of make check-debug's leak report for libavrm: a group of the
 * world in a permuted order is a table map whose search builds a rank index
 * (a libavrm block); the group is never freed, so that block must appear in
 * MPICH's memory dump at MPI_Finalize filed under libavrm's allocator */
int main(int argc, char **argv)
{
    MPI_Group world, g;
    int size, ranks[4] = { 2, 0, 3, 1 }, in[4] = { 0, 1, 2, 3 }, out[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (size >= 4) {
        MPI_Group_incl(world, 4, ranks, &g);
        MPI_Group_translate_ranks(world, 4, in, g, out);   /* builds g's index */
    }
    MPI_Group_free(&world);
    MPI_Finalize();
    printf(" No Errors\n");
    return 0;
}
