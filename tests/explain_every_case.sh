#!/usr/bin/env bash
# explain_every_case.sh FLOWLUA ROOT OUTDIR
# `flowlua --explain` on every shipped case and example: each must exit 0 and print
# a kernel plan (the line that says how to force a variant, and one line per stage).
set -u
flowlua=$1
root=$2
out=$3
mkdir -p "$out"
fail=0
count=0
while IFS= read -r f; do
  count=$((count + 1))
  log="$out/$(echo "${f#$root/}" | tr '/' '_').txt"
  if ! "$flowlua" --explain --quiet --backend cpu --output "$out/run" "$f" > "$log" 2>&1; then
    echo "FAIL (exit): $f"; cat "$log"; fail=1; continue
  fi
  plans=$(grep -c "kernels = { stage = variant } forces one" "$log")
  stages=$(grep -cE "^  [a-z_]+ +[a-z_0-9]+( \(forced\))?: " "$log")
  if [ "$plans" -lt 1 ] || [ "$stages" -lt 2 ]; then
    echo "FAIL (no kernel plan): $f"; cat "$log"; fail=1
  fi
done < <(find "$root/cases" "$root/examples" -name '*.lua' | sort)
[ "$count" -ge 10 ] || { echo "found only $count cases"; fail=1; }
[ $fail -eq 0 ] && echo "explain: $count cases and examples print a kernel plan"
exit $fail
