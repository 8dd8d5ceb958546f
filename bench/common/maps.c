/* maps.c - see maps.h */
#include "maps.h"
#include <stdlib.h>
#include <string.h>

const char *const bk_kind_name[BK_NKINDS] = {
    "direct", "offset", "stride", "block", "except", "grid", "ilut", "lut", "lut16", "mlut32", "mlut", "join", "mseg"
};
const avrm_mode_t bk_kind_mode[BK_NKINDS] = {
    AVRM_MODE_DIRECT, AVRM_MODE_OFFSET, AVRM_MODE_STRIDE, AVRM_MODE_BLOCK, AVRM_MODE_EXCEPT,
    AVRM_MODE_GRID, AVRM_MODE_ILUT, AVRM_MODE_LUT, AVRM_MODE_LUT16, AVRM_MODE_MLUT32, AVRM_MODE_MLUT,
    AVRM_MODE_JOIN, AVRM_MODE_MSEG
};

static uint64_t rnd(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void bk_shuffle32(int32_t *p, uint32_t n, uint64_t seed)
{
    for (uint32_t i = 0; i < n; i++) p[i] = (int32_t) i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t) (rnd(&seed) % (i + 1));
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

int bk_world_init(bk_world_t *w, uint32_t n, int computed)
{
    avrm_params_t p = avrm_params_default();
    p.computed_av = computed ? 1 : 0;
    return bk_world_init_params(w, n, &p);
}

int bk_world_init_params(bk_world_t *w, uint32_t n, const avrm_params_t *pp)
{
    return bk_world_init_pg(w, n, pp, 1);
}

avrm_pgid_t bk_kind_pgid(int kind)
{
    return kind == BK_MLUT ? AVRM_MLUT32_MAX_PGS : 1;
}

int bk_world_init_pg(bk_world_t *w, uint32_t n, const avrm_params_t *pp, avrm_pgid_t pg1)
{
    memset(w, 0, sizeof *w);
    avrm_params_t p = *pp;
    int computed = p.computed_av;
    if (avrm_ctx_create(&p, &w->ctx) != AVRM_OK) return -1;
    w->n = n;
    w->m = n / 16 ? n / 16 : 1;
    w->pg1 = pg1;
    for (int g = 0; g < 2; g++) {
        avrm_av_params_t ap;
        memset(&ap, 0, sizeof ap);
        ap.size = g ? w->m : n;
        ap.pgid = g ? pg1 : 0;
        if (!g && computed) {
            ap.computed = 1;
            ap.local.kind = AVRM_LOCAL_RANGE;
            ap.local.first = 0;
            ap.local.count = n < 16 ? n : 16;
        }
        avrm_av_t *av;
        if (avrm_av_create(w->ctx, &ap, &av) != AVRM_OK) return -1;
        if (av->entries)
            for (uint32_t l = 0; l < ap.size; l++)
                if (avrm_av_set(av, l, (g ? n : 0) + l, !g && l < 16) != AVRM_OK) return -1;
    }
    if (avrm_map_init_group(w->ctx, 0, &w->world) != AVRM_OK) return -1;
    if (avrm_map_init_group(w->ctx, pg1, &w->spawned) != AVRM_OK) return -1;
    return 0;
}

void bk_world_fini(bk_world_t *w)
{
    avrm_map_release(w->ctx, &w->world);
    avrm_map_release(w->ctx, &w->spawned);
    avrm_ctx_destroy(w->ctx);
}

uint32_t bk_input(const bk_world_t *w, int kind, int32_t **mapping, avrm_src_t **src)
{
    uint32_t N = w->n, n = 0;
    int32_t *m = NULL;
    avrm_src_t *s = NULL;
    *mapping = NULL; *src = NULL;
    switch (kind) {
    case BK_DIRECT:
        n = N; m = malloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) m[i] = (int32_t) i;
        break;
    case BK_OFFSET:      /* upper half: split without reorder */
        n = N / 2; m = malloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) m[i] = (int32_t) (N / 2 + i);
        break;
    case BK_STRIDE:      /* odd ranks */
        n = N / 2; m = malloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) m[i] = (int32_t) (2 * i + 1);
        break;
    case BK_BLOCK:       /* first 4 of every 16 (one socket of each node) */
        n = N / 4; m = malloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) m[i] = (int32_t) (i / 4 * 16 + i % 4);
        break;
    case BK_EXCEPT:      /* LSMS node-roots: 1, 16, 32, 48, ... */
        n = N / 16; m = malloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) m[i] = (int32_t) (i ? 16 * i : 1);
        break;
    case BK_GRID: {      /* sub-cube of the core's 3-D factorization of the world:
                          * half of each extent (dims_create style, e.g. 128x128x64 at 1M) */
        uint32_t d[3] = { 1, 1, 1 }, x = N;
        for (uint32_t p = 2; x > 1; ) {
            if (x % p) { p++; continue; }
            int j = 0;
            for (int k = 1; k < 3; k++) if (d[k] < d[j]) j = k;
            d[j] *= p; x /= p;
        }
        for (int i = 0; i < 3; i++) for (int k = i + 1; k < 3; k++)
            if (d[k] > d[i]) { uint32_t t = d[i]; d[i] = d[k]; d[k] = t; }
        uint32_t e[3] = { d[0] / 2 ? d[0] / 2 : 1, d[1] / 2 ? d[1] / 2 : 1, d[2] / 2 ? d[2] / 2 : 1 };
        n = e[0] * e[1] * e[2]; m = malloc((size_t) n * 4);
        uint32_t k = 0;
        for (uint32_t a = 0; a < e[0]; a++)
            for (uint32_t b = 0; b < e[1]; b++)
                for (uint32_t c = 0; c < e[2]; c++)
                    m[k++] = (int32_t) ((a + 1) * d[1] * d[2] + (b + 1) * d[2] + c);
        break;
    }
    case BK_ILUT:        /* AVRM_ILUT_MAX random ranks among the first 65536 */
        n = N < 65536 ? N : 65536; m = malloc((size_t) n * 4);
        bk_shuffle32(m, n, 6);
        n = n < AVRM_ILUT_MAX ? n : AVRM_ILUT_MAX;
        break;
    case BK_LUT:
        n = N; m = malloc((size_t) n * 4);
        bk_shuffle32(m, n, 7);
        break;
    case BK_LUT16:
        n = N < 65536 ? N : 65536; m = malloc((size_t) n * 4);
        bk_shuffle32(m, n, 8);
        break;
    case BK_MLUT32:      /* merged world + spawned, randomly reordered (2 groups) */
    case BK_MLUT: {      /* the same with the spawned AV at pgid 256: 8-byte MLUT */
        n = N + w->m; s = malloc((size_t) n * sizeof *s);
        int32_t *perm = malloc((size_t) n * 4);
        bk_shuffle32(perm, n, 9);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = (uint32_t) perm[i];
            s[i].parent = g < N ? 0 : 1;
            s[i].rank = (int32_t) (g < N ? g : g - N);
        }
        free(perm);
        break;
    }
    case BK_JOIN:        /* intercomm merge: world then spawned (two runs) */
        n = N + w->m; s = malloc((size_t) n * sizeof *s);
        for (uint32_t i = 0; i < n; i++) {
            s[i].parent = i < N ? 0 : 1;
            s[i].rank = (int32_t) (i < N ? i : i - N);
        }
        break;
    case BK_MSEG: {      /* three runs: world's lower half, spawned, world's upper half */
        uint32_t h = N / 2;
        n = N + w->m; s = malloc((size_t) n * sizeof *s);
        for (uint32_t i = 0; i < n; i++) {
            int sp = i >= h && i < h + w->m;
            s[i].parent = sp ? 1 : 0;
            s[i].rank = (int32_t) (i < h ? i : sp ? i - h : i - w->m);
        }
        break;
    }
    }
    *mapping = m; *src = s;
    return n;
}

avrm_status_t bk_build(bk_world_t *w, int kind, const int32_t *mapping, const avrm_src_t *src,
                       uint32_t n, avrm_rankmap_t *out)
{
    (void) kind;
    if (src) {
        const avrm_rankmap_t *par[2] = { &w->world, &w->spawned };
        return avrm_map_build_multi(w->ctx, par, 2, src, n, out);
    }
    return avrm_map_build(w->ctx, &w->world, mapping, n, out);
}
