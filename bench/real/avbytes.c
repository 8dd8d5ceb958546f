/*
 * avbytes: address-vector bytes per peer, from our MPI_T pvar
 * avrm_av_entry_bytes (process-wide, no binding) divided by the world size.
 *
 *   mpiexec -n NP avbytes LIBRARY CSV
 *
 * Rank 0 appends one row to CSV: library,np,computed_av,av_entry_bytes,
 * bytes_per_peer (computed_av: MPIR_CVAR_AVRM_COMPUTED_AV as set in the
 * environment, "unset" otherwise; "n/a" where the library has no pvar).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "pvar.h"

int main(int argc, char **argv)
{
    int rank, np;
    unsigned long long b;
    const char *cvar = getenv("MPIR_CVAR_AVRM_COMPUTED_AV");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    pvar_init();
    int have = pvar_read("avrm_av_entry_bytes", MPI_T_PVAR_CLASS_SIZE, NULL, &b, NULL, 0);
    FILE *f;
    if (rank == 0 && argc > 2 && (f = fopen(argv[2], "a"))) {
        fprintf(f, "%s,%d,%s,", argv[1], np, cvar ? cvar : "unset");
        if (have)
            fprintf(f, "%llu,%g\n", b, (double) b / np);
        else
            fprintf(f, "n/a,n/a\n");
        fclose(f);
    } else if (rank == 0) {
        fprintf(stderr, "usage: mpiexec -n NP %s LIBRARY CSV\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pvar_fini();
    MPI_Finalize();
    return 0;
}
