#!/usr/bin/env bash
# two_runs_one_folder.sh FLOWLUA OUTDIR
#
# Two flowlua runs on one output folder: the second is refused (exit 1, naming the
# first's process) while the first holds <output>/.flowlua.lock; once the first is
# gone the folder is free again (the lock dies with its process).
set -u
flowlua=$1; out=$2
rm -rf "$out"; mkdir -p "$out/run"
cat > "$out/case.lua" <<'LUA'
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = param("steps", 100000000) },
}
sim:run()
LUA
"$flowlua" --quiet --backend cpu --output "$out/run" "$out/case.lua" > "$out/first.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s "$out/run/.flowlua.lock" ] && break; sleep 0.05; done
fail() { echo "FAIL: $*"; cat "$out/first.log" "$out/second.log" 2>/dev/null; kill "$pid" 2>/dev/null; exit 1; }
[ -s "$out/run/.flowlua.lock" ] || fail "the first run took no lock"
"$flowlua" --quiet --backend cpu --output "$out/run" "$out/case.lua" --set steps=5 > "$out/second.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "the second run exited $rc (expected 1)"
grep -q "is in use by another flowlua run (process $pid)" "$out/second.log" || fail "no message naming process $pid"
kill -TERM "$pid"; wait "$pid"
"$flowlua" --quiet --backend cpu --output "$out/run" "$out/case.lua" --set steps=5 > "$out/third.log" 2>&1 ||
  fail "after the first run ended the folder is still refused: $(cat "$out/third.log")"
echo "PASS: $(cat "$out/second.log")"
