#!/usr/bin/env python3
"""insnsplot.py CELLS_CSV OUT_PNG - libmpi instructions per call, ours minus
stock, per map mode: one panel per operation, one bar cluster per mode, one
bar per AV kind (the cells.csv of test/insns/run.sh; gnuplot). Below zero:
ours is cheaper."""
import csv
import os
import subprocess
import sys

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["ours_minus_stock"]]
png = sys.argv[2]
ops = sorted({r["op"] for r in rows})
kinds = sorted({r["kind"] for r in rows})
dat = os.path.splitext(png)[0] + ".dat"
with open(dat, "w") as f:
    for op in ops:
        modes = sorted({r["mode"] for r in rows if r["op"] == op})
        f.write("# %s: mode %s\n" % (op, " ".join(kinds)))
        for m in modes:
            d = {r["kind"]: r["ours_minus_stock"] for r in rows if r["op"] == op and r["mode"] == m}
            f.write("%s %s\n" % (m, " ".join(d.get(k, "NaN") for k in kinds)))
        f.write("\n\n")
script = ["set terminal pngcairo size %d,420 font ',10'" % (620 * len(ops)),
          "set output '%s'" % png, "set termoption noenhanced",
          "set multiplot layout 1,%d title 'libmpi instructions per 8-byte call, ours - stock 4.0.2 "
          "(below 0: ours is cheaper)'" % len(ops),
          "set style data histograms", "set style histogram clustered gap 1",
          "set style fill solid 0.8 border -1", "set grid ytics",
          "set ylabel 'instructions'", "set xzeroaxis lt -1", "set key outside bottom center horizontal"]
for i, op in enumerate(ops):
    script.append("set title 'MPI_%s'" % op.capitalize())
    plots = ["'%s' index %d using %d:xtic(1) title '%s'" % (dat, i, j + 2, k) for j, k in enumerate(kinds)]
    script.append("plot " + ", ".join(plots))
script.append("unset multiplot")
subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True)
