"""doc/results.md: the index of the stamped results sets (`bench/report
results FILE`), written from bench/steps.ini and each set's stamp; a stale
set (the code or settings it measures changed since its figures:
maint/results-stamp.py) says so in its "figures of" cell. bench/run rewrites
it after every stamped step; make check's results-fresh test fails when it
differs from what this would write now.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "bench"))
import steps as steptable  # noqa: E402

# where the sets live (results-fresh.sh's control points it at a copy)
RESULTS = os.environ.get("AVRM_RESULTS_DIR", os.path.join(TOP, "bench", "results"))
IMAGE_RE = re.compile(r"!\[[^\]]*\]\(([^)/]+\.png)\)")


def stamp_of(summary):
    m, text = steptable.stamp_of(summary)
    return m, IMAGE_RE.findall(text or "")


def results(path):
    libraries, steps = steptable.read()
    rel = "../bench/results"        # links as seen from doc/, wherever the file is written
    lines = [
        "# Results",
        "",
        "Every benchmark result of this tree, one row per stamped step of `bench/steps.ini`:",
        "what it measures, the command that writes it, the commit and date its figures were",
        "taken at, and its `SUMMARY.md` (every table, how it was measured, the settings). This",
        "file is written by `bench/report results doc/results.md` (bench/run does it after every",
        "stamped step). A set whose code or settings changed since its figures were taken is",
        "stale: its \"figures of\" cell says \"(stale: code changed since C)\" (or \"settings\": its",
        "step's libraries, environment or run lines), its figures are commit C's, and",
        "`bench/run SET` reruns it (`make release-check`: every stale set, before a release).",
        "make check reports stale sets without failing; it fails when a set's files differ from",
        "its stamp or when this file is not what that command writes now.",
        "What the figures mean for the design: doc/design.md. Test runs and older measurements,",
        "dated: doc/history.md.",
        "",
        "| set | what | command | figures of | results |",
        "|---|---|---|---|---|",
    ]
    stale = steptable.staleness()
    for s in steps.values():
        if not s.set:
            continue
        m, images = stamp_of(os.path.join(RESULTS, s.set, "SUMMARY.md"))
        when = "%s, %s" % (m.group(2), m.group(3).replace("T", " ")) if m else "not stamped"
        if s.set in stale:
            when += steptable.stale_mark(*stale[s.set])
        link = "[SUMMARY.md](%s/%s/SUMMARY.md)" % (rel, s.set)
        if images:
            link += " " + " ".join("[%s](%s/%s/%s)" % (i, rel, s.set, i) for i in images[:2])
        libs = ", ".join(l.rstrip("?") for l in s.libs)
        lines.append("| %s | %s (%s) | `%s` | %s | %s |" % (s.set, s.what, libs, s.command(), when, link))
    lines += ["", "Libraries: " + "; ".join("%s: %s" % (l.name, l.what) for l in libraries.values()) + "."]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


COMMANDS = {"results": (results, 1)}
