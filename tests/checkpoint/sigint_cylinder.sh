#!/usr/bin/env bash
# sigint_cylinder.sh FLOWLUA SOURCE_DIR OUTDIR [SIGNAL] [BACKEND]
#
# Starts a coarse cases/cylinder.lua, sends it SIGINT (or SIGTERM) once it is under way,
# and expects: exit 130 (143), a message naming the checkpoint, a valid checkpoint file.
# Then completes the run with --restart and expects exit 0 at the case's t_end.
# BACKEND (default cpu): tests/gpu/checkpoint_on_device.sh gives cuda, and a finer grid
# (NY=..., default 16) so that the run is still going when the signal comes.
set -u
flowlua=$1; src=$2; out=$3; sig=${4:-INT}; backend=${5:-cpu}
want=130; [ "$sig" = TERM ] && want=143
fail() { echo "FAIL: $*" >&2; echo "--- first run:" >&2; cat "$out/first.log" >&2; exit 1; }

rm -rf "$out"; mkdir -p "$out"
args=(--quiet --backend "$backend" --output "$out/run" "$src/cases/cylinder.lua" --set ny="${NY:-16}" --set t_end=4 --set frames=0)
"$flowlua" "${args[@]}" > "$out/first.log" 2>&1 &
pid=$!
# Under way: the case prints a line once per unit of simulated time.
for _ in $(seq 1 600); do
  grep -q "^t =  1.00" "$out/first.log" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
grep -q "^t =  1.00" "$out/first.log" || fail "the run did not reach t = 1"
kill -"$sig" "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq "$want" ] || fail "exit $rc after SIG$sig (expected $want)"
grep -q "interrupted by SIG$sig" "$out/first.log" || fail "no 'interrupted by SIG$sig' message"
ckpt=$(sed -n 's/.*checkpoint written to \([^;]*\);.*/\1/p' "$out/first.log" | head -n 1)
[ -n "$ckpt" ] && [ -f "$ckpt" ] || fail "no checkpoint file named in the message ('$ckpt')"
ls "$out/run" | grep -q '\.tmp\.' && fail "a temporary file was left in the output folder"
echo "interrupted: $(grep 'interrupted by' "$out/first.log")"

"$flowlua" "${args[@]}" --restart "$ckpt" > "$out/second.log" 2>&1; rc=$?
[ "$rc" -eq 0 ] || { cat "$out/second.log" >&2; fail "the restart exited $rc"; }
grep -q "stopped at t = 4.000" "$out/second.log" || { cat "$out/second.log" >&2; fail "the restart did not reach t_end"; }
echo "restarted from $ckpt: $(grep 'stopped at' "$out/second.log")"

# A different case (another --set value) is refused with a message, exit 1.
"$flowlua" "${args[@]}" --set cfl=0.4 --restart "$ckpt" > "$out/third.log" 2>&1; rc=$?
[ "$rc" -eq 1 ] && grep -q "different case" "$out/third.log" || { cat "$out/third.log" >&2; fail "a changed case was not refused (exit $rc)"; }
echo "PASS"
