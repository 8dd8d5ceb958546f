#!/bin/sh
# No side effect inside an assertion in our MPICH-side code: MPICH compiles
# MPIR_Assert* away in production builds (--enable-fast=all / ndebug), so a
# call or an assignment inside one would not run there.
#   asserts.sh [FILE...]   default: mpich/**/*.[ch] and the '+' lines of
#                          patches/mpich/*.patch
# Flags an assertion whose condition has an assignment (=, +=, ++, --, ...)
# or calls a function not listed as pure below. Prints each offence as
# file:line and ends with "N passed, N failed" (one test per assertion).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# calls known to have no side effect (macros or pure readers)
pure='sizeof|MPIR_Object_get_ref|MPIDIU_avt_exists|avrm_map_is_multi|MPIR_Comm_size|MPIR_Comm_rank|MPL_MIN|MPL_MAX|HANDLE_GET_KIND'
if [ $# -gt 0 ]; then files="$*"
else files=$(cd "$top" && find "$top/mpich" -name '*.[ch]'; ls "$top"/patches/mpich/*.patch); fi
scan() {
${AWK:-awk} -v pure="^($pure)\$" '
function check(cond, where,    c, name, rest) {
    ntests++
    c = cond
    gsub(/==|!=|<=|>=|->/, " ", c)           # comparisons and member access
    if (c ~ /(\+\+|--|[-+*\/%&|^]?=|<<=|>>=)/) { bad(where, "assignment"); return }
    rest = c
    while (match(rest, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
        name = substr(rest, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
        if (name !~ pure && name !~ /^MPIR_Assert/) { bad(where, "call of " name "()"); return }
        rest = substr(rest, RSTART + RLENGTH)
    }
}
function bad(where, what) { nbad++; printf "FAIL %s: side effect in an assertion (%s)\n", where, what }
FNR == 1 { inpatch = FILENAME ~ /\.patch$/; cur = ""; depth = 0 }
{
    line = $0
    if (inpatch) { if (line !~ /^\+/ || line ~ /^\+\+\+/) next; line = substr(line, 2) }
    if (cur == "" && match(line, /MPIR_Assert[A-Za-z_]*[ \t]*\(/)) {
        cur = substr(line, RSTART + RLENGTH); where = FILENAME ":" FNR; depth = 1
        line = ""
    } else if (cur != "") { cur = cur " " line; line = "" }
    if (cur != "") {
        # read up to the matching parenthesis
        s = cur; out = ""; depth = 1
        for (i = 1; i <= length(s); i++) {
            ch = substr(s, i, 1)
            if (ch == "(") depth++
            else if (ch == ")") { depth--; if (depth == 0) break }
            out = out ch
        }
        if (depth == 0) { check(out, where); cur = "" }
    }
}
END { printf "%d passed, %d failed\n", ntests - nbad, nbad; exit nbad > 0 }
' "$@"
}
# control: the scan must flag each of these three and pass the fourth
ctl=$(mktemp); trap 'rm -f "$ctl"' EXIT
printf '%s\n' '    MPIR_Assert(make(x) == 0);' '    MPIR_Assertp(n++ < 4 &&' '                 ok);' \
    '    MPIR_Assert(a = b);' '    MPIR_Assert(p->n == sizeof(x) && q != NULL);' > "$ctl"
c=$(scan "$ctl" | tail -1)
if [ "$c" != "1 passed, 3 failed" ]; then
    echo "FAIL control: the scan of 3 bad and 1 good assertion gave \"$c\""; ctl_fail=1
else echo "PASS control: 3 bad assertions flagged, the good one passed"; ctl_fail=0; fi
scan $files | sed "s/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/" > "$ctl.out"
sed '$d' "$ctl.out"
set -- $(tail -1 "$ctl.out"); rm -f "$ctl.out"
echo "$(( $1 + 1 - ctl_fail )) passed, $(( $2 + ctl_fail )) failed"
[ $(( $2 + ctl_fail )) -eq 0 ]
