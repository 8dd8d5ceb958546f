"""README.md's figures (`bench/report readme README.md`): the block between
the BEGIN and END lines, a table written from the stamped sets' files, each
row naming its set and the commit and date of its figures, and a note on
what the rows are. A row whose set is stale (the code or settings it
measures changed since its figures: maint/results-stamp.py) says so in its
"figures of" cell. bench/run rewrites the block after every stamped step, as
it does doc/results.md; make check's results-fresh test fails when the block
is not what this writes now (and a set fails when its files changed since
its stamp), so no figure in the block is copied by hand and no stale row
goes unmarked. A figure a set does not
have stops the command naming the set, file and row: a README with a wrong
or missing figure is worse than a failed check. "-" is only for Open MPI,
which the steps measure where Debian has it.
"""
import os
import re
import sys

from report import by_shape, csv_rows, fmt, md_table

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "bench"))
import steps as steptable  # noqa: E402

# where the sets live (results-fresh.sh's control points it at a copy)
RESULTS = os.environ.get("AVRM_RESULTS_DIR", os.path.join(TOP, "bench", "results"))
BEGIN = ("<!-- figures: written by `bench/report readme README.md` from bench/results "
         "(bench/tools/readme.py); do not edit by hand -->")
END = "<!-- figures end -->"
MAPS = ["direct", "offset", "stride", "ilut", "join"]      # cells.csv map_mode: one row
PROVIDER = "tcp;ofi_rxm"


def missing(set_name, what):
    sys.exit(f"bench/report readme: set {set_name} has no {what} (bench/results/{set_name}: "
             f"rerun `bench/run {set_name.split('/')[0]}`)")


def rows_of(set_name, name):
    path = os.path.join(RESULTS, set_name, name)
    if not os.path.exists(path):
        missing(set_name, name)
    with open(path) as f:
        return list(csv_rows(f))


def one(table, key, set_name, name):
    """table[key], or stop naming the set, file and row."""
    if key not in table:
        missing(set_name, f"row {key} in {name}")
    return table[key]


STALE = {}     # {set: (what changed, commit)} of the stale sets, set by block()


def figures_of(set_name):
    """'[set](link), commit, date' of a set, from its stamp, and the stale
    mark when it is stale."""
    m, _ = steptable.stamp_of(os.path.join(RESULTS, set_name, "SUMMARY.md"))
    if not m:
        missing(set_name, "stamp in its SUMMARY.md")
    mark = steptable.stale_mark(*STALE[set_name]) if set_name in STALE else ""
    return f"[{set_name}](bench/results/{set_name}/SUMMARY.md), {m.group(2)}, {m.group(3)[:10]}{mark}"


def span(values, form="{:.0f}", sep="-"):
    """min-max of values as form writes them, one figure when they agree."""
    lo, hi = form.format(min(values)), form.format(max(values))
    return lo if lo == hi else f"{lo}{sep}{hi}"


def ompi_cell(table, key, form):
    """Open MPI's cell: its figure as form writes it, "-" where the set did not run it."""
    return form(table[key]) if key in table else "-"


def address_rows():
    av = rows_of("real", "av.csv")
    stored = [float(r["bytes_per_peer"]) for r in av if r["library"] == "ours" and r["computed_av"] == "0"]
    computed = [float(r["bytes_per_peer"]) for r in av if r["library"] == "ours" and r["computed_av"] == "1"]
    if not stored or not computed:
        missing("real", "ours' rows (stored and computed AV) in av.csv")
    # stock has no pvar: the real set's table gives its entry's struct size
    with open(os.path.join(RESULTS, "real", "SUMMARY.md")) as f:
        m = re.search(r"^\| stock \| - \| (\d+) \|", f.read(), re.M)
    if not m:
        missing("real", "stock row in its SUMMARY.md's AV table")
    return [["address vector entry, bytes per peer (pvar `avrm_av_entry_bytes`)",
             f"{span(stored)} B ({span(computed)} B computed)", f"{m.group(1)} B (struct size)", "-",
             figures_of("real")]]


def comm_rows():
    rows = rows_of("comm-memory", "slopes.csv")
    slopes = {(r["library"], r["shape"]): float(r["slope_bytes_per_process"]) for r in rows}
    nps = sorted(int(k[3:]) for k in rows[0] if k.startswith("np=")) if rows else []
    if not nps:
        missing("comm-memory", "np= columns in slopes.csv")
    out = []
    for shape, what in (("dup", "`MPI_Comm_dup` of the world"), ("oddeven", "odd/even `MPI_Comm_split`"),
                        ("cart", "2-D `MPI_Cart_create`"), ("comm_group", "`MPI_Comm_group`"),
                        ("range_incl", "`MPI_Group_range_incl`"), ("win", "`MPI_Win_create`")):
        cells = [f"{one(slopes, (lib, shape), 'comm-memory', 'slopes.csv'):.1f} B" for lib in ("ours", "stock")]
        cells.append(ompi_cell(slopes, ("ompi", shape), "{:.1f} B".format))
        out.append([f"{what}: heap per process of the world (slope over P = {nps[0]}..{nps[-1]})"] + cells
                   + [figures_of("comm-memory")])
    return out


def ondemand_rows():
    rows = rows_of("ondemand", "slopes.csv")
    slopes = {(r["library"], r["provider"], r["point"]): float(r["heap_mean_per_peer"]) for r in rows}
    nps = sorted({int(n) for r in rows if r["library"] == "ours-ondemand" and r["provider"] == PROVIDER
                  for n in r["nps"].split()}) or missing("ondemand", f"ours-ondemand {PROVIDER} rows in slopes.csv")
    out = []
    for point, what in (("init", "right after `MPI_Init`"), ("alltoall", "after an `MPI_Alltoall`")):
        cells = [fmt(one(slopes, (lib, PROVIDER, point), "ondemand", "slopes.csv")) for lib in ("ours-ondemand", "stock")]
        cells.append(ompi_cell(slopes, ("ompi-ob1", PROVIDER, point), fmt))
        out.append([f"heap growth per added peer {what}, {PROVIDER} (mean over processes, "
                    f"slope over P = {nps[0]}..{nps[-1]})"] + cells
                   + [figures_of("ondemand")])
    out += heap_rows()
    whole = {(int(r["N"]), r["provider"], r["application"], r["library"]): float(r["bytes_per_process"])
             for r in rows_of("ondemand", "wholeproc.csv")}
    if not whole:
        missing("ondemand", "rows in wholeproc.csv")
    ns = sorted({k[0] for k in whole})
    for n in ns[-2:]:
        for app, what in (("init", "`MPI_Init`"), ("2-D stencil", "a 2-D stencil")):
            out.append([f"whole process after {what} at {n:,} processes, {PROVIDER} (simulated)"]
                       + [fmt(one(whole, (n, PROVIDER, app, lib), "ondemand", "wholeproc.csv"))
                          for lib in ("ours-ondemand", "stock-4.0.2")] + ["-", figures_of("ondemand")])
    addr = {(r["scenario"], r["impl"], int(r["N"])): float(r["library"])
            for r in rows_of("ondemand", "world.csv")}
    for n in ns[-2:]:
        out.append([f"address layer after a 2-D stencil at {n:,} processes (simulated: libavrm's "
                    f"bytes; stock: its MODEL)"]
                   + [fmt(one(addr, ("stencil2d", impl, n), "ondemand", "world.csv"))
                      for impl in ("ours-ondemand", "MODEL-ch4-4.0.2")] + ["-", figures_of("ondemand")])
    init = rows_of("ondemand-pmi", "initinsns.csv")

    def insns(lib):
        v = [float(r["init_insns"]) / 1e6 for r in init if r["library"] == lib]
        return span(v) + " M" if v else missing("ondemand-pmi", f"{lib} rows in initinsns.csv")
    launchers = sorted({r["launcher"] for r in init})
    nps = sorted({int(r["np"]) for r in init})
    out.append([f"instructions of one process in `MPI_Init` ({', '.join(launchers)}; "
                f"P = {', '.join(map(str, nps))} on emulated hosts)", insns("ours-ondemand"), insns("stock"), "-",
                figures_of("ondemand-pmi")])
    return out


def heap_rows():
    """The whole heap per process after MPI_Init over tcp;ofi_rxm at the
    largest P of each series: ofi_rxm's defaults, and its small receive
    buffers (the settings' ONDEMAND_LEAN_ENV, the +lean provider)."""
    heap = {(r["library"], r["provider"], int(r["np"])): float(r["heap_mean"])
            for r in rows_of("ondemand", "ondemand.csv") if r["point"] == "init"}
    with open(os.path.join(RESULTS, "ondemand", "settings.txt")) as f:
        m = re.search(r'ONDEMAND_LEAN_ENV="([^"]*)"', f.read())
    if not m:
        missing("ondemand", "ONDEMAND_LEAN_ENV in settings.txt")
    out = []
    for prov, what in ((PROVIDER, "ofi_rxm's defaults"),
                       (PROVIDER + "+lean", "`" + m.group(1) + "`")):
        nps = [k[2] for k in heap if k[0] == "ours-ondemand" and k[1] == prov]
        if not nps:
            missing("ondemand", f"ours-ondemand {prov} init rows in ondemand.csv")
        n = max(nps)
        cells = [fmt(one(heap, (lib, prov, n), "ondemand", "ondemand.csv")) for lib in ("ours-ondemand", "stock")]
        cells.append(ompi_cell(heap, ("ompi-ob1", PROVIDER, n), fmt))
        out.append([f"whole heap right after `MPI_Init`, {PROVIDER}, {what}, P = {n} (mean over processes)"]
                   + cells + [figures_of("ondemand")])
    return out


def insns_rows():
    cells = [r for r in rows_of("insns", "cells.csv") if r["build"] == "default"]
    out = []
    for kind, where in (("stored", "over OFI"), ("shm", "over shared memory")):
        for op, call in (("isend", "MPI_Isend"), ("put", "MPI_Put")):
            for maps, label in ((MAPS, "direct, offset, stride, ilut, join maps"), (["mlut32"], "mlut32 maps")):
                sel = [r for r in cells if r["kind"] == kind and r["op"] == op and r["map_mode"] in maps]
                if {r["map_mode"] for r in sel} != set(maps):    # mlut32: the mlut-rand and mseg regions
                    missing("insns", f"{kind} {op} cells of {', '.join(maps)} in cells.csv")
                form = "{:.0f}" if kind == "stored" else "{:.1f}"
                diff = span([float(r["ours"]) - float(r["stock"]) for r in sel], "{:+.1f}" if kind == "shm"
                            else "{:+.0f}", "..")
                out.append([f"instructions per 8-byte `{call}` {where}, {label}",
                            f"{span([float(r['ours']) for r in sel], form)} ({diff})",
                            span([float(r["stock"]) for r in sel], form), "-", figures_of("insns")])
    return out


def split_points(set_name):
    """A split set's split.csv by (lib, shape, P), its P values, and the three
    P a README row shows (the least and the two largest)."""
    v, _, nps = by_shape(rows_of(set_name, "split.csv"))
    if not nps:
        missing(set_name, "rows in split.csv")
    return v, nps, [nps[0], nps[-2], nps[-1]] if len(nps) > 2 else nps


def split_rows():
    """MPI_Comm_split's cost per process (bench/run split): the bytes a split
    adds to MPI_Comm_dup's (the context id every creation pays) at three P,
    the peak transient heap at the largest P, and the simulator's bytes at
    its largest P against MPICH's allgather."""
    v, nps, pts = split_points("split")

    def net(lib, shape, p):
        r = one(v, (lib, shape, p), "split", "split.csv")
        d = one(v, (lib, "dup", p), "split", "split.csv")
        return float(r["recv_bytes_mean"]) - float(d["recv_bytes_mean"])
    out = []
    for shape, what in (("oddeven", "odd/even `MPI_Comm_split`"), ("rows", "`MPI_Comm_split` into cart rows"),
                        ("randcolor", "`MPI_Comm_split`, random colours (gathered)"),
                        ("shared", "`MPI_Comm_split_type(SHARED)`")):
        cells = [" / ".join("%.0f" % net(lib, shape, p) for p in pts) + " B" for lib in ("ours", "stock")]
        out.append([f"{what}: bytes received per process beyond `MPI_Comm_dup`'s, P = "
                    f"{' / '.join(map(str, pts))}, {PROVIDER}, every peer on the netmod"]
                   + cells + ["-", figures_of("split")])
    n = nps[-1]
    cells = [fmt(float(one(v, (lib, "blocks8", n), "split", "split.csv")["heap_peak_max"]))
             for lib in ("ours", "stock")]
    out.append([f"`MPI_Comm_split` into blocks of 8: peak heap inside the call (max over processes), "
                f"P = {n}"] + cells + ["-", figures_of("split")])
    sim = {(r["shape"], int(r["P"])): r for r in rows_of("split", "splitsim.csv")}
    big = max(k[1] for k in sim)
    r = one(sim, ("oddeven", big), "split", "splitsim.csv")
    out.append([f"odd/even `MPI_Comm_split` at {big:,} processes (simulated): bytes per process, ours sent, "
                f"stock's allgather received", fmt(float(r["bytes_sent_per_process"])),
                fmt(float(r["allgather_bytes_recv_per_process"])), "-", figures_of("split")])
    return out


def split_sort_rows():
    """Irregular splits sorted across the processes (bench/run split-sort):
    bytes beyond MPI_Comm_dup's and time at three P, ours-sort (the sort
    forced at every P) against stock's gather."""
    v, nps, pts = split_points("split-sort")

    def cell(lib, shape, p, key):
        return float(one(v, (lib, shape, p), "split-sort", "split.csv")[key])
    what = "`MPI_Comm_split`, random colours, sorted (ours: `MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE=1`)"
    cells = [" / ".join("%.0f" % (cell(lib, "randcolor", p, "recv_bytes_mean") - cell(lib, "dup", p, "recv_bytes_mean"))
                        for p in pts) + " B" for lib in ("ours-sort", "stock")]
    out = [[f"{what}: bytes received per process beyond `MPI_Comm_dup`'s, P = {' / '.join(map(str, pts))}, "
            f"{PROVIDER}, every peer on the netmod"] + cells + ["-", figures_of("split-sort")]]
    cells = [" / ".join("%.1f" % (cell(lib, "randcolor", p, "time_us_median") / 1000) for p in pts) + " ms"
             for lib in ("ours-sort", "stock")]
    out.append([f"{what}: time per split (median; 2 oversubscribed cores), P = {' / '.join(map(str, pts))}"]
               + cells + ["-", figures_of("split-sort")])
    sim = {(r["shape"], int(r["P"])): r for r in rows_of("split-sort", "splitsim.csv")}
    big = max(k[1] for k in sim)
    r = one(sim, ("randcolor", big), "split-sort", "splitsim.csv")
    out.append([f"`MPI_Comm_split`, 4 random colours, at {big:,} processes (simulated): bytes per process, "
                f"ours sorted sent (its two lists held), stock's allgather received",
                f"{fmt(float(r['sort_bytes_sent_per_process']))} ({fmt(float(r['sort_list_bytes']))})",
                fmt(float(r["allgather_bytes_recv_per_process"])), "-", figures_of("split-sort")])
    return out


def intercomm_rows():
    """MPI_Intercomm_create's cost per process (bench/run intercomm): bytes
    received per process at three P (the whole call: the groups' exchange
    and the context id's allreduce over each group; MPI_Comm_dup's world
    allreduce is no baseline here), between the halves (two formulas) and
    between halves of a hashed permutation (two lists), and the peak heap
    inside the call at the largest P."""
    v, nps, pts = split_points("intercomm")

    def val(lib, shape, p, key="recv_bytes_mean"):
        return float(one(v, (lib, shape, p), "intercomm", "split.csv")[key])
    out = []
    for shape, what in (("icreate", "`MPI_Intercomm_create` between the halves of the world"),
                        ("icreate-rand", "`MPI_Intercomm_create` between halves of a random permutation "
                                         "(no formula)")):
        cells = [" / ".join("%.0f" % val(lib, shape, p) for p in pts) + " B" for lib in ("ours", "stock")]
        out.append([f"{what}: bytes received per process in the call, P = "
                    f"{' / '.join(map(str, pts))}, {PROVIDER}, every peer on the netmod"]
                   + cells + ["-", figures_of("intercomm")])
    n = nps[-1]
    cells = [fmt(val(lib, "icreate", n, "heap_peak_max")) for lib in ("ours", "stock")]
    out.append([f"`MPI_Intercomm_create` between the halves: peak heap inside the call (max over "
                f"processes), P = {n}"] + cells + ["-", figures_of("intercomm")])
    return out


def create_insns_rows():
    """Instructions of world rank 0 inside one creation, outside the
    blocking waits (bench/run create-insns), at three P: ours (without the
    gather for the split) against stock."""
    v, _, nps = by_shape(rows_of("create-insns", "createinsns.csv"))
    if not nps:
        missing("create-insns", "rows in createinsns.csv")
    pts = [nps[0], nps[-2], nps[-1]] if len(nps) > 2 else nps
    out = []
    for shape, lib, what in (("dup", "ours", "`MPI_Comm_dup` of the world"),
                             ("oddeven", "ours-nogather", "odd/even `MPI_Comm_split` (ours: "
                              "`MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1`)"),
                             ("shared", "ours", "`MPI_Comm_split_type(SHARED)`"),
                             ("icreate", "ours", "`MPI_Intercomm_create` between the halves"),
                             ("create-group", "ours", "`MPI_Comm_create_group` of each half")):
        cells = [" / ".join("%.1fK" % (float(one(v, (l, shape, p), "create-insns", "createinsns.csv")
                                                ["ir_outside_waits"]) / 1000) for p in pts)
                 for l in (lib, "stock")]
        out.append([f"{what}: instructions of one process inside the call, outside its blocking waits "
                    f"(callgrind), P = {' / '.join(map(str, pts))}"] + cells + ["-", figures_of("create-insns")])
    return out


def block():
    head = ["per process", "ours", "stock 4.0.2", "Open MPI 4.1", "figures of"]
    STALE.clear()
    STALE.update(steptable.staleness())
    rows = address_rows() + comm_rows() + split_rows() + split_sort_rows() + intercomm_rows() + create_insns_rows() + ondemand_rows() + insns_rows()
    note = ("Each row is one run of its set (its SUMMARY.md has every point and how it was measured). "
            "Instruction rows: ours (ours minus stock, map by map), the range over the maps named. "
            "Open MPI is Debian's, ob1 over shared memory and TCP on one machine (it cannot emulate "
            "nodes); \"-\": not measured for it. A set marked \"(stale: code changed since C)\" (or "
            "\"settings\": its step's libraries, environment or run lines): its figures are those of "
            "commit C, and what they measure has changed since; `bench/run SET` reruns it, "
            "`make release-check` every stale set.")
    return [BEGIN, "", md_table(head, rows), "", note, "", END]


def readme(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines.count(BEGIN) != 1 or lines.count(END) != 1 or lines.index(END) < lines.index(BEGIN):
        sys.exit(f"bench/report readme: {path} needs one figures block: the line {BEGIN!r}, "
                 f"then the line {END!r}")
    i, j = lines.index(BEGIN), lines.index(END)
    text = "\n".join(lines[:i] + block() + lines[j + 1:])
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)      # never a half-written README


COMMANDS = {"readme": (readme, 1)}
