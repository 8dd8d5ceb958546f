"""ondemandplot.py CSV SLOPES_CSV PNG - bench/real/run-ondemand.sh's figures.

From ondemand.csv (one line per library, provider, process count and point):
SLOPES_CSV gets, per (library, provider, point), the heap and RSS growth per
added peer (least-squares slope of the per-process maximum over the process
counts) and the constant (intercept), the MPI_Init time slope (us per added
peer) and the median first/later message latency. PNG: heap per process
(max) against P, one panel per (provider, point), one line per library
(gnuplot)."""
import csv
import os
import statistics
import subprocess
import sys
from collections import defaultdict


def fit(xs, ys):
    n = len(xs)
    if n < 2:
        return float("nan"), ys[0] if ys else float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")
    return b, my - b * mx


def main(src, slopes_out, png):
    rows = list(csv.DictReader(open(src)))
    groups = defaultdict(list)
    for r in rows:
        groups[(r["library"], r["provider"], r["point"])].append(r)
    with open(slopes_out, "w") as f:
        f.write("library,provider,point,nps,heap_per_peer,heap_const,heap_mean_per_peer,"
                "rss_per_peer,rss_const,init_us_per_peer,init_s_max_np,first_us_median,"
                "later_us_median\n")
        for (lib, prov, point), rs in sorted(groups.items()):
            rs.sort(key=lambda r: int(r["np"]))
            xs = [int(r["np"]) for r in rs]
            hb, hc = fit(xs, [float(r["heap_max"]) for r in rs])
            mb, _ = fit(xs, [float(r["heap_mean"]) for r in rs])
            rb, rc = fit(xs, [float(r["rss_max"]) for r in rs])
            ib, _ = fit(xs, [float(r["init_s"]) * 1e6 for r in rs])
            f.write("%s,%s,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.3f,%.1f,%.1f\n" % (
                lib, prov, point, " ".join(map(str, xs)), hb, hc, mb, rb, rc, ib,
                float(rs[-1]["init_s"]), statistics.median(float(r["first_us"]) for r in rs),
                statistics.median(float(r["later_us"]) for r in rs)))
    panels = sorted({(r["provider"], r["point"]) for r in rows},
                    key=lambda p: (p[0], ["init", "stencil", "alltoall"].index(p[1])))
    libs = sorted({r["library"] for r in rows})
    dat = os.path.splitext(png)[0] + ".dat"
    blocks = {}     # (provider, point, library) -> gnuplot index (only those with data)
    with open(dat, "w") as f:
        for prov, point in panels:
            for lib in libs:
                rs = sorted((r for r in rows if (r["library"], r["provider"], r["point"])
                             == (lib, prov, point)), key=lambda r: int(r["np"]))
                if not rs:
                    continue
                blocks[(prov, point, lib)] = len(blocks)
                f.write("# %s %s %s\n" % (prov, point, lib))
                for r in rs:
                    f.write("%s %s\n" % (r["np"], float(r["heap_max"]) / 1024))
                f.write("\n\n")
    cols = 3
    nrows = (len(panels) + cols - 1) // cols
    script = ["set terminal pngcairo size 1500,%d font ',10'" % (380 * nrows + 40),
              "set output '%s'" % png, "set termoption noenhanced",
              "set multiplot layout %d,%d title 'heap in use per process (max over ranks, KiB) "
              "against processes: bench/real/run-ondemand.sh'" % (nrows, cols),
              "set key top left", "set grid", "set xlabel 'processes'", "set ylabel 'KiB'"]
    for prov, point in panels:
        plots = ["'%s' index %d using 1:2 with linespoints title '%s'" % (dat, blocks[(prov, point, lib)], lib)
                 for lib in libs if (prov, point, lib) in blocks]
        script.append("set title '%s, after %s'" % (prov, "MPI_Init" if point == "init" else point))
        script.append("plot " + ", ".join(plots))
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
