/*
 * ch4_avrm_init.h - what ch4_init.c calls of the address layer's MPI_T and
 * report glue (ch4_avrm_init.c). Declarations only.
 *
 * Our file, added to the MPICH tree by patches/mpich/series. Thread safety:
 * both run single-threaded inside MPID_Init / MPID_Finalize. Costs: O(1)
 * (registration of a fixed set of pvars; the report prints O(1) lines).
 */
#ifndef CH4_AVRM_INIT_H_INCLUDED
#define CH4_AVRM_INIT_H_INCLUDED

/* After MPIDIU_avt_init: register the pvars. */
int MPIDI_avrm_init(void);

/* Before MPIDIU_avt_destroy: rank 0 of the world prints the report when
 * MPIR_CVAR_AVRM_REPORT is set. */
void MPIDI_avrm_finalize(int world_rank);

#endif /* CH4_AVRM_INIT_H_INCLUDED */
