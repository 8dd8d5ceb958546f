/*
 * test_sparse.c - sparse AVs (avrm_av_make_sparse, avrm_ave_get): every
 * lpid's word, through the AV and through rank maps of several classes,
 * against a plain table the test keeps (an untouched peer reads as its
 * pending word, a node-local one with its local bit, a written one as
 * written); the memory they hold against the kernel's count of the
 * mapping's resident pages (/proc/self/smaps), not only the library's;
 * a failed reservation leaves the AV as it was; a dense AV's word 0 stays
 * address 0 (the eager world's rank 0 on another node).
 */
#include <inttypes.h>
#include <unistd.h>
#include "tu.h"
#include "avrm_alloc.h"

#define N (1u << 20)

static avrm_ave_t *want;        /* the test's table: what every lpid must read */

/* Resident bytes of the mapping that contains p, as the kernel counts them;
 * -1 when not found. */
static long kernel_rss(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0;
    long rss = -1;
    uintptr_t a = (uintptr_t) p;
    if (!f) return -1;
    while (fgets(line, sizeof(line), f)) {
        uintptr_t lo, hi;
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = a >= lo && a < hi;
        } else if (in && strncmp(line, "Rss:", 4) == 0) {
            rss = strtol(line + 4, NULL, 10) * 1024;
            break;
        }
    }
    fclose(f);
    return rss;
}

static size_t entry_bytes(const avrm_ctx_t *ctx)
{
    avrm_stats_t st;
    avrm_ctx_stats(ctx, &st);
    return st.av_entry_bytes;
}

/* every lpid through the AV, the world map and a stride map of the odd ranks */
static void check_all(avrm_ctx_t *ctx, const avrm_av_t *av)
{
    avrm_rankmap_t world, odd;
    CHECK(avrm_map_init_group(ctx, 0, &world) == AVRM_OK);
    int32_t *ranks = malloc(N / 2 * sizeof(*ranks));
    for (uint32_t i = 0; i < N / 2; i++) ranks[i] = (int32_t) (2 * i + 1);
    CHECK(avrm_map_build(ctx, &world, ranks, N / 2, &odd) == AVRM_OK);
    uint32_t bad = 0;
    for (uint32_t l = 0; l < N; l++) {
        bad += avrm_av_ave(av, l) != want[l];
        bad += avrm_map_ave(ctx, &world, l) != want[l];
        if (l & 1) bad += avrm_map_ave(ctx, &odd, l / 2) != want[l];
    }
    CHECK(bad == 0);
    avrm_map_release(ctx, &odd);
    avrm_map_release(ctx, &world);
    free(ranks);
}

/* pages (of ps bytes) that hold a written word or the header: counted here */
static size_t pages_written(size_t ps)
{
    size_t wpp = ps / 8, n = 0, last = (size_t) -1;
    for (uint32_t l = 0; l < N; l++) {
        size_t page = ((size_t) l + 1) / wpp;
        int written = want[l] != avrm_ave_make_pending(l, 0);
        if ((page == 0 || written) && page != last) n++, last = page;
    }
    return n;
}

static void sparse_from(avrm_locality_t loc, int computed)
{
    avrm_params_t pr = avrm_params_default();
    pr.computed_av = 1;
    avrm_ctx_t *ctx;
    CHECK(avrm_ctx_create(&pr, &ctx) == AVRM_OK);
    avrm_av_params_t p = { .size = N, .pgid = 0, .computed = (uint8_t) computed, .local = loc };
    avrm_av_t *av;
    CHECK(avrm_av_create(ctx, &p, &av) == AVRM_OK);
    for (uint32_t l = 0; l < N; l++) {
        int local = avrm_locality_has(&loc, l);
        if (!computed && local) CHECK(avrm_av_set(av, l, l, 1) == AVRM_OK);
        want[l] = avrm_ave_make_pending(l, local);
    }
    size_t ps = avrm__page_size();

    /* a failed reservation changes nothing */
    avrm__alloc_fail_after(0);
    CHECK(avrm_av_make_sparse(ctx, av) == AVRM_ERR_NOMEM);
    avrm__alloc_fail_after(-1);
    CHECK(!av->sparse && av->computed == computed);

    CHECK(avrm_av_make_sparse(ctx, av) == AVRM_OK && av->sparse && !av->computed);
    check_all(ctx, av);
    CHECK(entry_bytes(ctx) == pages_written(ps) * ps);
    CHECK(kernel_rss(av->entries) == (long) (pages_written(ps) * ps));

    /* contacts: a stencil's neighbours of process 1000 on a 1024 x 1024
     * grid, then random peers; this process is address 0 */
    uint32_t me = 1000, peers[] = { 999, 1001, 1000 - 1024 + N, 1000 + 1024, 77777, N - 1 };
    CHECK(avrm_av_set(av, me, 0, 1) == AVRM_OK);
    want[me] = avrm_ave_make(0, 1);
    for (unsigned i = 0; i < sizeof(peers) / sizeof(peers[0]); i++) {
        uint32_t l = peers[i];
        CHECK(avrm_av_set(av, l, i + 1, avrm_locality_has(&loc, l)) == AVRM_OK);
        want[l] = avrm_ave_make(i + 1, avrm_locality_has(&loc, l));
    }
    CHECK(avrm_av_set(av, 5, 0, 0) == AVRM_ERR_ARG);   /* a zero word would read pending */
    check_all(ctx, av);
    CHECK(entry_bytes(ctx) == pages_written(ps) * ps);
    CHECK(kernel_rss(av->entries) == (long) (pages_written(ps) * ps));
    CHECK(entry_bytes(ctx) < (size_t) N);   /* far below 8 B per peer */
    for (uint32_t k = 0; k < 300; k++) {
        uint32_t l = tu_below(N);
        uint64_t a = 1 + tu_below(1u << 30);
        CHECK(avrm_av_set(av, l, a, 0) == AVRM_OK);
        want[l] = avrm_ave_make(a, 0);
    }
    check_all(ctx, av);
    CHECK(entry_bytes(ctx) == pages_written(ps) * ps);
    CHECK(kernel_rss(av->entries) == (long) (pages_written(ps) * ps));
    avrm_ctx_destroy(ctx);
}

static void test_sparse_computed_range(void)
{
    avrm_locality_t loc = { .kind = AVRM_LOCAL_RANGE, .first = 960, .count = 96 };
    sparse_from(loc, 1);
}

static void test_sparse_computed_cyclic(void)
{
    avrm_locality_t loc = { .kind = AVRM_LOCAL_CYCLIC, .nnodes = 8192, .node = 1000 % 8192 };
    sparse_from(loc, 1);
}

static void test_sparse_computed_list(void)
{
    static uint32_t list[] = { 3, 999, 1000, 4096, 700001, N - 1 };
    avrm_locality_t loc = { .kind = AVRM_LOCAL_LIST, .count = 6, .list = list };
    sparse_from(loc, 1);
}

static void test_sparse_from_dense(void)
{
    avrm_locality_t loc = { .kind = AVRM_LOCAL_RANGE, .first = 512, .count = 1024 };
    sparse_from(loc, 0);
}

/* a dense AV's zero word is address 0, remote: not pending */
static void test_dense_zero(void)
{
    avrm_ctx_t *ctx;
    avrm_params_t pr = avrm_params_default();
    CHECK(avrm_ctx_create(&pr, &ctx) == AVRM_OK);
    avrm_av_params_t p = { .size = 16, .pgid = 0 };
    avrm_av_t *av;
    CHECK(avrm_av_create(ctx, &p, &av) == AVRM_OK);
    for (uint32_t l = 0; l < 16; l++) CHECK(avrm_av_set(av, l, l, l == 3) == AVRM_OK);
    avrm_rankmap_t world;
    CHECK(avrm_map_init_group(ctx, 0, &world) == AVRM_OK);
    CHECK(avrm_av_ave(av, 0) == 0 && avrm_map_ave(ctx, &world, 0) == 0);
    CHECK(!avrm_ave_is_pending(avrm_map_ave(ctx, &world, 0)));
    CHECK(entry_bytes(ctx) == 16 * 8);
    avrm_map_release(ctx, &world);
    avrm_ctx_destroy(ctx);
}

int main(void)
{
    tu_srand(7);
    want = malloc(N * sizeof(*want));
    RUN(test_dense_zero);
    RUN(test_sparse_computed_range);
    RUN(test_sparse_computed_cyclic);
    RUN(test_sparse_computed_list);
    RUN(test_sparse_from_dense);
    free(want);
    return tu_finish();
}
