/*
 * pvars.c - the real library's side of the simulator-vs-pvar check: runs
 * a list of communicator scenarios and prints, for every rank, libavrm's
 * accounting as MPICH's MPI_T pvars give it (avrm_av_entry_bytes,
 * avrm_av_meta_bytes, avrm_map_bytes,
 * avrm_table_bytes, avrm_table_shared_bytes, avrm_index_bytes,
 * avrm_hier_bytes (communicators' node hierarchies), avrm_node_map_bytes
 * (the world's node map) and the array avrm_maps_by_mode, named by
 * avrm_comm_map_mode's enumeration).
 *
 *   mpiexec -n N /abs/path/pvars [scen,...]    (spawn runs the same binary)
 *
 * Output (rank 0 prints every rank's line, gathered):
 *   SCEN[-freed] RANK av_entry av_meta map table table_shared index hier node_map MODES
 * Each scenario creates its communicators, reads, frees them in reverse
 * order and reads again ("-freed"); the next starts from that state.
 * bench/sim/predict.c describes the same scenarios in simulator calls and
 * prints the same lines: a change to one must be made to the other.
 * What neither side counts is measured beside it: lines
 *   heap SCEN RANK heap_delta avrm_delta
 * give, per rank, the growth of the malloc heap (glibc mallinfo2:
 * uordblks + hblkhd) across the scenario's creations and the growth of
 * libavrm's bytes (the size pvars but table_shared) over the same span;
 * the difference is MPICH's per-communicator objects (MPIR_Comm,
 * collective and device state) plus anything
 * libfabric allocates. "heap mpi_init" spans MPI_Init (libfabric's address
 * vector, MPICH's per-process arrays, the world's and self's comms).
 * Exit 1 (and "pvars: ..." on stderr) when a pvar cannot be read.
 */
#include <mpi.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pvar.h"               /* bench/real/pvar.h */
#include "../../bench/common/namelist.h"

#define NSIZE 8
#define MAXMODES 32
#define MAXC 16
static const char *const size_pvars[NSIZE] = {
    "avrm_av_entry_bytes", "avrm_av_meta_bytes", "avrm_map_bytes",
    "avrm_table_bytes", "avrm_table_shared_bytes", "avrm_index_bytes", "avrm_hier_bytes",
    "avrm_node_map_bytes"
};

static int rank, size, nmodes;
static char mode_name[MAXMODES][32];
static MPI_Comm kept[MAXC];
static int nkept;

static void keep(MPI_Comm c) { if (c != MPI_COMM_NULL) kept[nkept++] = c; }

static uint64_t splitmix(uint64_t *st)     /* sim_rand() of bench/sim/sim.c */
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void shuffle(int *p, int n, uint64_t seed)
{
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int) (splitmix(&seed) % (uint64_t) (i + 1));
        int t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

/* ---- the scenarios (mirror of bench/sim/predict.c) ---- */
static void sc_init(void) { }

static void sc_split(void)
{
    for (int k = 0; k < 4; k++) {
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
        keep(c);
    }
}

static void sc_dup(void)
{
    for (int k = 0; k < 4; k++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        keep(c);
    }
}

static void sc_reorder(void)
{
    int perm[1024];
    for (int k = 0; k < 4; k++) {
        MPI_Comm c;
        shuffle(perm, size, 1000 + (uint64_t) k);
        MPI_Comm_split(MPI_COMM_WORLD, 0, perm[rank], &c);
        keep(c);
    }
}

static void sc_incl(void)
{
    int perm[1024];
    MPI_Group wg, g;
    shuffle(perm, size, 3000);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, size / 2, perm, &g);
    for (int k = 0; k < 3; k++) {
        MPI_Comm c;
        MPI_Comm_create(MPI_COMM_WORLD, g, &c);
        keep(c);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

static void sc_colsplit(void)
{
    int col[1024], key[1024];
    uint64_t seed = 4000;
    for (int i = 0; i < size; i++) col[i] = (int) (splitmix(&seed) & 1);
    shuffle(key, size, 4001);
    for (int k = 0; k < 3; k++) {
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, col[rank], key[rank], &c);
        keep(c);
    }
}

static void sc_inter(void)
{
    MPI_Comm a, ic, c;
    int lrank;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &a);
    keep(a);
    MPI_Intercomm_create(a, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &ic);
    keep(ic);
    MPI_Comm_rank(ic, &lrank);
    for (int k = 0; k < 2; k++) {
        MPI_Comm_split(ic, lrank % 2, lrank, &c);
        keep(c);
    }
    for (int k = 0; k < 2; k++) {
        MPI_Comm_dup(ic, &c);
        keep(c);
    }
    MPI_Intercomm_merge(ic, rank % 2, &c);
    keep(c);
}

static void sc_cart(void)
{
    int d2[2] = { 0, 0 }, d4[4] = { 0, 0, 0, 0 }, p[4] = { 0, 0, 0, 0 };
    MPI_Comm c2, c4, c;
    MPI_Dims_create(size, 2, d2);
    MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p, 0, &c2);
    keep(c2);
    int row[2] = { 0, 1 }, col[2] = { 1, 0 };
    MPI_Cart_sub(c2, row, &c);
    keep(c);
    MPI_Cart_sub(c2, col, &c);
    keep(c);
    MPI_Dims_create(size, 4, d4);
    MPI_Cart_create(MPI_COMM_WORLD, 4, d4, p, 0, &c4);
    keep(c4);
    for (int dim = 0; dim < 4; dim++) {
        int one[4] = { 0, 0, 0, 0 }, three[4] = { 1, 1, 1, 1 };
        one[dim] = 1; three[dim] = 0;
        MPI_Cart_sub(c4, one, &c);
        keep(c);
        MPI_Cart_sub(c4, three, &c);
        keep(c);
    }
}

static void sc_workers(void)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, rank != 0, rank, &c);
    keep(c);
}

/* 2 processes spawned by world rank 0 (this program, see child()), merged
 * after the world, then one reordered dup of the merged comm */
#define NSPAWN 2
static char *self_path;
static void merged_split(MPI_Comm ic, int high)
{
    MPI_Comm m, c;
    int mrank, msize, perm[1024 + NSPAWN];
    MPI_Intercomm_merge(ic, high, &m);
    keep(m);
    MPI_Comm_rank(m, &mrank);
    MPI_Comm_size(m, &msize);
    shuffle(perm, msize, 2000);
    MPI_Comm_split(m, 0, perm[mrank], &c);
    keep(c);
}

static void sc_spawn(void)
{
    MPI_Comm ic;
    char *args[] = { "child", NULL };
    MPI_Comm_spawn(self_path, args, NSPAWN, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                   MPI_ERRCODES_IGNORE);
    keep(ic);
    merged_split(ic, 0);
}

/* a spawned process: the other side of sc_spawn, nothing printed */
static int child(MPI_Comm parent)
{
    keep(parent);
    merged_split(parent, 1);
    for (int i = nkept - 1; i >= 0; i--) MPI_Comm_free(&kept[i]);
    MPI_Finalize();
    return 0;
}

static const struct { const char *name; void (*fn)(void); } scen[] = {
    { "init", sc_init }, { "split", sc_split }, { "dup", sc_dup }, { "reorder", sc_reorder },
    { "incl", sc_incl }, { "colsplit", sc_colsplit }, { "inter", sc_inter }, { "cart", sc_cart },
    { "workers", sc_workers }, { "spawn", sc_spawn },
};
#define NSC (sizeof scen / sizeof scen[0])

/* ---- pvars ---- */

/* mode names: the items of avrm_comm_map_mode's enumeration */
static int read_mode_names(void)
{
    int idx, nlen = 0, dlen = 0, verb, cls, bind, ro, cont, atomic, items = 0, elen = 0;
    MPI_Datatype dt;
    MPI_T_enum et;
    if (MPI_T_pvar_get_index("avrm_comm_map_mode", MPI_T_PVAR_CLASS_STATE, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_get_info(idx, NULL, &nlen, &verb, &cls, &dt, &et, NULL, &dlen, &bind, &ro,
                            &cont, &atomic) != MPI_SUCCESS ||
        MPI_T_enum_get_info(et, &items, NULL, &elen) != MPI_SUCCESS || items > MAXMODES)
        return -1;
    for (int k = 0; k < items; k++) {
        int v, l = sizeof mode_name[0];
        char s[32];
        if (MPI_T_enum_get_item(et, k, &v, s, &l) != MPI_SUCCESS || v < 0 || v >= MAXMODES)
            return -1;
        snprintf(mode_name[v], sizeof mode_name[v], "%s", s);
    }
    nmodes = items;
    return 0;
}

/* avrm_maps_by_mode: an array pvar (pvar.h reads single values only) */
static int read_modes(unsigned long long *v)
{
    int idx, count;
    MPI_T_pvar_handle h;
    if (MPI_T_pvar_get_index("avrm_maps_by_mode", MPI_T_PVAR_CLASS_LEVEL, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(pvar_session, idx, NULL, &h, &count) != MPI_SUCCESS)
        return -1;
    int ok = count == nmodes && MPI_T_pvar_read(pvar_session, h, v) == MPI_SUCCESS;
    MPI_T_pvar_handle_free(pvar_session, &h);
    return ok ? 0 : -1;
}

static int report(const char *name, const char *phase)
{
    unsigned long long v[NSIZE + MAXMODES], *all = NULL;
    int n = NSIZE + nmodes, bad = 0;
    for (int i = 0; i < NSIZE; i++)
        if (!pvar_read(size_pvars[i], MPI_T_PVAR_CLASS_SIZE, NULL, &v[i], NULL, 0)) {
            fprintf(stderr, "pvars: cannot read %s\n", size_pvars[i]);
            bad = 1;
        }
    if (read_modes(v + NSIZE)) {
        fprintf(stderr, "pvars: cannot read avrm_maps_by_mode\n");
        bad = 1;
    }
    if (rank == 0 && !(all = malloc((size_t) size * n * sizeof *all))) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(v, n, MPI_UNSIGNED_LONG_LONG, all, n, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            const unsigned long long *x = all + (size_t) r * n;
            printf("%s%s %d", name, phase, r);
            for (int i = 0; i < NSIZE; i++) printf(" %llu", x[i]);
            int any = 0;
            for (int m = 0; m < nmodes; m++)
                if (x[NSIZE + m]) printf("%s%s:%llu", any++ ? "," : " ", mode_name[m], x[NSIZE + m]);
            printf("%s\n", any ? "" : " -");
        }
        fflush(stdout);
        free(all);
    }
    return bad;
}

static long long heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}

/* libavrm's bytes: every size pvar but avrm_table_shared_bytes */
static long long avrm_now(void)
{
    long long t = 0;
    for (int i = 0; i < NSIZE; i++) {
        unsigned long long v = 0;
        if (strcmp(size_pvars[i], "avrm_table_shared_bytes") &&
            pvar_read(size_pvars[i], MPI_T_PVAR_CLASS_SIZE, NULL, &v, NULL, 0))
            t += (long long) v;
    }
    return t;
}

static void heap_line(const char *name, long long dh, long long da)
{
    long long v[2] = { dh, da }, *all = NULL;
    if (rank == 0 && !(all = malloc((size_t) size * 2 * sizeof *all))) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(v, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++) printf("heap %s %d %lld %lld\n", name, r, all[2 * r], all[2 * r + 1]);
        fflush(stdout);
        free(all);
    }
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    long long h0 = heap_now();
    MPI_Init(&argc, &argv);
    long long h1 = heap_now();
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) return child(parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    self_path = argv[0];
    const char *list = argc > 1 ? argv[1] : NULL;
    int bad = 0;
    if (size > 1024 || !pvar_init() || read_mode_names()) {
        fprintf(stderr, "pvars: no MPI_T session or no avrm_comm_map_mode enumeration (not our library?)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    heap_line("mpi_init", h1 - h0, avrm_now());
    for (size_t k = 0; k < NSC; k++) {
        if (!namelist_has(list, scen[k].name)) continue;
        nkept = 0;
        long long hb = heap_now(), ab = avrm_now();
        scen[k].fn();
        long long ha = heap_now(), aa = avrm_now();
        bad |= report(scen[k].name, "");
        heap_line(scen[k].name, ha - hb, aa - ab);
        for (int i = nkept - 1; i >= 0; i--) MPI_Comm_free(&kept[i]);
        bad |= report(scen[k].name, "-freed");
    }
    pvar_fini();
    MPI_Finalize();
    return bad;
}
