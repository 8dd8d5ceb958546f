# account.awk: the suite's results against what was expected to run, and
# xfail.txt (-v xf=FILE, lines "dir/name np reason"). Input records:
#   dir D                 directory D was run
#   expect D/N NP         a testlist line that runtests should run
#   skip D/N NP REASON    a testlist line left out (ci-skip.txt, testlist.dtp)
#   nobuild D/N           program N did not build (make -k or runtests)
#   stopped D MESSAGE     runtests stopped early in D
#   ok|fail D/N NP        a TAP result; tapskip D/N NP REASON: a TAP "# SKIP"
#   time D SECONDS        (ignored here)
#   only D/N              a SUITE_ONLY entry: it must match an expected run
# Failures: unexpected "not ok", every expected run of a program that did not
# build, every expected run missing from the TAP output, extra runs, stale
# xfail entries (no such run, and not a listed skip) and malformed ones. XFAIL counts as neither passed nor failed; XPASS
# counts as passed. Ends with "skipped: N (listed above)" and "N passed, N failed".
function rest(k,   s, i) { s = $k; for (i = k + 1; i <= NF; i++) s = s " " $i; return s }
function dirof(id) { sub(/\/.*/, "", id); return id }
function nameof(k) { sub(/ .*/, "", k); return k }
function npof(k) { sub(/.* /, "", k); return k }
function bad(msg) { print "FAIL " msg; fail++ }
BEGIN {
    while ((getline l < xf) > 0) {
        xl++
        if (l ~ /^[ \t]*(#|$)/ || l ~ /^timeLimit=[0-9]+[ \t]*$/) continue
        n = split(l, a, /[ \t]+/)
        if (n < 3 || a[1] !~ /^[^\/]+\/[^\/]+$/ || a[2] !~ /^[0-9]+$/) {
            badx[++nbadx] = "xfail.txt line " xl " is not \"dir/name np reason\": " l; continue
        }
        why = l; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", why)
        k = a[1] " " a[2]; if (!(k in x)) xk[++nxk] = k; x[k] = why
    }
}
$1 == "dir"     { ran[$2] = 1; dirs[++nd] = $2; next }
$1 == "time"    { next }
$1 == "nobuild" { nb[$2] = 1; next }
$1 == "stopped" { stop[$2] = rest(3); next }
{ k = $2 " " $3; d = dirof($2) }
$1 == "expect"  { if (!(k in want)) ek[++nek] = k; want[k]++; ne[d]++; eid[$2] = 1; next }
$1 == "only"    { onl[++nonl] = $2; next }
$1 == "skip" || $1 == "tapskip" {
    why = ($1 == "tapskip" ? "runtests: " : "") rest(4)
    s = $2 " np=" $3 ": " why (k in x ? " (in xfail.txt)" : "")
    skipk[k] = 1
    if (!(s in sk)) so[++nso] = s
    sk[s]++; skipped++
    if ($1 == "skip") next
}
{ got[k]++; ng[d]++; if (!(k in gotseen)) { gotseen[k] = 1; gk[++ngk] = k } }
$1 == "tapskip" || ($2 in nb) { next }          # a program that did not build: counted below
$1 == "ok" && (k in x) { print "XPASS " $2 " np=" $3 " (listed: " x[k] ")"; seen[k] = 1; pass++; next }
$1 == "ok"             { pass++; next }
$1 == "fail" && (k in x) { xfl[++nx] = "XFAIL " $2 " np=" $3 ": " x[k]; seen[k] = 1; next }
$1 == "fail"           { bad($2 " np=" $3) }
END {
    for (i = 1; i <= nek; i++) {
        k = ek[i]; id = nameof(k); d = dirof(id)
        if (id in nb) {
            for (j = 0; j < want[k]; j++) bad(id " np=" npof(k) " (did not build)")
        } else {
            for (j = got[k]; j < want[k]; j++)
                bad(id " np=" npof(k) " (no result in the TAP output" \
                    (d in stop ? "; runtests: " stop[d] : "") ")")
        }
    }
    for (i = 1; i <= ngk; i++) {
        k = gk[i]
        for (j = want[k]; j < got[k]; j++) bad(nameof(k) " np=" npof(k) " (ran more often than its testlist lists)")
    }
    for (i = 1; i <= nd; i++)       # the runs behind this line are failures above
        if (ng[dirs[i]] + 0 != ne[dirs[i]] + 0)
            print "RUNS " dirs[i] ": " ng[dirs[i]] + 0 " in the TAP output, " ne[dirs[i]] + 0 " expected"
    for (i = 1; i <= nxk; i++) {
        k = xk[i]
        if (ran[dirof(k)] && !(k in seen) && !(k in skipk) && !(nameof(k) in nb) && got[k] + 0 >= want[k] + 0)
            bad("stale xfail entry " nameof(k) " np=" npof(k) ": no such run (" x[k] ")")
    }
    for (i = 1; i <= nbadx; i++) bad(badx[i])
    for (i = 1; i <= nonl; i++)
        if (!(onl[i] in eid)) bad("SUITE_ONLY entry " onl[i] " matches no testlist line that runs")
    for (i = 1; i <= nx; i++) print xfl[i]
    for (i = 1; i <= nso; i++) print "SKIP " so[i] (sk[so[i]] > 1 ? " (x" sk[so[i]] ")" : "")
    printf "expected failures: %d\n", nx
    printf "skipped: %d (listed above)\n", skipped
    printf "%d passed, %d failed\n", pass, fail
    exit (fail > 0)
}
