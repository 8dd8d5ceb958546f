/*
 * fiavbytes: what a libfabric provider's address vector costs per peer, the
 * part of MPI_Init's per-peer heap that is neither MPICH's nor ours.
 *
 *   fiavbytes [-n N,N,...] PROVIDER...
 *
 * For each provider usable as CH4/OFI asks (RDM endpoint, tagged messages,
 * RMA): opens a fabric, a domain, an FI_AV_TABLE address vector and an
 * endpoint bound to it and to a completion queue (as MPICH does), then
 * inserts N distinct peer
 * addresses one at a time (MPICH's address exchange inserts one per
 * fi_av_insert call) and measures the malloc heap (glibc mallinfo2:
 * uordblks + hblkhd) before and after. Addresses are the endpoint's own
 * name with the port changed (FI_SOCKADDR_IN/IN6) or a suffix changed
 * (FI_ADDR_STR): distinct peers that are never contacted.
 * Output, one line per provider and N:
 *   PROVIDER N heap_delta bytes_per_peer
 * and "PROVIDER skipped (reason)" when the provider is not usable or its
 * address format is not one of those. Exit 1 when no provider was measured.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_endpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}

/* address k (k >= 1) made from the endpoint's own name; 0 when the format
 * has no rule here */
static int make_addr(const struct fi_info *info, const char *own, size_t len, unsigned k,
                     char *out /* 256 bytes */)
{
    memcpy(out, own, len);
    switch (info->addr_format) {
    case FI_SOCKADDR_IN: {
        struct sockaddr_in *s = (struct sockaddr_in *) out;
        s->sin_port = htons((uint16_t) (1024 + k % 60000));
        s->sin_addr.s_addr = htonl(0x7f000001u + k / 60000);   /* 127.0.0.x */
        return 1;
    }
    case FI_SOCKADDR_IN6: {
        struct sockaddr_in6 *s = (struct sockaddr_in6 *) out;
        s->sin6_port = htons((uint16_t) (1024 + k % 60000));
        s->sin6_addr.s6_addr[15] ^= (uint8_t) (k / 60000);
        return 1;
    }
    case FI_ADDR_STR: {                 /* a string: the name with a suffix */
        size_t l = strnlen(out, len);
        if (l + 12 > 256)
            return 0;
        snprintf(out + l, 256 - l, "-%u", k);
        return 1;
    }
    default:
        return 0;
    }
}

static int measure(const char *prov, const unsigned *ns, int nn)
{
    struct fi_info *hints = fi_allocinfo(), *info = NULL;
    struct fid_fabric *fabric = NULL;
    struct fid_domain *domain = NULL;
    struct fid_av *av = NULL;
    struct fid_ep *ep = NULL;
    struct fid_cq *cq = NULL;
    int measured = 0;
    hints->caps = FI_TAGGED | FI_MSG | FI_RMA;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->av_type = FI_AV_TABLE;
    hints->fabric_attr->prov_name = strdup(prov);
    if (fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info) || !info) {
        printf("%s skipped (no RDM endpoint with tagged messages and RMA here)\n", prov);
        fi_freeinfo(hints);
        return 0;
    }
    for (int i = 0; i < nn; i++) {
        struct fi_av_attr attr = { .type = FI_AV_TABLE };
        struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED };
        char own[256], addr[256];
        size_t len = sizeof own;
        if (fi_fabric(info->fabric_attr, &fabric, NULL) || fi_domain(fabric, info, &domain, NULL) ||
            fi_av_open(domain, &attr, &av, NULL) || fi_cq_open(domain, &cq_attr, &cq, NULL) ||
            fi_endpoint(domain, info, &ep, NULL) || fi_ep_bind(ep, &av->fid, 0) ||
            fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV) || fi_enable(ep) ||
            fi_getname(&ep->fid, own, &len)) {
            printf("%s skipped (cannot open a fabric, domain, AV and endpoint)\n", prov);
            break;
        }
        if (!make_addr(info, own, len, 1, addr)) {
            printf("%s skipped (address format %u has no rule here)\n", prov, info->addr_format);
            break;
        }
        long long h0 = heap_now();
        unsigned ok = 0;
        for (unsigned k = 1; k <= ns[i]; k++) {
            fi_addr_t fa;
            make_addr(info, own, len, k, addr);
            ok += fi_av_insert(av, addr, 1, &fa, 0, NULL) == 1;
        }
        long long dh = heap_now() - h0;
        if (ok != ns[i]) {
            printf("%s skipped (%u of %u inserts succeeded)\n", prov, ok, ns[i]);
            break;
        }
        printf("%s %u %lld %.1f\n", prov, ns[i], dh, (double) dh / ns[i]);
        fflush(stdout);
        measured = 1;
        fi_close(&ep->fid), ep = NULL;
        fi_close(&cq->fid), cq = NULL;
        fi_close(&av->fid), av = NULL;
        fi_close(&domain->fid), domain = NULL;
        fi_close(&fabric->fid), fabric = NULL;
    }
    if (ep) fi_close(&ep->fid);
    if (cq) fi_close(&cq->fid);
    if (av) fi_close(&av->fid);
    if (domain) fi_close(&domain->fid);
    if (fabric) fi_close(&fabric->fid);
    fi_freeinfo(info);
    fi_freeinfo(hints);
    return measured;
}

int main(int argc, char **argv)
{
    unsigned ns[16] = { 1000, 10000, 100000 };
    int nn = 3, first = 1, any = 0;
    if (argc > 2 && !strcmp(argv[1], "-n")) {
        nn = 0;
        for (char *t = strtok(argv[2], ","); t && nn < 16; t = strtok(NULL, ","))
            ns[nn++] = (unsigned) strtoul(t, NULL, 0);
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-n N,N,...] PROVIDER...\n", argv[0]);
        return 2;
    }
    for (int a = first; a < argc; a++)
        any |= measure(argv[a], ns, nn);
    return any ? 0 : 1;
}
