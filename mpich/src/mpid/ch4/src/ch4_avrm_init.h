/*
 * ch4_avrm_init.h - AV-Rankmap glue: the process-wide libavrm context, its
 * CVARs, and its life cycle inside MPID_Init/MPID_Finalize.
 *
 * Our file, added to the MPICH tree by patches/mpich/series (our files enter
 * MPICH as headers so that MPICH's automake-1.15 build system is never
 * regenerated; see README "How our code enters MPICH"). Included once, by
 * ch4_init.c.
 *
 * Thread safety: init/finalize run single-threaded inside MPID_Init and
 * MPID_Finalize. Cost: init O(world) (zero-filled stored AV, or O(1) with the
 * computed AV); finalize O(#tables).
 */
#ifndef CH4_AVRM_INIT_H_INCLUDED
#define CH4_AVRM_INIT_H_INCLUDED

#include "avrm/avrm.h"

/*
=== BEGIN_MPI_T_CVAR_INFO_BLOCK ===

categories:
    - name        : CH4_AVRM
      description : cvars of the AV-Rankmap address layer (compact address vectors, rank maps)

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

=== END_MPI_T_CVAR_INFO_BLOCK ===
*/

static avrm_ctx_t *MPIDI_avrm_ctx;

static void MPIDI_avrm_params_from_cvars(avrm_params_t * p)
{
    *p = avrm_params_default();
    if (!MPIR_CVAR_AVRM_PATTERNS) {
        p->enable_patterns = p->enable_except = p->enable_grid = 0;
    }
    p->share_by_content = MPIR_CVAR_AVRM_SHARE_TABLES ? 1 : 0;
    p->computed_av = MPIR_CVAR_AVRM_COMPUTED_AV ? 1 : 0;
}

/* Create the context and the world's address vector. */
static int MPIDI_avrm_init(int world_size)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_params_t params;
    avrm_av_params_t avp = { 0 };
    avrm_av_t *av;

    MPIDI_avrm_params_from_cvars(&params);
    MPIR_ERR_CHKANDJUMP(avrm_ctx_create(&params, &MPIDI_avrm_ctx) != AVRM_OK,
                        mpi_errno, MPI_ERR_NO_MEM, "**nomem");
    avp.size = (uint32_t) world_size;
    avp.pgid = 0;
    avp.computed = params.computed_av;
    MPIR_ERR_CHKANDJUMP(avrm_av_create(MPIDI_avrm_ctx, &avp, &av) != AVRM_OK,
                        mpi_errno, MPI_ERR_NO_MEM, "**nomem");
  fn_exit:
    return mpi_errno;
  fn_fail:
    avrm_ctx_destroy(MPIDI_avrm_ctx);
    MPIDI_avrm_ctx = NULL;
    goto fn_exit;
}

static void MPIDI_avrm_finalize(int world_rank)
{
    if (MPIDI_avrm_ctx && MPIR_CVAR_AVRM_REPORT && world_rank == 0) {
        avrm_stats_t s;
        avrm_ctx_stats(MPIDI_avrm_ctx, &s);
        fprintf(stdout, "avrm report (bytes): av_entries=%zu av_side=%zu av_meta=%zu "
                "maps=%zu tables=%zu shared_avoided=%zu index=%zu ntables=%zu\n",
                s.av_entry_bytes, s.av_side_bytes, s.av_meta_bytes, s.map_bytes,
                s.table_bytes, s.table_shared_bytes, s.index_bytes, s.ntables);
        fflush(stdout);
    }
    avrm_ctx_destroy(MPIDI_avrm_ctx);
    MPIDI_avrm_ctx = NULL;
}

#endif /* CH4_AVRM_INIT_H_INCLUDED */
