/* Control of make check-tsan: two threads of one process increment a
 * counter with no lock between MPI_Init_thread and MPI_Finalize, so a
 * ThreadSanitizer build must report a data race here; if it does not, the
 * tsan flavor could not see one in the library either. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int counter;

static void *bump(void *arg)
{
    (void) arg;
    for (int i = 0; i < 1000; i++)
        counter++;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t t[2];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, bump, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("counter %d\n", counter);
    MPI_Finalize();
    return 0;
}
