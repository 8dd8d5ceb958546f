/* resolvetime: the cost of a first contact as the library counts it (pvars
 * avrm_resolve_time / avrm_peers_resolved), for comparing two builds of
 * ours (bench/real/run-resolvetime.sh). Rank 0 sends one byte to every
 * other rank in turn, each reply awaited (every send a first contact over
 * the netmod when on demand engages), then prints
 *   peers_resolved,resolve_seconds,us_per_peer
 * Ranks other than 0 receive and reply (their own first contact with 0). */
#include <mpi.h>
#include <stdio.h>

static int pvar(MPI_T_pvar_session s, const char *name, int cls, void *out)
{
    int idx, count;
    MPI_T_pvar_handle h;
    if (MPI_T_pvar_get_index(name, cls, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count) != MPI_SUCCESS)
        return 1;
    if (cls == MPI_T_PVAR_CLASS_TIMER || cls == MPI_T_PVAR_CLASS_COUNTER)
        MPI_T_pvar_start(s, h);     /* continuous pvars ignore it */
    return MPI_T_pvar_read(s, h, out) != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, provided;
    char b = 0;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int p = 1; p < size; p++) {
            MPI_Send(&b, 1, MPI_CHAR, p, 0, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_CHAR, p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_T_pvar_session s;
        unsigned long long n = 0;
        double t = 0;
        MPI_T_pvar_session_create(&s);
        if (pvar(s, "avrm_peers_resolved", MPI_T_PVAR_CLASS_COUNTER, &n) ||
            pvar(s, "avrm_resolve_time", MPI_T_PVAR_CLASS_TIMER, &t)) {
            fprintf(stderr, "resolvetime: no avrm pvars\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("%llu,%.9f,%.3f\n", n, t, n ? t / (double) n * 1e6 : 0.0);
    } else {
        MPI_Recv(&b, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&b, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
