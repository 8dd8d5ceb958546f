/* Install test program: each rank prints "hello RANK of SIZE libmpi=PATH",
 * PATH being the libmpi this process mapped (/proc/self/maps), so the test
 * can tell an installed library from the build tree's. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void mapped_libmpi(char *path, size_t len)
{
    char line[4096];
    FILE *f = fopen("/proc/self/maps", "r");

    snprintf(path, len, "none");
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        char *p = strchr(line, '/');
        if (p && strstr(p, "/libmpi")) {
            p[strcspn(p, "\n")] = '\0';
            snprintf(path, len, "%s", p);
            break;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int rank, size, sum = 0, one = 1;
    char path[4096];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mapped_libmpi(path, sizeof(path));
    if (sum == size)
        printf("hello %d of %d libmpi=%s\n", rank, size, path);
    MPI_Finalize();
    return 0;
}
