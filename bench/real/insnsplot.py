#!/usr/bin/env python3
"""insnsplot.py CELLS_CSV OUT_PNG - libmpi instructions per call, ours minus
stock, per map mode, one panel per operation, one bar per AV kind (the
cells.csv of test/insns/run.sh). Below zero: ours is cheaper."""
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["ours_minus_stock"]]
ops = sorted({r["op"] for r in rows})
kinds = sorted({r["kind"] for r in rows})
fig, axes = plt.subplots(1, len(ops), figsize=(6 * len(ops), 4), squeeze=False)
for ax, op in zip(axes[0], ops):
    modes = sorted({r["mode"] for r in rows if r["op"] == op})
    w = 0.8 / max(1, len(kinds))
    for i, k in enumerate(kinds):
        d = {r["mode"]: float(r["ours_minus_stock"]) for r in rows if r["op"] == op and r["kind"] == k}
        xs = [j + i * w for j, m in enumerate(modes) if m in d]
        ax.bar(xs, [d[m] for m in modes if m in d], w, label=k)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks([j + 0.4 - w / 2 for j in range(len(modes))])
    ax.set_xticklabels(modes)
    ax.set_title("MPI_%s: ours - stock, libmpi instructions per call" % op.capitalize())
    ax.set_ylabel("instructions")
    ax.legend(title="AV kind")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=90)
