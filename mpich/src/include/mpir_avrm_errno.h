/*
 * mpir_avrm_errno.h - the MPI error code of a libavrm status, for the
 * files that call libavrm's writers: CH4's glue (ch4_avrm_av.c,
 * ch4_avrm_comm.c) and the node hierarchies (src/util/mpir_avrm_hier.c,
 * src/util/mpir_pmi.c).
 *
 * Classes: MPI_ERR_NO_MEM only when an allocation failed; MPI_ERR_OTHER for
 * a documented limit of libavrm (the message names it and the object);
 * MPI_ERR_INTERN for a bad argument (the glue passed it: a bug of ours).
 * The message names `what` was being made, through MPICH's messages
 * "**nomem %s", "**fail %s" and "**intern %s", each after its generic form
 * as MPIR_Err_create_code takes them (autogen.sh checks the pairs).
 *
 * Our file, added to the MPICH tree by patches/mpich/series. Thread safety:
 * none needed (no state). Cost O(1); a formatted message on error only.
 */
#ifndef MPIR_AVRM_ERRNO_H_INCLUDED
#define MPIR_AVRM_ERRNO_H_INCLUDED

#include "avrm/avrm_types.h"

#define MPIR_avrm_err(st, what) MPIR_avrm_err_at((st), (what), __func__, __LINE__)

static inline int MPIR_avrm_err_at(avrm_status_t st, const char *what, const char *fcname,
                                     int line)
{
    char msg[200];

    switch (st) {
        case AVRM_OK:
            return MPI_SUCCESS;
        case AVRM_ERR_NOMEM:
            return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fcname, line,
                                        MPI_ERR_NO_MEM, "**nomem", "**nomem %s", what);
        case AVRM_ERR_LIMIT:
            snprintf(msg, sizeof(msg), "%s: beyond a limit of the address layer (at most %u "
                     "processes in a process group, at most %u process groups)", what,
                     (unsigned) AVRM_MAX_WORLD, (unsigned) AVRM_MAX_PGS);
            return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fcname, line,
                                        MPI_ERR_OTHER, "**fail", "**fail %s", msg);
        default:
            snprintf(msg, sizeof(msg), "%s: libavrm refused an argument of the glue", what);
            return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fcname, line,
                                        MPI_ERR_INTERN, "**intern", "**intern %s", msg);
    }
}

#endif /* MPIR_AVRM_ERRNO_H_INCLUDED */
