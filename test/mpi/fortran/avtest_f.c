/*
 * avtest_f.c: the C checks of avtest.h and avtest_mode.h for communicators
 * made by Fortran programs (linked into every test of this directory).
 * Fortran calls them through bind(C) interfaces (avtest_f.f90) with the
 * communicator as its Fortran handle (MPI_Fint).
 */
#include "avtest_mode.h"

/* after MPI_Init from Fortran: world rank/size/group, the mode pvar */
void avtest_f_setup(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &av_wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &av_wsize);
    MPI_Comm_group(MPI_COMM_WORLD, &av_wgroup);
    av_check_placement();
    av_find_mode_pvar();
    av_need_mode_pvar();
}

/* expect[i] (n entries) = world rank of rank i; accepted: mode names, or
 * "" for no mode check (shapes of 1-2 ranks are always regular) */
void avtest_f_check_comm(MPI_Fint fcomm, const int *expect, int n, const char *what,
                         const char *accepted)
{
    MPI_Comm comm = MPI_Comm_f2c(fcomm);
    av_ctx = what;
    av_check_comm(comm, expect, n);
    if (accepted[0] && n > 2)
        av_check_mode(comm, what, accepted);
}

/* Fortran-side errors join the C ones; returns the world total */
int avtest_f_errors(int ferrs)
{
    int total = 0, mine = av_errs + ferrs;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Group_free(&av_wgroup);
    av_mode_done();
    return total;
}
