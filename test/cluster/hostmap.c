/* Placement across emulated hosts (test/cluster): every rank runs on the host
 * the host file says, and MPI_COMM_TYPE_SHARED groups exactly the ranks with
 * one processor name. Then point-to-point and collectives over world and the
 * node-roots communicator, and optionally a loop of collectives for a while
 * (the fault test kills a rank during it).
 *
 *   hostmap HOSTS SLOTS [SECONDS]
 *
 * Rank r is expected on node((r / SLOTS) % HOSTS + 1): SLOTS=1 is round-robin.
 * Prints "No Errors" from rank 0 when every check passed. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMELEN MPI_MAX_PROCESSOR_NAME

static int errs;

static void err(const char *fmt, ...)
{
    int r;
    va_list ap;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    fprintf(stderr, "rank %d: ", r);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    errs++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, hosts = argc > 1 ? atoi(argv[1]) : 0, slots = argc > 2 ? atoi(argv[2]) : 0;
    double secs = argc > 3 ? atof(argv[3]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (hosts < 1 || slots < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: hostmap HOSTS SLOTS [SECONDS]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* 1. my host is the expected one */
    char name[NAMELEN] = {0}, want[NAMELEN], *names = malloc((size_t) size * NAMELEN);
    int len;
    MPI_Get_processor_name(name, &len);
    snprintf(want, sizeof want, "node%d", (rank / slots) % hosts + 1);
    if (strcmp(name, want) != 0)
        err("runs on %s, expected on %s", name, want);
    MPI_Allgather(name, NAMELEN, MPI_CHAR, names, NAMELEN, MPI_CHAR, MPI_COMM_WORLD);

    /* 2. node communicator == ranks with my processor name, in world order */
    MPI_Comm node, roots;
    int nsize, nrank, *members;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_rank(node, &nrank);
    members = malloc(sizeof(int) * (size_t) nsize);
    MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, node);
    int k = 0;
    for (int r = 0; r < size; r++) {
        if (strcmp(names + (size_t) r * NAMELEN, name) != 0)
            continue;
        if (k >= nsize || members[k] != r)
            err("node communicator misses world rank %d (host %s)", r, name);
        k++;
    }
    if (k != nsize)
        err("node communicator has %d members, host %s has %d ranks", nsize, name, k);

    /* 3. node roots: one per host, in host order of first appearance */
    MPI_Comm_split(MPI_COMM_WORLD, nrank == 0 ? 0 : MPI_UNDEFINED, rank, &roots);
    if (roots != MPI_COMM_NULL) {
        int nroots, sum = 0, one = 1;
        MPI_Comm_size(roots, &nroots);
        int distinct = 0;
        for (int r = 0; r < size; r++) {
            int first = 1;
            for (int q = 0; q < r && first; q++)
                first = strcmp(names + (size_t) q * NAMELEN, names + (size_t) r * NAMELEN) != 0;
            distinct += first;
        }
        if (nroots != distinct)
            err("%d node roots for %d distinct hosts", nroots, distinct);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, roots);
        if (sum != nroots)
            err("allreduce over node roots gave %d", sum);
        MPI_Comm_free(&roots);
    }

    /* 4. ring both ways over world: carries the sender's world rank */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got[2] = {-1, -1};
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&rank, 1, MPI_INT, left, 2, &got[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (got[0] != left || got[1] != right)
        err("ring got %d from the left, %d from the right", got[0], got[1]);

    /* 5. optional: keep the job busy for SECONDS (collectives, 1 MiB bcast) */
    double t0 = MPI_Wtime();
    char *buf = malloc(1 << 20);
    for (int it = 0, go = secs > 0; go; it++) {
        memset(buf, rank == 0 ? it & 0xff : 0, 1 << 20);
        MPI_Bcast(buf, 1 << 20, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (buf[(1 << 20) - 1] != (char) (it & 0xff))
            err("bcast iteration %d wrong", it);
        go = rank == 0 && MPI_Wtime() - t0 < secs;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }

    int tot;
    MPI_Allreduce(&errs, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (tot == 0)
            printf("No Errors (%d ranks on %d hosts, %d per host slot)\n", size, hosts, slots);
        else
            printf("Found %d errors\n", tot);
    }
    free(buf);
    free(members);
    free(names);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return tot != 0;
}
