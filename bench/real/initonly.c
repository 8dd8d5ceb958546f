/* initonly: MPI_Init, a barrier, MPI_Finalize; what MPI_Init allocates is
 * then everything the library allocated (bench/real/run-memclass.sh). */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
