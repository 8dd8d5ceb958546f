#!/usr/bin/env python3
"""wholeproc.py WORLD_CSV SLOPES_CSV FIAV_CSV OUT_CSV - a whole process's per-peer
memory at scale, eager vs on-demand addressing, per libfabric provider.

WORLD_CSV: bench-memory's "world" scenario (the simulator running the real
libavrm: our address layer after MPI_Init; the MODEL of MPICH 4.0.2's) at
several N. SLOPES_CSV: bench/real/run-ondemand.sh's measured growth per
added peer (mean heap over the processes), FIAV_CSV: libfabric's AV alone
(bench/real/fiavbytes.c, FI_AV_TABLE, distinct peers inserted one by one);
together the provider model:
  fiav[v]  bytes libfabric's AV keeps per inserted peer (FIAV_CSV, the
           largest count measured)
  conn[v]  bytes per contacted peer (connections, provider peer state) =
           ours-eager's mean-heap slope after the all-to-all (every peer
           inserted and contacted) minus fiav[v]. Not a difference of two
           slopes: over sockets the slope right after MPI_Init is noise of
           +-8 KB per peer (the heap of 11 MB differs by process), which such
           a difference carried into the model
On demand counts as engaged for a provider when ours-lazy's slope after
MPI_Init is below fiav[v] (it inserted nobody); else its row is "model only".
Applications: "stencil" contacts 4 neighbours plus ceil(log2 N) allreduce
partners (recursive doubling); "alltoall" contacts N - 1. A process keeps:
  ours lazy:  sim(ours, N) + (fiav + conn) * contacted
  ours eager: sim(ours, N) + fiav * N + conn * contacted
  stock:      sim(MODEL 4.0.2, N) + fiav * N + conn * contacted
Prints the table at the largest N (markdown) and writes every N to OUT_CSV.
A model: libfabric's and the connections' costs are linear fits of runs of
8-128 processes on one machine; sockets cannot run on demand (it misdelivers
for unknown senders), its lazy row is what it would cost."""
import csv
import math
import sys


def main(world_csv, slopes_csv, fiav_csv, out_csv):
    sim = {}
    for r in csv.DictReader(open(world_csv)):
        if r["scenario"] == "world":
            sim[(r["impl"], int(r["N"]))] = float(r["library"])
    sl = {(r["library"], r["provider"], r["point"]): float(r["heap_mean_per_peer"])
          for r in csv.DictReader(open(slopes_csv))}
    av = {}
    for r in csv.DictReader(open(fiav_csv)):
        p = "tcp;ofi_rxm" if r["provider"] == "tcp" else r["provider"]
        if p not in av or int(r["peers"]) > av[p][0]:
            av[p] = (int(r["peers"]), float(r["bytes_per_peer"]))
    provs = sorted({p for (_, p, _) in sl if p in av})
    model = {}
    for v in provs:
        fiav = av[v][1]
        # on demand engaged: MPI_Init inserted nobody, so its growth per
        # peer stays below what one insert costs (sockets stays eager)
        lazy = ("ours-lazy", v, "init") in sl and sl[("ours-lazy", v, "init")] < fiav
        conn = sl[("ours-eager", v, "alltoall")] - fiav
        model[v] = (fiav, max(conn, 0.0), lazy)
    ns = sorted({n for (_, n) in sim})
    rows = []
    for n in ns:
        for v in provs:
            fiav, conn, lazy = model[v]
            for app, touched in (("init", 0), ("stencil", 4 + math.ceil(math.log2(n))),
                                 ("alltoall", n - 1)):
                ours = sim[("ours-stored", n)]
                rows.append((n, v, app, "ours-lazy" if lazy else "ours-lazy(model only)",
                             ours + (fiav + conn) * touched))
                rows.append((n, v, app, "ours-eager", ours + fiav * n + conn * touched))
                rows.append((n, v, app, "stock-4.0.2",
                             sim[("MODEL-ch4-4.0.2", n)] + fiav * n + conn * touched))
    with open(out_csv, "w") as f:
        f.write("N,provider,application,library,bytes_per_process\n")
        for r in rows:
            f.write("%d,%s,%s,%s,%.0f\n" % r)
    big = ns[-1]
    print("Provider model (bytes): " + "; ".join(
        "%s: %.0f per inserted peer, %.0f per contacted peer%s" %
        (v, model[v][0], model[v][1], "" if model[v][2] else " (eager only)") for v in provs))
    print()
    print("| provider | application | ours on demand | ours eager | stock 4.0.2 |")
    print("|---|---|---|---|---|")
    for v in provs:
        for app in ("init", "stencil", "alltoall"):
            val = {lib.split("(")[0]: b for (n, p, a, lib, b) in rows
                   if n == big and p == v and a == app}
            print("| %s | %s | %.1f MB | %.1f MB | %.1f MB |" % (
                v, app, val["ours-lazy"] / 1e6, val["ours-eager"] / 1e6, val["stock-4.0.2"] / 1e6))
    print()
    print("N = %d processes per job (whole-process bytes per process)." % big)


if __name__ == "__main__":
    main(*sys.argv[1:5])
