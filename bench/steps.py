"""The table of bench/steps.ini: libraries, steps, and the stamped sets among
the steps. Read by bench/run (which runs steps) and maint/results-stamp.py
(which stamps and checks their results). No side effects on import.

A step with an `inputs` key is a stamped set, named by its output directory
below bench/results (bench/results/insns/rate is set insns/rate).
"""
import configparser
import hashlib
import os
import re
import shlex

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(TOP, "bench", "steps.ini")
RESULTS_PREFIX = "bench/results/"
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9-]*)\}")
# a set's stamp, a line of its SUMMARY.md, first when results-stamp.py wrote
# it (maint/results-stamp.py writes and checks it, bench/report results and
# readme index it); settings is absent from stamps written before this
# table, outputs from stamps written before outputs were digested
STAMP_RE = re.compile(r"^<!-- results-stamp set=(\S+) commit=(\S+) date=(\S+) digest=([0-9a-f]+)"
                      r"(?: settings=([0-9a-f]+))?(?: outputs=([0-9a-f]+))? -->$")


def staleness():
    """{set: (what changed: "code" or "settings", the commit of its
    figures)} of the stale sets, by maint/results-stamp.py's check (of the
    sets in AVRM_RESULTS_DIR when it is set)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("results_stamp", os.path.join(TOP, "maint", "results-stamp.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.staleness()


def stale_mark(what, commit):
    """What bench/report readme and results append to a stale set's
    "figures of" cell."""
    return f" (stale: {what} changed since {commit})"


def stamp_of(summary):
    """(the stamp's match or None, the file's text or None) of a SUMMARY.md."""
    if not os.path.exists(summary):
        return None, None
    with open(summary) as f:
        text = f.read()
    return next((m for m in map(STAMP_RE.match, text.splitlines()) if m), None), text


class TableError(Exception):
    pass


class Library:
    def __init__(self, name, sec):
        self.name = name
        self.what = sec.get("what", "")
        self.prefix = sec["prefix"]
        self.has = sec["has"]
        self.build = sec["build"]

    def path(self, builddir):
        return os.path.normpath(os.path.join(builddir, self.prefix))

    def built(self, prefix):
        return os.path.exists(os.path.join(prefix, self.has))


class Step:
    def __init__(self, name, sec, aliases, libraries):
        self.name = name
        self.what = sec.get("what", "")
        self.libs = sec.get("libs", "").split()
        self.env = sec.get("env", "").strip()
        self.run = [l.strip() for l in sec.get("run", "").splitlines() if l.strip()]
        self.out = sec["out"]
        if not self.run:
            raise TableError(f"step {name}: no run line")
        for lib in self.libs:
            if lib.rstrip("?") not in libraries:
                raise TableError(f"step {name}: no [lib {lib.rstrip('?')}]")
        for text in [self.env] + self.run:
            for key in PLACEHOLDER.findall(text):
                if key != "out" and key not in [l.rstrip("?") for l in self.libs]:
                    raise TableError(f"step {name}: {{{key}}} is neither out nor one of its libs")
        self.inputs = None
        if "inputs" in sec:
            if not self.out.startswith(RESULTS_PREFIX):
                raise TableError(f"step {name}: a stamped step writes below {RESULTS_PREFIX}")
            self.inputs = []
            for w in sec["inputs"].split():
                if w.startswith("@"):
                    if w not in aliases:
                        raise TableError(f"step {name}: no alias {w} in [inputs]")
                    self.inputs += aliases[w]
                else:
                    self.inputs.append(w)
            for p in self.inputs:
                if not os.path.exists(os.path.join(TOP, p)):
                    raise TableError(f"step {name}: no input {p}")

    @property
    def set(self):
        """The stamped set's name, or None for a step that is not stamped."""
        return self.out[len(RESULTS_PREFIX):] if self.inputs is not None else None

    def settings_digest(self):
        """What the step runs with, apart from its inputs' contents: its
        libraries, environment and run lines as the table writes them."""
        text = "\n".join(["libs " + " ".join(self.libs), "env " + self.env] + self.run)
        return hashlib.sha256(text.encode()).hexdigest()[:8]

    def command(self):
        return f"bench/run {self.name}"

    def expand(self, text, prefixes, out):
        """text with {out} and {LIB} replaced by shell-quoted paths."""
        def sub(m):
            key = m.group(1)
            return shlex.quote(out if key == "out" else prefixes[key])
        return PLACEHOLDER.sub(sub, text)


def parse(table):
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",),
                                   inline_comment_prefixes=None, delimiters=("=",))
    cp.optionxform = str
    with open(table) as f:
        cp.read_file(f)
    return cp


def aliases_of(cp):
    return {k: v.split() for k, v in cp["inputs"].items()} if cp.has_section("inputs") else {}


def read(table=TABLE):
    """-> (libraries {name: Library}, steps {name: Step}) in table order."""
    cp = parse(table)
    aliases = aliases_of(cp)
    libraries, steps = {}, {}
    for sec in cp.sections():
        kind, _, name = sec.partition(" ")
        if kind == "lib":
            libraries[name] = Library(name, cp[sec])
    for sec in cp.sections():
        kind, _, name = sec.partition(" ")
        if kind == "step":
            steps[name] = Step(name, cp[sec], aliases, libraries)
        elif kind not in ("lib", "inputs"):
            raise TableError(f"bench/steps.ini: unknown section [{sec}]")
    sets = [s.set for s in steps.values() if s.set]
    if len(sets) != len(set(sets)):
        raise TableError("bench/steps.ini: two steps stamp the same set")
    return libraries, steps


def aliases(table=TABLE):
    """{@alias: [paths]} of the table's [inputs] section."""
    return aliases_of(parse(table))


def sets(table=TABLE):
    """{set name: Step} for the stamped steps."""
    return {s.set: s for s in read(table)[1].values() if s.set}
