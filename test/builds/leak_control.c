#include <mpi.h>
#include <stdio.h>
/* control of make check-debug's leak report: memory from MPI_Alloc_mem that
 * is never freed must appear in MPICH's memory dump at MPI_Finalize */
int main(int argc, char **argv)
{
    void *p;
    MPI_Init(&argc, &argv);
    MPI_Alloc_mem(4096, MPI_INFO_NULL, &p);
    MPI_Finalize();
    printf(" No Errors\n");
    return 0;
}
