/*
 * ch4_avrm_errno.h - MPI error class of a libavrm status, for the glue files
 * that call libavrm's writers (ch4_avrm_av.h, ch4_avrm_comm.h).
 * Our file, added to the MPICH tree by patches/mpich/series. Cost O(1).
 */
#ifndef CH4_AVRM_ERRNO_H_INCLUDED
#define CH4_AVRM_ERRNO_H_INCLUDED

#include "avrm/avrm_types.h"

static inline int MPIDIU_avrm_errno(avrm_status_t st)
{
    return st == AVRM_OK ? MPI_SUCCESS : st == AVRM_ERR_NOMEM ? MPI_ERR_NO_MEM : MPI_ERR_INTERN;
}

#endif /* CH4_AVRM_ERRNO_H_INCLUDED */
