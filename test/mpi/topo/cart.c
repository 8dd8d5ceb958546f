/* MPI_Dims_create + MPI_Cart_create (2-D and 3-D, periodic and not,
 * reorder = 0) and MPI_Cart_sub: coordinates, MPI_Cart_rank, neighbour
 * exchange along MPI_Cart_shift with world ranks in the payload, and the
 * sub-grids' rank order.  Also cart_create on a reversed parent and with
 * fewer processes than the parent (surplus ranks get MPI_COMM_NULL). */
#include "avtest.h"

/* world rank of the process at coordinates, for a row-major grid laid over
 * parent ranks pw[] */
static int at(const int *dims, int nd, const int *coord, const int *pw)
{
    int r = 0;
    for (int d = 0; d < nd; d++)
        r = r * dims[d] + coord[d];
    return pw[r];
}

static void check_cart(MPI_Comm parent, const int *pw, int pn, int nd, int periodic, int shrink)
{
    int dims[3] = {0, 0, 0}, periods[3], coords[3], n = pn - shrink;
    if (n < 1)
        return;
    MPI_Dims_create(n, nd, dims);
    int prod = 1;
    for (int d = 0; d < nd; d++) {
        prod *= dims[d];
        periods[d] = periodic;
        if (d > 0 && dims[d] > dims[d - 1])
            av_err("dims_create not non-increasing");
    }
    if (prod != n)
        av_err("dims_create product %d != %d", prod, n);
    MPI_Comm cart;
    MPI_Cart_create(parent, nd, dims, periods, 0, &cart);
    int pr;
    MPI_Comm_rank(parent, &pr);
    if (pr >= n) {
        if (cart != MPI_COMM_NULL)
            av_err("surplus rank got a cartesian communicator");
        return;
    }
    av_check_comm(cart, pw, n);
    int r;
    MPI_Comm_rank(cart, &r);
    MPI_Cart_coords(cart, r, nd, coords);
    int back;
    MPI_Cart_rank(cart, coords, &back);
    if (back != r)
        av_err("cart_rank(coords(%d)) = %d", r, back);
    /* neighbours along each dimension */
    for (int d = 0; d < nd; d++) {
        int src, dst;
        MPI_Cart_shift(cart, d, 1, &src, &dst);
        int c2[3];
        memcpy(c2, coords, sizeof c2);
        c2[d] = coords[d] + 1;
        int want_dst = -1, want_src = -1;
        if (c2[d] < dims[d] || periodic) {
            c2[d] %= dims[d];
            want_dst = at(dims, nd, c2, pw);
        }
        c2[d] = coords[d] - 1;
        if (c2[d] >= 0 || periodic) {
            c2[d] = (c2[d] + dims[d]) % dims[d];
            want_src = at(dims, nd, c2, pw);
        }
        int sendv[2] = {av_wrank, r}, recvv[2] = {-1, -1};
        MPI_Sendrecv(sendv, 2, MPI_INT, dst, d, recvv, 2, MPI_INT, src, d, cart, MPI_STATUS_IGNORE);
        if ((dst == MPI_PROC_NULL) != (want_dst < 0) || (src == MPI_PROC_NULL) != (want_src < 0))
            av_err("shift dim %d: neighbours %d/%d", d, src, dst);
        else if (src != MPI_PROC_NULL && (recvv[0] != want_src || recvv[1] != src))
            av_err("shift dim %d: got world %d rank %d from %d, expected world %d", d, recvv[0],
                   recvv[1], src, want_src);
    }
    /* every sub-grid: keep one dimension, then all but one */
    for (int mask = 1; mask < (1 << nd) - 1; mask++) {
        int remain[3], sub_expect[64], sn = 0;
        for (int d = 0; d < nd; d++)
            remain[d] = (mask >> d) & 1;
        /* members: same coords in dropped dims, in row-major order of kept */
        for (int q = 0; q < n; q++) {
            int qc[3], same = 1;
            MPI_Cart_coords(cart, q, nd, qc);
            for (int d = 0; d < nd; d++)
                if (!remain[d] && qc[d] != coords[d])
                    same = 0;
            if (same && sn < 64)
                sub_expect[sn++] = pw[q];
        }
        MPI_Comm sub;
        MPI_Cart_sub(cart, remain, &sub);
        av_check_comm(sub, sub_expect, sn);
        int sdims[3], sper[3], scoords[3], snd;
        MPI_Cartdim_get(sub, &snd);
        MPI_Cart_get(sub, snd, sdims, sper, scoords);
        for (int d = 0, k = 0; d < nd; d++)
            if (remain[d]) {
                if (sdims[k] != dims[d] || scoords[k] != coords[d])
                    av_err("cart_sub mask %d: dim %d is %d coord %d", mask, k, sdims[k], scoords[k]);
                k++;
            }
        if (mask == 1)
            av_check_rma(sub, sub_expect, sn);
        MPI_Comm_free(&sub);
    }
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int W = av_wsize, *pw = malloc(sizeof(int) * (size_t) W);
    char what[64];
    av_ctx = what;
    for (int i = 0; i < W; i++)
        pw[i] = i;
    for (int nd = 2; nd <= 3; nd++)
        for (int per = 0; per <= 1; per++) {
            snprintf(what, sizeof what, "cart %dd periodic %d", nd, per);
            check_cart(MPI_COMM_WORLD, pw, W, nd, per, 0);
        }
    snprintf(what, sizeof what, "cart 2d shrink 1");
    check_cart(MPI_COMM_WORLD, pw, W, 2, 1, 1);

    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -av_wrank, &rev);
    for (int i = 0; i < W; i++)
        pw[i] = W - 1 - i;
    snprintf(what, sizeof what, "cart 2d on reversed parent");
    check_cart(rev, pw, W, 2, 1, 0);
    snprintf(what, sizeof what, "cart 3d on reversed parent shrink 2");
    check_cart(rev, pw, W, 3, 0, 2);
    MPI_Comm_free(&rev);
    free(pw);
    return av_finalize();
}
