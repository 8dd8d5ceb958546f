/*
 * connect_world: two processes of one world that never exchanged a message
 * connect through a port (MPI_Comm_accept / MPI_Comm_connect on
 * MPI_COMM_SELF), the port name passed from rank 0 to rank 2 through rank
 * 1. The peer must keep its one identity, whatever reached it first:
 *   - its rank in the remote group translates to its world rank;
 *   - the merged intracommunicator's group is the world's {0, 2}: IDENT
 *     (rank 0 low), computed here with MPI_Group_incl;
 *   - MPI_Comm_split_type(SHARED) of the merged communicator puts them on
 *     one node exactly when the world's does;
 *   - messages over the world, the intercommunicator and the merged
 *     communicator arrive.
 * Ranks other than 0, 1, 2 only take part in the world's collectives.
 * Argument "join": the same through MPI_Comm_join over a TCP socket on
 * 127.0.0.1 (rank 0 listens, rank 2 connects; the port number goes through
 * rank 1) instead of MPI_Open_port.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static int errs;

static void check(int ok, int rank, const char *what, int got, int want)
{
    if (!ok) {
        printf("[world %d] %s: got %d, want %d\n", rank, what, got, want);
        errs++;
    }
}

/* is world rank `other` on this process's node (the world's answer)? */
static int world_same_node(int other)
{
    MPI_Comm node;
    MPI_Group wg, ng;
    int r = MPI_UNDEFINED;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(node, &ng);
    MPI_Group_translate_ranks(wg, 1, &other, ng, &r);
    MPI_Group_free(&wg);
    MPI_Group_free(&ng);
    MPI_Comm_free(&node);
    return r != MPI_UNDEFINED;
}

/* rank 0 of the join mode: a listening socket on 127.0.0.1, its port in
 * port (as text) */
static int join_listen(char *port)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *) &a, sizeof(a)) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *) &a, &len)) {
        perror("connect_world join: listen");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    snprintf(port, MPI_MAX_PORT_NAME, "%u", (unsigned) ntohs(a.sin_port));
    return fd;
}

/* the join mode's socket: rank 0 accepts, rank 2 connects */
static int join_socket(int rank, int lfd, const char *port)
{
    int fd;
    if (rank == 0) {
        fd = accept(lfd, NULL, NULL);
        close(lfd);
    } else {
        struct sockaddr_in a;
        memset(&a, 0, sizeof(a));
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((unsigned short) atoi(port));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *) &a, sizeof(a))) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0) {
        perror("connect_world join: socket");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return fd;
}

int main(int argc, char **argv)
{
    int join = argc > 1 && !strcmp(argv[1], "join"), lfd = -1;
    int rank, size, total = 0, nsize = 0;
    char port[MPI_MAX_PORT_NAME] = "";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (rank == 0)
            printf("connect_world needs 3 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* no world collective before the connect: its messages (0 -> 2 in a
     * Bruck allgather of 3) would resolve the pair, and a peer found by its
     * resolved name hides a lost trailer (make check-mutants) */
    if (rank == 0) {
        if (join)
            lfd = join_listen(port);
        else
            MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0 || rank == 2) {
        MPI_Comm inter, merged, node;
        MPI_Group wg, rg, mg, pair;
        int peer = 2 - rank, r = -1, cmp = -1, in = -1;
        int ranks[2] = { 0, 2 };

        if (join) {
            int fd = join_socket(rank, lfd, port);
            MPI_Comm_join(fd, &inter);
            close(fd);
        } else if (rank == 0) {
            MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        } else {
            MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        }
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_remote_group(inter, &rg);
        int zero = 0;
        MPI_Group_translate_ranks(rg, 1, &zero, wg, &r);
        check(r == peer, rank, "the remote rank's world rank", r, peer);

        MPI_Intercomm_merge(inter, rank == 2, &merged);
        MPI_Comm_group(merged, &mg);
        MPI_Group_incl(wg, 2, ranks, &pair);
        MPI_Group_compare(mg, pair, &cmp);
        check(cmp == MPI_IDENT, rank, "the merged group against the world's {0, 2}", cmp,
              MPI_IDENT);

        MPI_Comm_split_type(merged, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &nsize);

        MPI_Sendrecv(&rank, 1, MPI_INT, peer, 7, &in, 1, MPI_INT, peer, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        check(in == peer, rank, "a message over the world", in, peer);
        in = -1;
        MPI_Sendrecv(&rank, 1, MPI_INT, 0, 8, &in, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
        check(in == peer, rank, "a message over the intercommunicator", in, peer);
        in = -1;
        MPI_Sendrecv(&rank, 1, MPI_INT, 1 - rank / 2, 9, &in, 1, MPI_INT, 1 - rank / 2, 9,
                     merged, MPI_STATUS_IGNORE);
        check(in == peer, rank, "a message over the merged communicator", in, peer);

        MPI_Group_free(&pair);
        MPI_Group_free(&mg);
        MPI_Group_free(&rg);
        MPI_Group_free(&wg);
        MPI_Comm_free(&node);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&inter);
        if (rank == 0 && !join)
            MPI_Close_port(port);
    }
    /* the merged communicator's node against the world's, asked now */
    int same = world_same_node(rank == 0 ? 2 : 0);
    if (rank == 0 || rank == 2)
        check(nsize == 1 + same, rank, "processes of the merged communicator on this node",
              nsize, 1 + same);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
