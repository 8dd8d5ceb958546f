/*
 * pvar.h: read one MPI_T performance variable by name (header-only, shared
 * by the bench/real programs). pvar_read() returns 0 when the library has no
 * such variable (stock MPICH has none of ours), so callers print "n/a".
 */
#ifndef BENCH_REAL_PVAR_H
#define BENCH_REAL_PVAR_H
#include <mpi.h>
#include <stdio.h>

static MPI_T_pvar_session pvar_session = MPI_T_PVAR_SESSION_NULL;

/* After MPI_Init. Returns 0 when MPI_T is unusable. */
static int pvar_init(void)
{
    int prov;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) != MPI_SUCCESS)
        return 0;
    return MPI_T_pvar_session_create(&pvar_session) == MPI_SUCCESS;
}

static void pvar_fini(void)
{
    if (pvar_session != MPI_T_PVAR_SESSION_NULL)
        MPI_T_pvar_session_free(&pvar_session);
    MPI_T_finalize();
}

/* Value of pvar `name` of class `cls` bound to `obj` (NULL: no binding) in
 * *val; for an enumerated pvar also the item's name in item[ilen] (when
 * item != NULL). Integer types only. */
static int pvar_read(const char *name, int cls, void *obj, unsigned long long *val,
                     char *item, int ilen)
{
    int idx, verb, vcls, bind, ro, cont, atomic, count, nlen = 0, dlen = 0;
    MPI_Datatype dt;
    MPI_T_enum et;
    MPI_T_pvar_handle h;
    union { int i; unsigned u; unsigned long ul; unsigned long long ull; } v;
    int ok = 1;

    if (pvar_session == MPI_T_PVAR_SESSION_NULL ||
        MPI_T_pvar_get_index(name, cls, &idx) != MPI_SUCCESS ||
        MPI_T_pvar_get_info(idx, NULL, &nlen, &verb, &vcls, &dt, &et, NULL, &dlen,
                            &bind, &ro, &cont, &atomic) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(pvar_session, idx, obj, &h, &count) != MPI_SUCCESS)
        return 0;
    if (count != 1 || (!cont && MPI_T_pvar_start(pvar_session, h) != MPI_SUCCESS) ||
        MPI_T_pvar_read(pvar_session, h, &v) != MPI_SUCCESS)
        ok = 0;
    else if (dt == MPI_INT)
        *val = (unsigned long long) v.i;
    else if (dt == MPI_UNSIGNED)
        *val = v.u;
    else if (dt == MPI_UNSIGNED_LONG)
        *val = v.ul;
    else if (dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT)
        *val = v.ull;
    else
        ok = 0;
    MPI_T_pvar_handle_free(pvar_session, &h);
    if (ok && item) {
        int items = 0, elen = 0, ev;
        snprintf(item, ilen, "%llu", *val);
        if (et != MPI_T_ENUM_NULL && MPI_T_enum_get_info(et, &items, NULL, &elen) == MPI_SUCCESS)
            for (int k = 0; k < items; k++) {
                char s[64];
                int l = sizeof s;
                if (MPI_T_enum_get_item(et, k, &ev, s, &l) == MPI_SUCCESS &&
                    (unsigned long long) ev == *val) {
                    snprintf(item, ilen, "%s", s);
                    break;
                }
            }
    }
    return ok;
}
#endif
