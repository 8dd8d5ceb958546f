#!/usr/bin/env python3
"""Rewrite the patch series from the trees it makes, step by step.

    series-regen.py [--order FILE] [--transform FILE] [--check-tree DIR]

Builds the tree after every entry of the series (the MPICH tarball, then
each `add` copied and each patch applied in the order of --order, default
patches/mpich/series) and rewrites every patch as the difference between
the tree before and after it, file by file, over the files the patch
touches. So a patch moved in the order is rewritten against its new base
(it must still apply there, with fuzz), and its context is clean again.

--transform FILE names a Python file defining transform(path, text) -> text,
applied to both sides of every difference: a rule that holds for every
state of a file (say, "the OFI address functions are in ofi_avrm.h, the
tree includes it") is written once and every patch follows it. A patch left
with no difference is an error (drop it from the order).

The headers (the lines before the first "--- ") are kept; --order's comment
lines become the series' comments; a line "OLD.patch -> NEW.patch" renames
a patch. Afterwards the new series is applied to
a fresh tarball tree as apply-patches.sh would and compared with the last
state (transformed): any difference stops with its file. --check-tree DIR
compares that tree with DIR as well (an edited tree the series must make).
"""
import argparse
import filecmp
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PDIR = os.path.join(TOP, "patches", "mpich")


def die(msg):
    sys.exit(f"series-regen: {msg}")


def read_series(path):
    """[(kind, a, b)]: ('patch', name, new_name), ('add', repo_path, tree_path),
    ('text', line, None) for comments and blank lines."""
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                out.append(("text", line.rstrip("\n"), None))
            elif w[0] == "add":
                out.append(("add", w[1], w[2]))
            else:
                # "OLD.patch -> NEW.patch" renames it (a new place in the order)
                out.append(("patch", w[0], w[2] if len(w) == 3 and w[1] == "->" else w[0]))
    return out


def patch_files(text):
    """Tree paths a patch touches, in its order."""
    files = []
    for m in re.finditer(r"^\+\+\+ b/(\S+)", text, re.M):
        if m.group(1) not in files:
            files.append(m.group(1))
    return files


def header(text):
    i = text.find("\n--- ")
    return text if i < 0 else text[: i + 1]


def read(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except FileNotFoundError:
        return None


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def udiff(path, before, after, tmp):
    """diff -u of one file, labelled a/PATH b/PATH (or /dev/null)."""
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    write(a, before or "")
    write(b, after or "")
    la = "/dev/null" if before is None else f"a/{path}"
    lb = "/dev/null" if after is None else f"b/{path}"
    r = subprocess.run(["diff", "-u", "--label", la, "--label", lb, a, b],
                       capture_output=True, text=True, errors="surrogateescape")
    if r.returncode > 1:
        die(f"diff failed on {path}: {r.stderr}")
    return r.stdout


def extract(tree):
    tarball = subprocess.run([os.path.join(TOP, "maint", "fetch-mpich.sh")],
                             capture_output=True, text=True, check=True).stdout.strip()
    os.makedirs(tree)
    subprocess.run(["tar", "-xf", tarball, "-C", tree, "--strip-components=1"], check=True)


def apply(tree, text, name):
    r = subprocess.run(["patch", "-d", tree, "-p1", "-s", "-f", "--no-backup-if-mismatch"],
                       input=text, capture_output=True, text=True, errors="surrogateescape")
    if r.returncode:
        die(f"{name} does not apply in the new order:\n{r.stdout}{r.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", default=os.path.join(PDIR, "series"))
    ap.add_argument("--transform")
    ap.add_argument("--check-tree")
    args = ap.parse_args()
    transform = lambda path, text: text  # noqa: E731
    if args.transform:
        spec = importlib.util.spec_from_file_location("transform", args.transform)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        transform = mod.transform
    T = lambda p, t: None if t is None else transform(p, t)  # noqa: E731
    order = read_series(args.order)
    tmp = tempfile.mkdtemp(prefix="series-regen.")
    try:
        tree = os.path.join(tmp, "tree")
        extract(tree)
        new = {}
        for kind, a, b in order:
            if kind == "add":
                src = os.path.join(TOP, a)
                if not os.path.exists(src):
                    die(f"series: missing file {a}")
                os.makedirs(os.path.dirname(os.path.join(tree, b)), exist_ok=True)
                shutil.copyfile(src, os.path.join(tree, b))
            elif kind == "patch":
                text = read(os.path.join(PDIR, a))
                if text is None:
                    die(f"missing patch {a}")
                files = patch_files(text)
                before = {f: read(os.path.join(tree, f)) for f in files}
                apply(tree, text, a)
                body = ""
                for f in files:
                    body += udiff(f, T(f, before[f]), T(f, read(os.path.join(tree, f))), tmp)
                if not body:
                    die(f"{a} changes nothing once transformed: drop it from the order")
                new[b] = header(text) + body
        # write the series and the patches, then check what they make
        with open(os.path.join(PDIR, "series"), "w") as f:
            for kind, a, b in order:
                f.write({"text": a, "patch": b}.get(kind, f"add {a} {b}") + "\n")
        for name, text in new.items():
            write(os.path.join(PDIR, name), text)
        for name in os.listdir(PDIR):
            if name.endswith(".patch") and name not in new:
                os.remove(os.path.join(PDIR, name))
                print(f"series-regen: removed {name} (not in the order)")
        check = os.path.join(tmp, "check")
        extract(check)
        touched = set()
        for kind, a, b in order:
            if kind == "add":
                shutil.copyfile(os.path.join(TOP, a), os.path.join(check, b))
            elif kind == "patch":
                apply(check, new[b], b)
                touched.update(patch_files(new[b]))
        bad = [f for f in sorted(touched)
               if read(os.path.join(check, f)) != T(f, read(os.path.join(tree, f)))]
        if args.check_tree:
            bad += [f"{f} (against {args.check_tree})" for f in sorted(touched)
                    if not filecmp.cmp(os.path.join(check, f), os.path.join(args.check_tree, f),
                                       shallow=False)]
        if bad:
            die("the new series does not make the expected tree: " + ", ".join(bad))
        print(f"series-regen: {len(new)} patches rewritten; the series makes the expected tree")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
