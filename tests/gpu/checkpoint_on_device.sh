#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/
# (tests/gpu/build_for_device.sh): checkpoint and restart on the CUDA backend.
#   1. tests/cases/restart_bit_for_bit.lua --backend cuda: both models, float and double,
#      a run interrupted and restarted equals the uninterrupted one bit for bit;
#   2. tests/cases/checkpoint_key.lua --backend cuda (the checkpoint key, keep, restore);
#   3. SIGINT and SIGTERM during cases/cylinder.lua (41 cells across) on cuda, then
#      --restart to t_end (tests/checkpoint/sigint_cylinder.sh);
#   4. a checkpoint written on the GPU continued on the CPU (a note; u printed by both
#      runs agrees to about 1e-12, not bit for bit);
#   5. a grid too large for the GPU refused before allocation, naming the bytes needed.
# Prints PASS/FAIL per part and "checkpoint_on_device: all passed" at the end; the logs
# go to $OUT/checkpoint_on_device.log. Exit 0 only when every part passed.
set -uo pipefail
root=$PWD
export LD_LIBRARY_PATH=$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
flowlua=$root/build-gpu/flowlua
work=/tmp/flowlua_checkpoint
rm -rf "$work"; mkdir -p "$work"
log=$work/checkpoint_on_device.log
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$log"
failed=0
part() {  # name command...: runs it, logs everything, prints PASS/FAIL and the last lines
  local name=$1; shift
  "$@" > "$work/$name.txt" 2>&1
  local rc=$?
  if [ "$rc" -eq 0 ]; then echo "PASS $name"; else echo "FAIL $name (exit $rc)"; failed=1; fi | tee -a "$log"
  tail -n 8 "$work/$name.txt" | sed 's/^/    /' | tee -a "$log"
}

part restart_bit_for_bit "$flowlua" --quiet --backend cuda --output "$work/bfb" "$root/tests/cases/restart_bit_for_bit.lua"
part checkpoint_key "$flowlua" --quiet --backend cuda --output "$work/key" "$root/tests/cases/checkpoint_key.lua"
for sig in INT TERM; do
  part "sig${sig}_cylinder" env NY=41 bash "$root/tests/checkpoint/sigint_cylinder.sh" "$flowlua" "$root" \
    "$work/sig$sig" "$sig" cuda
done

gpu_to_cpu() {  # the same cavity in three scripts (no --set: those enter the case hash)
  local head='local sim = flow.simulation { grid = { nx = 64, ny = 64 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 200 } }'
  local tail='print(string.format("%s step %d u(32,32) %.9f", sim.backend, sim.step, sim:field("u"):get(32, 32)))'
  printf '%s\nsim:run()\n%s\n' "$head" "$tail" > "$work/whole.lua"
  printf '%s\nsim:step(100)\nsim:checkpoint("%s")\n' "$head" "$work/c.h5" > "$work/first.lua"
  printf '%s\nsim:restore("%s")\nsim:run()\n%s\n' "$head" "$work/c.h5" "$tail" > "$work/second.lua"
  "$flowlua" --quiet --backend cuda --output "$work/x1" "$work/whole.lua" || return 1
  "$flowlua" --quiet --backend cuda --output "$work/x2" "$work/first.lua" || return 1
  "$flowlua" --backend cpu --output "$work/x3" "$work/second.lua" || return 1
  "$flowlua" --backend cpu --output "$work/x4" "$work/second.lua" 2>&1 | grep -q "written on the cuda backend and continues on cpu"
}
part gpu_to_cpu gpu_to_cpu

too_large() {
  "$flowlua" --quiet --backend cuda --output "$work/big" "$root/tests/bad_input/grid_too_large.lua"
  local rc=$?
  [ "$rc" -eq 1 ]
}
part grid_too_large_gpu too_large
grep -q "is free on the GPU" "$work/grid_too_large_gpu.txt" || { echo "FAIL grid_too_large_gpu: no 'free on the GPU'" | tee -a "$log"; failed=1; }

[ -n "${OUT:-}" ] && cp "$log" "$OUT/" && (cd "$work" && tar czf "$OUT/checkpoint_logs.tar.gz" ./*.txt)
if [ "$failed" -eq 0 ]; then echo "checkpoint_on_device: all passed"; else echo "checkpoint_on_device: FAILURES (see above)"; fi
exit "$failed"
