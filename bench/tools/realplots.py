"""The PNGs of a bench/real/run-real.sh run (gnuplot, through report.py's
helpers). Called by realreport.py with the numbers it
tabulates, so a plot never shows a figure that its table does not."""
import os, sys

from report import HISTOGRAM, gp

COLOR = {"stock": "#d95f02", "ours": "#1b9e77", "ompi": "#7570b3"}
NAME = {"stock": "stock MPICH 4.0.2", "ours": "ours", "ompi": "Open MPI 4.1.4"}


def _nan(x):
    return "NaN" if x is None else "%g" % x


def heap(outdir, panels, shapes, libs):
    """panels: [(np, {(lib, shape): median bytes})]; one panel per np, one
    bar per library in each shape's cluster"""
    dat = os.path.join(outdir, "heap.dat")
    vmax = 1
    with open(dat, "w") as f:
        for np_, v in panels:
            for s in shapes:
                vals = [v.get((lib, s)) for lib in libs]
                vmax = max([vmax] + [x for x in vals if x is not None])
                f.write('"%s" %s\n' % (s, " ".join(_nan(x) for x in vals)))
            f.write("\n\n")
    script = ["set terminal pngcairo size 1200,%d font ',10'" % (330 * len(panels) + 40),
              "set termoption noenhanced",
              "set output '%s'" % os.path.join(outdir, "heap.png"),
              "set multiplot layout %d,1 title 'Heap bytes per created communicator "
              "(median of K mallinfo2 deltas, max over ranks)'" % len(panels),
              HISTOGRAM % (1.15 * vmax), "set grid y", "set ylabel 'bytes'", "set bmargin 4",
              "set key outside right top vertical"]
    for i, (np_, _) in enumerate(panels):
        plots = ", ".join("'%s' index %d using %d%s title '%s' lc rgb '%s'" %
                          (dat, i, k + 2, ":xtic(1)" if k == 0 else "", NAME[lib], COLOR[lib])
                          for k, lib in enumerate(libs))
        script += ["set title '-n %s'" % np_, "plot " + plots]
    script.append("unset multiplot")
    gp("\n".join(script) + "\n")


def ratios(outdir, png, title, ylabel, groups, series):
    """groups: x labels; series: [(name, {group: (median, lo, hi)})]: bars
    with min-max error bars, a line at 1"""
    if not any(v for _, v in series):
        return
    dat = os.path.join(outdir, png.replace(".png", ".dat"))
    vmax = 1.2
    with open(dat, "w") as f:
        for g in groups:
            row = []
            for _, v in series:
                m = v.get(g)
                row += [_nan(x) for x in (m or (None, None, None))]
                if m:
                    vmax = max(vmax, m[2])
            f.write('"%s" %s\n' % (g, " ".join(row)))
    colors = ["#1b9e77", "#66c2a5", "#d95f02", "#fc8d62"]
    plots = ", ".join("'%s' using %d:%d:%d%s title '%s' lc rgb '%s'" %
                      (dat, 3 * k + 2, 3 * k + 3, 3 * k + 4, ":xtic(1)" if k == 0 else "", name,
                       colors[k % len(colors)]) for k, (name, _) in enumerate(series))
    gp("""set terminal pngcairo size 1100,550 font ',10' noenhanced
set output '%s'
set title '%s'
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set xtics rotate by -30 scale 0
set bmargin 7
set yrange [0:%g]
set ylabel '%s'
set grid y
set key outside top center horizontal
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'
plot %s
""" % (os.path.join(outdir, png), title, 1.1 * vmax, ylabel, plots))


def lines(outdir, png, title, xlabel, ylabel, series, logx=False, logy=False):
    """series: [(name, color, [(x, y)])]"""
    series = [s for s in series if s[2]]
    if not series:
        return
    dat = os.path.join(outdir, png.replace(".png", ".dat"))
    with open(dat, "w") as f:
        for _, _, pts in series:
            for x, y in pts:
                f.write("%g %s\n" % (x, _nan(y)))
            f.write("\n\n")
    plots = ", ".join("'%s' index %d using 1:2 with linespoints title '%s' lc rgb '%s' lw 2" %
                      (dat, i, name, color) for i, (name, color, _) in enumerate(series))
    gp("""set terminal pngcairo size 1000,550 font ',10' noenhanced
set output '%s'
set title '%s'
set xlabel '%s'
set ylabel '%s'
%s%sset grid
set key outside right top vertical
plot %s
""" % (os.path.join(outdir, png), title, xlabel, ylabel, "set logscale x 2\n" if logx else "",
       "set logscale y\n" if logy else "", plots))
