/*
 * avtest_mode.h: the rank-map mode of a communicator, read from the library
 * through the MPI_T pvar avrm_comm_map_mode (class STATE, bound to a
 * communicator, enumeration of mode names). Header only, for mapmode.c,
 * hier.c (av_pvar_index) and the Fortran tests' C helper. av_find_mode_pvar() once after MPI_Init;
 * av_check_mode() then fails a communicator whose mode is not accepted (it
 * checks nothing when the library has no such pvar: the caller decides
 * whether that is an error, see av_need_mode_pvar); av_mode_done() before
 * MPI_Finalize.
 */
#ifndef AVTEST_MODE_H_INCLUDED
#define AVTEST_MODE_H_INCLUDED

#include "avtest.h"

static MPI_T_pvar_session av_mode_sess;
static int av_mode_idx = -1;

/* index of the pvar `want` bound to `want_bind`, or -1 (after
 * av_find_mode_pvar, which initializes MPI_T) */
static int av_pvar_index(const char *want, int want_bind)
{
    int n = 0, found = -1;
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[512];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro,
                                &cont, &atomic) == MPI_SUCCESS &&
            !strcmp(name, want) && bind == want_bind)
            found = i;
    }
    return found;
}

static void av_find_mode_pvar(void)
{
    int prov;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    MPI_T_pvar_session_create(&av_mode_sess);
    av_mode_idx = av_pvar_index("avrm_comm_map_mode", MPI_T_BIND_MPI_COMM);
}

/* mode name of comm's map, or "" */
static void av_map_mode(MPI_Comm comm, char *out, int len)
{
    MPI_T_pvar_handle h;
    int count, val = -1, nitems = 0, nl;
    MPI_T_enum et;
    char name[128], desc[256], ename[64];
    int dl = sizeof desc, el = sizeof ename, verb, cls, bind, ro, cont, atomic;
    MPI_Datatype dt;

    out[0] = '\0';
    nl = sizeof name;
    if (MPI_T_pvar_get_info(av_mode_idx, name, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro,
                            &cont, &atomic) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(av_mode_sess, av_mode_idx, &comm, &h, &count) != MPI_SUCCESS)
        return;
    if (MPI_T_pvar_read(av_mode_sess, h, &val) == MPI_SUCCESS && et != MPI_T_ENUM_NULL) {
        MPI_T_enum_get_info(et, &nitems, ename, &el);
        for (int k = 0; k < nitems; k++) {
            int v, l = len;
            if (MPI_T_enum_get_item(et, k, &v, out, &l) == MPI_SUCCESS && v == val)
                break;
            out[0] = '\0';
        }
    }
    MPI_T_pvar_handle_free(av_mode_sess, &h);
}

/* accepted: space-separated mode names */
static void av_check_mode(MPI_Comm comm, const char *what, const char *accepted)
{
    char mode[64], pad[80];
    av_ctx = what;
    if (av_mode_idx < 0)
        return;
    av_map_mode(comm, mode, sizeof mode);
    snprintf(pad, sizeof pad, " %s ", mode);
    char acc[128];
    snprintf(acc, sizeof acc, " %s ", accepted);
    if (!mode[0] || !strstr(acc, pad))
        av_err("map mode '%s', expected one of: %s", mode, accepted);
}

/* The value of the process-wide (unbound) unsigned long long pvar `name`,
 * in *v; 0 when the library has no such pvar (after av_find_mode_pvar). */
static int av_read_ull_pvar(const char *name, unsigned long long *v)
{
    int idx = av_pvar_index(name, MPI_T_BIND_NO_OBJECT), count;
    MPI_T_pvar_handle h;
    *v = 0;
    if (idx < 0 || MPI_T_pvar_handle_alloc(av_mode_sess, idx, NULL, &h, &count) != MPI_SUCCESS)
        return 0;
    MPI_T_pvar_read(av_mode_sess, h, v);
    MPI_T_pvar_handle_free(av_mode_sess, &h);
    return 1;
}

/* After every peer was contacted: each world peer resolved exactly once
 * (AVTEST_EXPECT_ON_DEMAND=1: the pvar avrm_peers_resolved is n - 1, n the
 * world's size), or none (=0: addresses exchanged at MPI_Init); unset: not
 * checked. The pvar must exist either way. */
static void av_check_all_resolved_once(void)
{
    unsigned long long got;
    const char *expect = getenv("AVTEST_EXPECT_ON_DEMAND"), *ctx = av_ctx;
    av_ctx = "peers resolved";
    if (!av_read_ull_pvar("avrm_peers_resolved", &got))
        av_err("no MPI_T pvar avrm_peers_resolved");
    if (expect && !strcmp(expect, "1") && got != (unsigned long long) av_wsize - 1)
        av_err("resolved %llu peers, expected %d (each once)", got, av_wsize - 1);
    if (expect && !strcmp(expect, "0") && got != 0)
        av_err("resolved %llu peers with addresses exchanged at MPI_Init", got);
    av_ctx = ctx;
}

/* Index of the pvar avrm_comm_hier, or -1 (looked up once, after
 * av_find_mode_pvar). */
static int av_comm_hier_index(void)
{
    static int idx = -2;
    if (idx == -2)
        idx = av_pvar_index("avrm_comm_hier", MPI_T_BIND_MPI_COMM);
    return idx;
}

/* The pvar avrm_comm_hier of comm (form, nodes, this node, its size, bytes
 * out of line, then every rank's intranode and internode rank): a malloc'd
 * array of *count ints, or NULL (*count 0) when the library has no such
 * pvar or gives no handle for comm. */
static int *av_comm_hier(MPI_Comm comm, int *count)
{
    MPI_T_pvar_handle h;
    int idx = av_comm_hier_index();
    *count = 0;
    if (idx < 0 || MPI_T_pvar_handle_alloc(av_mode_sess, idx, &comm, &h, count) != MPI_SUCCESS) {
        *count = 0;
        return NULL;
    }
    int *v = malloc(sizeof(int) * (size_t) (*count > 0 ? *count : 1));
    MPI_T_pvar_read(av_mode_sess, h, v);
    MPI_T_pvar_handle_free(av_mode_sess, &h);
    return v;
}

/* Before MPI_Finalize: the session and MPI_T itself (MPI_T_init_thread's
 * blocks would otherwise be left allocated: make check-debug lists them). */
static void av_mode_done(void)
{
    MPI_T_pvar_session_free(&av_mode_sess);
    MPI_T_finalize();
}

/* The pvar must exist unless AVTEST_STOCK=1 says the library is stock MPICH
 * (then only the traffic is checked). */
static void av_need_mode_pvar(void)
{
    const char *stock = getenv("AVTEST_STOCK");
    if (av_mode_idx < 0 && !(stock && !strcmp(stock, "1"))) {
        av_ctx = "setup";
        av_err("no MPI_T pvar avrm_comm_map_mode (set AVTEST_STOCK=1 on stock MPICH)");
    }
}

#endif /* AVTEST_MODE_H_INCLUDED */
