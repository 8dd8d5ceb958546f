"""A results set made of several runs (`bench/report index OUTDIR TITLE
"RUN TITLE: SUBDIR"...`, step vci): OUTDIR/SUMMARY.md, titled TITLE, names
each run's directory and repeats its SUMMARY.md under the run's title, with
the links of its images made relative to OUTDIR.
"""
import os
import re


def index(out, title, parts):
    text = ["# %s" % title, ""]
    for part in parts:
        title, _, sub = part.rpartition(":")
        sub = sub.strip()
        with open(os.path.join(out, sub, "SUMMARY.md")) as f:
            body = [l for l in f.read().splitlines() if not l.startswith("<!-- results-stamp")]
        body = [re.sub(r"\]\((?!https?:|/)([^)]+)\)", lambda m: "](%s/%s)" % (sub, m.group(1)), l)
                for l in body]
        body = ["#" + l if l.startswith("#") else l for l in body]
        text += ["## %s (`%s/`)" % (title.strip(), sub), ""] + body + [""]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text).rstrip() + "\n")


COMMANDS = {"index": (lambda out, title, *parts: index(out, title, parts), (3, None))}
