#!/usr/bin/env python3
"""commslope.py - how the heap cost of one created object grows with P.

  commslope.py OUTDIR

Reads OUTDIR/heap.csv (bench/real/run-real.sh's heap step, commheap.c) and
writes, for every library and shape with at least two process counts:
  OUTDIR/slopes.csv   library,shape,slope_bytes_per_process,constant_bytes,
                      then the median bytes at each np ("np=N" columns)
                      (least-squares line through the medians: slope is
                      bytes per member of the world, 0 for an object whose
                      cost does not grow with P)
  OUTDIR/slopes.png   median bytes against np, one panel per shape, one line
                      per library (when matplotlib is there)
and prints slopes.csv.
"""
import csv, os, sys


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return b, my - b * mx


def main():
    out = sys.argv[1]
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
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("commslope: no matplotlib, no slopes.png", file=sys.stderr)
        return
    shapes = sorted({s for _, s in series})
    cols = min(4, len(shapes))
    rows_n = (len(shapes) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(4 * cols, 3.2 * rows_n), squeeze=False)
    for i, shape in enumerate(shapes):
        ax = axes[i // cols][i % cols]
        for (lib, s), pts in sorted(series.items()):
            if s != shape:
                continue
            xs = sorted(pts)
            ax.plot(xs, [pts[x] for x in xs], marker="o", label=lib)
        ax.set_title(shape)
        ax.set_xlabel("processes")
        ax.set_ylabel("heap bytes per object (median)")
        ax.set_xscale("log", base=2)
        ax.legend(fontsize=7)
    for j in range(len(shapes), rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "slopes.png"), dpi=90)


if __name__ == "__main__":
    main()
