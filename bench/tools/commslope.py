"""How the heap cost of one created object grows with P (`bench/report
comm-slopes OUTDIR`: steps comm-memory and vci-init).

Reads OUTDIR/heap.csv (bench/real/run-real.sh's heap step, commheap.c) and
writes, for every library and shape with at least two process counts:
  OUTDIR/slopes.csv   library,shape,slope_bytes_per_process,constant_bytes,
                      then the median bytes at each np ("np=N" columns)
                      (least-squares line through the medians: slope is
                      bytes per member of the world, 0 for an object whose
                      cost does not grow with P)
  OUTDIR/slopes.png   median bytes against np, one panel per shape, one line
                      per library (gnuplot)
and prints slopes.csv.
"""
import csv
import os
import sys

from report import fit, panels_png


def comm_slopes(out):
    rows = list(csv.DictReader(open(os.path.join(out, "heap.csv"))))
    series = {}
    for r in rows:
        series.setdefault((r["library"], r["shape"]), {})[int(r["np"])] = float(r["median_bytes"])
    nps = sorted({int(r["np"]) for r in rows})
    with open(os.path.join(out, "slopes.csv"), "w") as f:
        f.write("library,shape,slope_bytes_per_process,constant_bytes," +
                ",".join("np=%d" % n for n in nps) + "\n")
        for (lib, shape), pts in sorted(series.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if len(pts) < 2:
                continue
            xs = sorted(pts)
            b, a = fit(xs, [pts[x] for x in xs])
            f.write("%s,%s,%.2f,%.0f,%s\n" % (lib, shape, b, a,
                    ",".join("%.0f" % pts[n] if n in pts else "" for n in nps)))
    sys.stdout.write(open(os.path.join(out, "slopes.csv")).read())
    plot(out, series)


def plot(out, series):
    """slopes.png: median bytes against np, a panel per shape (gnuplot)"""
    from realplots import COLOR, NAME
    shapes = sorted({s for _, s in series})
    libs = [lib for lib in ("stock", "ours", "ompi") if any(l == lib for l, _ in series)]

    def lines(shape):
        return [(NAME[lib], "lw 2 pt 7 lc rgb '%s'" % COLOR[lib],
                 sorted(series.get((lib, shape), {}).items())) for lib in libs]
    panels_png(os.path.join(out, "slopes.png"), "Heap bytes per created object against P "
               "(median over K, max over ranks; emulated nodes of 8)", shapes, lines, 4,
               (330, 280), ["set logscale x 2", "set xlabel 'processes'", "set ylabel 'bytes'"])


COMMANDS = {"comm-slopes": (comm_slopes, 1)}
