/* initheap: heap bytes MPI_Init leaves allocated (mallinfo2 uordblks +
 * hblkhd, after minus before), the max over ranks, appended by rank 0 to
 * CSV as "library,vcis,np,init_heap_bytes" (vcis: MPIR_CVAR_CH4_NUM_VCIS as
 * set, 1 otherwise). Run at several np: the slope is the bytes per peer.
 *   mpiexec -n NP initheap LIBRARY CSV */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long long heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}

int main(int argc, char **argv)
{
    long long before = heap_now(), mine, most;
    int rank, np;
    MPI_Init(&argc, &argv);
    mine = heap_now() - before;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Reduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    const char *v = getenv("MPIR_CVAR_CH4_NUM_VCIS");
    FILE *f;
    if (rank == 0 && argc > 2 && (f = fopen(argv[2], "a"))) {
        fprintf(f, "%s,%s,%d,%lld\n", argv[1], v ? v : "1", np, most);
        fclose(f);
    }
    MPI_Finalize();
    return 0;
}
