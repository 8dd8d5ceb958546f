"""libavrm's batch translation, strategy by strategy: the SUMMARY.md and
translate.png of step translate (`bench/report translate OUTDIR SECONDS
SIZES REPS LOAD0 LOAD1`, from OUTDIR/translate.csv, which
bench/translate/translate.c writes).
"""
import csv
import os

from report import gp, head_commit, md_table


def translate(out, secs, sizes, reps, load0, load1):
    rows = list(csv.DictReader(open(os.path.join(out, "translate.csv"))))
    worlds = sorted({int(r["world"]) for r in rows})
    text = [
        "# avrm_map_translate, strategy by strategy (`bench/run translate`)",
        "",
        "At `%s`; %s s wall, load average %s at the start and %s at the end; SIZES=%s REPS=%s. "
        "`bench/translate/translate.c`: for each strategy of the batch translation behind "
        "MPI_Group_translate_ranks (src/core/avrm_find.c, translate_other), a pair of group maps "
        "(compact builds, as MPI groups are) that selects it, translated whole (every rank of m1), "
        "against a loop of avrm_map_find per rank on the same input with the same index (the last "
        "resort every strategy replaces); ns per translated rank, thread CPU time, best of REPS; the "
        "two answers checked equal and the maps' modes and index kind checked against the case "
        "(the run fails otherwise). Index B: m2's rank index, kept with the group (0: none needed)."
        % (head_commit(), secs, load0, load1, sizes, reps),
        "",
        "Cases (m1 into m2): " + "; ".join("%s: %s" % (c, m) for c, m in
                                            dict((r["case"], r["maps"]) for r in rows).items()) + ".",
        "",
        md_table(["case", "strategy", "world", "m1 -> m2", "ranks", "index B", "translate ns/rank",
                  "find ns/rank", "find/translate"],
                 [[r["case"], r["strategy"], r["world"], "%s -> %s" % (r["m1_mode"], r["m2_mode"]),
                   r["n1"], r["index_bytes"], r["translate_ns_per_rank"], r["find_ns_per_rank"],
                   r["find_per_translate"]] for r in rows]),
        "",
        "![ns per rank, by strategy](translate.png)",
    ]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text) + "\n")
    dat = os.path.join(out, "translate.dat")
    with open(dat, "w") as f:
        for w in worlds:
            for r in rows:
                if int(r["world"]) == w:
                    f.write('"%s\\n%s" %s %s\n' % (r["case"], r["strategy"], r["translate_ns_per_rank"],
                                                     r["find_ns_per_rank"]))
            f.write("\n\n")
    script = ["set terminal pngcairo size 1100,%d font ',9'" % (330 * len(worlds) + 40),
              "set termoption noenhanced", "set bmargin 4",
              "set output '%s'" % os.path.join(out, "translate.png"),
              "set multiplot layout %d,1 title 'avrm_map_translate: ns per rank, each strategy "
              "against avrm_map_find per rank'" % len(worlds),
              "set style data histograms", "set style histogram clustered gap 1",
              "set style fill solid 0.8 border -1", "set logscale y", "set grid ytics",
              "set ylabel 'ns per rank (log)'", "set key top left", "set xtics font ',8'"]
    for k, w in enumerate(worlds):
        script += ["set title 'world of %d processes'" % w,
                   "plot '%s' index %d using 2:xtic(1) title 'translate (the strategy)' lc rgb '#1b9e77', "
                   "'' index %d using 3 title 'avrm_map_find per rank' lc rgb '#d95f02'" % (dat, k, k)]
    script.append("unset multiplot")
    gp("\n".join(script) + "\n")
    os.remove(dat)


COMMANDS = {"translate": (translate, 6)}
