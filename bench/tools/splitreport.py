"""Report of a bench/real/run-split.sh run: OUTDIR/split.csv ->
slopes.csv (bytes received and send calls per added process, least squares
over P, per library and shape), split.png (bytes received per process per
creation against P, ours and stock, gnuplot) and SUMMARY.md (the tables).

    splitreport.py OUTDIR COMMAND
"""
import csv
import os
import sys

from report import by_shape, fit, gp


def main():
    out, command = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(os.path.join(out, "split.csv"))))
    libs = sorted({r["lib"] for r in rows}, key=lambda l: (l == "stock", l))
    v, shapes, nps = by_shape(rows)

    # net of MPI_Comm_dup (the context id's allreduce, which every creation
    # pays and whose algorithm changes with P): what the split itself moves
    def net(lib, s, p, key):
        r, d = v.get((lib, s, p)), v.get((lib, "dup", p))
        return float(r[key]) - float(d[key]) if r and d else None

    slopes = []
    for lib in libs:
        for s in shapes:
            pts = [p for p in nps if (lib, s, p) in v]
            if len(pts) < 2:
                continue
            b, a = fit(pts, [float(v[(lib, s, p)]["recv_bytes_mean"]) for p in pts])
            b2, a2 = fit(pts, [float(v[(lib, s, p)]["sends_mean"]) for p in pts])
            netp = [p for p in pts if net(lib, s, p, "recv_bytes_mean") is not None]
            b3 = fit(netp, [net(lib, s, p, "recv_bytes_mean") for p in netp])[0] if len(netp) > 1 else float("nan")
            slopes.append((lib, s, len(pts), b, a, b2, a2, b3))
    with open(os.path.join(out, "slopes.csv"), "w") as f:
        f.write("lib,shape,points,recv_bytes_per_process,recv_bytes_const,sends_per_process,sends_const,"
                "net_recv_bytes_per_process\n")
        for lib, s, n, b, a, b2, a2, b3 in slopes:
            f.write("%s,%s,%d,%.2f,%.0f,%.4f,%.2f,%.2f\n" % (lib, s, n, b, a, b2, a2, b3))

    # plot: bytes received per process against P, one panel per shape
    dat = os.path.join(out, "split.dat")
    with open(dat, "w") as f:
        for s in shapes:
            for p in nps:
                vals = [v.get((lib, s, p)) for lib in libs]
                f.write("%d %s\n" % (p, " ".join(x["recv_bytes_mean"] if x else "NaN" for x in vals)))
            f.write("\n\n")
    cols = 3
    rws = (len(shapes) + cols - 1) // cols
    script = ["set terminal pngcairo size 1200,%d font ',10'" % (300 * rws + 40),
              "set termoption noenhanced",
              "set output '%s'" % os.path.join(out, "split.png"),
              "set multiplot layout %d,%d title 'Bytes received per process per creation (tcp;ofi_rxm, "
              "every peer on the netmod)'" % (rws, cols),
              "set logscale x 2", "set xlabel 'P'", "set ylabel 'bytes'", "set key top left",
              "set yrange [0:*]"]
    color = {"ours": "#1b9e77", "ours-nogather": "#66a61e", "ours-sort": "#7570b3", "stock": "#d95f02"}
    for i, s in enumerate(shapes):
        plots = ["'%s' index %d using 1:%d with linespoints lc rgb '%s' title '%s'"
                 % (dat, i, 2 + j, color.get(lib, "#7570b3"),
                    "stock MPICH 4.0.2" if lib == "stock" else lib)
                 for j, lib in enumerate(libs)]
        script += ["set title '%s'" % s, "plot " + ", ".join(plots)]
    script.append("unset multiplot")
    gp("\n".join(script))
    os.unlink(dat)

    md = ["# MPI_Comm_split and kin: cost per process per creation",
          "",
          "Command: `%s`. Every process on the netmod (`MPIR_CVAR_NOLOCAL=1`), "
          "`FI_PROVIDER=tcp;ofi_rxm`; bytes received and send calls on sockets "
          "(sockcount.so: [barrier; creation; barrier] minus [barrier; barrier]), "
          "mean over processes; heap: peak above the start inside the creation, "
          "max over processes; time: max over processes, median of the repetitions "
          "(2 CPUs, oversubscribed above P = 2: spread is large)." % command,
          "", "![bytes per process](split.png)", "",
          "## Bytes received per process per creation: slope in P (least squares over P = %s)"
          % ", ".join(map(str, nps)), "",
          "| shape | " + " | ".join("%s B/process" % l for l in libs) + " | "
          + " | ".join("%s sends/process" % l for l in libs) + " |",
          "|---|" + "---:|" * (2 * len(libs))]
    sl = {(l, s): (b, b2) for l, s, n, b, a, b2, a2, b3 in slopes}
    for s in shapes:
        md.append("| %s | " % s + " | ".join("%.1f" % sl[(l, s)][0] if (l, s) in sl else "-" for l in libs)
                  + " | " + " | ".join("%.3f" % sl[(l, s)][1] if (l, s) in sl else "-" for l in libs) + " |")
    md += ["", "## Net of `MPI_Comm_dup` (the context id's allreduce): bytes received and send calls "
           "per process that the split itself adds", "",
           "| shape | " + " | ".join("P=%d %s" % (p, l) for p in nps for l in libs) + " |",
           "|---|" + "---:|" * (len(nps) * len(libs))]
    for s in shapes:
        if s == "dup":
            continue
        cells = []
        for p in nps:
            for l in libs:
                b, c = net(l, s, p, "recv_bytes_mean"), net(l, s, p, "sends_mean")
                cells.append("-" if b is None else "%.0f B, %.1f" % (b, c))
        md.append("| %s | " % s + " | ".join(cells) + " |")
    for title, key, fmt in (("Bytes received per process (mean)", "recv_bytes_mean", "%.0f"),
                            ("Send calls per process (mean)", "sends_mean", "%.1f"),
                            ("Peak transient heap, bytes (max over processes)", "heap_peak_max", "%.0f"),
                            ("Time, us (median; min-max)", "time_us_median", "%.0f")):
        md += ["", "## " + title, "",
               "| shape | " + " | ".join("P=%d %s" % (p, l) for p in nps for l in libs) + " |",
               "|---|" + "---:|" * (len(nps) * len(libs))]
        for s in shapes:
            cells = []
            for p in nps:
                for l in libs:
                    r = v.get((l, s, p))
                    if not r:
                        cells.append("-")
                    elif key == "time_us_median":
                        cells.append("%.0f (%.0f-%.0f)" % (float(r[key]), float(r["time_us_min"]),
                                                         float(r["time_us_max"])))
                    else:
                        cells.append(fmt % float(r[key]))
            md.append("| %s | " % s + " | ".join(cells) + " |")
    sim = os.path.join(out, "splitsim.csv")
    if os.path.exists(sim):
        srows = list(csv.DictReader(open(sim)))
        keep = {2 ** k for k in (7, 10, 16, 20, 24)}
        srows = [r for r in srows if int(r["P"]) in keep]
        if srows:
            cols = list(srows[0].keys())
            md += ["", "## Simulated (bench/bench-splitsim: the protocol replayed by libavrm for every "
                   "process; stock: MPICH 4.0.2's allgather, modelled)", "",
                   "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            md += ["| " + " | ".join(r[c] for c in cols) + " |" for r in srows]
    open(os.path.join(out, "SUMMARY.md"), "w").write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
