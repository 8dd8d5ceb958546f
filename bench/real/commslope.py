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
                      per library (gnuplot)
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
    plot(out, series)


def plot(out, series):
    """slopes.png: median bytes against np, a panel per shape (gnuplot)"""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from realplots import COLOR, NAME, gp  # noqa: E402
    shapes = sorted({s for _, s in series})
    libs = [lib for lib in ("stock", "ours", "ompi") if any(l == lib for l, _ in series)]
    dat = os.path.join(out, "slopes.dat")
    with open(dat, "w") as f:
        for shape in shapes:
            for lib in libs:
                pts = series.get((lib, shape), {})
                for x in sorted(pts):
                    f.write("%d %g\n" % (x, pts[x]))
                f.write("\n\n")
    cols = min(4, len(shapes))
    rows = (len(shapes) + cols - 1) // cols
    script = ["set terminal pngcairo size %d,%d font ',9'" % (330 * cols, 280 * rows + 40),
              "set termoption noenhanced",
              "set output '%s'" % os.path.join(out, "slopes.png"),
              "set multiplot layout %d,%d title 'Heap bytes per created object against P "
              "(median over K, max over ranks; emulated nodes of 8)'" % (rows, cols),
              "set logscale x 2", "set grid", "set xlabel 'processes'", "set ylabel 'bytes'",
              "set key top left font ',8'"]
    for i, shape in enumerate(shapes):
        plots = ", ".join("'%s' index %d with linespoints lw 2 pt 7 lc rgb '%s' title '%s'" %
                          (dat, i * len(libs) + k, COLOR[lib], NAME[lib])
                          for k, lib in enumerate(libs))
        script += ["set title '%s'" % shape, "plot " + plots]
    script.append("unset multiplot")
    gp("\n".join(script) + "\n")

if __name__ == "__main__":
    main()
