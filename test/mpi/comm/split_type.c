/* MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): the node communicators
 * partition world, keep key order, and agree with MPI_Get_processor_name
 * being equal within each (emulated cliques may split one host further).
 * Also MPI_UNDEFINED and a split_type of a reordered parent. */
#include "avtest.h"

static void check_partition(MPI_Comm parent, MPI_Comm node, int key_reversed)
{
    /* every parent rank learns the node comm's rank-0 world rank (its id)
     * and the node size; members of one node must list themselves in key order */
    int n, r;
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &r);
    int *members = malloc(sizeof(int) * (size_t) n);
    MPI_Allgather(&av_wrank, 1, MPI_INT, members, 1, MPI_INT, node);
    for (int i = 1; i < n; i++)
        if (key_reversed ? members[i] > members[i - 1] : members[i] < members[i - 1])
            av_err("node order: rank %d world %d after world %d", i, members[i], members[i - 1]);
    if (members[r] != av_wrank)
        av_err("node allgather slot %d is %d", r, members[r]);
    av_check_comm(node, members, n);

    /* partition: sum of sizes over distinct nodes == parent size */
    int pn, id = members[0], *ids;
    MPI_Comm_size(parent, &pn);
    ids = malloc(sizeof(int) * (size_t) pn);
    MPI_Allgather(&id, 1, MPI_INT, ids, 1, MPI_INT, parent);
    int *cnt = calloc((size_t) av_wsize, sizeof(int));
    for (int i = 0; i < pn; i++)
        cnt[ids[i]]++;
    if (cnt[id] != n)
        av_err("node of world %d: %d parent ranks name it, node size %d", id, cnt[id], n);

    /* processor names equal within the node */
    char name[MPI_MAX_PROCESSOR_NAME] = {0}, *names;
    int len;
    MPI_Get_processor_name(name, &len);
    names = malloc((size_t) n * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, node);
    for (int i = 0; i < n; i++)
        if (strcmp(names + (size_t) i * MPI_MAX_PROCESSOR_NAME, name) != 0)
            av_err("node member %d runs on %s, I run on %s", i, names + (size_t) i * MPI_MAX_PROCESSOR_NAME, name);
    av_check_rma(node, members, n);
    free(names);
    free(cnt);
    free(ids);
    free(members);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    MPI_Comm node, rev, c;

    av_ctx = "split_type shared";
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    check_partition(MPI_COMM_WORLD, node, 0);
    MPI_Comm_free(&node);

    av_ctx = "split_type shared, reversed keys";
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -av_wrank, MPI_INFO_NULL, &node);
    check_partition(MPI_COMM_WORLD, node, 1);
    MPI_Comm_free(&node);

    av_ctx = "split_type shared of reversed parent";
    MPI_Comm_split(MPI_COMM_WORLD, 0, av_wsize - av_wrank, &rev);
    MPI_Comm_split_type(rev, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    check_partition(rev, node, 1);
    MPI_Comm_free(&node);
    MPI_Comm_free(&rev);

    av_ctx = "split_type undefined";
    MPI_Comm_split_type(MPI_COMM_WORLD, av_wrank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                        0, MPI_INFO_NULL, &c);
    if (av_wrank % 2) {
        if (c != MPI_COMM_NULL)
            av_err("MPI_UNDEFINED gave a communicator");
    } else {
        /* only even ranks: node comms over them */
        int n;
        MPI_Comm_size(c, &n);
        int *m = malloc(sizeof(int) * (size_t) n);
        MPI_Allgather(&av_wrank, 1, MPI_INT, m, 1, MPI_INT, c);
        for (int i = 0; i < n; i++)
            if (m[i] % 2)
                av_err("odd world rank %d in even-only node comm", m[i]);
        av_check_comm(c, m, n);
        free(m);
        MPI_Comm_free(&c);
    }
    return av_finalize();
}
