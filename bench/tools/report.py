"""report.py - the shared helpers of bench/report (least squares, Markdown
tables, gnuplot) and the core step's reports (stdlib only; bench/report's
core-* subcommands):

  insns(CALLGRIND_OUT, MODES_TXT, OUT_CSV)   instructions per lookup
  memory(MEMORY_CSV, OUT_JSON)               JSON + summary tables
  features(rows) / print_features            beyond-paper features table
  plots(OUTDIR)                              gnuplot PNGs from the CSVs
  summary(OUTDIR)                            Markdown tables of a run
  print_simbuild(SIMBUILD_CSV)               build cost in the simulator, ours vs MODEL

The other modules of bench/tools import its helpers (md_table, HISTOGRAM,
gp, fit, panels_png, STYLE, head_commit).
"""
import csv, json, os, re, subprocess, sys
from collections import defaultdict

TARGET = {"direct": 7, "offset": 7}

# the MODEL mode compared with each of our modes: CH4 4.0.2 has one multi-group
# mode (MLUT, 8 B/rank), which it builds for every map over two or more groups
MULTI = ("mlut32", "join", "mseg")
def model_mode(mode):
    return "mlut" if mode in MULTI else mode

# gnuplot preamble shared by the clustered-bar charts (lookup ns, instructions)
HISTOGRAM = """set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set xtics rotate by -30 scale 0
set bmargin 7
set rmargin 14
set yrange [0:%g]
"""


def insns(cg, modes_txt, out):
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", cg],
                         capture_output=True, text=True, check=True).stdout
    ir = defaultdict(int)
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*:(loop_\w+)", line)
        if m:
            ir[m.group(2)] += int(m.group(1).replace(",", ""))
    runs, K = [], None
    for line in open(modes_txt):
        f = line.split()
        if f[0] == "mode":     # mode <loop name> actual <mode> n <n> impl <impl>
            runs.append(dict(name=f[1], actual=f[3], n=f[5], impl=f[7]))
        elif f[0] == "K":
            K = int(f[1])
    base = ir["loop_empty"]
    rows = []
    for r in runs:
        fn = "loop_" + r["name"]
        if fn not in ir:
            continue
        per = round((ir[fn] - base) / K, 2)
        model = r["impl"].startswith("MODEL")
        mode = r["name"].replace("_computed", "").replace("model_", "")
        tgt = TARGET.get(mode, 11)
        rows.append(dict(impl=r["impl"], label="MODEL" if model else "OURS", mode=mode,
                         actual_mode=r["actual"], n=r["n"], insns=per,
                         target="" if model else tgt,
                         ok="" if model else ("yes" if per <= tgt + 1e-9 else "NO")))
    model = {r["mode"]: r["insns"] for r in rows if r["label"] == "MODEL"}
    for r in rows:
        r["model_insns"] = model.get(model_mode(r["mode"]), "") if r["label"] == "OURS" else ""
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader(); w.writerows(rows)
    print("Instructions per avrm_map_addr() (callgrind, loop minus empty loop, K=%d; x86_64 gcc -O2)" % K)
    print("MODEL = MPICH 4.0.2 MPIDIU_comm_rank_to_av + av_to_phys on the same input; "
          "target: <= 7 direct/offset, <= 11 others")
    print("%-16s %-6s %-8s %-8s %7s %6s %-3s %7s" % ("impl", "label", "mode", "actual", "insns",
                                                   "target", "ok", "MODEL"))
    for r in rows:
        print("%-16s %-6s %-8s %-8s %7.2f %6s %-3s %7s" % (r["impl"], r["label"], r["mode"], r["actual_mode"],
                                                        r["insns"], r["target"], r["ok"], r["model_insns"]))

def load_mem(path):
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        for k in ("N", "total", "av_entries", "meta", "maps", "tables", "shared_avoided"):
            r[k] = float(r[k]) if k != "N" else int(r[k])
    return rows

IMPLS = ["ours-stored", "ours-computed", "ours-paper-modes", "ours-noshare",
         "MODEL-vc-vcrt-3.2", "MODEL-ch4-4.0.2", "MODEL-mpich-main"]

# beyond-paper features: (feature, scenario, back end without it, N shown in the
# compact table: None = the largest N measured; features.csv has every N).
# "with" is always ours-stored (default parameters).
FEATURES = [
    ("except", "lsms", "ours-noexcept", None),
    ("except", "workers", "ours-noexcept", None),
    ("grid", "kumar", "ours-nogrid", None),
    ("grid", "kumar252", "ours-nogrid", None),
    ("lut16", "reorder10", "ours-nolut16", (4096, 65536)),
    ("lut16", "reorder100", "ours-nolut16", (4096, 65536)),
    ("join", "spawn100", "ours-nomseg", None),
    ("mlut32", "spawn100", "ours-nomlut32", None),
    ("share", "repeat100", "ours-noshare", None),
    ("share", "nodesplit100", "ours-noshare", None),
    ("share", "kumar252", "ours-noshare", (786432,)),
    ("share", "dup100", "ours-noshare", (786432,)),
    ("share", "reorder100", "ours-noshare", (786432,)),
    ("all (paper modes)", "spawn100", "ours-paper-modes", (786432,)),
    ("all (paper modes)", "kumar", "ours-paper-modes", (16777216,)),
    ("all (paper modes)", "kumar252", "ours-paper-modes", (1048576,)),
    ("all (paper modes)", "repeat100", "ours-paper-modes", (1048576,)),
]

def fmt(b):
    for u, d in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(b) >= d:
            return "%.2f %s" % (b / d, u)
    return "%d B" % b

def memory(path, out_json):
    rows = load_mem(path)
    json.dump(rows, open(out_json, "w"), indent=1)
    by = defaultdict(dict)
    for r in rows:
        by[(r["scenario"], r["N"])][r["impl"]] = r["total"]
    scen = []
    for r in rows:
        if r["scenario"] not in scen:
            scen.append(r["scenario"])
    print("Per-process memory (AV entries + maps + tables), MODEL = model of another MPI")
    print("%-11s %9s " % ("scenario", "N") + " ".join("%16s" % i.replace("MODEL-", "M:") for i in IMPLS))
    for s in scen:
        for N in sorted({k[1] for k in by if k[0] == s}):
            d = by[(s, N)]
            print("%-11s %9d " % (s, N) + " ".join("%16s" % (fmt(d[i]) if i in d else "-") for i in IMPLS))
    feat, _ = features(rows, os.path.join(os.path.dirname(out_json) or ".", "features.csv"))
    if feat:
        print()
        print_features(feat)
    # issue targets
    d = by.get(("split100", 786432))
    if d and "ours-stored" in d:
        print("\nTarget (issue): 100 odd/even splits at 786,432 processes: stored <= 6.5 MB -> %s (%s); "
              "computed <= 0.1 MB -> %s (%s)" % (fmt(d["ours-stored"]), "ok" if d["ours-stored"] <= 6.5e6 else "MISSED",
                                                fmt(d["ours-computed"]), "ok" if d["ours-computed"] <= 0.1e6 else "MISSED"))

def features(rows, out_csv=None):
    """beyond-paper features: bytes with (ours-stored) vs without (ablation).
    Returns (compact rows, all rows); the CSV gets all rows."""
    tot = {(r["scenario"], r["N"], r["impl"]): r["total"] for r in rows}
    allr, compact = [], []
    for feat, sc, without, Nsel in FEATURES:
        Ns = sorted({N for (s2, N, i) in tot if s2 == sc and i == without and (s2, N, "ours-stored") in tot})
        show = [N for N in Ns if N in Nsel] if Nsel else Ns[-1:]
        for N in Ns:
            w, wo = tot[(sc, N, "ours-stored")], tot[(sc, N, without)]
            r = dict(feature=feat, scenario=sc, N=N, without_impl=without, with_bytes=int(w),
                     without_bytes=int(wo), saved_bytes=int(wo - w), ratio=round(wo / w, 3))
            allr.append(r)
            if N in show:
                compact.append(r)
    if out_csv and allr:
        with open(out_csv, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(allr[0]))
            wr.writeheader(); wr.writerows(allr)
    return compact, allr

def print_features(out):
    print("Beyond-paper features: per-process bytes with the feature (ours-stored) and without it "
          "(same params, that feature off); ratio = without / with; every N in features.csv")
    print("%-17s %-12s %9s %12s %12s %12s %8s" % ("feature", "scenario", "N", "with", "without", "saved", "ratio"))
    for r in out:
        print("%-17s %-12s %9d %12s %12s %12s %8.3f" % (r["feature"], r["scenario"], r["N"], fmt(r["with_bytes"]),
                                                       fmt(r["without_bytes"]), fmt(r["saved_bytes"]), r["ratio"]))

def csv_rows(f):
    """csv.DictReader over the open file f, ours on demand under today's
    label: sets measured before its rename say ours-lazy."""
    for r in csv.DictReader(f):
        if r.get("library") == "ours-lazy":
            r["library"] = "ours-ondemand"
        yield r


def by_shape(rows):
    """Rows of a per-shape CSV (lib, shape, P columns: split.csv,
    createinsns.csv) as {(lib, shape, P): row}, the shapes in their first
    order, the P values sorted."""
    shapes = []
    for r in rows:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    return ({(r["lib"], r["shape"], int(r["P"])): r for r in rows}, shapes,
            sorted({int(r["P"]) for r in rows}))


def fit(xs, ys):
    """least-squares line through (xs, ys): (slope, intercept); slope 0 for one x"""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return b, my - b * mx


def panels_png(png, title, panels, lines, cols, panel_size, axes):
    """png: one gnuplot panel per name in `panels` (cols per row, panel_size
    (w, h) pixels), a linespoints line per (label, style, [(x, y)]) that
    lines(panel) gives; axes: gnuplot settings (logscale, formats, labels)."""
    dat = png[:-4] + ".dat"
    plots = []
    with open(dat, "w") as f:
        for p in panels:
            idx = []
            for label, style, pts in lines(p):
                for x, y in pts:
                    f.write("%g %g\n" % (x, y))
                f.write("\n\n")
                idx.append((label, style))
            plots.append(idx)
    cols = min(cols, len(panels))
    rows = (len(panels) + cols - 1) // cols
    script = ["set terminal pngcairo size %d,%d font ',9'" % (panel_size[0] * cols,
                                                             panel_size[1] * rows + 40),
              "set termoption noenhanced", "set output '%s'" % png,
              "set multiplot layout %d,%d title '%s'" % (rows, cols, title),
              "set grid", "set key top left font ',8'"] + list(axes)
    k = 0
    for p, idx in zip(panels, plots):
        script += ["set title '%s'" % p,
                   "plot " + ", ".join("'%s' index %d with linespoints %s title '%s'" %
                                       (dat, k + j, style, label)
                                       for j, (label, style) in enumerate(idx))]
        k += len(idx)
    script.append("unset multiplot")
    gp("\n".join(script) + "\n")
    os.remove(dat)


def gp(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)

STYLE = {   # line style per back end: coinciding lines stay visible (dashes, points)
    "ours-stored": "lw 3 dt 1 pt 7 ps 1.4 lc rgb '#1b9e77'",
    "ours-computed": "lw 2 dt 1 pt 5 ps 1.2 lc rgb '#66a61e'",
    "ours-paper-modes": "lw 2 dt 2 pt 9 ps 1.6 lc rgb '#7570b3'",
    "ours-noshare": "lw 2 dt 3 pt 13 ps 1.4 lc rgb '#e7298a'",
    "MODEL-vc-vcrt-3.2": "lw 2 dt 4 pt 4 ps 1.2 lc rgb '#a6761d'",
    "MODEL-ch4-4.0.2": "lw 2 dt 4 pt 6 ps 1.2 lc rgb '#d95f02'",
    "MODEL-mpich-main": "lw 2 dt 4 pt 8 ps 1.2 lc rgb '#666666'",
}

# x-axis order of the lookup plots: (label, ours impl, ours mode, MODEL mode)
LOOKUP_X = [("direct", "ours", "direct", "direct"), ("offset", "ours", "offset", "offset"),
            ("stride", "ours", "stride", "stride"), ("block", "ours", "block", "block"),
            ("except", "ours", "except", None), ("grid", "ours", "grid", None),
            ("ilut", "ours", "ilut", None), ("lut", "ours", "lut", "lut"), ("lut16", "ours", "lut16", None),
            ("mlut32", "ours", "mlut32", "mlut"), ("mlut (pgid 256)", "ours-pgid256", "mlut", "mlut"),
            ("join", "ours", "join", "mlut"), ("mseg", "ours", "mseg", "mlut"),
            ("direct, computed AV", "ours-computed", "direct", "direct"),
            ("stride, computed AV", "ours-computed", "stride", "stride")]

def plots(outdir):
    mem = os.path.join(outdir, "memory.csv")
    if os.path.exists(mem):
        rows = load_mem(mem)
        scen = []
        for r in rows:
            if r["scenario"] not in scen:
                scen.append(r["scenario"])
        for s in scen:
            dat = os.path.join(outdir, "mem_%s.dat" % s)
            Ns = sorted({r["N"] for r in rows if r["scenario"] == s})
            if len(Ns) < 1:
                continue
            tab = {(r["impl"], r["N"]): r["total"] for r in rows if r["scenario"] == s}
            impls = [i for i in IMPLS if any((i, N) in tab for N in Ns)]
            with open(dat, "w") as f:
                f.write("N " + " ".join(impls) + "\n")
                for N in Ns:
                    f.write("%d " % N + " ".join("%g" % (max(tab.get((i, N), float("nan")), 1) / 1e6) for i in impls) + "\n")
            plot = ", ".join("'%s' using 1:%d with linespoints %s title '%s'" %
                             (dat, k + 2, STYLE.get(i, "lw 2"), i.replace("MODEL-", "MODEL "))
                             for k, i in enumerate(impls))
            gp("""set terminal pngcairo size 1000,600 font ',11'
set output '%s'
set title 'Memory per process: %s (P = 16 per node; MODEL = model of another MPI)'
set logscale xy
set format x '%%.0s%%c'
set format y '10^{%%L}'
set xlabel 'processes N (log)'
set ylabel 'MB per process (log)'
set key outside right top spacing 1.3
set grid
set autoscale fix
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
plot %s
""" % (os.path.join(outdir, "memory_%s.png" % s), s, plot))
    def ymax(table):
        v = [float(x) for x in table.values() if x not in (None, "")]
        return 1.12 * max(v) if v else 1
    def cluster_dat(path, table, cols):
        with open(path, "w") as f:
            for lab, impl, mode, mmode in LOOKUP_X:
                vals = [table.get((impl, mode, c)) for c in cols[0]] + \
                       [table.get(("MODEL", mmode, c)) if mmode else None for c in cols[1]]
                f.write('"%s" ' % lab + " ".join("NaN" if v in (None, "") else str(v) for v in vals) + "\n")
    lk = os.path.join(outdir, "lookup.csv")
    if os.path.exists(lk):
        dat = os.path.join(outdir, "lookup.dat")
        t, n = {}, ""
        for r in csv.DictReader(open(lk)):
            impl = "MODEL" if r["label"] == "MODEL" else r["impl"]
            t[(impl, r["mode"], "seq")] = r["ns_seq"]
            t[(impl, r["mode"], "rand")] = r["ns_rand"]
            if r["mode"] == "direct" and impl == "ours":
                n = r["n"]
        cluster_dat(dat, t, (("seq", "rand"), ("seq", "rand")))
        gp("""set terminal pngcairo size 1200,650 font ',11'
set output '%s'
set title 'ns per lookup (avrm\\_map\\_addr; MODEL: MPICH 4.0.2 MPIDIU\\_comm\\_rank\\_to\\_av), world n = %s, thread CPU time'
%sset ylabel 'ns per lookup (loop included)'
set key outside top center horizontal
set grid y
plot '%s' using 2:xtic(1) title 'ours, sequential ranks' lc rgb '#1b9e77', '' using 3 title 'ours, random ranks' lc rgb '#66c2a5', '' using 4 title 'MODEL CH4 4.0.2, sequential' lc rgb '#d95f02', '' using 5 title 'MODEL CH4 4.0.2, random' lc rgb '#fc8d62'
""" % (os.path.join(outdir, "lookup_ns.png"), n, HISTOGRAM % ymax(t), dat))
    sb = os.path.join(outdir, "simbuild.csv")
    if os.path.exists(sb):
        dat = os.path.join(outdir, "simbuild.dat")
        rows = simbuild_rows(sb)
        with open(dat, "w") as f:
            for r in rows:
                f.write('"%s %s" %s %s\n' % (r["scenario"], nfmt(r["N"]), r["ours"] or "NaN", r["model"] or "NaN"))
        gp("""set terminal pngcairo size 1800,700 font ',10'
set output '%s'
set title 'map build time per rank inside the simulator (thread CPU time in the builder; ranks of maps built by a mapping)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set xtics rotate by -45 scale 0 font ',8'
set bmargin 9
set logscale y
set ylabel 'ns per rank (log)'
set key outside top center horizontal
set grid y
plot '%s' using 2:xtic(1) title 'ours (libavrm, default parameters)' lc rgb '#1b9e77', '' using 3 title 'MODEL of MPICH 4.0.2 CH4 builder' lc rgb '#d95f02'
""" % (os.path.join(outdir, "simbuild.png"), dat))
    ins = os.path.join(outdir, "insns.csv")
    if os.path.exists(ins):
        dat = os.path.join(outdir, "insns.dat")
        t = {}
        for r in csv.DictReader(open(ins)):
            impl = "MODEL" if r["label"] == "MODEL" else r["impl"]
            t[(impl, r["mode"], "insns")] = r["insns"]
            t[(impl, r["mode"], "target")] = r["target"]
        cluster_dat(dat, t, (("insns", "target"), ("insns",)))
        gp("""set terminal pngcairo size 1200,650 font ',11'
set output '%s'
set title 'instructions per lookup (callgrind: loop minus empty loop), ours vs MODEL of MPICH 4.0.2'
%sset ylabel 'instructions per lookup'
set key outside top center horizontal
set grid y
plot '%s' using 2:xtic(1) title 'ours' lc rgb '#1b9e77', '' using 4 title 'MODEL CH4 4.0.2 (same mode; mlut for mlut32/join/mseg)' lc rgb '#d95f02', '' using 0:3 with points pt 7 ps 1.8 lc rgb 'black' title 'target (7 direct/offset, 11 others)'
""" % (os.path.join(outdir, "insns.png"), HISTOGRAM % ymax(t), dat))

def simbuild_rows(path):
    """per (scenario, N): ours and MODEL ns/rank, ms, ranks (bench-simbuild CSV)"""
    by, order = {}, []
    for r in csv.DictReader(open(path)):
        k = (r["scenario"], int(r["N"]))
        if k not in by:
            by[k] = dict(scenario=k[0], N=k[1], ranks=int(r["ranks"]), ours=None, model=None,
                         ours_ms=None, model_ms=None)
            order.append(k)
        side = "model" if r["label"] == "MODEL" else "ours"
        by[k][side] = float(r["ns_per_rank"])
        by[k][side + "_ms"] = float(r["ns_total"]) / 1e6
    return [by[k] for k in order]

def head_commit():
    """The commit a report names: HEAD's short hash in the source tree, plus
    the count of uncommitted files under what libmpi is built from (patches,
    mpich, include, src): a figure then says it measured more than HEAD."""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    git = lambda *a: subprocess.run(["git", "-C", top] + list(a), capture_output=True, text=True).stdout
    head = git("log", "-1", "--format=%h").strip() or "?"
    dirty = git("status", "--porcelain", "--", "patches", "mpich", "include", "src").splitlines()
    return head + (" with %d uncommitted files under patches/ mpich/ include/ src/" % len(dirty)
                   if dirty else "")


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" if k else "---" for k in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)

def nfmt(N):
    return "%dM" % (N >> 20) if N >= 1 << 20 and N % (1 << 20) == 0 else "%dK" % (N >> 10)

def summary(outdir):
    """Markdown tables from the CSVs of one run (memory, features, insns, lookup, build)."""
    P = []
    rows = load_mem(os.path.join(outdir, "memory.csv"))
    tot = {(r["scenario"], r["N"], r["impl"]): r for r in rows}
    main = ["ours-stored", "ours-computed", "ours-paper-modes", "MODEL-vc-vcrt-3.2", "MODEL-ch4-4.0.2", "MODEL-mpich-main"]
    def memrows(pairs, impls):
        out = []
        for sc, N in pairs:
            if (sc, N, "ours-stored") not in tot:
                continue
            out.append([sc, nfmt(N)] + [fmt(tot[(sc, N, i)]["total"]) if (sc, N, i) in tot else "-" for i in impls]
                       + [tot[(sc, N, "ours-stored")]["modes"]])
        return out
    hd = ["scenario", "N"] + [i.replace("MODEL-", "MODEL ") for i in main] + ["ours-stored maps by mode"]
    P.append("### split100: 100 odd/even splits of world\n")
    P.append(md_table(hd, memrows([("split100", N) for N in (4096, 65536, 786432, 1048576, 16777216)], main)))
    main2 = main[:3] + ["ours-noshare"] + main[3:]
    hd2 = ["scenario", "N"] + [i.replace("MODEL-", "MODEL ") for i in main2] + ["ours-stored maps by mode"]
    P.append("\n### other scenarios\n")
    P.append(md_table(hd2, memrows([(s2, 786432) for s2 in ("dup100", "reorder100", "spawn100", "repeat100",
                                                            "nodesplit100")] + [("kumar", 16777216)], main2)))
    compact, _ = features(rows)
    P.append("\n### beyond-paper features (with = ours-stored; without = same parameters, that feature off)\n")
    P.append(md_table(["feature", "scenario", "N", "with", "without", "saved", "without/with"],
                      [[r["feature"], r["scenario"], nfmt(r["N"]), fmt(r["with_bytes"]), fmt(r["without_bytes"]),
                        fmt(r["saved_bytes"]), "%.3f" % r["ratio"]] for r in compact]))
    ins = os.path.join(outdir, "insns.csv")
    if os.path.exists(ins):
        P.append("\n### instructions per lookup (callgrind)\n")
        P.append(md_table(["impl", "mode", "actual mode", "n", "insns", "target", "ok", "MODEL CH4 4.0.2"],
                          [[r["impl"], r["mode"], r["actual_mode"], r["n"], "%g" % float(r["insns"]), r["target"],
                            r["ok"], "%g" % float(r["model_insns"]) if r["model_insns"] else "-"]
                           for r in csv.DictReader(open(ins)) if r["label"] == "OURS"]))
    lk = os.path.join(outdir, "lookup.csv")
    if os.path.exists(lk):
        lrows = list(csv.DictReader(open(lk)))
        mod = {r["mode"]: r for r in lrows if r["label"] == "MODEL"}
        P.append("\n### ns per lookup\n")
        out = []
        for r in lrows:
            if r["label"] != "OURS":
                continue
            m = mod.get(model_mode(r["mode"]))
            out.append([r["impl"], r["mode"], r["actual_mode"], r["n"], r["ns_seq"], r["ns_rand"],
                        m["ns_seq"] if m else "-", m["ns_rand"] if m else "-"])
        P.append(md_table(["impl", "mode", "actual mode", "n", "ns seq", "ns random", "MODEL ns seq",
                           "MODEL ns random"], out))
    bd = os.path.join(outdir, "build.csv")
    if os.path.exists(bd):
        P.append("\n### map build time\n")
        P.append(md_table(["kind", "actual mode", "n", "best us", "ns/rank", "target", "ok"],
                          [[r["kind"], r["actual_mode"], r["n"], "%.1f" % (float(r["ns_total_best"]) / 1e3),
                            r["ns_per_rank"], r["target_ns_per_rank"], r["ok"]] for r in csv.DictReader(open(bd))]))
    sb = os.path.join(outdir, "simbuild.csv")
    if os.path.exists(sb):
        P.append("\n### map build cost inside the simulator\n")
        P.append(md_table(["scenario", "N", "ranks built", "ours ms", "MODEL ms", "ours ns/rank",
                           "MODEL ns/rank", "ours/MODEL"],
                          [[r["scenario"], nfmt(r["N"]), r["ranks"], "%.2f" % r["ours_ms"], "%.2f" % r["model_ms"],
                            "%.2f" % r["ours"], "%.2f" % r["model"],
                            "%.2f" % (r["ours"] / r["model"]) if r["model"] else "-"]
                           for r in simbuild_rows(sb)]))
    print("\n".join(P))

def print_simbuild(path):
    print("%-13s %5s %11s %10s %10s %9s %9s %7s" % ("scenario", "N", "ranks", "ours ms", "MODEL ms",
                                                   "ours ns", "MODEL ns", "ratio"))
    for r in simbuild_rows(path):
        print("%-13s %5s %11d %10.2f %10.2f %9.2f %9.2f %7s" % (
            r["scenario"], nfmt(r["N"]), r["ranks"], r["ours_ms"], r["model_ms"], r["ours"], r["model"],
            "%.2f" % (r["ours"] / r["model"]) if r["model"] else "-"))


def print_features_of(path, *flags):
    compact, every = features(load_mem(path))
    print_features(every if "-a" in flags else compact)


# bench/report's subcommands: name -> (function, arguments: a count or (least, most))
COMMANDS = {"core-memory": (memory, 2), "core-insns": (insns, 3),
            "core-features": (print_features_of, (1, 2)), "core-simbuild": (print_simbuild, 1),
            "core-plots": (plots, 1), "core-summary": (summary, 1)}
