#!/bin/sh
# course/student_copy.sh - the header a student receives.
#
#   sh course/student_copy.sh [HEADER [OUT]]
#
# Copies HEADER (default: sim2real.h beside course/) to OUT (default:
# build/course/kit/sim2real.h) with the reference solution of every
# exercise point cut out.  An exercise point in the header looks like
#
#   /* >> exercise NAME: what it is (course/N_NAME) */
#   #ifndef S2R_EXERCISE_NAME
#   /* >> solution NAME begin */
#   ... the reference ...
#   /* >> solution NAME end */
#   #endif
#
# Everything between the two solution markers is replaced: where NAME's
# solution begins the first time, by the stub in course/N_NAME/NAME.c (the
# lines between its "/* >> stub begin */" and "/* >> stub end */" markers:
# the skeleton the student edits, whose functions compile and return an
# error); where it begins again (a second part of the same exercise), by
# nothing.  The markers stay, so the copy differs from the header only
# between them.  A solution without a stub, or markers out of pairs, stop
# the copy with an error and write nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
in=${1:-$here/../sim2real.h}
out=${2:-$here/../build/course/kit/sim2real.h}
[ -f "$in" ] || { echo "student_copy: no header at $in" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp="$out.partial"
awk -v course="$here" '
function stub(name,    files, cmd, path, line, inside, found) {
    cmd = "ls " course "/*_" name "/" name ".c 2>/dev/null"
    path = ""
    if ((cmd | getline path) <= 0) path = ""
    close(cmd)
    if (path == "") { printf "student_copy: no skeleton course/*_%s/%s.c for the exercise %s\n", name, name, name > "/dev/stderr"; failed = 1; return }
    inside = 0; found = 0
    while ((getline line < path) > 0) {
        if (line ~ /^\/\* >> stub begin \*\/$/) { inside = 1; found = 1; continue }
        if (line ~ /^\/\* >> stub end \*\/$/) { inside = 0; continue }
        if (inside) print line
    }
    close(path)
    if (!found) { printf "student_copy: %s has no \"/* >> stub begin */\" line\n", path > "/dev/stderr"; failed = 1 }
}
/^\/\* >> solution [a-z0-9_]+ begin \*\/$/ {
    if (open != "") { printf "student_copy: line %d: solution %s begins inside %s\n", NR, $4, open > "/dev/stderr"; failed = 1 }
    print; open = $4
    if (!(open in seen)) { stub(open); seen[open] = 1 }
    next
}
/^\/\* >> solution [a-z0-9_]+ end \*\/$/ {
    if ($4 != open) { printf "student_copy: line %d: solution %s ends, %s was open\n", NR, $4, open > "/dev/stderr"; failed = 1 }
    open = ""; print; next
}
open == "" { print }
END {
    if (open != "") { printf "student_copy: solution %s never ends\n", open > "/dev/stderr"; failed = 1 }
    n = 0; for (k in seen) n++
    if (n == 0) { print "student_copy: the header has no exercise points (is it a student copy already?)" > "/dev/stderr"; failed = 1 }
    exit failed
}' "$in" > "$tmp" || { rm -f "$tmp"; exit 1; }
mv "$tmp" "$out"
echo "student copy: $out"
