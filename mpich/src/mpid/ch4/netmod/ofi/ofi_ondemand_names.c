/*
 * ofi_ondemand_names.c - on-demand addressing: the endpoint names a process
 * publishes in PMI at MPI_Init and a peer reads at first contact (keys,
 * values of hex names, the count check). Rules: ofi_ondemand.h.
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"
#include "ofi_ondemand.h"

/* The on-demand state (ofi_ondemand.h), here in the file every other role
 * calls and that calls none of them, so the four files depend one way:
 * init on resolve, log and names; resolve on log and names; log on names. */
MPIDI_OFI_ondemand_t MPIDI_OFI_ondemand = { .block_nics = 1 };

static void hex_encode(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode exactly n bytes from a string of 2n hex digits; -1 otherwise. */
static int hex_decode(const char *in, unsigned char *out, size_t n)
{
    if (strlen(in) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(in[2 * i]), lo = hex_value(in[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char) (hi << 4 | lo);
    }
    return 0;
}

/* Other endpoints' names per PMI value after the root key's: as many as one
 * value (and put_names' buffer) holds */
int MPIDI_OFI_ondemand_names_per_value(void)
{
    int val_max = MPL_MIN(MPIR_pmi_max_val_size(), MPIDI_OFI_BC_VAL_MAX);
    int per = (val_max - 1) / (int) (2 * MPIDI_OFI_global.addrnamelen);
    return per < 1 ? 1 : per;
}

/* Publish n endpoint names of MPIDI_OFI_global.addrnamelen bytes each under
 * key: one PMI value, hex (MPI_Init's root name, and the other endpoints'
 * names in as few values as names_per_value allows). */
int MPIDI_OFI_ondemand_put_names(const char *key, const char *names, int n)
{
    int mpi_errno = MPI_SUCCESS;
    char val[MPIDI_OFI_BC_VAL_MAX];
    size_t len = MPIDI_OFI_global.addrnamelen;

    MPIR_ERR_CHKANDJUMP1(2 * len * n >= (size_t) MPIR_pmi_max_val_size(), mpi_errno,
                         MPI_ERR_OTHER, "**fail", "**fail %s",
                         "the provider's addresses do not fit one PMI value");
    for (int i = 0; i < n; i++)
        hex_encode((const unsigned char *) names + i * len, len, val + 2 * len * i);
    mpi_errno = MPIR_pmi_kvs_put(key, val);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* A PMI get after MPI_Init, under MPICH's PMI lock (MPI_Comm_spawn takes it
 * too: the client has one connection to the PMI server). Callers may hold
 * MPIDIU_THREAD_UTIL_MUTEX: UTIL -> PMI, and nothing under the PMI lock
 * takes UTIL. */
static int pmi_get(uint32_t lpid, const char *key, char *val, int size)
{
    MPID_THREAD_CS_ENTER(VCI, MPIR_THREAD_VCI_PMI_MUTEX);
    int mpi_errno = MPIR_pmi_kvs_get((int) lpid, key, val, size);
    MPID_THREAD_CS_EXIT(VCI, MPIR_THREAD_VCI_PMI_MUTEX);
    return mpi_errno;
}

/* PMI get of key (rank lpid's) and decode of n names of len bytes into
 * out. Errors name the peer, the key and the cause. */
int MPIDI_OFI_ondemand_get_names(uint32_t lpid, const char *key, unsigned char *out, int n)
{
    int mpi_errno = MPI_SUCCESS;
    char val[MPIDI_OFI_BC_VAL_MAX], why[200];
    size_t len = MPIDI_OFI_global.addrnamelen;

    val[0] = '\0';
    mpi_errno = pmi_get(lpid, key, val,
                        (int) MPL_MIN(sizeof(val), (size_t) MPIR_pmi_max_val_size()));
    if (mpi_errno) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI get of key %s failed "
                 "(the peer may have finalized, or never published it)", lpid, key);
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
        goto fn_fail;
    }
    if (hex_decode(val, out, n * len)) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI key %s holds %zu characters, "
                 "not the %zu hex digits of %d of this provider's addresses", lpid, key,
                 strlen(val), 2 * n * len, n);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Names 1..total-1 of rank lpid's endpoints (its other VNIs' or NICs')
 * into names + k * addrnamelen, from the values
 * MPIDI_OFI_addr_publish_endpoints put. A process of one endpoint reads
 * none: once every count key is in (MPIDI_OFI_ondemand.count_keys_fenced) it reads the peer's
 * instead, so a mismatch is an error at either end's first contact. */
int MPIDI_OFI_ondemand_get_other_names(uint32_t lpid, unsigned char *names, int total)
{
    int mpi_errno = MPI_SUCCESS;
    int per = MPIDI_OFI_ondemand_names_per_value(), vnis = total / MPIDI_OFI_ondemand.block_nics;
    char key[48], why[400], count[24] = "", mine[24];

    if (total < 2 && MPIDI_OFI_ondemand.count_keys_fenced) {
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_COUNT, lpid);
        snprintf(mine, sizeof(mine), MPIDI_OFI_BC_VAL_COUNT, vnis, MPIDI_OFI_ondemand.block_nics);
        mpi_errno = pmi_get(lpid, key, count, (int) sizeof(count));
        if (!mpi_errno && strcmp(count, mine) != 0)
            mpi_errno = MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, __func__,
                                             __LINE__, MPI_ERR_OTHER, "**fail", "**fail %s",
                                             "its PMI key of counts names more endpoints");
    }
    for (int first = 1, c = 1; !mpi_errno && first < total; first += per, c++) {
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_OTHERS, lpid, vnis, MPIDI_OFI_ondemand.block_nics, c);
        mpi_errno = MPIDI_OFI_ondemand_get_names(lpid, key, names + first * MPIDI_OFI_global.addrnamelen,
                              MPL_MIN(per, total - first));
    }
    if (mpi_errno) {
        /* a key missing for other counts, or a PMI failure: the cause
         * follows in the error stack */
        snprintf(why, sizeof(why), "on demand, rank %u has another count of endpoints%s%s%s "
                 "than this process (rank %d: %d VNIs x %d NICs), or its names could not be "
                 "read: give every process as many (MPIR_CVAR_CH4_NUM_VCIS, "
                 "MPIR_CVAR_CH4_OFI_MAX_NICS), or MPIR_CVAR_AVRM_ON_DEMAND_AV=0", lpid,
                 count[0] ? " (VNIs x NICs: " : "", count, count[0] ? ")" : "",
                 MPIR_Process.rank, vnis, MPIDI_OFI_ondemand.block_nics);
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    return mpi_errno;
}
