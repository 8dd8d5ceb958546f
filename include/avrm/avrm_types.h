/*
 * avrm_types.h - types of the AV-Rankmap core (libavrm): address-vector
 * entries, rank maps, build parameters, status codes, accounting.
 *
 * Glossary (same as MPICH CH4's ch4_proc.h):
 *   pgid  process group id: 0 is the world, later groups come from
 *         spawn/connect. Each group has one address vector (AV).
 *   lpid  index of a peer inside its group's AV.
 *   gpid  (pgid, lpid) pair: names one process of the job.
 *   rank  a rank in a communicator (or group); a rank map turns it into
 *         a gpid and the peer's address word.
 *
 * Thread safety: types only. See avrm_av.h / avrm_rankmap.h for the rules of
 * the operations on them.
 *
 * This header and everything in include/avrm/ is plain C11 and includes no
 * MPI or libfabric header.
 */
#ifndef AVRM_TYPES_H
#define AVRM_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t avrm_lpid_t;
typedef uint16_t avrm_pgid_t;

/* Largest world the core supports: lpids are 24-bit clean so that an mlut
 * entry could pack (pgid, lpid) in 4 bytes later; 16M processes. */
#define AVRM_MAX_WORLD   (UINT32_C(1) << 24)
#define AVRM_MAX_PGS     65535u
#define AVRM_MAX_GRID_DIMS 4
/* ILUT: a lookup table of up to this many 16-bit lpids kept inside the map
 * itself (the 32 bytes of its union), so small irregular communicators of a
 * world below 65536 processes allocate nothing. */
#define AVRM_ILUT_MAX 16
/* An ILUT over a computed AV keeps that AV's locality range in its last 8
 * bytes (avrm_rankmap_t.u.computed): its class CILUT holds 12 ranks. */
#define AVRM_CILUT_MAX 12

/* Status codes: 0 is success; every failing call leaves its outputs untouched. */
typedef enum avrm_status {
    AVRM_OK = 0,
    AVRM_ERR_NOMEM,     /* an allocation failed; nothing was changed */
    AVRM_ERR_ARG,       /* bad argument: rank out of range, size 0, ... */
    AVRM_ERR_LIMIT      /* beyond a documented limit (world > 16M, > 65535 groups) */
} avrm_status_t;

/*
 * Address-vector entry: one 64-bit word per peer.
 *   bit  0      AVRM_AVE_LOCAL: peer is on this node (shared-memory transport)
 *   bits 1..62  network address (up to AVRM_AVE_MAX_ADDR; libfabric's fi_addr
 *               values are table indices or util-AV handles, far below it)
 *   bit  63     AVRM_AVE_PENDING: the address is not resolved yet (on-demand
 *               addressing); bits 1..62 then hold the peer's own lpid, so the
 *               word alone names whom to resolve: still 8 bytes per peer.
 * Decoding the address is one shift; testing "pending" is one sign test;
 * process-group ids never sit in the entry.
 */
typedef uint64_t avrm_ave_t;
#define AVRM_AVE_LOCAL     UINT64_C(1)
#define AVRM_AVE_PENDING   (UINT64_C(1) << 63)
#define AVRM_AVE_MAX_ADDR  (UINT64_MAX >> 2)
static inline avrm_ave_t avrm_ave_make(uint64_t addr, int is_local)
{
    return addr << 1 | (is_local ? AVRM_AVE_LOCAL : 0);
}
static inline uint64_t avrm_ave_addr(avrm_ave_t e) { return e >> 1; }
/* A lock-free reader's load of a stored entry word: relaxed atomic, the
 * partner of avrm_av_set's release store (a pending word becomes resolved
 * while other threads send). One plain mov on x86-64 and AArch64; what it
 * adds is that the compiler may not tear, repeat or invent the load. */
static inline avrm_ave_t avrm_ave_load(const avrm_ave_t *e)
{
    return __atomic_load_n(e, __ATOMIC_RELAXED);
}
/* the word of a peer whose address is resolved on first contact */
static inline avrm_ave_t avrm_ave_make_pending(uint32_t lpid, int is_local)
{
    return AVRM_AVE_PENDING | avrm_ave_make(lpid, is_local);
}
static inline int avrm_ave_is_pending(avrm_ave_t e) { return (int64_t) e < 0; }
static inline uint32_t avrm_ave_pending_lpid(avrm_ave_t e)
{
    return (uint32_t) ((e & ~AVRM_AVE_PENDING) >> 1);
}

/*
 * A stored AV's entry array is preceded by one header word (entries[-1]).
 * AVRM_AVH_SPARSE: a sparse AV (avrm_av_make_sparse): a zero entry is a peer
 * not contacted yet, the pending word of its lpid with the local bit clear,
 * never stored, so a page of 512 untouched entries holds no memory. Every
 * word written into a sparse AV is nonzero: a resolved address is never 0
 * there (this process is address 0 and local: word 1) and a pending word
 * has bit 63. Dense AVs' header is 0: their zero word is address 0, remote.
 */
#define AVRM_AVH_SPARSE UINT64_C(1)

/* The entry word of lpid l in a stored entry array: what readers load. One
 * load and one test of the word on the hot path (a test and a branch more
 * than a plain load: bench/results/insns); a zero word also reads the
 * header (cold: a sparse AV's untouched peer, or address 0 of a dense one). */
static inline avrm_ave_t avrm_ave_get(const avrm_ave_t *ents, uint32_t l)
{
    avrm_ave_t e = avrm_ave_load(&ents[l]);
    if (__builtin_expect(e == 0, 0) && (ents[-1] & AVRM_AVH_SPARSE))
        e = avrm_ave_make_pending(l, 0);
    return e;
}

typedef struct avrm_gpid {
    avrm_lpid_t lpid;
    avrm_pgid_t pgid;
    uint16_t    reserved;   /* zero */
} avrm_gpid_t;

/* Locality of a computed AV: the members of *this* process's node, which is
 * all that is_local() needs. O(1) bytes for regular layouts. */
typedef enum avrm_locality_kind {
    AVRM_LOCAL_NONE = 0,     /* no peer is local (or locality unknown: all remote) */
    AVRM_LOCAL_RANGE,        /* lpid in [first, first + count)           (block layout) */
    AVRM_LOCAL_CYCLIC,       /* lpid % nnodes == node, lpid < size       (round-robin)  */
    AVRM_LOCAL_LIST          /* lpid in list[0..count) sorted ascending  (irregular)    */
} avrm_locality_kind_t;

typedef struct avrm_locality {
    avrm_locality_kind_t kind;
    uint32_t first;          /* RANGE */
    uint32_t count;          /* RANGE, LIST */
    uint32_t nnodes, node;   /* CYCLIC */
    uint32_t *list;          /* LIST: owned by the AV */
} avrm_locality_t;

/*
 * One address vector (one per process group). Layout invariant: once created
 * an AV's entry array never moves or changes size, so rank maps may cache a
 * pointer to it.
 *   stored mode:   entries[lpid] holds address | LOCAL bit (8 B/peer)
 *   sparse mode:   stored, in a reserved mapping: a zero entry is pending
 *                  (avrm_ave_get), memory only for the pages written
 *                  (page size per 512 peers that hold a written word)
 *   computed mode: entries == NULL, address == lpid (libfabric FI_AV_TABLE
 *                  filled in lpid order), locality from `local`.
 *                  Only allowed for an AV whose addresses are exactly 0..size-1.
 * One word per peer is all an AV keeps: a process's other NIC/VCI endpoints
 * are computed from its root address (the MPICH glue's MPIDI_OFI_av_to_phys),
 * not stored here.
 */
typedef struct avrm_av {
    avrm_ave_t     *entries;     /* after the header word (AVRM_AVH_SPARSE) */
    avrm_locality_t local;
    uint32_t        size;
    avrm_pgid_t     pgid;
    uint8_t         computed;
    uint8_t         sparse;      /* a reserved mapping (avrm_av_make_sparse) */
    uint32_t        pages;       /* sparse: pages holding memory (written) */
} avrm_av_t;

/* Rank-map modes. The order is the switch order of avrm_map_locate(). */
typedef enum avrm_mode {
    AVRM_MODE_DIRECT = 0,  /* lpid = r       (stored as OFFSET 0: same fast path) */
    AVRM_MODE_OFFSET,      /* lpid = offset + r                                 */
    AVRM_MODE_STRIDE,      /* lpid = offset + r * stride       (stride may be < 0) */
    AVRM_MODE_BLOCK,       /* lpid = offset + (r / bs) * stride + r % bs        */
    AVRM_MODE_EXCEPT,      /* a STRIDE map with up to 2 exception ranks          */
    AVRM_MODE_GRID,        /* sub-block of a <=4-d virtual grid of the world     */
    AVRM_MODE_ILUT,        /* lpid = ilut[r]   (n <= AVRM_ILUT_MAX, AVRM_CILUT_MAX
                            * over a computed AV; lpids < 65536; inside the map) */
    AVRM_MODE_JOIN,        /* two groups, one offset run each (intercomm merge,
                            * spawn + merge): no table */
    AVRM_MODE_LUT,         /* lpid = lut32[r]  (refcounted table, maybe a slice) */
    AVRM_MODE_LUT16,       /* lpid = lut16[r]  (all lpids < 65536)               */
    AVRM_MODE_MLUT,        /* gpid = gpids[r]  (8 B/rank, several groups)        */
    AVRM_MODE_MLUT32,      /* packed[r] = pgid << 24 | lpid (4 B/rank; pgids < 256) */
    AVRM_MODE_MSEG,        /* several groups in runs: segments + optional lut32  */
    AVRM_MODE_COUNT
} avrm_mode_t;

/*
 * Hot-path class of a map (first byte of avrm_rankmap_t): the common
 * translations over stored AVs are tested before the mode switch, so they
 * cost no jump table, no call and no computed-AV test:
 *   OFFSET  DIRECT/OFFSET:  ent = ents[offset + r]
 *   LUT     LUT:            ent = ents[lut32[r]]
 *   ILUT    ILUT:           ent = ents[m->u.ilut[r]]
 *   LUT16   LUT16:          ent = ents[lut16[r]]
 *   STRIDE  STRIDE:         ent = ents[offset + r*stride]
 *   JOIN    JOIN, both AVs stored: r < first1 ? ents[r + delta0]
 *                                             : ents1[r + delta1]
 *   MLUT32  MLUT32, every AV of a group < AVRM_MLUT32_MAX_PGS stored:
 *           g = packed[r], ent = ents_of[g >> 24][g & (2^24 - 1)]
 *   COMPUTED DIRECT/OFFSET/STRIDE over a computed AV whose locality is a
 *           RANGE (or NONE): l = offset + r*stride, ent = l << 1 |
 *           (l - first < count): arithmetic, no load but the map
 *   CLUT, CLUT16, CILUT  LUT, LUT16 and ILUT (of at most AVRM_CILUT_MAX
 *           ranks) over such an AV: l from the table, then COMPUTED's word
 *           (one load, as the stored AV's classes load their entry)
 *   GENERIC everything else: avrm_map_locate()'s switch, then the AV test.
 * The computed classes keep the AV's range in the map (u.computed: bytes
 * 24-31 of the union, which none of their modes uses otherwise).
 * The values make the tests few (avrm__map_hot_): OFFSET is zero, LUT and
 * COMPUTED negative, so one `test` of the signed byte decides OFFSET and
 * the sign, one compare LUT from COMPUTED; then one compare with JOIN splits
 * STRIDE (below), JOIN and the rest (above: ILUT, LUT16, MLUT32, the computed
 * tables, GENERIC, tested in that order). Renumbering them changes every
 * lookup (bench-lookup: with COMPUTED tested after LUT16 instead, computed
 * cost 15 and every generic mode 2 more; here LUT pays the one compare,
 * 10 -> 12). The computed tables come last but GENERIC, their branch marked
 * unlikely: among the negative classes they cost COMPUTED 2 instructions
 * per lookup (9 -> 11), and laid out in line they cost COMPUTED's MPI_Isend
 * 1; here GENERIC pays their test (2).
 */
typedef enum avrm_path {
    AVRM_PATH_COMPUTED = -2,
    AVRM_PATH_LUT = -1,
    AVRM_PATH_OFFSET = 0,
    AVRM_PATH_STRIDE = 1,
    AVRM_PATH_JOIN = 2,
    AVRM_PATH_ILUT = 3,
    AVRM_PATH_LUT16 = 4,
    AVRM_PATH_MLUT32 = 5,
    AVRM_PATH_CLUT = 6,
    AVRM_PATH_CLUT16 = 7,
    AVRM_PATH_CILUT = 8,
    AVRM_PATH_GENERIC = 9
} avrm_path_t;

/* MSEG is chosen only up to this many segments (binary search <= 6 steps);
 * beyond it MLUT's one load wins. */
#define AVRM_MSEG_MAX_SEGS 64

/* MLUT32 packing: lpids are < AVRM_MAX_WORLD = 2^24, pgid in the top byte. */
#define AVRM_MLUT32_SHIFT 24
#define AVRM_MLUT32_MAX_PGS 256

struct avrm_table;   /* refcounted shared array (lut/lut16/mlut/mseg): avrm_table.h */
struct avrm_ctx;     /* per-process state: AVs, params, accounting, sharing index */

/* A run of ranks of one process group inside an MSEG map.
 * Ranks [first, next segment's first) belong to pgid; their lpid is
 * lpid_base + (r - first) when lut == NULL in the map, else lut[r]. */
typedef struct avrm_seg {
    uint32_t    first;
    uint32_t    lpid_base;
    avrm_pgid_t pgid;
    uint16_t    reserved;
} avrm_seg_t;

/*
 * The rank map: lives inline in the communicator. 48 bytes.
 * Single-group modes cache `ents`, the entry array of AV `pgid` (NULL when
 * that AV is computed), so the hot path never touches the AV struct.
 */
typedef struct avrm_rankmap {
    int8_t    path;          /* avrm_path_t: hot-path class, set by the builder
                              * from mode and ents (avrm__map_seal) */
    uint8_t   mode;          /* avrm_mode_t */
    avrm_pgid_t pgid;        /* single-group modes */
    uint32_t  size;          /* ranks */
    const avrm_ave_t *ents;  /* single-group modes: AV(pgid)->entries */
    union {
        /* DIRECT/OFFSET/STRIDE/BLOCK. stride: 1 for DIRECT/OFFSET (the
         * COMPUTED class decodes them as STRIDE). */
        struct { int32_t offset, stride; uint32_t bs; } reg;
        struct { int32_t offset, stride; uint32_t ex_rank[2]; avrm_lpid_t ex_lpid[2];
                 uint8_t nex; } exc;                              /* unused slot: rank UINT32_MAX */
        struct { avrm_lpid_t base; uint16_t ext[AVRM_MAX_GRID_DIMS];
                 uint32_t wstride[AVRM_MAX_GRID_DIMS]; uint8_t ndims; } grid; /* row-major, last dim fastest */
        uint16_t ilut[AVRM_ILUT_MAX];                             /* ILUT: no table, nothing shared */
        /* The computed classes (COMPUTED, CLUT, CLUT16, CILUT): the AV's
         * RANGE locality (NONE: count 0), set by avrm__map_seal, else 0;
         * after reg, lut and the first AVRM_CILUT_MAX lpids of ilut. */
        struct { uint8_t other[24]; uint32_t first, count; } computed;
        /* JOIN: ranks [0, first1) are group pgid at lpid r + delta0, ranks
         * [first1, size) group pgid1 at r + delta1; ents1 caches pgid1's
         * entries as ents does pgid's (NULL: computed) */
        struct { const avrm_ave_t *ents1; uint32_t first1; int32_t delta0, delta1;
                 avrm_pgid_t pgid1; } join;
        /* LUT/LUT16/MLUT/MLUT32: v points at entry 0 of this map (maybe
         * inside a parent's table: a slice); tbl owns the memory (one
         * reference). ents_of (MLUT32): the context's entry arrays by group
         * (avrm_ctx_t.ents_of), which the MLUT32 class reads without ctx;
         * NULL in the other modes. */
        struct { const void *v; struct avrm_table *tbl;
                 const avrm_ave_t *const *ents_of; } lut;
        /* MSEG: nsegs segments sorted by first (segs[0].first == 0); lut is
         * NULL when every segment is an offset run. Both live in tbl. */
        struct { const avrm_seg_t *segs; const avrm_lpid_t *lut; struct avrm_table *tbl;
                 uint32_t nsegs; } mseg;
    } u;
} avrm_rankmap_t;

/* Build parameters (the library never reads the environment; the MPICH glue
 * fills this from MPIR_CVAR_* values). Zeroed struct = paper modes only. */
typedef struct avrm_params {
    uint8_t enable_patterns;   /* detect offset/stride/block; 0 forces tables */
    uint8_t enable_except;     /* EXCEPT mode */
    uint8_t enable_grid;       /* GRID mode */
    uint8_t enable_lut16;      /* LUT16 when every lpid < 65536 */
    uint8_t enable_mseg;       /* JOIN for two runs; MSEG for compact builds when
                                * smaller than MLUT */
    uint8_t share_by_content;  /* identical tables shared across maps */
    uint8_t computed_av;       /* world AV in computed mode when possible */
    uint8_t enable_ilut;       /* ILUT for tables of <= AVRM_ILUT_MAX ranks, lpids < 65536 */
} avrm_params_t;

/* Memory accounting, bytes by category; queryable at any time. */
typedef struct avrm_stats {
    size_t av_entry_bytes;      /* 8 B/peer of dense stored AVs; the written pages of sparse ones */
    size_t av_meta_bytes;       /* AV structs + locality lists */
    size_t map_bytes;           /* live rank-map structs (inline in comms) */
    size_t table_bytes;         /* unique tables (lut/lut16/mlut/mseg) allocated:
                                 * payload + a 56-byte header each */
    size_t table_shared_bytes;  /* bytes that sharing (dup, slice, content) avoided:
                                 * per table, max(0, sum of bytes its maps
                                 * reference - payload) */
    size_t index_bytes;         /* content-sharing index */
    size_t hier_bytes;          /* node hierarchies' out-of-line words
                                 * (avrm_hier.h; 0 for block/cyclic) */
    size_t rank_index_bytes;    /* rank indexes of table maps (avrm_find.h):
                                 * 4 B/rank of the groups that were searched */
    size_t nmaps[AVRM_MODE_COUNT];
    size_t ntables;
} avrm_stats_t;

_Static_assert(sizeof(avrm_ave_t) == 8, "AV entry is one word");
_Static_assert(sizeof(avrm_gpid_t) == 8, "mlut entry is 8 bytes");
_Static_assert(sizeof(avrm_seg_t) == 12, "mseg segment is 12 bytes");
_Static_assert(sizeof(avrm_rankmap_t) <= 48, "rank map fits 48 bytes inline in a comm");
/* the computed classes' range (u.computed.first, after `other` in the
 * union) lies beyond what their modes use */
#define AVRM__RANGE_AT (offsetof(avrm_rankmap_t, u.computed.first) - offsetof(avrm_rankmap_t, u))
_Static_assert(AVRM__RANGE_AT >= sizeof(((avrm_rankmap_t *) 0)->u.reg) &&
               AVRM__RANGE_AT >= sizeof(((avrm_rankmap_t *) 0)->u.lut) &&
               AVRM__RANGE_AT >= AVRM_CILUT_MAX * sizeof(uint16_t),
               "u.computed overlaps reg, lut or a CILUT's lpids");
#undef AVRM__RANGE_AT

#endif /* AVRM_TYPES_H */
