"""The reports of steps ondemand (bench/real/run-ondemand.sh) and
ondemand-pmi (bench/real/run-ondemand-pmi.sh): `bench/report ondemand-plot
CSV SLOPES_CSV PNG` fits the bytes per added peer of ondemand.csv
(slopes.csv) and plots the heap against P (ondemand.png); `bench/report
wholeproc WORLD_CSV SLOPES_CSV FIAV_CSV OUT_CSV` models a whole process at
up to 786432 processes from the simulator's world.csv and those slopes
(wholeproc.csv, and the Markdown table it prints: wholeproc.md);
`bench/report ondemand-summary OUTDIR COMMAND` prints step ondemand's
SUMMARY.md and `bench/report ondemand-pmi OUTDIR COMMAND` step
ondemand-pmi's (medians over the runs of pmi.csv and initinsns.csv).
"""
import math
import os
import re
import statistics
import time
from collections import defaultdict

from report import csv_rows, fit, gp


def line(xs, ys):
    """report.fit's (slope, intercept); the slope is NaN (no growth to
    measure) from fewer than two distinct P, the intercept then the one y"""
    if len(set(xs)) < 2:
        return float("nan"), ys[0] if len(ys) == 1 else float("nan")
    return fit(xs, ys)


def fit_se(xs, ys):
    """the standard error of fit's slope (from the residuals); NaN from fewer
    than three points or one x: there is no spread to measure"""
    n = len(xs)
    mx = sum(xs) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if n < 3 or not sxx:
        return float("nan")
    b, a = fit(xs, ys)
    ssr = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return (ssr / (n - 2) / sxx) ** 0.5


def grid(emit, key_heads, keys, col_heads, cols, cell, numeric=True, skip_empty=False):
    """Emit a Markdown table of the summaries: the key columns (key_heads;
    each key is a tuple of strings), then one column per value in cols
    headed by col_heads[i]; cell(key, col) -> str. numeric right-aligns the
    value columns. skip_empty leaves out a row whose cells are all "-"."""
    emit("| " + " | ".join(list(key_heads) + list(col_heads)) + " |")
    emit("|" + "---|" * len(key_heads) + ("---:|" if numeric else "---|") * len(cols))
    for key in keys:
        cells = [cell(key, c) for c in cols]
        if skip_empty and all(c == "-" for c in cells):
            continue
        emit("| " + " | ".join(list(key) + cells) + " |")
    emit("")


def init_insns_table(emit, out, key_heads, keys, intro):
    """The MPI_Init instruction table of both on-demand steps, from
    OUT/initinsns.csv (nothing when it is absent): one row per key (values of
    the columns key_heads), one column per P; a cell is the min-max over the
    runs in millions (one value when they agree within 5000)."""
    path = os.path.join(out, "initinsns.csv")
    rows = list(csv_rows(open(path))) if os.path.exists(path) else []
    if not rows:
        return
    nps = sorted({int(r["np"]) for r in rows})
    emit(intro)
    emit()

    def cell(key, n):
        v = [float(r["init_insns"]) for r in rows
             if int(r["np"]) == n and all(r[h] == k for h, k in zip(key_heads, key))]
        return ("-" if not v else f"{min(v) / 1e6:.2f}M" if max(v) - min(v) < 5e3
                else f"{min(v) / 1e6:.2f}-{max(v) / 1e6:.2f}M")
    grid(emit, key_heads, keys, [f"P={n}" for n in nps], nps, cell, skip_empty=True)


def ondemand_plot(src, slopes_out, png):
    """bench/real/run-ondemand.sh's figures. From ondemand.csv (one line per
    library, provider, process count and point): SLOPES_CSV gets, per
    (library, provider, point), the heap and RSS growth per added peer
    (least-squares slope of the per-process maximum over the process counts
    of more than one emulated node when two or more such were run: at P <=
    ONDEMAND_NODE, settings.txt's beside SLOPES_CSV (1 without it), every
    peer is node-local, no netmod connection exists and a fit through it
    reads the first connection's one-time buffers as growth per peer;
    slopes.csv's nps lists the counts fit) and the constant (intercept), the
    slope of the mean over processes with
    its standard error (heap_mean_per_peer_se: how far run-to-run spread of
    the heap moves that slope), the MPI_Init time slope (us per added peer)
    and the median first/later message latency. PNG: heap per process
    (max) against P, one panel per (provider, point), one line per library
    (gnuplot; its data in the .dat beside it)."""
    rows = list(csv_rows(open(src)))
    settings = os.path.join(os.path.dirname(slopes_out), "settings.txt")
    node = re.search(r"ONDEMAND_NODE=(\d+)", open(settings).read()) if os.path.exists(settings) else None
    node = int(node.group(1)) if node else 1
    groups = defaultdict(list)
    for r in rows:
        groups[(r["library"], r["provider"], r["point"])].append(r)
    with open(slopes_out, "w") as f:
        f.write("library,provider,point,nps,heap_per_peer,heap_const,heap_mean_per_peer,"
                "rss_per_peer,rss_const,init_us_per_peer,init_s_max_np,first_us_median,"
                "later_us_median,heap_mean_per_peer_se\n")
        for (lib, prov, point), rs in sorted(groups.items()):
            rs.sort(key=lambda r: int(r["np"]))
            if len([r for r in rs if int(r["np"]) > node]) >= 2:
                rs = [r for r in rs if int(r["np"]) > node]
            xs = [int(r["np"]) for r in rs]
            hb, hc = line(xs, [float(r["heap_max"]) for r in rs])
            means = [float(r["heap_mean"]) for r in rs]
            mb, _ = line(xs, means)
            mse = fit_se(xs, means)
            rb, rc = line(xs, [float(r["rss_max"]) for r in rs])
            ib, _ = line(xs, [float(r["init_s"]) * 1e6 for r in rs])
            f.write("%s,%s,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.3f,%.1f,%.1f,%.0f\n" % (
                lib, prov, point, " ".join(map(str, xs)), hb, hc, mb, rb, rc, ib,
                float(rs[-1]["init_s"]), statistics.median(float(r["first_us"]) for r in rs),
                statistics.median(float(r["later_us"]) for r in rs), mse))
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
    gp("\n".join(script) + "\n")


APPS = (("init", "world"), ("2-D stencil", "stencil2d"), ("3-D stencil", "stencil3d"),
        ("tree", "tree"), ("alltoall", "alltoall"))


def wholeproc(world_csv, slopes_csv, fiav_csv, out_csv):
    """A whole process's per-peer memory at scale, eager vs on-demand
    addressing, per libfabric provider.

    WORLD_CSV: bench-memory's scenarios "world" (MPI_Init) and "contact"
    (stencil2d, stencil3d, tree, alltoall: the world peers rank 0 sends to)
    at several N: the simulator running the real libavrm (ours-stored: a
    word per peer; ours-ondemand: the sparse world AV, a word written at
    each first contact, and its count of peers resolved, `resolved`) and the
    MODEL of MPICH 4.0.2. SLOPES_CSV: bench/real/run-ondemand.sh's measured
    growth per added peer (mean heap over the processes), FIAV_CSV:
    libfabric's AV alone (bench/real/fiavbytes.c, FI_AV_TABLE, distinct
    peers inserted one by one); together the provider model:
      fiav[v]  bytes libfabric's AV keeps per inserted peer (FIAV_CSV, the
               largest count measured)
      conn[v]  bytes per contacted peer (connections, provider peer state) =
               ours-eager's mean-heap slope after the all-to-all (every peer
               inserted and contacted) minus fiav[v]. Not a difference of two
               slopes: over sockets the slope right after MPI_Init is noise of
               +-8 KB per peer (the heap of 11 MB differs by process), which such
               a difference carried into the model
    On demand counts as engaged for a provider when ours-ondemand's slope after
    MPI_Init is below fiav[v] (it inserted nobody); else its row is "model only".
    A process of application app, with c = the peers ours-ondemand resolved
    there (contacted on other nodes), keeps:
      ours on demand:  sim(ours-ondemand, app, N) + (fiav + conn) * c
      ours eager: sim(ours-stored, app, N) + fiav * N + conn * c
      stock:      sim(MODEL 4.0.2, app, N) + fiav * N + conn * c
    Prints, at the two largest N, the address layer alone (the simulator's
    bytes) and the whole-process table (markdown), and writes every N to
    OUT_CSV. A model: libfabric's and the connections' costs are linear
    fits of runs of 16-128 processes (sockets 16-256: more than one emulated
    node) on one machine; sockets cannot run on demand (it misdelivers for
    unknown senders), its on-demand row is what it would cost."""
    sim, resolved = {}, {}
    for r in csv_rows(open(world_csv)):
        key = (r["scenario"], r["impl"], int(r["N"]))
        sim[key] = float(r["library"])
        resolved[key] = float(r.get("resolved") or 0)
    sl = {(r["library"], r["provider"], r["point"]): float(r["heap_mean_per_peer"])
          for r in csv_rows(open(slopes_csv))}
    av = {}
    for r in csv_rows(open(fiav_csv)):
        p = "tcp;ofi_rxm" if r["provider"] == "tcp" else r["provider"]
        if p not in av or int(r["peers"]) > av[p][0]:
            av[p] = (int(r["peers"]), float(r["bytes_per_peer"]))
    provs = sorted({p for (_, p, _) in sl if p in av})
    model = {}
    for v in provs:
        fiav = av[v][1]
        # on demand engaged: MPI_Init inserted nobody, so its growth per
        # peer stays below what one insert costs (sockets stays eager)
        engaged = ("ours-ondemand", v, "init") in sl and sl[("ours-ondemand", v, "init")] < fiav
        conn = sl[("ours-eager", v, "alltoall")] - fiav
        model[v] = (fiav, max(conn, 0.0), engaged)
    ns = sorted({n for (_, _, n) in sim})
    rows = []
    for n in ns:
        for v in provs:
            fiav, conn, engaged = model[v]
            for app, scen in APPS:
                c = resolved[(scen, "ours-ondemand", n)]
                rows.append((n, v, app, "ours-ondemand" if engaged else "ours-ondemand(model only)",
                             sim[(scen, "ours-ondemand", n)] + (fiav + conn) * c))
                rows.append((n, v, app, "ours-eager",
                             sim[(scen, "ours-stored", n)] + fiav * n + conn * c))
                rows.append((n, v, app, "stock-4.0.2",
                             sim[(scen, "MODEL-ch4-4.0.2", n)] + fiav * n + conn * c))
    with open(out_csv, "w") as f:
        f.write("N,provider,application,library,bytes_per_process\n")
        for r in rows:
            f.write("%d,%s,%s,%s,%.0f\n" % r)
    big = ns[-2:]
    print("The address layer alone (the simulator running libavrm; the MODEL of 4.0.2), "
          "bytes per process, and the peers a process resolved on demand:")
    print()
    print("| N | application | peers resolved | ours on demand | ours eager (a word per peer) | stock 4.0.2 |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in big:
        for app, scen in APPS:
            print("| %d | %s | %d | %s | %s | %s |" % (
                n, app, resolved[(scen, "ours-ondemand", n)], fmt_bytes(sim[(scen, "ours-ondemand", n)]),
                fmt_bytes(sim[(scen, "ours-stored", n)]), fmt_bytes(sim[(scen, "MODEL-ch4-4.0.2", n)])))
    print()
    print("Provider model (bytes): " + "; ".join(
        "%s: %.0f per inserted peer, %.0f per contacted peer%s" %
        (v, model[v][0], model[v][1], "" if model[v][2] else " (eager only)") for v in provs))
    print()
    print("| N | provider | application | ours on demand | ours eager | stock 4.0.2 |")
    print("|---:|---|---|---:|---:|---:|")
    for n in big:
        for v in provs:
            for app, _ in APPS:
                val = {lib.split("(")[0]: b for (nn, p, a, lib, b) in rows
                       if nn == n and p == v and a == app}
                print("| %d | %s | %s | %s | %s | %s |" % (
                    n, v, app, fmt_bytes(val["ours-ondemand"]), fmt_bytes(val["ours-eager"]),
                    fmt_bytes(val["stock-4.0.2"])))
    print()
    print("Whole-process bytes per process: the address layer plus the provider model.")


def fmt_bytes(b):
    """bytes as KB below a megabyte, else MB (decimal)"""
    return "%.1f KB" % (b / 1e3) if b < 1e6 else "%.1f MB" % (b / 1e6)


def fmt_b(v):
    return f"{float(v):,.0f} B"


def ondemand_summary(out, command):
    """SUMMARY.md of bench/real/run-ondemand.sh, to stdout, from OUTDIR's
    ondemand.csv, slopes.csv, fiav.csv, initinsns.csv, settings.txt and
    wholeproc.md. Every figure here is read from those files; the text
    around them states only what the files define (what each column is),
    never a conclusion that a rerun could contradict."""
    rows = list(csv_rows(open(os.path.join(out, "ondemand.csv"))))
    slopes = list(csv_rows(open(os.path.join(out, "slopes.csv"))))
    fiav = list(csv_rows(open(os.path.join(out, "fiav.csv"))))
    settings = open(os.path.join(out, "settings.txt")).read().strip()
    whole = open(os.path.join(out, "wholeproc.md")).read().strip() \
        if os.path.exists(os.path.join(out, "wholeproc.md")) else "(not run: no bench/bench-memory)"
    libs = ["ours-ondemand", "ours-eager", "stock", "ompi-ob1"]
    provs = sorted({r["provider"] for r in slopes}, reverse=True)
    nps = sorted({int(r["np"]) for r in rows})
    fit_nps = sorted({int(n) for r in slopes for n in r["nps"].split()})
    p = print
    p("# On-demand addressing: bytes per peer (issue 24)")
    p()
    p(f"Command: `{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
      f"{os.cpu_count()} CPUs; settings: {settings}. Written by bench/report ondemand-summary "
      "from the files beside it: ondemand.csv (every run: heap and RSS per process right after "
      "MPI_Init, after a 2-D stencil, after an all-to-all of 512 B per peer; MPI_Init time; first "
      "and later message latency), slopes.csv (least squares over the P of more than one emulated "
      "node, ONDEMAND_NODE ranks, per library, provider and point), "
      "ondemand.png, fiav.csv (libfabric's AV alone, no MPI), world.csv and wholeproc.md (the "
      "simulator's whole process at up to 786432 processes). ours-ondemand is on demand "
      "(MPIR_CVAR_AVRM_ON_DEMAND_AV=1: it engages over tcp;ofi_rxm; sockets stays eager, "
      "the report says why), ours-eager sets it to 0, stock is MPICH 4.0.2 from the same "
      "tarball and options, ompi-ob1 is Debian's Open MPI (ob1 over self/vader/tcp, one node: "
      "it ignores FI_PROVIDER, so its row repeats under each provider). tcp;ofi_rxm+lean is "
      "tcp;ofi_rxm with ofi_rxm's receive buffers made small (the settings' ONDEMAND_LEAN_ENV) so "
      "that P = 256 fits this machine's 23 GB, the libraries alike: heap and RSS only, at the "
      "settings' ONDEMAND_LEAN_NPS.")
    p()
    p(f"Growth per added peer below is slopes.csv's heap_mean_per_peer: the least-squares slope "
      f"of the mean heap over the processes against P = {' '.join(map(str, fit_nps))}, the counts "
      f"of more than one emulated node (at P = {nps[0]} every peer of the MPICH builds is "
      "node-local and no netmod connection exists); a library or provider run at fewer counts: "
      "over its own, slopes.csv's nps. ± is the slope's standard error (heap_mean_per_peer_se): "
      "a slope within about two of them of 0 is no growth these runs can tell from run-to-run "
      "spread, such as the heap right after MPI_Init differing by up to half a megabyte between "
      "processes of one run (ondemand.csv's heap_max against heap_mean).")
    p()
    for point, title in (("init", "right after MPI_Init"), ("stencil", "after the stencil"),
                         ("alltoall", "after the all-to-all")):
        p(f"Mean heap per process, growth per added peer, {title}:")
        p()

        def slope_cell(key, lib, point=point):
            r = [s for s in slopes if s["library"] == lib and s["provider"] == key[0] and s["point"] == point]
            if not r:
                return "-"
            se = float(r[0].get("heap_mean_per_peer_se") or "nan")
            return fmt_b(r[0]["heap_mean_per_peer"]) + ("" if se != se else " ± " + fmt_b(se))
        grid(p, ["provider"], [(v,) for v in provs], libs, libs, slope_cell, numeric=False)
    p("Heap per process right after MPI_Init (ondemand.csv; mean and busiest process), "
      "at the smallest and largest P of each library and provider:")
    p()

    def heap_cell(key, end):
        r = [x for x in rows if x["library"] == key[1] and x["provider"] == key[0] and x["point"] == "init"]
        if not r:
            return "-"
        x = (min if end == "least" else max)(r, key=lambda x: int(x["np"]))
        return f"P={x['np']}: {float(x['heap_mean']) / 1e6:.2f} / {float(x['heap_max']) / 1e6:.2f} MB"
    grid(p, ["provider", "library"], [(v, lib) for v in provs for lib in libs],
         ["smallest P: mean / max", "largest P: mean / max"], ("least", "most"), heap_cell,
         numeric=False, skip_empty=True)
    p("libfabric's AV alone, bytes per inserted peer (fiav.csv, largest count): " +
      "; ".join(f"{r['provider']} {float(r['bytes_per_peer']):.0f} B"
                for r in fiav if r["peers"] == max(x["peers"] for x in fiav if x["provider"] == r["provider"])))
    p()
    init_insns_table(p, out, ["provider", "library"], [(v, lib) for v in provs for lib in libs],
                     "Instructions one process executes inside MPI_Init (initinsns.csv: callgrind on the "
                     "last rank, callees included, PMI and libfabric among them; min-max over the runs, "
                     "which differ by what blocking waits leave in the count):")
    p("MPI_Init time and message latencies in ondemand.csv are wall clock with up to "
      f"{nps[-1]} processes on {os.cpu_count()} CPUs: scheduler noise, not a measurement of the "
      "library; a first contact's cost is the pvars `avrm_resolve_time` / `avrm_peers_resolved`.")
    p()
    p("![heap per process against P](ondemand.png)")
    p()
    fw_path = os.path.join(out, "firstwrite.csv")
    if os.path.exists(fw_path):
        fw = list(csv_rows(open(fw_path)))
        p("What libavrm adds to a first contact (firstwrite.csv, `bench/bench-firstwrite`: the store "
          "of the resolved word, median wall time per write over 9 fresh AVs; dense is the world AV "
          "of a pending word per peer that on demand kept before issue 55, sparse the mapping of "
          "today, whose first write into a page scans it and takes the kernel's page faults; the "
          "rest of a first contact, a PMI get and an insert, is the same code in both):")
        p()
        p("| order | N | writes | dense: ns per write | sparse: ns per write | dense: bytes | sparse: bytes |")
        p("|---|---:|---:|---:|---:|---:|---:|")
        by = {(r["layout"], r["order"]): r for r in fw}
        for order, what in (("seq", "consecutive ranks"), ("rand", "random ranks")):
            d, sp = by[("dense", order)], by[("sparse", order)]
            p(f"| {what} | {int(d['N']):,} | {int(d['K']):,} | {float(d['ns_per_write']):.1f} | "
              f"{float(sp['ns_per_write']):.1f} | {int(d['bytes_after']):,} | {int(sp['bytes_after']):,} |")
        p()
    p("## At scale (wholeproc.md)")
    p()
    p(whole)


def pmi_summary(out, command):
    """SUMMARY.md of bench/real/run-ondemand-pmi.sh, to stdout, from
    OUTDIR's pmi.csv, initinsns.csv and settings.txt. Every figure is a
    median over the runs (reps) of one launcher, library and P; heap growth
    per added peer is the least-squares slope of the mean heap right after
    MPI_Init over P."""
    rows = list(csv_rows(open(os.path.join(out, "pmi.csv"))))
    settings = open(os.path.join(out, "settings.txt")).read().strip()
    init = [r for r in rows if r["point"] == "init"]
    nps = sorted({int(r["np"]) for r in init})
    launchers = [l for l in ("hydra", "srun", "srun-pmix") if any(r["launcher"] == l for r in init)]
    libs = [l for l in ("ours-ondemand", "ours-eager", "stock") if any(r["library"] == l for r in init)]

    def med(launcher, lib, np, col):
        v = [float(r[col]) for r in init
             if r["launcher"] == launcher and r["library"] == lib and int(r["np"]) == np]
        return (statistics.median(v), len(v)) if v else (None, 0)

    p = print
    p("# On-demand addressing per process manager: MPI_Init and first contact (issue 24)")
    p()
    started = time.gmtime(os.path.getmtime(os.path.join(out, "settings.txt")))   # written at the start
    p(f"Command: `{command}`, run {time.strftime('%Y-%m-%d %H:%M UTC', started)}, "
      f"{os.cpu_count()} CPUs; settings: {settings}. Written by bench/report ondemand-pmi from "
      "pmi.csv (every run: launcher, rep, then bench/real/ondemand.c's columns). Emulated hosts "
      "of test/cluster (network namespaces, one per 8 processes, filled in order); hydra is "
      "MPICH's mpiexec (PMI-1 from hydra's proxies), srun is `srun --mpi=pmi2` (Slurm's PMI-2 "
      "plugin serving MPICH's PMI-1 client), srun-pmix is `srun --mpi=pmix` with ours built "
      "--with-pmix (`make mpich-pmix`; stock has no such build). ours-ondemand resolves a peer's address on first "
      "contact (a PMI get), ours-eager and stock exchange and insert every address in MPI_Init. "
      "Medians over the runs; n is the number of runs. Wall clock with up to "
      f"{nps[-1] if nps else 0} processes on {os.cpu_count()} CPUs: MPI_Init times compare "
      "libraries and launchers within this run; the message latencies are dominated by when "
      "the scheduler runs the two processes (up to tens of milliseconds either way), so they "
      "show no library's cost: a first contact's own cost is the pvar avrm_resolve_time over "
      "avrm_peers_resolved. The instruction counts and heap bytes do not depend on the load.")
    p()
    keys = [(la, lib) for la in launchers for lib in libs
            if any(r["launcher"] == la and r["library"] == lib for r in init)]
    heads = ["launcher", "library"]
    for title, col, fmt in (("MPI_Init time, the slowest process (s)", "init_s", "{:.2f}"),
                            ("first message to a new peer, one way (us: half a round trip, "
                             "rank 0 and rank P/2, on another host)", "first_us", "{:.0f}"),
                            ("the second message to that peer (us)", "later_us", "{:.0f}")):
        p(f"{title}:")
        p()

        def timed(key, n, col=col, fmt=fmt):
            v, k = med(key[0], key[1], n, col)
            return "-" if v is None else fmt.format(v) + f" (n={k})"
        grid(p, heads, keys, [f"P={n}" for n in nps], nps, timed)
    init_insns_table(p, out, heads, keys,
                     "Instructions the last rank executes inside MPI_Init (initinsns.csv: callgrind on "
                     "that rank alone, callees included: PMI, libfabric; min-max over the runs):")
    p("Mean heap per process right after MPI_Init (MB), and its growth per added peer "
      "(least squares over P):")
    p()

    def heap(key, n):
        if n == "slope":
            pts = [(m, v) for m in nps for v in [med(key[0], key[1], m, "heap_mean")[0]] if v is not None]
            s = line([m for m, _ in pts], [v for _, v in pts])[0]
            return "-" if s != s else f"{s:,.0f} B"
        v = med(key[0], key[1], n, "heap_mean")[0]
        return "-" if v is None else f"{v / 1e6:.2f}"
    grid(p, heads, keys, [f"P={n}" for n in nps] + ["per added peer"], nps + ["slope"], heap)


# bench/report's subcommands: name -> (function, arguments)
COMMANDS = {"ondemand-plot": (ondemand_plot, 3), "wholeproc": (wholeproc, 4),
            "ondemand-summary": (ondemand_summary, 2), "ondemand-pmi": (pmi_summary, 2)}
