"""README.md's figures (`bench/report readme README.md`): the block between
the BEGIN and END lines, a table written from the stamped sets' CSVs, each
row naming its set and the commit and date of its figures. bench/run
rewrites it after every stamped step, as it does doc/results.md; make
check's results-fresh test fails when the block is not what this writes now,
so the README shows no hand-copied figure. Only tables are written here: the
prose around the block says what the rows mean, never a number.
"""
import csv
import os
import sys

from report import md_table

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "bench"))
import steps as steptable  # noqa: E402

RESULTS = os.path.join(TOP, "bench", "results")
BEGIN = ("<!-- figures: written by `bench/report readme README.md` from bench/results "
         "(bench/tools/readme.py); do not edit by hand -->")
END = "<!-- figures end -->"
# sizeof(MPIDI_av_entry_t) of stock 4.0.2 as built here (no pvar in stock):
# the same constant bench/report real prints in the real set's table
from realreport import STOCK_AVE  # noqa: E402

MAPS = ["direct", "offset", "stride", "ilut", "join"]      # cells.csv map_mode: one row
PROVIDER = "tcp;ofi_rxm"


def rows_of(set_name, name):
    with open(os.path.join(RESULTS, set_name, name)) as f:
        return list(csv.DictReader(f))


def figures_of(set_name):
    """'[set](link), commit, date' of a set, from its stamp."""
    m, _ = steptable.stamp_of(os.path.join(RESULTS, set_name, "SUMMARY.md"))
    when = f"{m.group(2)}, {m.group(3)[:10]}" if m else "not stamped"
    return f"[{set_name}](bench/results/{set_name}/SUMMARY.md), {when}"


def span(values, fmt="{:.0f}", sep="-"):
    """min-max of values as fmt writes them, one figure when they agree."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}{sep}{hi}"


def size(b):
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(b) >= k:
            return f"{b / k:,.1f} {unit}"
    return f"{b:,.0f} B"


def address_rows():
    av = rows_of("real", "av.csv")
    stored = [float(r["bytes_per_peer"]) for r in av if r["library"] == "ours" and r["computed_av"] == "0"]
    computed = [float(r["bytes_per_peer"]) for r in av if r["library"] == "ours" and r["computed_av"] == "1"]
    ours = f"{span(stored)} B" + (f" ({span(computed)} B computed)" if computed else "")
    return [["address vector entry, bytes per peer (pvar `avrm_av_entry_bytes`)", ours,
             f"{STOCK_AVE} B (struct size)", "-", figures_of("real")]]


def comm_rows():
    slopes = {(r["library"], r["shape"]): float(r["slope_bytes_per_process"])
              for r in rows_of("comm-memory", "slopes.csv")}
    out = []
    for shape, what in (("dup", "`MPI_Comm_dup` of the world"), ("oddeven", "odd/even `MPI_Comm_split`"),
                        ("cart", "2-D `MPI_Cart_create`"), ("comm_group", "`MPI_Comm_group`"),
                        ("range_incl", "`MPI_Group_range_incl`"), ("win", "`MPI_Win_create`")):
        cell = [f"{slopes[(lib, shape)]:.1f} B" if (lib, shape) in slopes else "-"
                for lib in ("ours", "stock", "ompi")]
        out.append([f"{what}: heap per process of the world"] + cell + [figures_of("comm-memory")])
    return out


def ondemand_rows():
    slopes = {(r["library"], r["provider"], r["point"]): float(r["heap_mean_per_peer"])
              for r in rows_of("ondemand", "slopes.csv")}
    out = []
    for point, what in (("init", "right after `MPI_Init`"), ("alltoall", "after an `MPI_Alltoall`")):
        cell = [size(slopes[(lib, PROVIDER, point)]) if (lib, PROVIDER, point) in slopes else "-"
                for lib in ("ours-lazy", "stock", "ompi-ob1")]
        out.append([f"heap growth per added peer {what}, {PROVIDER} (mean over processes)"] + cell
                   + [figures_of("ondemand")])
    whole = {(int(r["N"]), r["provider"], r["application"], r["library"]): float(r["bytes_per_process"])
             for r in rows_of("ondemand", "wholeproc.csv")}
    n = max(k[0] for k in whole)
    out.append([f"whole process after `MPI_Init` at {n:,} processes, {PROVIDER} (simulated)",
                size(whole[(n, PROVIDER, "init", "ours-lazy")]),
                size(whole[(n, PROVIDER, "init", "stock-4.0.2")]), "-", figures_of("ondemand")])
    init = rows_of("ondemand-pmi", "initinsns.csv")
    launchers = sorted({r["launcher"] for r in init})
    nps = sorted({int(r["np"]) for r in init})

    def insns(lib):
        return span([float(r["init_insns"]) / 1e6 for r in init if r["library"] == lib]) + " M"
    out.append([f"instructions of one process in `MPI_Init` ({', '.join(launchers)}; "
                f"P = {', '.join(map(str, nps))} on emulated hosts)", insns("ours-lazy"), insns("stock"), "-",
                figures_of("ondemand-pmi")])
    return out


def insns_rows():
    cells = [r for r in rows_of("insns", "cells.csv") if r["build"] == "default"]
    out = []
    for kind, where in (("stored", "over OFI"), ("shm", "over shared memory")):
        for op, call in (("isend", "MPI_Isend"), ("put", "MPI_Put")):
            for maps, label in ((MAPS, "direct, offset, stride, ilut, join maps"), (["mlut32"], "mlut32 maps")):
                sel = [r for r in cells if r["kind"] == kind and r["op"] == op and r["map_mode"] in maps]
                if not sel:
                    continue
                fmt = "{:.0f}" if kind == "stored" else "{:.1f}"
                diff = span([float(r["ours"]) - float(r["stock"]) for r in sel],
                            "{:+.1f}" if kind == "shm" else "{:+.0f}", "..")
                out.append([f"instructions per 8-byte `{call}` {where}, {label}",
                            f"{span([float(r['ours']) for r in sel], fmt)} ({diff})",
                            span([float(r["stock"]) for r in sel], fmt), "-", figures_of("insns")])
    return out


def block():
    head = ["per process", "ours", "stock 4.0.2", "Open MPI 4.1", "figures of"]
    rows = address_rows() + comm_rows() + ondemand_rows() + insns_rows()
    note = ("Instruction rows: ours (ours minus stock, map by map), the range over the maps named. "
            "A cell \"-\": not measured by that set.")
    return [BEGIN, "", md_table(head, rows), "", note, "", END]


def readme(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if BEGIN not in lines or END not in lines:
        sys.exit(f"bench/report readme: {path} has no figures block ({BEGIN!r} ... {END!r})")
    i, j = lines.index(BEGIN), lines.index(END)
    text = "\n".join(lines[:i] + block() + lines[j + 1:])
    with open(path, "w") as f:
        f.write(text)


COMMANDS = {"readme": (readme, 1)}
