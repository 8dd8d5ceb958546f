#!/usr/bin/env python3
"""Stamps on results sets, and the check that they are not stale.

    results-stamp.py write SET FILE     put SET's stamp line into FILE (a
                                        SUMMARY.md the benchmark just wrote)
    results-stamp.py check [SET ...]    every set of bench/inputs.txt (or the
                                        ones named): PASS fresh / FAIL stale
    results-stamp.py stale              the command of every set that is stale
                                        or unstamped, one per line (what
                                        `make bench-stale` runs)

A stamp is one line, kept first in the set's bench/results/SET/SUMMARY.md:

    <!-- results-stamp set=SET commit=SHORT date=ISO digest=HEX16 -->

digest is a sha256 over the sorted (path, sha256 of contents) of every file
under the set's paths (bench/inputs.txt), as they are in the work tree, the
file list from `git ls-files` (untracked build products do not count; no git:
every file). commit and date say when the figures were taken, for people;
the check compares only digests, so it needs no history (CI clones shallow).
A stale set names the files that differ from its commit when git has it.
A set without SUMMARY.md or without a stamp fails: its figures cannot be
shown fresh. A bench/results directory in no set is a SKIP line, counted.
The last line is "N passed, N failed".
"""
import hashlib
import os
import re
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALIASES = {
    "@library": ["patches/mpich", "mpich", "src/core", "include", "maint/build-mpich.sh",
                 "maint/apply-patches.sh", "maint/fix-static-libs.sh"],
    "@core": ["src/core", "include"],
}
# where the sets live (the check's control points it at a copy)
RESULTS = os.environ.get("AVRM_RESULTS_DIR", os.path.join(TOP, "bench", "results"))
STAMP_RE = re.compile(r"^<!-- results-stamp set=(\S+) commit=(\S+) date=(\S+) digest=([0-9a-f]+) -->$")


def read_sets():
    """bench/inputs.txt -> {set: (command, [paths])}; the command may hold
    spaces: paths start at the first @alias or at a token naming a file."""
    sets = {}
    with open(os.path.join(TOP, "bench", "inputs.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            name, rest = words[0], words[1:]
            i = next((k for k, w in enumerate(rest) if w.startswith("@")), None)
            if i is None:
                sys.exit(f"results-stamp: set {name} lists no @library/@core input")
            paths = []
            for w in rest[i:]:
                paths += ALIASES.get(w, [w]) if w.startswith("@") else [w]
            for p in paths:
                if p.startswith("@") or not os.path.exists(os.path.join(TOP, p)):
                    sys.exit(f"results-stamp: set {name}: no input {p}")
            sets[name] = (" ".join(rest[:i]), paths)
    return sets


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


def stamp_line(name, paths):
    commit = (git("rev-parse", "--short", "HEAD") or "unknown").strip()
    if git("status", "--porcelain", "--", *paths):
        commit += "+changes"
    date = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())
    return f"<!-- results-stamp set={name} commit={commit} date={date} digest={digest(paths)} -->"


def write(name, path):
    sets = read_sets()
    if name not in sets:
        sys.exit(f"results-stamp: no set {name} in bench/inputs.txt")
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if not STAMP_RE.match(l)]
    with open(path, "w") as f:
        f.write("\n".join([stamp_line(name, sets[name][1])] + lines) + "\n")


def read_stamp(name):
    """The stamp line's match in bench/results/NAME/SUMMARY.md, or None."""
    summary = os.path.join(RESULTS, name, "SUMMARY.md")
    if not os.path.exists(summary):
        return None
    with open(summary) as f:
        return next((m for m in map(STAMP_RE.match, f.read().splitlines()) if m), None)


def is_fresh(name, paths):
    stamp = read_stamp(name)
    return stamp is not None and stamp.group(1) == name and stamp.group(4) == digest(paths)


def stale():
    for name, (command, paths) in sorted(read_sets().items()):
        if not is_fresh(name, paths):
            print(command)


def check(names):
    sets = read_sets()
    explicit = bool(names)
    names = names or sorted(sets)
    passed = failed = 0
    for name in names:
        if name not in sets:
            print(f"FAIL {name}: no such set in bench/inputs.txt"); failed += 1; continue
        command, paths = sets[name]
        stamp = read_stamp(name)
        if stamp is None:
            print(f"FAIL {name}: no stamp in bench/results/{name}/SUMMARY.md (run `{command}`)")
            failed += 1
        elif stamp.group(1) != name:
            print(f"FAIL {name}: its SUMMARY.md is stamped for set {stamp.group(1)}"); failed += 1
        elif stamp.group(4) == digest(paths):
            print(f"PASS {name}: figures of {stamp.group(2)} ({stamp.group(3)}), inputs unchanged")
            passed += 1
        else:
            base = stamp.group(2).split("+")[0]
            changed = git("diff", "--name-only", base, "--", *paths) if base != "unknown" else None
            what = (", changed since: " + " ".join(changed.split()[:6]) +
                    (" ..." if len(changed.split()) > 6 else "")) if changed else ""
            print(f"FAIL {name}: stale, figures of {stamp.group(2)} and the code they measure changed"
                  f"{what} (run `{command}`)")
            failed += 1
    if not explicit:
        # result sets no stamp covers yet: listed and counted, never silent;
        # every directory at the top of bench/results, and every one below
        # that holds a SUMMARY.md (a set may be nested: insns/rate)
        root = RESULTS
        loose = sorted(rel for dp, _, files in os.walk(root) for rel in [os.path.relpath(dp, root)]
                       if rel != "." and rel not in sets and (os.sep not in rel or "SUMMARY.md" in files))
        for d in loose:
            print(f"SKIP {d}: bench/results/{d} is in no set of bench/inputs.txt "
                  "(its command writes no stamp yet); its figures are not checked")
        if loose:
            print(f"skipped: {len(loose)} ({' '.join(loose)})")
    print(f"{passed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2 and sys.argv[1] == "stale":
        stale()
    elif len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(0 if check(sys.argv[2:]) else 1)
    else:
        sys.exit(__doc__)
