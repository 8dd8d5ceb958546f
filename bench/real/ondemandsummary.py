#!/usr/bin/env python3
"""Write OUTDIR/SUMMARY.md of bench/real/run-ondemand.sh from its files:
ondemand.csv, slopes.csv, fiav.csv, initinsns.csv, settings.txt, wholeproc.md.

    ondemandsummary.py OUTDIR COMMAND

Every figure here is read from those files; the text around them states only
what the files define (what each column is), never a conclusion that a rerun
could contradict.
"""
import csv
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdtable import grid  # noqa: E402


def fmt_b(v):
    return f"{float(v):,.0f} B"


def main(out, command):
    rows = list(csv.DictReader(open(os.path.join(out, "ondemand.csv"))))
    slopes = list(csv.DictReader(open(os.path.join(out, "slopes.csv"))))
    fiav = list(csv.DictReader(open(os.path.join(out, "fiav.csv"))))
    settings = open(os.path.join(out, "settings.txt")).read().strip()
    whole = open(os.path.join(out, "wholeproc.md")).read().strip() \
        if os.path.exists(os.path.join(out, "wholeproc.md")) else "(not run: no bench/bench-memory)"
    libs = ["ours-lazy", "ours-eager", "stock", "ompi-ob1"]
    provs = sorted({r["provider"] for r in slopes}, reverse=True)
    nps = sorted({int(r["np"]) for r in rows})
    p = print
    p("# On-demand addressing: bytes per peer (issue 24)")
    p()
    p(f"Command: `{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
      f"{os.cpu_count()} CPUs; settings: {settings}. Written by bench/real/ondemandsummary.py "
      "from the files beside it: ondemand.csv (every run: heap and RSS per process right after "
      "MPI_Init, after a 2-D stencil, after an all-to-all of 512 B per peer; MPI_Init time; first "
      "and later message latency), slopes.csv (least squares over P per library, provider and point), "
      "ondemand.png, fiav.csv (libfabric's AV alone, no MPI), world.csv and wholeproc.md (the "
      "simulator's whole process at up to 786432 processes). ours-lazy is on demand "
      "(MPIR_CVAR_AVRM_ON_DEMAND_AV=1: it engages over tcp;ofi_rxm; sockets stays eager, "
      "the report says why), ours-eager sets it to 0, stock is MPICH 4.0.2 from the same "
      "tarball and options, ompi-ob1 is Debian's Open MPI (ob1 over self/vader/tcp, one node: "
      "it ignores FI_PROVIDER, so its row repeats under each provider).")
    p()
    for point, title in (("init", "right after MPI_Init"), ("stencil", "after the stencil"),
                         ("alltoall", "after the all-to-all")):
        p(f"Mean heap per process, growth per added peer, {title} (slopes.csv heap_mean_per_peer; "
          f"P = {' '.join(map(str, nps))}):")
        p()

        def slope_cell(key, lib, point=point):
            r = [s for s in slopes if s["library"] == lib and s["provider"] == key[0] and s["point"] == point]
            return fmt_b(r[0]["heap_mean_per_peer"]) if r else "-"
        grid(p, ["provider"], [(v,) for v in provs], libs, libs, slope_cell, numeric=False)
    p("Heap per process right after MPI_Init (ondemand.csv; mean and busiest process), "
      "at the smallest and largest P:")
    p()

    def heap_cell(key, n):
        r = [x for x in rows if x["library"] == key[1] and x["provider"] == key[0]
             and x["point"] == "init" and int(x["np"]) == n]
        return f"{float(r[0]['heap_mean']) / 1e6:.2f} / {float(r[0]['heap_max']) / 1e6:.2f} MB" if r else "-"
    ends = (nps[0], nps[-1])
    grid(p, ["provider", "library"], [(v, lib) for v in provs for lib in libs],
         [f"P={n} mean / max" for n in ends], ends, heap_cell, numeric=False, skip_empty=True)
    p("libfabric's AV alone, bytes per inserted peer (fiav.csv, largest count): " +
      "; ".join(f"{r['provider']} {float(r['bytes_per_peer']):.0f} B"
                for r in fiav if r["peers"] == max(x["peers"] for x in fiav if x["provider"] == r["provider"])))
    p()
    ipath = os.path.join(out, "initinsns.csv")
    irows = list(csv.DictReader(open(ipath))) if os.path.exists(ipath) else []
    if irows:
        inps = sorted({int(r["np"]) for r in irows})
        ilibs = [l for l in libs if any(r["library"] == l for r in irows)]
        p("Instructions one process executes inside MPI_Init (initinsns.csv: callgrind on the last rank, "
          "callees included, PMI and libfabric among them; min-max over the runs, which differ by what "
          "blocking waits leave in the count):")
        p()

        def insns_cell(key, n):
            v = [float(r["init_insns"]) for r in irows
                 if r["library"] == key[1] and r["provider"] == key[0] and int(r["np"]) == n]
            return ("-" if not v else f"{min(v) / 1e6:.2f}M" if max(v) - min(v) < 5e3
                    else f"{min(v) / 1e6:.2f}-{max(v) / 1e6:.2f}M")
        grid(p, ["provider", "library"], [(v, lib) for v in provs for lib in ilibs],
             [f"P={n}" for n in inps], inps, insns_cell)
    p("MPI_Init time and message latencies in ondemand.csv are wall clock with up to "
      f"{nps[-1]} processes on {os.cpu_count()} CPUs: scheduler noise, not a measurement of the "
      "library; a first contact's cost is the pvars `avrm_resolve_time` / `avrm_peers_resolved`.")
    p()
    p("![heap per process against P](ondemand.png)")
    p()
    p("## At scale (wholeproc.md)")
    p()
    p(whole)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
