/*
 * fiprov: is a libfabric provider usable here for what CH4/OFI asks of it
 * (an RDM endpoint with tagged messages and RMA)?
 *
 *   fiprov NAME...      prints "NAME yes" or "NAME no (reason)" per NAME
 *
 * Exit status 0 when the first NAME is usable. run-real.sh uses it to pick
 * the fastest provider (shm, else sockets, else tcp) before an MPI run
 * confirms it.
 */
#include <rdma/fabric.h>
#include <stdio.h>
#include <string.h>

static int usable(const char *name)
{
    struct fi_info *hints = fi_allocinfo(), *info = NULL;
    if (!hints)
        return -FI_ENOMEM;
    hints->caps = FI_TAGGED | FI_MSG | FI_RMA;
    hints->ep_attr->type = FI_EP_RDM;
    hints->fabric_attr->prov_name = strdup(name);
    int ret = fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info);
    if (info)
        fi_freeinfo(info);
    fi_freeinfo(hints);
    return ret;
}

int main(int argc, char **argv)
{
    int first = 1;
    for (int i = 1; i < argc; i++) {
        int ret = usable(argv[i]);
        if (ret)
            printf("%s no (%s)\n", argv[i], fi_strerror(-ret));
        else
            printf("%s yes\n", argv[i]);
        if (i == 1)
            first = ret;
    }
    return first != 0;
}
