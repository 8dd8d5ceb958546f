/*
 * mpir_avrm_hier.c - node hierarchies on libavrm (avrm_hier.h): the
 * world's (MPIR_Process.node_hier, in place of stock's node_map and
 * node_root_map) and each intracommunicator's (comm->hier, in place of
 * stock's intranode_table and internode_table), and libavrm's allocator.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside mpir_localproc.c (patch mpir-node-hierarchy-on-avrm
 * lists it in MPICH's generated Makefile.in). Its interface: mpir_misc.h.
 *
 * Rules:
 * - libavrm allocates through MPL from MPIR_Process_hier_init (in
 *   MPIR_pmi_init) to MPIR_Process_hier_finalize (in MPIR_pmi_finalize), so
 *   that MPICH's memory tracing (--enable-g=mem) reports its blocks under
 *   MPL_MEM_ADDRESS.
 * - MPIR_Avrm_ctx is the libavrm context whose accounting (stats.hier_bytes)
 *   gets communicators' hierarchies: set by the device (CH4) while its
 *   context exists, NULL otherwise (no accounting). The world's hierarchy
 *   is built before any context and never accounted.
 * - A failed build leaves the caller's hierarchy untouched: the caller fails
 *   the communicator (or MPI_Init), never gives it a hierarchy that is not
 *   its own.
 *
 * Thread safety: MPIR_Process_hier_init/_finalize run single-threaded in
 * MPI_Init/MPI_Finalize; MPIR_Find_hierarchy and MPIR_Free_hierarchy run
 * under the communicator's creation/free (MPICH's global critical section);
 * the allocation-failure countdown is armed by a test from one thread.
 * Cost: a hierarchy's build is O(size) calls of the node-of function and
 * O(1) memory for block and cyclic placements (avrm_hier.h); its release
 * O(1).
 */
#include "mpiimpl.h"
#include "mpir_avrm_errno.h"

/*
=== BEGIN_MPI_T_CVAR_INFO_BLOCK ===

categories:
    - name        : CH4_AVRM
      description : cvars of the AV-Rankmap address layer (compact address vectors, rank maps)

cvars:
    - name        : MPIR_CVAR_AVRM_FAIL_ALLOC
      category    : CH4_AVRM
      type        : int
      default     : 0
      class       : none
      verbosity   : MPI_T_VERBOSITY_MPIDEV_DETAIL
      scope       : MPI_T_SCOPE_LOCAL
      description : >-
        Testing aid: N > 0 makes the Nth memory allocation of the address
        layer (rank maps, indexes, node hierarchies) after the CVAR is set
        fail once, as if the system were out of memory; 0 (default) never.
        Tests set it with MPI_T_cvar_write just before the call under test.

=== END_MPI_T_CVAR_INFO_BLOCK ===
*/

avrm_ctx_t *MPIR_Avrm_ctx;

/* ---- libavrm's allocator -------------------------------------------- */

/* MPIR_CVAR_AVRM_FAIL_ALLOC counts down: the Nth allocation after the write
 * fails once. One predictable branch per allocation. */
static int avrm_alloc_fails(void)
{
    return MPIR_CVAR_AVRM_FAIL_ALLOC > 0 && --MPIR_CVAR_AVRM_FAIL_ALLOC == 0;
}

static void *avrm_mpl_malloc(size_t bytes)
{
    return avrm_alloc_fails() ? NULL : MPL_malloc(bytes, MPL_MEM_ADDRESS);
}

static void *avrm_mpl_realloc(void *p, size_t bytes)
{
    return avrm_alloc_fails() ? NULL : MPL_realloc(p, bytes, MPL_MEM_ADDRESS);
}

static void avrm_mpl_free(void *p)
{
    MPL_free(p);
}

/* ---- the world's hierarchy ------------------------------------------ */

static int32_t node_map_of(void *arg, uint32_t r)
{
    return ((const int *) arg)[r];
}

/* node_map: the node id PMI gave every world rank (ids may have gaps). The
 * hierarchy numbers nodes densely, in order of first appearance, and
 * MPIR_Process.num_nodes becomes their count. */
int MPIR_Process_hier_init(const int *node_map)
{
    static const avrm_allocator_t mpl = { avrm_mpl_malloc, avrm_mpl_realloc, avrm_mpl_free };
    avrm_set_allocator(&mpl);
    avrm_status_t st = avrm_hier_build(NULL, (uint32_t) MPIR_Process.size,
                                       (uint32_t) MPIR_Process.rank,
                                       (uint32_t) MPIR_Process.num_nodes, node_map_of,
                                       (void *) node_map, &MPIR_Process.node_hier);
    if (st == AVRM_OK)
        MPIR_Process.num_nodes = (int) MPIR_Process.node_hier.nnodes;
    return MPIR_avrm_err(st, "the node map of the world");
}

void MPIR_Process_hier_finalize(void)
{
    avrm_hier_release(NULL, &MPIR_Process.node_hier);
    avrm_set_allocator(NULL);
}

/* ---- communicators' hierarchies ------------------------------------- */

typedef struct {
    MPIR_Comm *comm;
    int mpi_errno;
} node_of_arg_t;

static int32_t comm_node_of(void *arg, uint32_t rank)
{
    node_of_arg_t *a = arg;
    int id = -1;
    int mpi_errno = MPID_Get_node_id(a->comm, (int) rank, &id);
    if (mpi_errno) {
        a->mpi_errno = mpi_errno;
        return -1;
    }
    return id;
}

/* The node of every rank from MPID_Get_node_id. A rank of unknown node
 * (spawned or attached processes) gives form NONE: the communicator gets no
 * node awareness, as stock's non-fatal "**dynamic_node_ids" gave. Errors:
 * MPI_ERR_NO_MEM when out of memory, MPID_Get_node_id's, MPI_ERR_INTERN for
 * a node id beyond MPIR_Process.num_nodes. */
int MPIR_Find_hierarchy(MPIR_Comm * comm, avrm_hier_t * hier)
{
    node_of_arg_t arg = { comm, MPI_SUCCESS };
    avrm_hier_t built;
    avrm_status_t st = avrm_hier_build(MPIR_Avrm_ctx, (uint32_t) comm->remote_size,
                                       (uint32_t) comm->rank, (uint32_t) MPIR_Process.num_nodes,
                                       comm_node_of, &arg, &built);
    if (arg.mpi_errno) {
        if (st == AVRM_OK)
            avrm_hier_release(MPIR_Avrm_ctx, &built);
        return arg.mpi_errno;
    }
    if (st == AVRM_OK)
        *hier = built;
    return MPIR_avrm_err(st, "the node hierarchy of a communicator");
}

void MPIR_Free_hierarchy(MPIR_Comm * comm)
{
    avrm_hier_release(MPIR_Avrm_ctx, &comm->hier);
}
