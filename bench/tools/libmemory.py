"""The whole library's O(P) state per process, simulated (`bench/report
library OUTDIR`, step library-memory).

Reads OUTDIR/memory.csv (bench-memory's output, see run-library.sh) and
writes, for ours and the MODELs of MPICH 4.0.2 and main:
  OUTDIR/library.csv  scenario,impl,N,address_layer,hier,node_map,library
                      (bytes per process: the address layer as the paper
                      counts it, the communicators' node hierarchies or
                      stock's intranode/internode tables, the process's node
                      map and shm local ranks, and their sum)
  OUTDIR/slopes.csv   scenario,impl,bytes_per_process,constant_bytes: least
                      squares of `library` against N
  OUTDIR/library.png  library bytes against N, a panel per scenario (gnuplot)
and prints the table at the largest N (markdown).
"""
import csv
import os
import sys

from report import STYLE, fit, panels_png

IMPLS = ["ours-stored", "ours-computed", "MODEL-ch4-4.0.2", "MODEL-mpich-main"]


def library(out):
    rows = [r for r in csv.DictReader(open(os.path.join(out, "memory.csv"))) if r["impl"] in IMPLS]
    if not rows:
        sys.exit("bench/report library: no rows of %s in %s/memory.csv" % (", ".join(IMPLS), out))
    scens = list(dict.fromkeys(r["scenario"] for r in rows))
    val = {}
    for r in rows:
        val[(r["scenario"], r["impl"], int(r["N"]))] = [float(r[k]) for k in
                                                         ("total", "hier", "node_map", "library")]
    ns = sorted({n for _, _, n in val})
    with open(os.path.join(out, "library.csv"), "w") as f:
        f.write("scenario,impl,N,address_layer,hier,node_map,library\n")
        for (s, i, n), v in sorted(val.items(), key=lambda kv: (scens.index(kv[0][0]),
                                                                  IMPLS.index(kv[0][1]), kv[0][2])):
            f.write("%s,%s,%d,%s\n" % (s, i, n, ",".join("%.0f" % x for x in v)))
    with open(os.path.join(out, "slopes.csv"), "w") as f:
        f.write("scenario,impl,bytes_per_process,constant_bytes\n")
        for s in scens:
            for i in IMPLS:
                xs = [n for n in ns if (s, i, n) in val]
                if len(xs) >= 2:
                    b, a = fit(xs, [val[(s, i, n)][3] for n in xs])
                    f.write("%s,%s,%.3f,%.0f\n" % (s, i, b, a))
    top = ns[-1]
    print("Bytes per process at N = %d (MB = 10^6 B):\n" % top)
    print("| scenario | library | address layer | node hierarchies | node map | whole library |")
    print("|---|---|---:|---:|---:|---:|")
    for s in scens:
        for i in IMPLS:
            v = val.get((s, i, top))
            if v:
                print("| %s | %s | %s |" % (s, i, " | ".join("%.2f MB" % (x / 1e6) for x in v)))
    print()
    sys.stdout.write(open(os.path.join(out, "slopes.csv")).read())
    plot(out, scens, val, ns)


def plot(out, scens, val, ns):
    def lines(s):
        return [(i, STYLE[i], [(n, max(val[(s, i, n)][3], 1.0)) for n in ns if (s, i, n) in val])
                for i in IMPLS]
    panels_png(os.path.join(out, "library.png"),
               "Whole-library O(P) bytes per process, simulated (address layer + node "
               "hierarchies + node map; 16 per node)", scens, lines, 2, (480, 340),
               ["set logscale xy 2", "set xlabel 'processes'", "set ylabel 'bytes'",
                "set format y '%.0s%c'", "set format x '%.0s%c'"])


COMMANDS = {"library": (library, 1)}
