#!/usr/bin/env python3
"""createinsns.py LIB P REPS PROFILE... - one CSV row per profile of
bench/real/run-createinsns.sh (callgrind dumps of splitcost.c, one per
shape, named by the dump's trigger): lib,shape,P,ir_total,ir_waits,
ir_outside_waits, each per creation (the dump's totals over REPS).
ir_waits: the inclusive cost of MPIR_Wait_state and MPIR_Waitall_state
(callgrind_annotate --inclusive=yes), the blocking waits' progress polls.

createinsns.py report OUTDIR COMMAND - OUTDIR/SUMMARY.md from
OUTDIR/createinsns.csv: instructions outside the waits and in total per
shape, library and P, and the least-squares slope per added process."""
import re
import subprocess
import sys

WAITS = ("MPIR_Wait_state", "MPIR_Waitall_state")


def report(out, command):
    import csv
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from report import by_shape, fit
    rows = list(csv.DictReader(open(os.path.join(out, "createinsns.csv"))))
    libs = [l for l in ("ours", "ours-nogather", "stock") if any(r["lib"] == l for r in rows)]
    v, shapes, nps = by_shape(rows)
    md = ["# Instructions of one process inside one communicator creation",
          "",
          "Command: `%s`. World rank 0 under callgrind (collection only inside the "
          "creations), every process on the netmod over tcp;ofi_rxm; per creation, the mean "
          "of 3. *Outside the waits*: the total minus the inclusive cost of MPIR_Wait_state "
          "and MPIR_Waitall_state (the blocking waits poll as often as the 2 oversubscribed "
          "cores' scheduling makes them). ours: its defaults (parents below 64 processes "
          "gather their splits as MPICH does); ours-nogather: "
          "MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=1." % command, ""]
    for key, title in (("ir_outside_waits", "outside the waits"), ("ir_total", "in total")):
        md += ["## Instructions %s, per creation" % title, "",
               "| shape | " + " | ".join("P=%d %s" % (p, l) for p in nps for l in libs)
               + " | " + " | ".join("%s per added process" % l for l in libs) + " |",
               "|---|" + "---:|" * (len(nps) * len(libs) + len(libs))]
        for sh in shapes:
            cells = []
            for p in nps:
                for l in libs:
                    r = v.get((l, sh, p))
                    cells.append("%.1fK" % (float(r[key]) / 1000) if r else "-")
            for l in libs:
                ps = [p for p in nps if (l, sh, p) in v]
                cells.append("%.0f" % fit(ps, [float(v[(l, sh, p)][key]) for p in ps])[0]
                             if len(ps) > 1 else "-")
            md.append("| %s | " % sh + " | ".join(cells) + " |")
        md.append("")
    open(os.path.join(out, "SUMMARY.md"), "w").write("\n".join(md))


def main():
    if sys.argv[1] == "report":
        return report(sys.argv[2], sys.argv[3])
    lib, np, reps, profiles = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    for prof in sorted(profiles, key=lambda p: int(p.rsplit(".", 1)[1])):
        shape = None
        for line in open(prof):
            m = re.match(r"desc: Trigger: Client Request: (\S+)", line)
            if m:
                shape = m.group(1)
                break
        if shape is None:
            continue    # the final dump at exit
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", prof],
                             capture_output=True, text=True, check=True).stdout
        total, waits = None, 0
        for line in ann.split("\n"):
            m = re.match(r"\s*([\d,]+)\s+\(.*\)\s+PROGRAM TOTALS", line)
            if m:
                total = int(m.group(1).replace(",", ""))
            m = re.match(r"\s*([\d,]+)\s+\(.*\)\s+\S*:(\w+) \[.*libmpi", line)
            if m and m.group(2) in WAITS:
                waits += int(m.group(1).replace(",", ""))
        if total is None:
            sys.exit("createinsns: no totals in %s" % prof)
        print("%s,%s,%s,%.0f,%.0f,%.0f" % (lib, shape, np, total / reps, waits / reps,
                                          (total - waits) / reps))


if __name__ == "__main__":
    main()
