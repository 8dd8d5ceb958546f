#!/usr/bin/env python3
"""Stamps on results sets, and the check of their age.

    results-stamp.py write SET FILE     put SET's stamp line into FILE (the
                                        SUMMARY.md its step just wrote;
                                        bench/run does it after a run)
    results-stamp.py check [--strict] [SET ...]
                                        every set (or the ones named): PASS
                                        fresh / STALE (not a failure; with
                                        --strict, for a release: FAIL) /
                                        FAIL (a defect)
    results-stamp.py digest SET         SET's inputs and settings digests now
    results-stamp.py stale              the command of every set that is stale
                                        or unstamped, one per line
    results-stamp.py rebase SET         re-stamp SET without a rerun when its
                                        inputs changed only in comments (and
                                        Python docstrings) since the commit its
                                        figures measured

A set is a step of bench/steps.ini with an `inputs` key, named by its output
directory below bench/results. Its stamp is one line, kept first in its
bench/results/SET/SUMMARY.md:

    <!-- results-stamp set=SET commit=SHORT date=ISO digest=HEX16 settings=HEX8 outputs=HEX16 -->

digest is a sha256 over the sorted (path, sha256 of contents) of every file
under the set's inputs, as they are in the work tree, the file list from
`git ls-files` (untracked build products do not count; no git: every file);
settings is a sha256 over the step's libs, env and run lines; outputs over
the files the step wrote (every file of the set git does not ignore, its
SUMMARY.md without the stamp), so that a run that did not finish, or an
edit by hand, cannot leave figures under an older run's stamp. commit and date
say when the figures were taken, for people; the check compares only
digests, so it needs no history (CI clones shallow).

A set whose inputs or settings differ from its stamp is stale: its figures
are those of its stamp's commit, older than the code or settings they
measure. That is a state, not a defect: the check prints a STALE line
naming the files that differ from its commit (when git has it) and the
command that reruns it, and counts the stale sets in a line "stale: N
(SET ...)", as neither passed nor failed; --strict (a release:
make release-check) fails them. What fails always, as a defect: a set
without SUMMARY.md or without a stamp, or stamped for another set (its
figures cannot be shown to be any run's), and a set whose files differ
from its stamp's outputs digest (figures no run stamped), stale or not.
A stamp written before bench/steps.ini has no settings, one written before
outputs were digested no outputs: it passes on what it has, and the check
says what is not covered. A file or directory of bench/results in no set
is a SKIP line, counted. The last line is "N passed, N failed".
"""
import hashlib
import os
import re
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "bench"))
import steps as steptable  # noqa: E402  (bench/steps.py: the table of bench/steps.ini)

# where the sets live (the check's control points it at a copy)
RESULTS = os.environ.get("AVRM_RESULTS_DIR", os.path.join(TOP, "bench", "results"))
STAMP_RE = steptable.STAMP_RE


def read_sets():
    """{set: Step} from bench/steps.ini (bench/steps.py); a table error stops."""
    try:
        return steptable.sets()
    except (steptable.TableError, KeyError) as e:
        sys.exit(f"results-stamp: {e}")


def git(*args):
    r = subprocess.run(["git", "-C", TOP] + list(args), capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def files_of(paths):
    listed = git("ls-files", "-z", "--", *paths)
    if listed is not None:
        return sorted(p for p in listed.split("\0") if p and os.path.isfile(os.path.join(TOP, p)))
    out = []
    for p in paths:
        full = os.path.join(TOP, p)
        if os.path.isfile(full):
            out.append(p)
        for root, _, names in os.walk(full):
            out += [os.path.relpath(os.path.join(root, n), TOP) for n in names]
    return sorted(out)


def digest(paths):
    h = hashlib.sha256()
    for p in files_of(paths):
        with open(os.path.join(TOP, p), "rb") as f:
            h.update(p.encode() + b"\0" + hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def outputs(name):
    """What SET's step wrote, as a 16-hex sha256: every file below
    bench/results/NAME that git does not ignore (tracked or not; with no git
    there, every file), nested sets left out, SUMMARY.md without its stamp;
    paths relative to the set, so a copy of it digests the same."""
    base = os.path.join(RESULTS, name)
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", base)
    if listed:
        files = [os.path.relpath(os.path.join(TOP, p), base) for p in listed.split("\0") if p]
    else:
        files = [os.path.relpath(os.path.join(r, n), base) for r, _, ns in os.walk(base) for n in ns]
    nested = [s[len(name) + 1:] + "/" for s in read_sets() if s.startswith(name + "/")]
    h = hashlib.sha256()
    for rel in sorted(f for f in files if not f.startswith(tuple(nested))):
        full = os.path.join(base, rel)
        if not os.path.isfile(full):
            continue
        with open(full, "rb") as f:
            data = f.read()
        if rel == "SUMMARY.md":
            data = b"\n".join(l for l in data.split(b"\n") if not STAMP_RE.match(l.decode(errors="replace")))
        h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def stamp_line(name, step, commit=None, date=None):
    if commit is None:
        commit = (git("rev-parse", "--short", "HEAD") or "unknown").strip()
        if git("status", "--porcelain", "--", *step.inputs):
            commit += "+changes"
    date = date or time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
    return (f"<!-- results-stamp set={name} commit={commit} date={date} "
            f"digest={digest(step.inputs)} settings={step.settings_digest()} outputs={outputs(name)} -->")


def replace_stamp(path, line):
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if not STAMP_RE.match(l)]
    with open(path, "w") as f:
        f.write("\n".join([line] + lines) + "\n")


def write(name, path):
    sets = read_sets()
    if name not in sets:
        sys.exit(f"results-stamp: no stamped step writes bench/results/{name} (bench/steps.ini)")
    replace_stamp(path, stamp_line(name, sets[name]))


def read_stamp(name):
    """The stamp line's match in bench/results/NAME/SUMMARY.md, or None."""
    return steptable.stamp_of(os.path.join(RESULTS, name, "SUMMARY.md"))[0]


def verdict(name, step):
    """(state, message, what) for one set: state "fresh", "stale" (what:
    "code" or "settings", what changed since its figures) or "fail" (a
    defect: no stamp, another set's stamp, files that differ from the
    stamp's outputs digest)."""
    stamp = read_stamp(name)
    run = f"run `{step.command()}`"
    if stamp is None:
        return "fail", f"no stamp in bench/results/{name}/SUMMARY.md ({run})", None
    if stamp.group(1) != name:
        return "fail", f"its SUMMARY.md is stamped for set {stamp.group(1)}", None
    # a set's files are checked before its age: a stale set's figures
    # edited by hand are a defect too
    if stamp.group(6) is not None and stamp.group(6) != outputs(name):
        return "fail", (f"its files changed since they were stamped (a run that did not finish, or an "
                        f"edit by hand): figures no run stamped ({run})"), None
    if stamp.group(4) != digest(step.inputs):
        base = stamp.group(2).split("+")[0]
        changed = git("diff", "--name-only", base, "--", *step.inputs) if base != "unknown" else None
        what = (", changed since: " + " ".join(changed.split()[:6]) +
                (" ..." if len(changed.split()) > 6 else "")) if changed else ""
        return "stale", f"figures of {stamp.group(2)} and the code they measure changed{what} ({run})", "code"
    if stamp.group(5) is None:
        return "fresh", (f"figures of {stamp.group(2)} ({stamp.group(3)}), inputs unchanged; its settings "
                         "(libs, env, run lines) are not in its stamp, which predates bench/steps.ini"), None
    if stamp.group(5) != step.settings_digest():
        return "stale", f"its libs, env or run lines in bench/steps.ini changed since its figures ({run})", "settings"
    if stamp.group(6) is None:
        return "fresh", (f"figures of {stamp.group(2)} ({stamp.group(3)}), inputs and settings unchanged; "
                         "its files are not in its stamp, which predates outputs digests"), None
    return "fresh", f"figures of {stamp.group(2)} ({stamp.group(3)}), inputs, settings and files unchanged", None


def staleness():
    """{set: (what changed: "code" or "settings", the commit of its figures)}
    of the stale sets; bench/report readme and results mark their rows."""
    out = {}
    for name, step in read_sets().items():
        state, _, what = verdict(name, step)
        if state == "stale":
            out[name] = (what, read_stamp(name).group(2))
    return out


def stale():
    for name, step in sorted(read_sets().items()):
        if verdict(name, step)[0] != "fresh":
            print(step.command())


def check(names, strict=False):
    """Print a line per set and the counts; True when none failed (with
    strict, when none failed and none is stale)."""
    sets = read_sets()
    explicit = bool(names)
    names = names or sorted(sets)
    passed = failed = 0
    stale_sets = []
    for name in names:
        if name not in sets:
            print(f"FAIL {name}: no stamped step writes bench/results/{name} (bench/steps.ini)")
            failed += 1
            continue
        state, msg, _ = verdict(name, sets[name])
        if state == "stale" and strict:
            print(f"FAIL {name}: stale, {msg}")
            failed += 1
        elif state == "stale":
            print(f"STALE {name}: {msg}")
            stale_sets.append(name)
        else:
            print(f"{'PASS' if state == 'fresh' else 'FAIL'} {name}: {msg}")
            passed, failed = passed + (state == "fresh"), failed + (state != "fresh")
    if stale_sets:
        # older than the code they measure: not a failure; rerun them when a
        # change is meant to move their figures, and before a release
        print(f"stale: {len(stale_sets)} ({' '.join(stale_sets)}; rerun: bench/run stale, "
              f"or make release-check)")
    if not explicit:
        # results no stamp covers: listed and counted, never silent. Every
        # file or directory at the top of bench/results that is no set and
        # holds none; a directory inside a set belongs to it.
        loose = []
        for entry in sorted(os.listdir(RESULTS)):
            inside = [s for s in sets if s == entry or s.startswith(entry + "/")]
            if not inside:
                loose.append(entry)
            elif entry not in sets:
                # a directory holding nested sets (insns/rate): what else is in it
                loose += [f"{entry}/{e}" for e in sorted(os.listdir(os.path.join(RESULTS, entry)))
                          if f"{entry}/{e}" not in sets]
        for d in loose:
            print(f"SKIP {d}: bench/results/{d} is in no stamped step of bench/steps.ini; "
                  "its figures are not checked")
        if loose:
            print(f"skipped: {len(loose)} ({' '.join(loose)})")
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def strip_c_comments(text):
    """C text with every /* */ and // comment replaced by a space (string and
    character literals kept as they are)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def python_code(text):
    """A Python module's syntax tree without its docstrings (comments are not
    in it): equal for two texts that differ only in comments and docstrings."""
    import ast
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return [ast.dump(tree)]


def uncommented(path, text):
    """text's lines without its comments, blank lines dropped: C comments in
    .c and .h files; comments and docstrings in Python (by its syntax tree);
    # comment lines in shell, ini and make."""
    if path.endswith(".py") or text.startswith("#!/usr/bin/env python"):
        try:
            return python_code(text)
        except SyntaxError:
            return text.splitlines()
    if path.endswith((".c", ".h")):
        return [l.rstrip() for l in strip_c_comments(text).splitlines() if l.strip()]
    return [l for l in text.splitlines() if not l.lstrip().startswith("#") or l.startswith("#!")]


def rebase(name):
    """Re-stamp a fresh-in-substance set without rerunning it: allowed only when
    some commit E in HEAD's history has exactly the stamp's digest over the
    set's inputs (the figures were measured on E's files: the commit the
    stamp names if it qualifies, else the oldest of the newest run of
    commits that do) and every input in
    the work tree differs from E at most in comment lines. The stamp keeps
    E (the commit it names when that one qualifies) and the date of the
    figures; a stamp without settings (older than bench/steps.ini) stays
    without them, one with settings needs them unchanged."""
    sets = read_sets()
    if name not in sets:
        sys.exit(f"results-stamp: no set {name}")
    step = sets[name]
    stamp = read_stamp(name)
    if stamp is None:
        sys.exit(f"results-stamp: {name} has no stamp to rebase")
    if stamp.group(5) is not None and stamp.group(5) != step.settings_digest():
        sys.exit(f"results-stamp: {name}: its settings changed: rerun `{step.command()}`")
    files = files_of(step.inputs)
    found = None
    named = (git("rev-parse", "--verify", "--quiet", stamp.group(2).split("+")[0] + "^{commit}") or "").strip()
    for commit in ([named] if named else []) + (git("rev-list", "--max-count=200", "HEAD") or "").split():
        h = hashlib.sha256()
        present = True
        for p in files:
            blob = subprocess.run(["git", "-C", TOP, "show", f"{commit}:{p}"], capture_output=True)
            if blob.returncode != 0:
                present = False
                break
            h.update(p.encode() + b"\0" + hashlib.sha256(blob.stdout).digest())
        if present and h.hexdigest()[:16] == stamp.group(4):
            found = commit
            if commit == named:
                break
        elif found:         # the oldest of the newest run of matching commits
            break
    commit = found
    if not commit:
        sys.exit(f"results-stamp: {name}: no commit of the last 200 has the stamp's inputs: rerun `{step.command()}`")
    library = set(steptable.aliases().get("@library", []))
    for p in files:
        old = subprocess.run(["git", "-C", TOP, "show", f"{commit}:{p}"], capture_output=True).stdout
        with open(os.path.join(TOP, p), "rb") as f:
            new = f.read()
        # what libmpi is built from must be the same byte for byte: MPICH
        # turns comments into code (its CVAR blocks) and a patch's context
        # lines may start with #
        exact = any(p == a or p.startswith(a.rstrip("/") + "/") for a in library)
        if old != new and (exact or uncommented(p, old.decode(errors="replace")) !=
                           uncommented(p, new.decode(errors="replace"))):
            sys.exit(f"results-stamp: {name}: {p} changed since {commit[:7]} (beyond comments, or in what libmpi is built from): "
                     f"rerun `{step.command()}`")
    if stamp.group(6) is not None and stamp.group(6) != outputs(name):
        sys.exit(f"results-stamp: {name}: its files changed since they were stamped: rerun `{step.command()}`")
    summary = os.path.join(RESULTS, name, "SUMMARY.md")
    line = stamp_line(name, step, commit=commit[:7], date=stamp.group(3))
    if stamp.group(5) is None:      # it did not cover settings: it still does not
        line = re.sub(r" settings=[0-9a-f]+", "", line)
    if stamp.group(6) is None:      # nor its files
        line = re.sub(r" outputs=[0-9a-f]+", "", line)
    replace_stamp(summary, line)
    print(f"rebased {name}: figures of {commit[:7]} ({stamp.group(3)}); inputs differ from it only in comments")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "digest":
        step = read_sets().get(sys.argv[2])
        if step is None:
            sys.exit(f"results-stamp: no set {sys.argv[2]}")
        print(digest(step.inputs), step.settings_digest())
    elif len(sys.argv) == 3 and sys.argv[1] == "rebase":
        rebase(sys.argv[2])
    elif len(sys.argv) == 2 and sys.argv[1] == "stale":
        stale()
    elif len(sys.argv) >= 2 and sys.argv[1] == "check":
        args = sys.argv[2:]
        sys.exit(0 if check([a for a in args if a != "--strict"], strict="--strict" in args) else 1)
    else:
        sys.exit(__doc__)
