#!/usr/bin/env bash
# h5dump_self_describing.sh FLOWLUA OUTDIR
#
# Writes a checkpoint of a small cavity and reads it with HDF5's own h5dump (hdf5-tools):
# the file must say what it is (format, model, precision, step, time, case hash), carry
# the params, and hold 2D arrays with their layout. Skipped (77) without h5dump.
set -u
flowlua=$1; out=$2
command -v h5dump > /dev/null || { echo "SKIP: h5dump not found (Debian: hdf5-tools; setup.sh installs it)"; exit 77; }
rm -rf "$out"; mkdir -p "$out"
cat > "$out/case.lua" <<'LUA'
local n = param("n", 12)
local sim = flow.simulation {
  grid = { nx = n, ny = n }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}
sim:step(7)
print("wrote " .. sim:checkpoint("c_%04d.h5"))
LUA
"$flowlua" --quiet --backend cpu --output "$out" "$out/case.lua" --set n=10 || { echo "FAIL: flowlua exited $?"; exit 1; }
f=$out/c_0007.h5
[ -f "$f" ] || { echo "FAIL: no $f"; exit 1; }
h5dump -H "$f" > "$out/header.txt" || { echo "FAIL: h5dump cannot read $f"; exit 1; }
h5dump -a /format -a /model -a /precision -a /step -a /case_hash -a /params/n "$f" > "$out/attrs.txt" || { echo "FAIL: attributes"; exit 1; }
fail() { echo "FAIL: $*"; cat "$out/header.txt" "$out/attrs.txt"; exit 1; }
grep -q '"flowlua checkpoint"' "$out/attrs.txt" || fail "no format attribute"
grep -q '"projection"' "$out/attrs.txt" || fail "no model attribute"
grep -q '"double"' "$out/attrs.txt" || fail "no precision attribute"
grep -q '(0): 7' "$out/attrs.txt" || fail "step is not 7"
grep -q '"fnv1a64:' "$out/attrs.txt" || fail "no case hash"
grep -q '"10"' "$out/attrs.txt" || fail "the param n=10 is not stored"
grep -q 'DATASET "u"' "$out/header.txt" || fail "no dataset u"
grep -q 'SIMPLE { ( 12, 12 ) / ( 12, 12 ) }' "$out/header.txt" || fail "u is not a 12 x 12 grid (10 cells + ghosts)"
grep -q 'H5T_IEEE_F64LE' "$out/header.txt" || fail "no double datasets"
grep -q 'ATTRIBUTE "layout"' "$out/header.txt" || fail "no layout attribute"
ls "$out" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
echo "PASS: $(grep -c DATASET "$out/header.txt") datasets, h5dump reads every attribute"
