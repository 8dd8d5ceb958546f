/* MPI sessions: a group of the world made before comm_world exists
 * (MPI_Group_from_session_pset, before the netmod's address step, which
 * runs when the first communicator of the world is committed), then a
 * communicator from it. Its map was built over the world address vector
 * before the netmod settled it: every rank must still reach every other
 * (point to point at every distance, both ways, then a put into every
 * rank's window), and the group must be the communicator's (IDENT). No
 * MPI_Init: the world model is not used. Prints "No Errors" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errs;

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        printf("%s: %s\n", what, msg);
        errs++;
    }
}

int main(void)
{
    MPI_Session s;
    MPI_Group g, cg, self;
    MPI_Comm c;
    MPI_Win win;
    int *buf, r, n, cmp, all;

    check(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), "MPI_Session_init");
    check(MPI_Group_from_session_pset(s, "mpi://WORLD", &g), "world group");
    check(MPI_Group_from_session_pset(s, "mpi://SELF", &self), "self group");
    if (errs)
        return 1;
    check(MPI_Comm_create_from_group(g, "avrm.session_world", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                     &c), "MPI_Comm_create_from_group");
    if (errs)
        return 1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Comm_group(c, &cg);
    MPI_Group_compare(g, cg, &cmp);
    if (cmp != MPI_IDENT) {
        printf("rank %d: the world group and the communicator's compare %d, not IDENT\n", r, cmp);
        errs++;
    }
    int zero = 0, mine = -1;
    MPI_Group_translate_ranks(self, 1, &zero, g, &mine);
    if (mine != r) {
        printf("rank %d: mpi://SELF translates to %d in the world group\n", r, mine);
        errs++;
    }
    for (int k = 1; k < n; k++) {
        int to = (r + k) % n, from = (r - k + n) % n, got = -1;
        check(MPI_Sendrecv(&r, 1, MPI_INT, to, k, &got, 1, MPI_INT, from, k, c,
                           MPI_STATUS_IGNORE), "MPI_Sendrecv");
        if (got != from) {
            printf("rank %d, distance %d: expected %d, got %d\n", r, k, from, got);
            errs++;
        }
    }
    check(MPI_Win_allocate(sizeof(int) * (size_t) n, sizeof(int), MPI_INFO_NULL, c, &buf, &win),
          "MPI_Win_allocate");
    for (int i = 0; i < n; i++)
        buf[i] = -1;
    MPI_Win_fence(0, win);
    for (int t = 0; t < n; t++)
        check(MPI_Put(&r, 1, MPI_INT, t, r, 1, MPI_INT, win), "MPI_Put");
    MPI_Win_fence(0, win);
    for (int i = 0; i < n; i++)
        if (buf[i] != i) {
            printf("rank %d: slot %d holds %d after the puts\n", r, i, buf[i]);
            errs++;
        }
    MPI_Win_free(&win);
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, c);
    if (r == 0 && all == 0)
        printf("No Errors\n");
    MPI_Group_free(&cg);
    MPI_Group_free(&self);
    MPI_Group_free(&g);
    MPI_Comm_free(&c);
    MPI_Session_finalize(&s);
    return all != 0;
}
