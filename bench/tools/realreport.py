"""SUMMARY.md and the PNGs of a bench/real/run-real.sh run (`bench/report
real OUTDIR [COMMAND TIME SKIPPED FAILED]`: steps real, comm-memory,
insns-rate and vci).

Reads the CSVs of OUTDIR that exist (a step not run leaves its section out).
"ours" is the patched MPICH, "stock" the unpatched one (same tarball and
configure options), "ompi" Debian's Open MPI 4.1.4. A ratio from interleaved
repetitions is ours/stock of the same repetition, given as the median over
repetitions with [min, max].
"""
import csv, os, statistics, sys
from datetime import datetime, timezone

import realplots
from report import head_commit, md_table

# sizeof(MPIDI_av_entry_t) in MPICH 4.0.2 CH4/OFI as built here, and what it
# holds: 72 by default; a per-VCI build (make bench-vci) passes its own
STOCK_AVE = int(os.environ.get("STOCK_AV_ENTRY_BYTES", "72"))
STOCK_AVE_WHAT = os.environ.get("STOCK_AV_ENTRY_WHAT", "fi_addr_t dest[8][1] + int is_local, padded")
SHAPES = ["dup", "oddeven", "halves", "reversed", "random", "cartrows", "shared", "create_group",
          "intercomm", "merge", "inter+merge"]
CT_SHAPES = ["dup", "oddeven", "random", "create_group", "intercomm", "merge"]
MODES = ["direct", "offset", "stride", "lut", "mlut", "mlut-rand", "lut16", "mseg"]
LIBS = ["stock", "ours", "ompi"]

# every ours/stock figure of the run, for the closing note:
# (what, median, lo, hi, "higher"|"lower" is better for ours)
ALL = []


def rows(outdir, name):
    p = os.path.join(outdir, name)
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(x, nd=0):
    return "n/a" if x is None else ("%.*f" % (nd, x))


def spread(xs, nd=2):
    """'median [min, max]' of a list of ratios"""
    if not xs:
        return "n/a"
    return "%.*f [%.*f, %.*f]" % (nd, statistics.median(xs), nd, min(xs), nd, max(xs))


def paired(ours, stock):
    """ours/stock of each repetition both have: {rep: value} -> [ratio]"""
    return [ours[r] / stock[r] for r in sorted(ours) if r in stock and stock[r]]


def note(what, xs, better):
    if xs:
        ALL.append((what, statistics.median(xs), min(xs), max(xs), better))


def med(d):
    v = [x for x in d.values() if x is not None]
    return statistics.median(v) if v else None


def av_section(outdir):
    out = []
    for r in rows(outdir, "av.csv"):
        if r["library"] == "stock":
            continue
        out.append([r["library"], r["computed_av"], r["bytes_per_peer"],
                    "pvar avrm_av_entry_bytes = %s B / %s processes" % (r["av_entry_bytes"], r["np"])])
    if not out:
        return []
    out.append(["stock", "-", STOCK_AVE, "sizeof(MPIDI_av_entry_t): %s; a struct size, not a pvar "
                "(stock has none)" % STOCK_AVE_WHAT])
    return ["\n### AV bytes per peer (`avbytes.c`, -n 8)\n",
            md_table(["library", "MPIR_CVAR_AVRM_COMPUTED_AV", "bytes per peer", "source"], out)]


def heap_section(outdir):
    h = {(r["library"], r["np"], r["shape"]): r for r in rows(outdir, "heap.csv")}
    m = {(r["library"], r["np"], r["shape"]): r for r in rows(outdir, "maps.csv")}
    if not h:
        return []
    nps = sorted({k[1] for k in h}, key=int)
    libs = [l for l in LIBS if any(k[0] == l for k in h)]
    P = ["\n### Heap bytes per created communicator (`commheap.c`)\n",
         "mallinfo2() delta (uordblks + hblkhd) around each single creation, K creations per shape kept "
         "alive until the end of the shape; median (the steady cost) and mean (with the handle-pool "
         "blocks MPICH allocates per 1024 communicators, Open MPI's free lists likewise) over K, each "
         "the max over ranks. random: a fresh permutation per creation. cartrows: MPI_Cart_sub rows of "
         "a 2-D grid; shared: MPI_Comm_split_type SHARED (one node: everyone); create_group: "
         "MPI_Comm_create_group of the even ranks; intercomm / merge / inter+merge: the two halves' "
         "intercomm, its merge, both (same iterations). Address layer (ours only, our pvars): the "
         "delta of avrm_av_entry/meta + avrm_map + avrm_table + avrm_index bytes per creation; "
         "'out of line' leaves out avrm_map_bytes (the map structs inline in the communicator "
         "object). Map mode and bytes: `avrm_comm_map_mode` / `avrm_comm_map_bytes` of the last one "
         "created. glibc's tcache off (`GLIBC_TUNABLES=glibc.malloc.tcache_count=0`): mallinfo2 counts "
         "a chunk parked in a tcache bin as in use. MPICH runs preload `yieldshim.so` (timing only).\n"]
    panels, worse = [], []
    for np_ in nps:
        t = []
        for s in SHAPES:
            g = {l: h.get((l, np_, s), {}) for l in libs}
            if not any(g.values()):
                continue
            us, st, mp = g.get("ours", {}), g.get("stock", {}), m.get(("ours", np_, s), {})
            a, b = num(us.get("median_bytes")), num(st.get("median_bytes"))
            ratio = a / b if a is not None and b else None
            if ratio is not None:
                note("heap median bytes, %s -n %s" % (s, np_), [ratio], "lower")
                if a > b:
                    worse.append("%s at -n %s (%g > %g B)" % (s, np_, a, b))
            k = next((g[l]["K"] for l in libs if g[l]), "?")
            t.append([s, k] + [g[l].get("median_bytes", "n/a") if g[l] else "n/a" for l in libs] +
                     [fmt(ratio, 3)] + [g[l].get("mean_bytes", "n/a") if g[l] else "n/a" for l in libs] +
                     ["%s / %s" % (us.get("avrm_median", "n/a"), us.get("avrm_mean", "n/a")),
                      us.get("avrm_heap_mean", "n/a"), mp.get("mode_rank0", "n/a"),
                      mp.get("map_bytes_max", "n/a")])
        P += ["\n**-n %s**\n" % np_,
              md_table(["shape", "K"] + ["%s median" % l for l in libs] + ["ours/stock"] +
                       ["%s mean" % l for l in libs] +
                       ["ours address layer median / mean", "of it out of line (mean)", "ours map mode",
                        "ours map bytes"], t)]
        panels.append((np_, {(l, s): num(h.get((l, np_, s), {}).get("median_bytes"))
                             for l in libs for s in SHAPES}))
    realplots.heap(outdir, panels, SHAPES, libs)
    P.append("\n![heap per communicator](heap.png)\n")
    if worse:
        P.append("Ours above stock (median): %s.\n" % "; ".join(worse))
    return P


def ctime_section(outdir):
    c = rows(outdir, "ctime.csv")
    if not c:
        return []
    v = {}
    for r in c:
        v.setdefault((r["library"], r["np"], r["shape"]), {})[r["rep"]] = num(r["median_us"])
    nps = sorted({r["np"] for r in c}, key=int)
    K = next((r["K"] for r in c if r["shape"] in CT_SHAPES), c[0]["K"])   # not mpi_init's K=1
    reps = len({r["rep"] for r in c})
    t, series = [], []
    for np_ in nps:
        ser = {}
        for s in CT_SHAPES:
            o, st, om = v.get(("ours", np_, s), {}), v.get(("stock", np_, s), {}), v.get(("ompi", np_, s), {})
            if not o and not st:
                continue
            rs = paired(o, st)
            note("creation time, %s -n %s" % (s, np_), rs, "lower")
            if rs:
                ser[s] = (statistics.median(rs), min(rs), max(rs))
            t.append([s, np_, fmt(med(st)), fmt(med(o)), spread(rs), fmt(med(om)) if om else "n/a"])
        series.append(("ours/stock, -n %s" % np_, ser))
    realplots.ratios(outdir, "ctime.png", "Communicator creation time, ours/stock (median over "
                     "repetitions, bars: min-max; below 1: ours faster)", "ours / stock", CT_SHAPES, series)
    return ["\n### Creation time per communicator (`commheap.c`, %d interleaved repetitions)\n" % reps,
            "Per repetition and library one `commheap` run of K=%s creations per shape; the time of one "
            "creation is its MPI_Wtime span on each rank after a barrier, median over K, max over ranks. "
            "Ratio: ours/stock of the same repetition, median [min, max] over repetitions (below 1: ours "
            "faster). 2 CPUs, oversubscribed: the times are dominated by scheduling (MPICH runs with "
            "`yieldshim.so`, Open MPI yields by itself), so the ratio, not the absolute time, is the "
            "figure. µs columns: median over repetitions.\n" % K,
            md_table(["shape", "np", "stock µs", "ours µs", "ours/stock", "Open MPI µs"], t),
            "\n![creation time ratio](ctime.png)\n"]


def insns_section(outdir):
    t = {(r["library"], r["op"], r["mode"]): r for r in rows(outdir, "insns.csv")}
    if not t:
        return []
    out, worse = [], []
    for op in ("isend", "put"):
        for mode in MODES:
            st, us = t.get(("stock", op, mode), {}), t.get(("ours", op, mode), {})
            if not st and not us:
                continue
            d = num(us["ir_libmpi"]) - num(st["ir_libmpi"]) if st and us else None
            out.append(["MPI_Isend" if op == "isend" else "MPI_Put", mode, us.get("map_mode", "n/a"),
                        us.get("comm_size") or st.get("comm_size", "?"),
                        st.get("ir_libmpi", "n/a"), us.get("ir_libmpi", "n/a"),
                        "n/a" if d is None else "%+.1f" % d,
                        st.get("ir_libfabric", "n/a"), us.get("ir_libfabric", "n/a"),
                        st.get("ir_total", "n/a"), us.get("ir_total", "n/a")])
            if d is not None:
                note("libmpi instructions per %s, %s" % (op, mode),
                     [num(us["ir_libmpi"]) / num(st["ir_libmpi"])], "lower")
                if d > 0:
                    worse.append("%s %s (%+.1f)" % (op, mode, d))
    P = ["\n### Instructions per call to a peer over OFI (`opcost.c`, callgrind)\n",
         "MPIR_CVAR_NOLOCAL=1; world rank NP-1 of the parents under callgrind, 8-byte MPI_Isend / "
         "MPI_Put round-robin to every other member, 32 x 32 calls after a warm-up batch (MPI_Put in "
         "fence epochs); libmpi = inclusive cost of the MPI calls minus the calls from libmpi into "
         "libfabric (`cgsplit.py`). Deterministic: one run. mlut: merge of the world with a spawned "
         "group; mlut-rand: that merge split with a random key.\n",
         md_table(["call", "comm", "ours map mode", "size", "stock libmpi", "ours libmpi", "ours - stock",
                   "stock libfabric", "ours libfabric", "stock total", "ours total"], out)]
    if worse:
        P.append("\nOurs above stock (libmpi instructions): %s.\n" % "; ".join(worse))
    return P


def rate_section(outdir):
    r_ = rows(outdir, "rate.csv")
    if not r_:
        return []
    v, size, mode = {}, {}, {}
    for r in r_:
        v.setdefault((r["library"], r["region"]), {})[r["rep"]] = num(r["rate_median"])
        size[r["region"]] = r["comm_size"]
        if r["library"] == "ours":
            mode[r["region"]] = r["map_mode"]
    reps = len({r["rep"] for r in r_})
    t, series = [], []
    for op, call in (("isend", "MPI_Isend"), ("put", "MPI_Put")):
        ser = {}
        for m in MODES:
            reg = "%s-%s" % (op, m)
            o, st = v.get(("ours", reg), {}), v.get(("stock", reg), {})
            if not o and not st:
                continue
            rs = paired(o, st)
            note("issue rate %s, %s" % (call, m), rs, "higher")
            if rs:
                ser[m] = (statistics.median(rs), min(rs), max(rs))
            t.append([call, m, mode.get(reg, "n/a"), size.get(reg, "?"),
                      fmt(med(st) / 1e6 if med(st) else None, 2), fmt(med(o) / 1e6 if med(o) else None, 2),
                      spread(rs)])
        series.append((call, ser))
    realplots.ratios(outdir, "rate.png", "Issue rate of 8-byte calls over OFI, ours/stock (median over "
                     "interleaved runs, bars: min-max; above 1: ours faster)", "ours / stock", MODES, series)
    return ["\n### Issue rate over OFI (`opcost.c`, %d interleaved runs per library)\n" % reps,
            "Same communicators and calls as the instruction counts (lut16 and mseg in opcost's second "
            "run, a world of 18 with 2 spawned processes), run plainly: the measurer's "
            "MPI_Wtime span of each batch of B calls (completion outside), rate = B / the median span; "
            "per repetition ours/stock, median [min, max] over repetitions (above 1: ours faster). Peers "
            "preload `yieldshim.so`, the measurer does not. Rates in million calls per second, median "
            "over repetitions.\n",
            md_table(["call", "comm", "ours map mode", "size", "stock M/s", "ours M/s", "ours/stock"], t),
            "\n![issue rate ratio](rate.png)\n"]


def gen_section(outdir):
    g = rows(outdir, "gen.csv")
    if not g:
        return []
    v = {(r["library"], r["region"]): r for r in g}
    libs = [l for l in LIBS if any(k[0] == l for k in v)]
    gens = sorted({r["region"] for r in g}, key=lambda s: int(s.split("gen")[1]))
    t, series = [], []
    for reg in gens:
        row = [reg.split("-")[1], next(v[(l, reg)]["comm_size"] for l in libs if (l, reg) in v),
               v.get(("ours", reg), {}).get("map_mode", "n/a")]
        for l in libs:
            x, x0 = num(v.get((l, reg), {}).get("rate_median")), num(v.get((l, "put-gen0"), {}).get("rate_median"))
            row += [fmt(x / 1e6 if x else None, 2), fmt(x / x0 if x and x0 else None, 2)]
        o, s = num(v.get(("ours", reg), {}).get("rate_median")), num(v.get(("stock", reg), {}).get("rate_median"))
        if o and s:
            note("Put rate, generation %s" % reg.split("gen")[1], [o / s], "higher")
        row.append(fmt(o / s if o and s else None, 2))
        t.append(row)
    for l in libs:
        series.append((realplots.NAME[l], realplots.COLOR[l],
                       [(int(reg.split("gen")[1]), num(v.get((l, reg), {}).get("rate_median")) / 1e6)
                        for reg in gens if (l, reg) in v]))
    realplots.lines(outdir, "gen.png", "MPI_Put rate on generations of odd/even splits (paper Fig. 19), "
                    "one target", "generation (0: MPI_COMM_WORLD)", "million puts per second", series, logy=True)
    head = ["gen", "size", "ours map mode"]
    for l in libs:
        head += ["%s M/s" % l, "%s / its gen0" % l]
    return ["\n### Put rate on generations of odd/even splits (`opcost.c` G=%d, paper Fig. 19)\n" % (len(gens) - 1),
            "Generation N: N odd/even splits deep from MPI_COMM_WORLD (-n %s), each the odd half of the one "
            "before; the measurer (world rank NP-1, in every generation) puts 8 bytes to one target, the "
            "generation's rank 0, B per batch, rate = B / the median batch span. MPICH: over OFI "
            "(MPIR_CVAR_NOLOCAL=1); Open MPI: its default components on one host (osc rdma over shared "
            "memory), so its absolute rate is not comparable, only its trend over generations. One run "
            "per library.\n" % g[0]["comm_size"] if g else "",
            md_table(head + ["ours/stock"], t), "\n![put rate per generation](gen.png)\n"]


def netpipe_section(outdir):
    n = rows(outdir, "netpipe.csv")
    if not n:
        return []
    v = {}
    for r in n:
        v.setdefault((r["library"], r["path"], int(r["bytes"])), {})[r["rep"]] = (num(r["usec"]), num(r["mbps"]))
    sizes = sorted({k[2] for k in v})
    small = min([s for s in sizes if s >= 8] or sizes)
    big = max(sizes)
    reps = len({r["rep"] for r in n})
    t, series = [], []
    for path in ("shm", "ofi"):
        for lib in ("stock", "ours"):
            pts = []
            for s in sizes:
                d = v.get((lib, path, s), {})
                if d:
                    pts.append((s, statistics.median(x[0] for x in d.values())))
            if pts:
                series.append(("%s, %s path" % (lib, path), realplots.COLOR[lib] if path == "shm" else
                               {"stock": "#fc8d62", "ours": "#66c2a5"}[lib], pts))
        for s, k, what, better in ((small, 0, "latency µs", "lower"), (big, 1, "bandwidth Mbit/s", "higher")):
            o, st = v.get(("ours", path, s), {}), v.get(("stock", path, s), {})
            if not o or not st:
                continue
            rs = paired({r: x[k] for r, x in o.items()}, {r: x[k] for r, x in st.items()})
            note("NetPIPE %s path, %s at %d B" % (path, what.split()[0], s), rs, better)
            t.append([path, "%s at %d B" % (what, s), fmt(statistics.median(x[k] for x in st.values()), 2),
                      fmt(statistics.median(x[k] for x in o.values()), 2), spread(rs)])
    realplots.lines(outdir, "netpipe.png", "NetPIPE (NPmpich2) one-way time, ours vs stock", "bytes",
                    "µs (median over runs)", series, logx=True, logy=True)
    return ["\n### NetPIPE (Debian's `NPmpich2`, %d interleaved runs per library and path)\n" % reps,
            "2 processes; shm path: MPICH's CH4 shared memory; ofi path: MPIR_CVAR_NOLOCAL=1, the OFI "
            "netmod on the provider above. NPmpich2 is linked against Debian's libmpich.so.12; a private "
            "libmpich.so.12 -> PREFIX/lib/libmpi.so.12 first in LD_LIBRARY_PATH runs it on each build "
            "(as `test/dropin/run.sh`). `-p 0 -u %d`. Ratio ours/stock per run, median [min, max].\n" % big,
            md_table(["path", "figure", "stock", "ours", "ours/stock"], t),
            "\n![NetPIPE latency](netpipe.png)\n"]


def msgrate_section(outdir):
    m = rows(outdir, "msgrate.csv")
    if not m:
        return []
    v = {}
    for r in m:
        v.setdefault((r["library"], r["path"]), []).append(r)
    t = []
    for path in ("shm", "ofi"):
        for col, what, scale, nd, better in (("msgs_per_s", "rate (median window), M msg/s", 1e-6, 3, "higher"),
                                             ("msgs_per_s_mean", "rate (all windows), M msg/s", 1e-6, 3, "higher"),
                                             ("latency_us", "latency (median), µs", 1, 2, "lower")):
            o = {r["rep"]: num(r.get(col)) for r in v.get(("ours", path), [])}
            st = {r["rep"]: num(r.get(col)) for r in v.get(("stock", path), [])}
            if not o and not st:
                continue
            rs = paired(o, st)
            note("msgrate.c %s path, %s" % (path, what.split(",")[0]), rs, better)
            t.append([path, what, fmt(med(st) * scale if med(st) else None, nd),
                      fmt(med(o) * scale if med(o) else None, nd), spread(rs)])
    return ["\n### Message rate and latency (`msgrate.c`, OSU-style, %d interleaved runs)\n" %
            len({r["rep"] for r in m}),
            "One pair: windows of %s 8-byte MPI_Isend to posted MPI_Irecv, a 4-byte ack per window, %s "
            "windows after a warm-up; then as many 8-byte ping-pongs. Median window: W / the median "
            "window span (robust to a window in which another job preempted a rank); all windows: the "
            "plain total; latency: the median round trip / 2. Medians over runs; ratio per run, median "
            "[min, max].\n" % (m[0]["window"], m[0]["windows"]),
            md_table(["path", "figure", "stock", "ours", "ours/stock"], t)]


def mtrate_section(outdir):
    m = rows(outdir, "mtrate.csv")
    if not m:
        return []
    v = {}
    for r in m:
        v.setdefault((r["library"], int(r["threads"])), {})[r["rep"]] = r
    t = []
    for nt in sorted({k[1] for k in v}):
        for col, what in (("msgs_per_s", "sum of threads' median-window rates"),
                          ("msgs_per_s_mean", "all windows / slowest thread")):
            o = {k: num(r[col]) for k, r in v.get(("ours", nt), {}).items()}
            st = {k: num(r[col]) for k, r in v.get(("stock", nt), {}).items()}
            rs = paired(o, st)
            note("msgrate.c threads mode, %d thread(s) on %d VCI(s), %s" % (nt, nt, what), rs, "higher")
            t.append([str(nt), what, fmt(med(st) * 1e-6 if med(st) else None, 3),
                      fmt(med(o) * 1e-6 if med(o) else None, 3), spread(rs)])
    return ["\n### Multi-threaded message rate (`msgrate.c` threads mode, %d interleaved runs)\n" %
            len({r["rep"] for r in m}),
            "One pair over OFI (MPIR_CVAR_NOLOCAL=1), MPI_THREAD_MULTIPLE. Each process runs T threads, "
            "thread t on its own MPI_Comm_dup of the world, with MPIR_CVAR_CH4_NUM_VCIS=T: MPICH's "
            "per-VCI build puts each communicator on its own VCI. Each thread: windows of %s 8-byte "
            "MPI_Isend to posted MPI_Irecv and a 4-byte ack, %s windows after a warm-up. M msg/s, "
            "medians over runs; ratio per run, median [min, max]. On %d CPUs, T >= 2 puts 2T spinning "
            "threads on them.\n" % (m[0]["window"], m[0]["windows"], os.cpu_count()),
            md_table(["threads = VCIs", "figure", "stock", "ours", "ours/stock"], t)]


def closing_note():
    if not ALL:
        return []
    t, worse = [], []
    for what, m, lo, hi, better in ALL:
        bad = m > 1 if better == "lower" else m < 1
        clear = lo > 1 if better == "lower" else hi < 1
        verdict = ("worse" if lo == hi else "worse, beyond the spread" if clear else
                   "worse, within the spread") if bad else ""
        t.append([what, "%.3f [%.3f, %.3f]" % (m, lo, hi) if lo != hi else "%.3f" % m,
                  "%s is better" % better, verdict])
        if bad:
            worse.append(what)
    return ["\n### Closing note: every ours/stock figure of this run\n",
            "One row per figure above, median [min, max] over repetitions where the figure was repeated "
            "(heap bytes and instructions are deterministic: one value). 'worse' = ours on the wrong side "
            "of 1 by the median; 'beyond the spread' = even the best repetition is; 'within': some "
            "repetition is on the right side.\n",
            md_table(["figure", "ours/stock", "better", "ours worse?"], t),
            "\nOurs worse than stock by the median in %d of %d figures%s\n" %
            (len(worse), len(ALL), (": " + "; ".join(worse) + ".") if worse else ".")]


def real(outdir, command="bench/real/run-real.sh", took="?", skipped="", failed=""):
    skipped, failed = skipped.split(), failed.split()
    prov = os.path.join(outdir, "provider.txt")
    settings = os.path.join(outdir, "settings.txt")
    P = ["## Measured on the real libraries: ours vs stock MPICH 4.0.2 (vs Open MPI 4.1.4)\n",
         "Run %s, %d CPUs, at %s. From the repository root:\n" %
         (datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), os.cpu_count(), "`%s`" % head_commit()),
         "```sh\n%s\n```\n" % command, "It took %s.\n" % took]
    if os.path.exists(settings):
        P.append("Settings (`run-real.sh`'s knobs): `%s`.\n" % open(settings).read().strip())
    if os.path.exists(prov):
        lines = [l.split(None, 1) for l in open(prov).read().splitlines() if l.strip()]
        found = ["%s: %s" % (l[0], l[1]) for l in lines if l[0] != "chosen"]
        P.append("OFI runs use FI_PROVIDER=%s (%s).\n" % (lines[-1][1], "libfabric providers, `fiprov.c` "
                 "(RDM endpoint, tagged + RMA), then a 2-process MPI run on each MPICH build: " +
                 "; ".join(found) if found else "not probed"))
    steps = os.path.join(outdir, "steps.txt")
    if os.path.exists(steps):
        st = [l.split() for l in open(steps)]
        marks = [(s[0], int(s[1])) for s in st if len(s) == 2]
        dur = ["%s %d s" % (marks[i][0], marks[i + 1][1] - marks[i][1]) for i in range(len(marks) - 1)]
        runs = ["%s %s s" % (s[1], s[2]) for s in st if s[0] == "run" and len(s) == 3]
        P.append("Step times: %s.%s\n" % (", ".join(dur), (" Single runs: " + ", ".join(runs) + ".") if runs else ""))
    if skipped:
        P.append("Skipped (not there): %s.\n" % ", ".join(skipped))
    if failed:
        P.append("**Failed steps: %s.**\n" % ", ".join(failed))
    for sec in (av_section, heap_section, ctime_section, insns_section, rate_section, gen_section,
                netpipe_section, msgrate_section, mtrate_section):
        P += sec(outdir)
    P += closing_note()
    open(os.path.join(outdir, "SUMMARY.md"), "w").write("\n".join(P) + "\n")


COMMANDS = {"real": (real, (1, 5))}
