#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
/* control of make check-asan: a message of 64 bytes received into a 32-byte
 * heap block (a self send, so the copy is libmpi's) must stop the run with
 * AddressSanitizer's heap-buffer-overflow report, or the build does not
 * catch what the tests are meant to catch */
int main(int argc, char **argv)
{
    char src[64] = { 0 }, *dst;
    MPI_Init(&argc, &argv);
    dst = malloc(32);
    MPI_Sendrecv(src, 64, MPI_BYTE, 0, 0, dst, 64, MPI_BYTE, 0, 0, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    free(dst);
    MPI_Finalize();
    printf(" No Errors\n");
    return 0;
}
