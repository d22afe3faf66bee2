# tests/check_intervals.awk - each known value inside the interval example 12
# printed for it ("  intervals:" block of its output).
#   awk -v truth="kp=0.9 kv=1.5 armature=1.6?" -f tests/check_intervals.awk 12.log
# A name ending in ? may be reported not identifiable (then not checked).
# Prints "name value in [lo, hi]; " per parameter, and "BAD ..." for each
# value outside its interval, not reported, or not identifiable unasked.
BEGIN {
    n = split(truth, pairs, " ")
    for (i = 1; i <= n; i++) {
        split(pairs[i], kv, "=")
        name = kv[1]; value = kv[2]
        if (value ~ /\?$/) { sub(/\?$/, "", value); may_be_open[name] = 1 }
        known[name] = value + 0
    }
}
/^  intervals:/ { on = 1; next }
on && /^    [a-z_\[\]0-9]+ / {
    name = $1; line = $0; sub(/^[^[]*\[/, "", line); split(line, b, /[],]/); lo = b[1] + 0; hi = b[2] + 0
    seen[name] = 1
    if (!(name in known)) next
    if (line ~ /not identifiable/) {
        if (name in may_be_open) printf "%s open; ", name
        else bad = bad name " not identifiable; "
    } else if (known[name] < lo - 1e-9 || known[name] > hi + 1e-9)
        bad = bad sprintf("%s %g outside [%g, %g]; ", name, known[name], lo, hi)
    else printf "%s %g in [%g, %g]; ", name, known[name], lo, hi
}
END {
    for (name in known) if (!(name in seen)) bad = bad name " not reported; "
    if (bad != "") printf "BAD %s", bad
}
