#!/usr/bin/env python3
"""ch4report.py - SUMMARY.md and heap.png of a bench/real/run-ch4.sh run.

  ch4report.py OUTDIR [COMMAND TIME SKIPPED FAILED]

Reads av.csv, heap.csv, maps.csv, insns.csv of OUTDIR; "ours" is the patched
MPICH, "stock" the unpatched one (same tarball and configure options).
"""
import csv, os, subprocess, sys
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from report import HISTOGRAM, gp, md_table  # noqa: E402

STOCK_AVE = 72   # sizeof(MPIDI_av_entry_t) in MPICH 4.0.2 CH4/OFI as built here
SHAPES = ["dup", "oddeven", "halves", "reversed", "random", "intercomm", "merge", "inter+merge"]
MODES = ["direct", "offset", "stride", "lut", "mlut", "mlut-rand"]


def rows(outdir, name):
    p = os.path.join(outdir, name)
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def ratio(a, b):
    a, b = num(a), num(b)
    if a is None or b is None:
        return "n/a"
    return "%.2f" % (a / b) if b else ("=" if a == b else "inf")


def head_commit():
    """HEAD, and whether the sources of the patched build differ from it"""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    git = lambda *a: subprocess.run(["git", "-C", top] + list(a), capture_output=True, text=True).stdout
    try:
        head = git("log", "-1", "--format=%h %s").strip()
        dirty = git("status", "--porcelain", "--", "patches", "mpich", "include", "src").splitlines()
    except OSError:
        return "?"
    return "`%s`" % head + (" with %d uncommitted files under patches/ mpich/ include/ src/" % len(dirty)
                            if dirty else "")


def av_table(outdir):
    out = []
    for r in rows(outdir, "av.csv"):
        if r["library"] == "stock":
            continue
        out.append([r["library"], r["computed_av"], r["bytes_per_peer"],
                    "pvar avrm_av_entry_bytes = %s B / %s processes" % (r["av_entry_bytes"], r["np"])])
    out.append(["stock", "-", STOCK_AVE, "sizeof(MPIDI_av_entry_t): fi_addr_t dest[8][1] + int is_local, "
                "padded; a struct size, not a pvar (stock has none)"])
    return md_table(["library", "MPIR_CVAR_AVRM_COMPUTED_AV", "bytes per peer", "source"], out)


def heap_tables(outdir):
    h = {(r["library"], r["np"], r["shape"]): r for r in rows(outdir, "heap.csv")}
    m = {(r["library"], r["np"], r["shape"]): r for r in rows(outdir, "maps.csv")}
    nps = sorted({k[1] for k in h}, key=int)
    out, worse = [], []
    for np_ in nps:
        for s in SHAPES:
            st, us, mp = h.get(("stock", np_, s), {}), h.get(("ours", np_, s), {}), m.get(("ours", np_, s), {})
            if not st and not us:
                continue
            out.append([s, np_, st.get("median_bytes", "n/a"), us.get("median_bytes", "n/a"),
                        ratio(us.get("median_bytes"), st.get("median_bytes")),
                        st.get("mean_bytes", "n/a"), us.get("mean_bytes", "n/a"),
                        mp.get("mode_rank0", "n/a"), mp.get("map_bytes_max", "n/a")])
            a, b = num(us.get("median_bytes")), num(st.get("median_bytes"))
            if a is not None and b is not None and a > b:
                worse.append("%s at -n %s (%g > %g)" % (s, np_, a, b))
    t = md_table(["shape", "np", "stock median", "ours median", "ours/stock", "stock mean", "ours mean",
                  "ours map mode (rank 0)", "ours map bytes (max)"], out)
    return t, worse, nps, h


def insns_table(outdir):
    t = {(r["library"], r["op"], r["mode"]): r for r in rows(outdir, "insns.csv")}
    out, worse = [], []
    for op in ("isend", "put"):
        for mode in MODES:
            st, us = t.get(("stock", op, mode), {}), t.get(("ours", op, mode), {})
            if not st and not us:
                continue
            out.append(["MPI_Isend" if op == "isend" else "MPI_Put", mode, us.get("map_mode", "n/a"),
                        us.get("comm_size") or st.get("comm_size", "?"),
                        st.get("ir_libmpi", "n/a"), us.get("ir_libmpi", "n/a"),
                        "%+.1f" % (num(us["ir_libmpi"]) - num(st["ir_libmpi"])) if st and us else "n/a",
                        st.get("ir_libfabric", "n/a"), us.get("ir_libfabric", "n/a"),
                        st.get("ir_total", "n/a"), us.get("ir_total", "n/a")])
            if st and us and num(us["ir_libmpi"]) > num(st["ir_libmpi"]):
                worse.append("%s %s (%s > %s)" % (op, mode, us["ir_libmpi"], st["ir_libmpi"]))
    return md_table(["call", "comm", "ours map mode", "size", "stock libmpi", "ours libmpi", "ours - stock",
                     "stock libfabric", "ours libfabric", "stock total", "ours total"], out), worse


def plot(outdir, nps, h):
    dat = os.path.join(outdir, "heap.dat")
    cols = [(lib, n) for n in nps for lib in ("stock", "ours")]
    vals = []
    with open(dat, "w") as f:
        for s in SHAPES:
            v = [num(h.get((lib, n, s), {}).get("median_bytes")) for lib, n in cols]
            vals += [x for x in v if x is not None]
            f.write('"%s" ' % s + " ".join("NaN" if x is None else "%g" % x for x in v) + "\n")
    color = {"stock": ["#d95f02", "#fc8d62"], "ours": ["#1b9e77", "#66c2a5"]}
    plots = ", ".join("'%s' using %d%s title '%s, -n %s' lc rgb '%s'" %
                      (dat if k == 0 else "", k + 2, ":xtic(1)" if k == 0 else "", lib, n,
                       color[lib][nps.index(n) % 2]) for k, (lib, n) in enumerate(cols))
    gp("""set terminal pngcairo size 1100,600 font ',11'
set output '%s'
set title 'Heap bytes per created communicator (median of K mallinfo2 deltas, max over ranks): ours vs stock MPICH 4.0.2'
%sset ylabel 'bytes per communicator'
set key outside top center horizontal
set grid y
plot %s
""" % (os.path.join(outdir, "heap.png"), HISTOGRAM % (1.12 * max(vals + [1])), plots))


def main():
    outdir = sys.argv[1]
    command = sys.argv[2] if len(sys.argv) > 2 else "run-ch4.sh"
    took = sys.argv[3] if len(sys.argv) > 3 else "?"
    skipped = sys.argv[4].split() if len(sys.argv) > 4 else []
    failed = sys.argv[5].split() if len(sys.argv) > 5 else []
    heap, hworse, nps, h = heap_tables(outdir)
    ins, iworse = insns_table(outdir)
    P = ["## MPICH CH4: ours (mpich-patched) vs stock (mpich-stock), measured\n",
         "Run %s, %d CPUs, at %s. From the repository root:\n" %
         (datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), os.cpu_count(), head_commit()),
         "```sh\nbench/real/%s\n```\n" % command, "It took %s.\n" % took]
    if skipped:
        P.append("Skipped (no build): %s.\n" % ", ".join(skipped))
    if failed:
        P.append("**Failed steps: %s.**\n" % ", ".join(failed))
    P += ["### AV bytes per peer (`avbytes.c`, -n 8)\n", av_table(outdir),
          "\n### Heap bytes per created communicator (`commheap.c`)\n",
          "mallinfo2() delta (uordblks + hblkhd) around each single creation, K creations per shape "
          "kept alive until the end of the shape; median and mean over K, each the max over ranks. "
          "random: a fresh permutation per creation. intercomm / merge / inter+merge: the two halves' "
          "intercomm, its merge, both (same iterations). Map mode and bytes: pvars "
          "`avrm_comm_map_mode` / `avrm_comm_map_bytes` of the last one created (ours only). Both "
          "libraries ran with `yieldshim.so` preloaded (timing only).\n",
          heap, "\n![heap per communicator](heap.png)\n"]
    if hworse:
        P.append("Ours above stock (median): %s.\n" % "; ".join(hworse))
    P += ["\n### Instructions per call to a peer over OFI (`opcost.c`, callgrind)\n",
          "MPIR_CVAR_NOLOCAL=1, FI_PROVIDER=sockets; world rank NP-1 of the parents under callgrind, "
          "8-byte MPI_Isend / MPI_Put round-robin to every other member, 32 x 32 calls after a warm-up batch "
          "(MPI_Put in fence epochs); libmpi = inclusive cost of the "
          "MPI calls minus the calls from libmpi into libfabric (`cgsplit.py`). mlut: merge of the world "
          "with a spawned group; mlut-rand: that merge split with a random key.\n", ins]
    if iworse:
        P.append("\nOurs above stock (libmpi instructions): %s.\n" % "; ".join(iworse))
    open(os.path.join(outdir, "SUMMARY.md"), "w").write("\n".join(P) + "\n")
    if h:
        plot(outdir, nps, h)


if __name__ == "__main__":
    main()
