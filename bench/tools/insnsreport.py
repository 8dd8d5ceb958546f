"""libmpi instructions per 8-byte call, ours vs stock (`bench/report insns
OUTDIR WHEN`, step insns): from OUTDIR/cells.csv (test/insns/run.sh's cells,
stock measured in the same run) writes OUTDIR/insns.png (ours - stock per
map mode: a panel per operation, a bar per AV kind; below zero ours is
cheaper) and OUTDIR/SUMMARY.md (the table). WHEN: the commit and date of
the run, as run-insns.sh saw them.
"""
import csv
import os

from report import gp


def plot(rows, png):
    rows = [r for r in rows if r["ours_minus_stock"]]
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
    gp("\n".join(script) + "\n")


def insns(out, when):
    rows = list(csv.DictReader(open(os.path.join(out, "cells.csv"))))
    plot(rows, os.path.join(out, "insns.png"))
    lines = [
        "# libmpi instructions per 8-byte call over OFI, ours vs stock 4.0.2",
        "",
        "Command: `bench/run insns` (bench/real/run-insns.sh) at commit %s, callgrind on the last world" % when,
        "rank (bench/real/opcost.c), stock measured in the same run; the computed kind is compared with",
        "stock's stored run. The test behind it: `test/insns/run.sh` against",
        "`test/insns/baseline-default.csv`. Modes are opcost's communicators (bench/real/opcost.c),",
        "in a world of 6 with 3 spawned processes: direct (a world dup), offset (upper half), stride",
        "(odd ranks), lut (a random permutation of 6: ours ilut), mlut (the world merged with the",
        "spawned processes: ours join), mlut-rand (that merge split in random order: ours mlut32);",
        "in a world of 18 with 2 spawned: lut16 (a random permutation of 18: ours lut16), mseg (the",
        "merge in three runs: ours mlut32, as a communicator never takes MSEG). \"ours map\" is the",
        "map our library chose. Put direct is",
        "on a window over the world (both libraries' shortcut for it).",
        "",
        "| kind | op | mode | ours map | ours | stock | ours - stock | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += ["| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        r["kind"], r["op"], r["mode"], r["map_mode"], r["ours"], r["stock"], r["ours_minus_stock"], r["verdict"])
        for r in rows]
    lines += ["", "![ours - stock](insns.png)"]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


# bench/report's subcommands: name -> (function, arguments: a count or (least, most))
COMMANDS = {"insns": (insns, 2)}
