/*
 * nicshim.so: test-only LD_PRELOAD that makes MPICH 4.0.2's NIC discovery
 * see several NICs on a host whose libfabric providers report none.
 *
 * Why it is needed: MPIDI_OFI_init_multi_nic (ofi_nic.c) counts an fi_info
 * as a NIC only when fi_info->nic is set and its bus is FI_BUS_PCI. The
 * providers this machine has (sockets, tcp, shm of Debian's libfabric)
 * leave fi_info->nic NULL for every interface, so MPIR_CVAR_CH4_OFI_MAX_NICS
 * always ends at one NIC here; a real multi-NIC node (verbs, cxi, efa, psm3)
 * reports one PCI NIC per device.
 *
 * What it does: wraps fi_getinfo. For each of the first NICSHIM_PCI entries
 * whose domain name is new and whose address is IPv4 (sockets/tcp list one
 * fi_info per interface address), it attaches a struct fid_nic that says
 * "PCI device NICSHIM_PCI[i], link up". NICSHIM_PCI is a comma-separated list
 * of PCI addresses DOMAIN:BUS:DEV.FUNC of devices that exist (hwloc must
 * find them: MPICH asserts on an unknown one), as `twonics-ns.sh --pci`
 * picks them. Every other entry is left as the provider made it.
 * NICSHIM_PLAIN_RANK=R: the process whose PMI_RANK is R gets no fake NIC
 * (one NIC found: a node with fewer NICs than the others).
 * With "lo" and "eth0" on one host, MPICH then opens one endpoint per NIC
 * per VNI and exchanges all of them (patch ch4-address-layer-on-avrm's arithmetic for nic > 0).
 *
 * Thread safety: fi_getinfo may be called from any thread; the fake NICs
 * are allocated per call and freed by fi_freeinfo (fi_close).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAKE 8

/* one allocation: the fid_nic and every attribute it points to */
struct fake_nic {
    struct fid_nic nic;
    struct fi_device_attr dev;
    struct fi_bus_attr bus;
    struct fi_link_attr link;
    char name[64];
};

/* fid is the first member of a struct fake_nic, or of libfabric's copy of
 * one (see fake_control): either way the block starts at fid; a copy's
 * attributes, allocated apart by libfabric, are left (a test's few bytes) */
static int fake_close(struct fid *fid)
{
    free(fid);
    return 0;
}

static struct fake_nic *fake_new(const char *name, const struct fi_pci_attr *pci);

/* FI_DUP. fid may be a copy libfabric made of a fake (its util providers
 * duplicate a core info's NIC into a struct fid_nic of their own and keep
 * the ops, so this is called on it): read it as any struct fid_nic, never
 * as a struct fake_nic (reading past libfabric's block gave MPICH garbage
 * PCI addresses, an assertion in MPIR_hwtopo, on tcp;ofi_rxm). */
static int fake_control(struct fid *fid, int command, void *arg)
{
    struct fid_nic *nic = (struct fid_nic *) fid;
    if (command != FI_DUP)
        return -FI_ENOSYS;
    if (!nic->bus_attr || nic->bus_attr->bus_type != FI_BUS_PCI)
        return -FI_EINVAL;
    const char *name = nic->device_attr && nic->device_attr->name ? nic->device_attr->name : "";
    struct fake_nic *copy = fake_new(name, &nic->bus_attr->attr.pci);
    if (!copy)
        return -FI_ENOMEM;
    *(struct fid_nic **) arg = &copy->nic;
    return 0;
}

static int fake_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
    return -FI_ENOSYS;
}

static int fake_ops_open(struct fid *fid, const char *name, uint64_t flags, void **ops,
                         void *context)
{
    return -FI_ENOSYS;
}

static struct fi_ops fake_ops = {
    .size = sizeof(struct fi_ops),
    .close = fake_close,
    .bind = fake_bind,
    .control = fake_control,
    .ops_open = fake_ops_open,
};

static struct fake_nic *fake_new(const char *name, const struct fi_pci_attr *pci)
{
    struct fake_nic *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    snprintf(n->name, sizeof n->name, "%s", name);
    n->nic.fid.fclass = FI_CLASS_NIC;
    n->nic.fid.ops = &fake_ops;
    n->nic.device_attr = &n->dev;
    n->nic.bus_attr = &n->bus;
    n->nic.link_attr = &n->link;
    n->dev.name = n->name;
    n->bus.bus_type = FI_BUS_PCI;
    n->bus.attr.pci = *pci;
    n->link.state = FI_LINK_UP;
    return n;
}

/* NICSHIM_PCI -> pci[]; returns how many (none in rank NICSHIM_PLAIN_RANK) */
static int parse_pci(struct fi_pci_attr *pci)
{
    const char *s = getenv("NICSHIM_PCI");
    const char *plain = getenv("NICSHIM_PLAIN_RANK"), *rank = getenv("PMI_RANK");
    int n = 0;
    if (plain && rank && !strcmp(plain, rank))
        return 0;
    while (s && *s && n < MAX_FAKE) {
        unsigned d, b, dv, f;
        if (sscanf(s, "%x:%x:%x.%x", &d, &b, &dv, &f) != 4) {
            fprintf(stderr, "nicshim: NICSHIM_PCI: bad PCI address at \"%s\"\n", s);
            exit(2);
        }
        pci[n++] = (struct fi_pci_attr) { .domain_id = d, .bus_id = b, .device_id = dv,
                                          .function_id = f };
        s = strchr(s, ',');
        s = s ? s + 1 : NULL;
    }
    return n;
}

int fi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
               const struct fi_info *hints, struct fi_info **info)
{
    static int (*real)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
                       struct fi_info **);
    if (!real)
        real = (int (*)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
                        struct fi_info **)) dlsym(RTLD_NEXT, "fi_getinfo");
    int ret = real(version, node, service, flags, hints, info);
    if (ret || !*info)
        return ret;
    struct fi_pci_attr pci[MAX_FAKE];
    int npci = parse_pci(pci), used = 0;
    const char *seen[MAX_FAKE];
    for (struct fi_info *p = *info; p && used < npci; p = p->next) {
        if (p->nic || p->addr_format != FI_SOCKADDR_IN || !p->domain_attr || !p->domain_attr->name)
            continue;
        int dup = 0;
        for (int i = 0; i < used; i++)
            dup |= !strcmp(seen[i], p->domain_attr->name);
        if (dup)
            continue;
        struct fake_nic *n = fake_new(p->domain_attr->name, &pci[used]);
        if (!n)
            return -FI_ENOMEM;
        p->nic = &n->nic;
        seen[used++] = p->domain_attr->name;
    }
    return 0;
}
