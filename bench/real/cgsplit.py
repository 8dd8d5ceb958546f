#!/usr/bin/env python3
"""cgsplit.py - instructions per MPI call, libmpi vs libfabric, from callgrind.

  cgsplit.py LIBRARY PROGRAM MODES_CSV OUT_CSV PROFILE...

Each PROFILE is one dump of opcost's measurer (CALLGRIND_DUMP_STATS_AT("OP-MODE"),
collection on only around the calls); MODES_CSV (opcost's) gives per region
the communicator size, its map mode and the number of collected calls N.
From the profile's call edges (inclusive costs):
  total     = edges from PROGRAM into MPI_Isend / MPI_Put (PMPI_ too)
  libfabric = edges from libmpi into libfabric (the provider's own cost, with
              whatever it calls in libc)
  libmpi    = total - libfabric (MPICH, with what MPICH calls in libc)
each divided by N (callgrind's own call counts are inflated by the toggles).
Threads other than the caller's (the sockets provider's progress thread)
have no libmpi -> libfabric edges and do not count. Appends to OUT_CSV:
library,op,mode,map_mode,comm_size,calls,ir_total,ir_libfabric,ir_libmpi
"""
import csv, os, sys
from collections import defaultdict


def kind(obj, prog):
    base = os.path.basename(obj)
    if os.path.realpath(obj) == prog:
        return "prog"
    if base.startswith("libmpi.so"):
        return "mpi"
    if base.startswith("libfabric.so"):
        return "fabric"
    return "other"


def parse(path, prog):
    """region name, {(caller kind, callee kind, callee name): inclusive Ir}"""
    region, npos = None, 1
    edges = defaultdict(int)
    ob = cob = cfn = None
    call = False
    for line in open(path, errors="replace"):
        if call:                # the cost line of a call: inclusive cost
            f = line.split()
            edges[(kind(ob, prog), kind(cob or ob, prog), cfn)] += int(f[npos]) if len(f) > npos else 0
            call, cob = False, None
        elif line.startswith("desc: Trigger: Client Request: "):
            region = line.split("Client Request: ", 1)[1].strip()
        elif line.startswith("positions:"):
            npos = len(line.split()) - 1
        elif line.startswith("ob="):
            ob = line[3:].strip()
        elif line.startswith("cob="):
            cob = line[4:].strip()
        elif line.startswith("cfn="):
            cfn = line[4:].strip()
        elif line.startswith("fn="):
            cob = None
        elif line.startswith("calls="):
            call = True
    return region, edges


def main():
    lib, prog, modes_csv, out_csv = sys.argv[1:5]
    prog = os.path.realpath(prog)
    modes = {}
    if os.path.exists(modes_csv):
        for r in csv.reader(open(modes_csv)):
            modes[r[0]] = r[1:4]
    w = csv.writer(open(out_csv, "a"), lineterminator="\n")
    for path in sys.argv[5:]:
        region, e = parse(path, prog)
        if not region or region not in modes:
            continue
        op, mode = region.split("-", 1)
        size, mmode, n = modes[region][0], modes[region][1], int(modes[region][2])
        fns = {"isend": ("MPI_Isend", "PMPI_Isend"), "put": ("MPI_Put", "PMPI_Put")}[op]
        total = sum(v for (a, b, f), v in e.items() if a == "prog" and b == "mpi" and f in fns)
        fab = sum(v for (a, b, f), v in e.items() if a == "mpi" and b == "fabric")
        if total == 0:
            print("cgsplit: %s (%s): no calls into libmpi" % (path, region), file=sys.stderr)
            sys.exit(1)
        w.writerow([lib, op, mode, mmode, size, n, "%.1f" % (total / n), "%.1f" % (fab / n),
                    "%.1f" % ((total - fab) / n)])


if __name__ == "__main__":
    main()
