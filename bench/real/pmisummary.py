#!/usr/bin/env python3
"""SUMMARY.md of bench/real/run-ondemand-pmi.sh from OUTDIR/pmi.csv and
OUTDIR/settings.txt, to stdout.

    pmisummary.py OUTDIR COMMAND

Every figure is a median over the runs (reps) of one launcher, library and
P; heap growth per added peer is the least-squares slope of the mean heap
right after MPI_Init over P."""
import csv
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdtable import grid  # noqa: E402
from ondemandplot import fit  # noqa: E402  (least squares: slope, intercept)


def main():
    out, command = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(os.path.join(out, "pmi.csv"))))
    settings = open(os.path.join(out, "settings.txt")).read().strip()
    init = [r for r in rows if r["point"] == "init"]
    nps = sorted({int(r["np"]) for r in init})
    launchers = [l for l in ("hydra", "srun") if any(r["launcher"] == l for r in init)]
    libs = [l for l in ("ours-lazy", "ours-eager", "stock") if any(r["library"] == l for r in init)]

    def med(launcher, lib, np, col):
        v = [float(r[col]) for r in init
             if r["launcher"] == launcher and r["library"] == lib and int(r["np"]) == np]
        return (statistics.median(v), len(v)) if v else (None, 0)

    p = print
    p("# On-demand addressing per process manager: MPI_Init and first contact (issue 24)")
    p()
    started = time.gmtime(os.path.getmtime(os.path.join(out, "settings.txt")))   # written at the start
    p(f"Command: `{command}`, run {time.strftime('%Y-%m-%d %H:%M UTC', started)}, "
      f"{os.cpu_count()} CPUs; settings: {settings}. Written by bench/real/pmisummary.py from "
      "pmi.csv (every run: launcher, rep, then bench/real/ondemand.c's columns). Emulated hosts "
      "of test/cluster (network namespaces, one per 8 processes, filled in order); hydra is "
      "MPICH's mpiexec (PMI-1 from hydra's proxies), srun is `srun --mpi=pmi2` (Slurm's PMI-2 "
      "plugin serving MPICH's PMI-1 client). ours-lazy resolves a peer's address on first "
      "contact (a PMI get), ours-eager and stock exchange and insert every address in MPI_Init. "
      "Medians over the runs; n is the number of runs. Wall clock with up to "
      f"{nps[-1] if nps else 0} processes on {os.cpu_count()} CPUs: MPI_Init times compare "
      "libraries and launchers within this run; the message latencies are dominated by when "
      "the scheduler runs the two processes (up to tens of milliseconds either way), so they "
      "show no library's cost: a first contact's own cost is the pvar avrm_resolve_time over "
      "avrm_peers_resolved. The instruction counts and heap bytes do not depend on the load.")
    p()
    keys = [(la, lib) for la in launchers for lib in libs]
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
    ipath = os.path.join(out, "initinsns.csv")
    irows = list(csv.DictReader(open(ipath))) if os.path.exists(ipath) else []
    if irows:
        inps = sorted({int(r["np"]) for r in irows})
        p("Instructions the last rank executes inside MPI_Init (initinsns.csv: callgrind on "
          "that rank alone, callees included: PMI, libfabric; one run each), millions:")
        p()

        def insns(key, n):
            v = [float(r["init_insns"]) for r in irows
                 if r["launcher"] == key[0] and r["library"] == key[1] and int(r["np"]) == n]
            return f"{statistics.median(v) / 1e6:.1f}" if v else "-"
        grid(p, heads, keys, [f"P={n}" for n in inps], inps, insns)
    p("Mean heap per process right after MPI_Init (MB), and its growth per added peer "
      "(least squares over P):")
    p()

    def heap(key, n):
        if n == "slope":
            pts = [(m, v) for m in nps for v in [med(key[0], key[1], m, "heap_mean")[0]] if v is not None]
            s = fit([m for m, _ in pts], [v for _, v in pts])[0]
            return "-" if s != s else f"{s:,.0f} B"
        v = med(key[0], key[1], n, "heap_mean")[0]
        return "-" if v is None else f"{v / 1e6:.2f}"
    grid(p, heads, keys, [f"P={n}" for n in nps] + ["per added peer"], nps + ["slope"], heap)

if __name__ == "__main__":
    main()
