# testlist.awk: one MPICH testlist file in, the lines runtests should run out
# (stdout), and one accounting record per line appended to the file `rec`:
#   expect DIR/NAME NP              the line is kept
#   skip   DIR/NAME NP REASON       the line is left out (counted as skipped)
# Variables: dir, rec, maxnp (runtests' -maxnp), skipf (ci-skip.txt, or ""
# for none), omit (a reason: leave out every line of this file), xf
# (xfail.txt: a matching "DIR/NAME NP" line gets the list's timeLimit=N).
# NP is the count as run: the testlist's (2 when absent), capped at maxnp.
BEGIN {
    while (skipf != "" && (getline l < skipf) > 0) {
        if (l ~ /^[ \t]*(#|$)/) continue
        split(l, a, /[ \t]+/); why = l; sub(/^[^ \t]+[ \t]+/, "", why); skip[a[1]] = why
    }
    while (xf != "" && (getline l < xf) > 0) {
        if (l ~ /^timeLimit=[0-9]+[ \t]*$/) { tl = l; sub(/[ \t]+$/, "", tl); continue }
        if (l ~ /^[ \t]*(#|$)/) continue
        split(l, a, /[ \t]+/); x[a[1] " " a[2]] = 1
    }
}
{ line = $0; sub(/#.*/, "", line); sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line) }
line == "" || line ~ /^!/ { if (line != "") print line; next }   # !dir:target: a build step
{
    n = split(line, f, /[ \t]+/)
    np = (n >= 2 ? f[2] : 2)
    if (maxnp > 0 && np + 0 > maxnp + 0) np = maxnp
    name = f[1]; sub(/.*\//, "", name)          # runtests reports the basename
    id = dir "/" name
    if (omit != "")           { print "skip " id " " np " " omit >> rec; next }
    if ((dir "/" f[1]) in skip) { print "skip " id " " np " ci-skip.txt: " skip[dir "/" f[1]] >> rec; next }
    print "expect " id " " np >> rec
    if (tl != "" && (id " " np) in x) line = line " " tl
    print line
}
