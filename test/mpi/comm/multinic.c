/*
 * multinic: point-to-point on communicators that let MPICH spread traffic
 * over several NICs (runtests.sh's twonics placement; in the others there
 * is one NIC and the same checks hold).
 *
 * MPICH 4.0.2 hashes a message to NIC (context id + rank + tag) % NICs only
 * on a communicator whose info asserts mpi_assert_no_any_tag and
 * mpi_assert_no_any_source (ofi_comm.c), and with
 * MPIR_CVAR_CH4_OFI_ENABLE_MULTI_NIC_HASHING. Striping splits a message of
 * at least MPIR_CVAR_CH4_OFI_MULTI_NIC_STRIPING_THRESHOLD bytes over every
 * NIC (RMA reads of the sender's buffer). Each communicator here asserts
 * both; every rank sends every other rank one small and one large message
 * per tag in 0..NTAGS-1, with specific sources and tags, so both NICs of
 * every peer carry messages. Payloads carry (sender world rank, comm rank,
 * tag) and a pattern; every received byte is checked.
 *
 *   multinic [LARGE_BYTES=65536]
 *
 * Communicators: the world dup'd with the info, its odd/even split (a
 * stride map), and a reversed split (a LUT) -- the NIC of a peer is then
 * found from a rank that is not its world rank.
 *
 * On demand (the MPI_T pvar avrm_on_demand_nics above 0: the NICs of a
 * peer that first contact resolves), that pvar must be AVTEST_EXPECT_NICS,
 * and the NICs it names are the ones that must carry traffic.
 */
#include "avtest_mode.h"

#define NTAGS 6

static unsigned char pattern(int from, int tag, size_t i)
{
    return (unsigned char) (from * 31 + tag * 7 + i * 13);
}

static void exchange(MPI_Comm comm, const int *expect, int n, size_t large)
{
    int me;
    MPI_Comm_rank(comm, &me);
    int msgs = 2 * NTAGS * (n - 1);
    MPI_Request *req = malloc(2 * msgs * sizeof *req);
    int (*small_in)[3] = malloc(NTAGS * n * sizeof *small_in);
    int (*small_out)[3] = malloc(NTAGS * n * sizeof *small_out);
    unsigned char *big_in = malloc(large * NTAGS * n), *big_out = malloc(large * NTAGS);
    if (!req || !small_in || !small_out || !big_in || !big_out) {
        av_err("out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int t = 0; t < NTAGS; t++)
        for (size_t i = 0; i < large; i++)
            big_out[t * large + i] = pattern(av_wrank, t, i);
    int k = 0;
    for (int p = 0; p < n; p++) {
        if (p == me)
            continue;
        for (int t = 0; t < NTAGS; t++) {
            MPI_Irecv(small_in[t * n + p], 3, MPI_INT, p, t, comm, &req[k++]);
            MPI_Irecv(big_in + (t * n + p) * large, (int) large, MPI_BYTE, p, NTAGS + t, comm,
                      &req[k++]);
        }
    }
    for (int p = 0; p < n; p++) {
        if (p == me)
            continue;
        for (int t = 0; t < NTAGS; t++) {
            int *s = small_out[t * n + p];
            s[0] = av_wrank, s[1] = me, s[2] = t;
            MPI_Isend(s, 3, MPI_INT, p, t, comm, &req[k++]);
            MPI_Isend(big_out + t * large, (int) large, MPI_BYTE, p, NTAGS + t, comm, &req[k++]);
        }
    }
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    for (int p = 0; p < n; p++) {
        if (p == me)
            continue;
        for (int t = 0; t < NTAGS; t++) {
            int *s = small_in[t * n + p];
            if (s[0] != expect[p] || s[1] != p || s[2] != t)
                av_err("small message from rank %d tag %d: (%d, %d, %d), expected (%d, %d, %d)",
                       p, t, s[0], s[1], s[2], expect[p], p, t);
            unsigned char *b = big_in + (t * n + p) * large;
            for (size_t i = 0; i < large; i++)
                if (b[i] != pattern(expect[p], t, i)) {
                    av_err("large message from rank %d tag %d: byte %zu is %u, expected %u", p, t,
                           i, b[i], pattern(expect[p], t, i));
                    break;
                }
        }
    }
    free(big_out);
    free(big_in);
    free(small_out);
    free(small_in);
    free(req);
}

/* Established TCP connections of this network namespace (/proc/net/tcp)
 * with an end at IPv4 address a.b.c.d: the sockets provider connects one
 * endpoint to another over TCP, so NIC i of the twonics placement
 * (10.77.i.1, twonics-ns.sh) carried traffic when such a connection exists.
 * -1 when the file cannot be read. */
static int tcp_connections_at(int a, int b, int c, int d)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    char line[256], want[9];
    int n = 0;
    if (!f)
        return -1;
    snprintf(want, sizeof want, "%02X%02X%02X%02X", d, c, b, a);     /* little-endian hex */
    if (!fgets(line, sizeof line, f)) {         /* the header */
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char local[16], remote[16];
        unsigned st;
        if (sscanf(line, "%*d: %15s %15s %x", local, remote, &st) == 3 && st == 1 &&
            (!strncmp(local, want, 8) || !strncmp(remote, want, 8)))
            n++;
    }
    fclose(f);
    return n;
}

/* With two NICs (AVTEST_EXPECT_NICS=2) and multi-NIC hashing, messages
 * travel over both: each NIC's address has connections. Where hashing is off
 * or one NIC is used (AVTEST_EXPECT_NIC1_IDLE=1: the control run of the
 * testlist, and on demand with MPIR_CVAR_OFI_USE_MIN_NICS at MPICH's
 * default NIC count, whatever MPI_INFO_ENV's count of NICs found) the
 * second NIC must carry nothing, so that this check is seen to fail without
 * hashing. Rank 0 looks (the namespace is shared by every process). */
static void check_both_nics_used(void)
{
    const char *nics = getenv("AVTEST_EXPECT_NICS"), *idle = getenv("AVTEST_EXPECT_NIC1_IDLE");
    int want_idle = idle && !strcmp(idle, "1");
    unsigned long long od = 0;
    if (!av_read_ull_pvar("avrm_on_demand_nics", &od))
        av_err("no MPI_T pvar avrm_on_demand_nics");
    if (od && nics && *nics) {
        unsigned long long want = strtoull(nics, NULL, 10);
        av_ctx = "NICs resolved on demand";
        if (od != want)
            av_err("MPI_T pvar avrm_on_demand_nics is %llu, expected %llu (AVTEST_EXPECT_NICS)",
                   od, want);
        want_idle |= od == 1;
    }
    if (av_wrank != 0 || !nics || (strcmp(nics, "2") && !want_idle))
        return;
    av_ctx = "NICs carrying traffic";
    int c0 = tcp_connections_at(10, 77, 0, 1), c1 = tcp_connections_at(10, 77, 1, 1);
    if (c0 < 0)
        av_err("cannot read /proc/net/tcp");
    else if (want_idle ? c1 != 0 : (c0 == 0 || c1 == 0))
        av_err("TCP connections at NIC 0 (10.77.0.1): %d, at NIC 1 (10.77.1.1): %d; expected %s",
               c0, c1, want_idle ? "none at NIC 1 (hashing off, or one NIC)" : "some at each");
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    av_find_mode_pvar();
    size_t large = argc > 1 ? (size_t) atol(argv[1]) : 65536;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");

    int n = av_wsize, *expect = malloc(n * sizeof *expect);
    MPI_Comm world, half, rev;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &world);
    for (int r = 0; r < n; r++)
        expect[r] = r;
    av_ctx = "world dup with info";
    exchange(world, expect, n, large);

    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, av_wrank, &split);
    MPI_Comm_dup_with_info(split, info, &half);
    MPI_Comm_free(&split);
    int hn = 0;
    for (int r = av_wrank % 2; r < n; r += 2)
        expect[hn++] = r;
    av_ctx = "odd/even split with info";
    exchange(half, expect, hn, large);

    MPI_Comm_split(MPI_COMM_WORLD, 0, n - av_wrank, &split);
    MPI_Comm_dup_with_info(split, info, &rev);
    MPI_Comm_free(&split);
    for (int r = 0; r < n; r++)
        expect[r] = n - 1 - r;
    av_ctx = "reversed world with info";
    exchange(rev, expect, n, large);

    MPI_Barrier(MPI_COMM_WORLD);
    check_both_nics_used();

    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Comm_free(&world);
    MPI_Info_free(&info);
    free(expect);
    av_mode_done();
    return av_finalize();
}
