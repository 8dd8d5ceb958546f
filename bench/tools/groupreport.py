"""Group operations, ours vs stock: the SUMMARY.md of steps group-insns
(`bench/report group-insns OUTDIR NPS`: from OUTDIR/groupinsns.csv) and
group-time (`bench/report group-time OUTDIR SECONDS NPS REPS ROUNDS LOAD0
LOAD1`: from OUTDIR/grouptime.csv, medians over rounds).
"""
import csv
import os
import statistics
import time

from report import head_commit, md_table


def group_insns(out, nps):
    rows = list(csv.DictReader(open(os.path.join(out, "groupinsns.csv"))))
    text = [
        "# Instructions per MPI_Group_translate_ranks call: ours vs stock MPICH 4.0.2",
        "",
        "Command: `bench/run group-insns` (bench/real/run-groupinsns.sh, NPS=\"%s\"), %s, at `%s`."
        % (nps, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), head_commit()),
        "Instructions per call (each call translates every member of the group), callgrind on rank 0 "
        "(deterministic): per (operation, shape), a region of 1000 calls after a warm-up call over 1000 "
        "(bench/real/groupinsns.c).",
        "Shapes: the world's group (world), the even ranks (stride2, MPI_Group_range_incl), the world less "
        "3 ranks (excl3, MPI_Group_excl), the world in a random order (rand, MPI_Group_incl).",
        "",
        md_table(["np", "shape", "operation", "stock", "ours", "ours/stock"],
                 [[r["np"], r["shape"], r["op"], r["stock_insns_per_call"], r["ours_insns_per_call"],
                   r["ours_per_stock"]] for r in rows]),
    ]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text) + "\n")


def group_time(out, secs, nps, reps, rounds, load0, load1):
    fig = {}
    for r in csv.DictReader(open(os.path.join(out, "grouptime.csv"))):
        fig.setdefault((int(r["np"]), r["shape"], r["op"], r["lib"]), []).append(float(r["ns_per_member"]))
    table = []
    for (np, shape, op, _) in sorted(k for k in fig if k[3] == "ours"):
        o = statistics.median(fig[(np, shape, op, "ours")])
        s = statistics.median(fig.get((np, shape, op, "stock"), [float("nan")]))
        table.append([np, shape, op, "%.1f" % s, "%.1f" % o, "%.2f" % (o / s if s else float("nan"))])
    text = [
        "# Group lookups: ours vs stock MPICH 4.0.2 (`bench/run group-time`)",
        "",
        "At `%s`; %s s wall, load average %s at the start and %s at the end (other jobs share the CPUs "
        "above 2: then the ns are upper bounds, the ratio of the two libraries less certain); NPS=\"%s\" "
        "REPS=%s ROUNDS=%s. ns per member, the median over rounds of each round's median over REPS samples "
        "(a sample: a batch of 4096 / size calls), measured on rank 0 (the other ranks wait in a barrier, "
        "yielding through yieldshim.so in both libraries). Shapes and operations: `bench/real/grouptime.c`."
        % (head_commit(), secs, load0, load1, nps, reps, rounds),
        "",
        md_table(["np", "shape", "operation", "stock ns/member", "ours ns/member", "ours/stock"], table),
    ]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text) + "\n")


COMMANDS = {"group-insns": (group_insns, 2), "group-time": (group_time, 7)}
