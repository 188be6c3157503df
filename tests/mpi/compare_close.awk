# Compares what a case printed on several ranks (the second file) with one rank (the
# first), for tests/mpi/close_fields.sh and restart_across_ranks.sh:
#   F case field i j value   -> max |a - b| / max |a| per case and field <= tol
#   I case step iterations   -> |a - b| <= 1 at every step
#   other lines              -> identical
# Usage: awk -v tol=1e-8 -v what="np 2" -f compare_close.awk ONE OTHER; exit 1 on a difference.

function abs(x) { return x < 0 ? -x : x }
FNR == NR {
  if ($1 == "F") { key = $2 " " $3 " " $4 " " $5; a[key] = $6; k = $2 " " $3; if (abs($6) > scale[k]) scale[k] = abs($6); seen[k] = 1 }
  else if ($1 == "I") it[$2 " " $3] = $4
  else e[FNR] = $0
  ones++
  next
}
{
  many++
  if ($1 == "F") {
    key = $2 " " $3 " " $4 " " $5; k = $2 " " $3
    if (!(key in a)) { print what ": no cell " key " on one rank"; bad = 1; next }
    d = abs($6 - a[key]); if (d > diff[k]) diff[k] = d
    if ($6 != $6 + 0 || d != d) { print what ": " key " is not a number"; bad = 1 }
  } else if ($1 == "I") {
    key = $2 " " $3
    d = abs($4 - it[key]); if (d > idiff[$2]) idiff[$2] = d
    itotal[$2] += $4; ione[$2] += it[key]
    if (d > 1) { print what ": " $2 " step " $3 ": " $4 " pressure iterations, one rank " it[key]; bad = 1 }
  } else if (e[FNR] != $0) { print what ": line " FNR " is \"" $0 "\", one rank \"" e[FNR] "\""; bad = 1 }
}
END {
  if (many != ones) { print what ": " many " lines, one rank " ones; bad = 1 }
  for (k in seen) {
    rel = scale[k] > 0 ? diff[k] / scale[k] : diff[k]
    split(k, parts, " ")
    printf "close_fields: %s %s %-3s max |difference| / max |value| = %.2e", what, parts[1], parts[2], rel
    if (parts[2] == "u" && (parts[1] in itotal)) printf ", pressure iterations %d (one rank %d), at most %d apart in a step", itotal[parts[1]], ione[parts[1]], idiff[parts[1]]
    printf "\n"
    if (!(rel <= tol)) { print what ": " k " differs by " rel " of its largest value, more than " tol; bad = 1 }
  }
  exit bad
}
