# Sourced by test/run-all.sh (a phase) and test/unit/run.sh (a check script):
# the counts of a test command from its output, whose closing line is
# "N passed, N failed" (or "NAME: N passed, N failed"), with an optional
# "skipped: N" line. The last such lines count.
#   closing_counts LOG RC    sets cl_p, cl_f, cl_s and cl_note
# A command with no closing line, or with a nonzero exit and 0 failed, or that
# ran nothing (0 passed, 0 failed, no skips) counts one failure, named in
# cl_note.
closing_counts() {
    cl_line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    cl_s=$(sed -n 's/^skipped: \([0-9]*\).*/\1/p' "$1" | tail -1)
    cl_s=${cl_s:-0} cl_note=""
    if [ -z "$cl_line" ]; then
        cl_p=0 cl_f=1 cl_note=" (no closing line, exit $2)"
        return
    fi
    cl_p=$(echo "$cl_line" | sed -E 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/')
    cl_f=$(echo "$cl_line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    if [ "$2" -ne 0 ] && [ "$cl_f" -eq 0 ]; then
        cl_f=1 cl_note=" (exit $2 with 0 failed)"
    elif [ "$cl_p" -eq 0 ] && [ "$cl_f" -eq 0 ] && [ "$cl_s" -eq 0 ]; then
        cl_f=1 cl_note=" (ran nothing: 0 passed, 0 failed, no skips)"
    fi
}
