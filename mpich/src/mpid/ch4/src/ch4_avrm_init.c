/*
 * ch4_avrm_init.c - AV-Rankmap glue: the CH4 CVARs of the address layer
 * (their category and the allocation-failure CVAR are mpir_avrm_hier.c's),
 * its MPI_T performance variables and the finalize report. (The libavrm
 * context and the world AV are created by MPIDIU_avt_init, ch4_avrm_av.c.)
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside ch4_init.c (patch ch4-address-layer-on-avrm lists it in MPICH's generated
 * Makefile.in; doc/design.md "How our code enters MPICH"). Its interface:
 * ch4_avrm_init.h (MPIDI_avrm_init, MPIDI_avrm_finalize, for ch4_init.c).
 *
 * Thread safety: registration and the report run single-threaded inside
 * MPID_Init / MPID_Finalize; pvar reads take a snapshot of libavrm's counters
 * (plain loads, may be a few bytes stale under MPI_THREAD_MULTIPLE).
 * Cost: registration O(1); every pvar read O(1).
 */
#include "mpidimpl.h"
#include "ch4_avrm.h"
#include "ch4_avrm_init.h"
#include "avrm/avrm.h"

/*
=== BEGIN_MPI_T_CVAR_INFO_BLOCK ===

cvars:
    - name        : MPIR_CVAR_AVRM_REPORT
      category    : CH4_AVRM
      type        : boolean
      default     : false
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_LOCAL
      description : >-
        If true, rank 0 of MPI_COMM_WORLD prints the address-layer memory
        report (bytes by category) at MPI_Finalize.

    - name        : MPIR_CVAR_AVRM_PATTERNS
      category    : CH4_AVRM
      type        : boolean
      default     : true
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        Detect regular rank-map patterns (offset, stride, block, exceptions,
        grids). If false, every irregular-or-not map is a lookup table.

    - name        : MPIR_CVAR_AVRM_SHARE_TABLES
      category    : CH4_AVRM
      type        : boolean
      default     : true
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        Share identical rank lookup tables across communicators by content.

    - name        : MPIR_CVAR_AVRM_COMPUTED_AV
      category    : CH4_AVRM
      type        : boolean
      default     : false
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        Store no per-peer address entry for the world when addresses follow
        from the process index (libfabric FI_AV_TABLE in lpid order).
        On-demand addressing (MPIR_CVAR_AVRM_ON_DEMAND_AV) takes precedence:
        it stores a word for each contacted peer only; the report says so.

=== END_MPI_T_CVAR_INFO_BLOCK ===
*/

/* ---- MPI_T performance variables ------------------------------------- */

/* Which libavrm counter a process-wide SIZE pvar reads (node map: the
 * world's hierarchy, MPIR_Process.node_hier, built before the context). */
enum MPIDI_avrm_pvar {
    AVRM_PVAR_AV_ENTRY, AVRM_PVAR_AV_META, AVRM_PVAR_MAP,
    AVRM_PVAR_TABLE, AVRM_PVAR_TABLE_SHARED, AVRM_PVAR_INDEX, AVRM_PVAR_HIER, AVRM_PVAR_RANK_INDEX,
    AVRM_PVAR_NODE_MAP, AVRM_PVAR_AV_SPARSE, AVRM_PVAR_COUNT
};

static const struct {
    const char *name, *desc;
} MPIDI_avrm_size_pvars[AVRM_PVAR_COUNT] = {
    {"avrm_av_entry_bytes", "Bytes of address-vector entries (8 per peer of a stored AV, 0 computed; a sparse AV its written pages)"},
    {"avrm_av_meta_bytes", "Bytes of AV descriptors and locality lists"},
    {"avrm_map_bytes", "Bytes of live rank-map structs (inline in communicators and groups)"},
    {"avrm_table_bytes", "Bytes of rank lookup tables (lut/lut16/mlut/mseg), headers included"},
    {"avrm_table_shared_bytes", "Bytes of lookup tables that sharing (dup, slice, content) avoided"},
    {"avrm_index_bytes", "Bytes of the table content-sharing index"},
    {"avrm_hier_bytes", "Bytes of communicators' node hierarchies out of line (0 for block/cyclic placements)"},
    {"avrm_rank_index_bytes", "Bytes of groups' rank indexes (process -> rank; 4 per member of a searched table group)"},
    {"avrm_node_map_bytes", "Bytes of the world's node map out of line (stock: node_map and shm local_ranks, 8 per peer; here 0 for block/round-robin placements)"},
    {"avrm_av_sparse_bytes", "Bytes of the sparse world AV's written pages (on-demand addressing: a mapping outside the malloc heap, part of avrm_av_entry_bytes)"},
};

static int MPIDI_avrm_pvar_ids[AVRM_PVAR_COUNT];

static unsigned long long MPIDI_avrm_stat(int which)
{
    avrm_stats_t s;
    avrm_ctx_stats(MPIDI_avrm.ctx, &s);
    switch (which) {
        case AVRM_PVAR_AV_ENTRY:
            return s.av_entry_bytes;
        case AVRM_PVAR_AV_META:
            return s.av_meta_bytes;
        case AVRM_PVAR_MAP:
            return s.map_bytes;
        case AVRM_PVAR_TABLE:
            return s.table_bytes;
        case AVRM_PVAR_TABLE_SHARED:
            return s.table_shared_bytes;
        case AVRM_PVAR_INDEX:
            return s.index_bytes;
        case AVRM_PVAR_HIER:
            return s.hier_bytes;
        case AVRM_PVAR_RANK_INDEX:
            return s.rank_index_bytes;
        case AVRM_PVAR_AV_SPARSE:
            return avrm_av_sparse_bytes(avrm_ctx_av(MPIDI_avrm.ctx, 0));
        default:
            return avrm_hier_bytes(&MPIR_Process.node_hier);
    }
}

static void MPIDI_avrm_get_size(void *addr, void *obj, int count, void *buf)
{
    *(unsigned long long *) buf = MPIDI_avrm.ctx ? MPIDI_avrm_stat(*(int *) addr) : 0;
}

static void MPIDI_avrm_get_modes(void *addr, void *obj, int count, void *buf)
{
    avrm_stats_t s;
    unsigned long long *out = buf;
    if (MPIDI_avrm.ctx)
        avrm_ctx_stats(MPIDI_avrm.ctx, &s);
    for (int m = 0; m < count; m++)
        out[m] = MPIDI_avrm.ctx ? s.nmaps[m] : 0;
}

static MPIR_Comm *MPIDI_avrm_pvar_comm(void *obj)
{
    MPIR_Comm *comm = NULL;
    if (obj && *(MPI_Comm *) obj != MPI_COMM_NULL)
        MPIR_Comm_get_ptr(*(MPI_Comm *) obj, comm);
    return comm;
}

/* mode of the communicator's map (for an intercomm: of its remote group) */
static void MPIDI_avrm_get_comm_mode(void *addr, void *obj, int count, void *buf)
{
    MPIR_Comm *comm = MPIDI_avrm_pvar_comm(obj);
    *(int *) buf = comm ? MPIDI_COMM(comm, map).mode : -1;
}

/* bytes of the communicator's maps: structs, tables they reference (shared
 * ones included), the out-of-line local map of an intercomm */
static void MPIDI_avrm_get_comm_bytes(void *addr, void *obj, int count, void *buf)
{
    MPIR_Comm *comm = MPIDI_avrm_pvar_comm(obj);
    unsigned long long b = 0;
    if (comm) {
        b = sizeof(avrm_rankmap_t) + avrm_map_table_bytes(&MPIDI_COMM(comm, map), NULL);
        if (MPIDI_COMM(comm, local_map))
            b += sizeof(avrm_rankmap_t) + avrm_map_table_bytes(MPIDI_COMM(comm, local_map), NULL);
    }
    *(unsigned long long *) buf = b;
}

/* The node hierarchy of an intracommunicator, for tests to check against
 * their own reference (MPI_Comm_split_type SHARED): form (avrm_hier_form_t,
 * -1 for an intercomm), nodes, this process's node, its node's size, the
 * out-of-line bytes, then every rank's intranode rank and every rank's
 * internode rank (count 5 + 2 * size). Reading it costs O(size). */
#define MPIDI_AVRM_HIER_HEAD 5
static int MPIDI_avrm_hier_ranks(MPIR_Comm * comm)
{
    return comm && comm->comm_kind == MPIR_COMM_KIND__INTRACOMM ? comm->remote_size : 0;
}

static void MPIDI_avrm_get_comm_hier_count(void *addr, void *obj, int *count)
{
    *count = MPIDI_AVRM_HIER_HEAD + 2 * MPIDI_avrm_hier_ranks(MPIDI_avrm_pvar_comm(obj));
}

static void MPIDI_avrm_get_comm_hier(void *addr, void *obj, int count, void *buf)
{
    MPIR_Comm *comm = MPIDI_avrm_pvar_comm(obj);
    int n = MPIDI_avrm_hier_ranks(comm), *out = buf;
    const avrm_hier_t *h = n ? &comm->hier : NULL;

    if (count < MPIDI_AVRM_HIER_HEAD + 2 * n)
        return;
    if (!n) {                   /* an intercomm (or none): no hierarchy */
        memset(out, 0, MPIDI_AVRM_HIER_HEAD * sizeof(int));
        out[0] = -1;
        return;
    }
    out[0] = h->form;
    out[1] = (int) h->nnodes;
    out[2] = (int) h->my_node;
    out[3] = (int) h->local_size;
    out[4] = (int) avrm_hier_bytes(h);
    for (int r = 0; r < n; r++) {
        out[MPIDI_AVRM_HIER_HEAD + r] = avrm_hier_intranode(h, (uint32_t) r);
        out[MPIDI_AVRM_HIER_HEAD + n + r] = (int) avrm_hier_internode(h, (uint32_t) r);
    }
}

static void MPIDI_avrm_register_pvars(void)
{
    static MPI_T_enum modes_enum;
    static int dummy;

    for (int i = 0; i < AVRM_PVAR_COUNT; i++) {
        MPIDI_avrm_pvar_ids[i] = i;
        MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_SIZE, MPI_UNSIGNED_LONG_LONG,
                                  MPIDI_avrm_size_pvars[i].name, &MPIDI_avrm_pvar_ids[i], 1,
                                  MPI_T_ENUM_NULL, MPI_T_VERBOSITY_USER_BASIC,
                                  MPI_T_BIND_NO_OBJECT,
                                  MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                                  MPIDI_avrm_get_size, NULL, "CH4_AVRM",
                                  MPIDI_avrm_size_pvars[i].desc);
    }
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG_LONG,
                              "avrm_maps_by_mode", &dummy, AVRM_MODE_COUNT, MPI_T_ENUM_NULL,
                              MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_NO_OBJECT,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              MPIDI_avrm_get_modes, NULL, "CH4_AVRM",
                              "Live rank maps per mode (index = mode of avrm_comm_map_mode's enum)");
    MPIR_T_enum_create("avrm_mode", &modes_enum);
    for (int m = 0; m < AVRM_MODE_COUNT; m++)
        MPIR_T_enum_add_item(modes_enum, avrm_mode_name((avrm_mode_t) m), m);
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_STATE, MPI_INT, "avrm_comm_map_mode", &dummy, 1,
                              modes_enum, MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_MPI_COMM,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              MPIDI_avrm_get_comm_mode, NULL, "CH4_AVRM",
                              "Rank-map mode of a communicator (of the remote group for an intercomm)");
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_SIZE, MPI_UNSIGNED_LONG_LONG,
                              "avrm_comm_map_bytes", &dummy, 1, MPI_T_ENUM_NULL,
                              MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_MPI_COMM,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              MPIDI_avrm_get_comm_bytes, NULL, "CH4_AVRM",
                              "Bytes of a communicator's rank maps and the tables they reference");
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_GENERIC, MPI_INT, "avrm_comm_hier", &dummy, 0,
                              MPI_T_ENUM_NULL, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_BIND_MPI_COMM,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              MPIDI_avrm_get_comm_hier, MPIDI_avrm_get_comm_hier_count, "CH4_AVRM",
                              "Node hierarchy of an intracommunicator: form (0 none, 1 block, "
                              "2 cyclic, 3 runs, 4 table), nodes, this node, its size, bytes out "
                              "of line, then the intranode rank and the internode rank of every "
                              "rank (-1 form for an intercomm)");
}

/* After MPIDIU_avt_init. */
int MPIDI_avrm_init(void)
{
    MPIDI_avrm_register_pvars();
    return MPI_SUCCESS;
}

/* The report (world rank 0, MPIR_CVAR_AVRM_REPORT), then the intercomm
 * local-map slab. Before MPIDIU_avt_destroy; the builtin communicators are
 * already freed, so the maps left are those the application did not free. */
static void report(int world_rank)
{
    if (!MPIDI_avrm.ctx || !MPIR_CVAR_AVRM_REPORT || world_rank != 0)
        return;
    printf("avrm report (bytes):");
    for (int i = 0; i < AVRM_PVAR_COUNT; i++)
        printf(" %s=%llu", MPIDI_avrm_size_pvars[i].name + 5, MPIDI_avrm_stat(i));
    const avrm_av_t *world = MPIDI_avrm.ctx->avs[0];
    printf("\navrm report: world AV %s",
           world->computed ? "computed" : world->sparse ? "stored sparse" : "stored");
    if (MPIDI_avrm.stored_reason)
        printf(" (computed AV refused: %s)", MPIDI_avrm.stored_reason);
    if (MPIDI_avrm.netmod_report)
        MPIDI_avrm.netmod_report();
    else
        printf("; addresses exchanged at MPI_Init (by the netmod)");
    printf("\n");
    fflush(stdout);
}

void MPIDI_avrm_finalize(int world_rank)
{
    report(world_rank);
    MPIDIU_comm_local_maps_destroy();
}
