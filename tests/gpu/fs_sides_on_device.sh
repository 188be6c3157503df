#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here
# by tests/gpu/build_for_device.sh): the fractional_step model's sides and obstacles
# (issue 9) on CUDA.
#   1. CudaFractionalStepSides.*: CUDA against CPU for every new kernel path (the 2D
#      ghost fill, inflow/outflow and the outflow correction, the obstacle kernels,
#      the 3D duct with a sphere, bodies in the periodic box with pcg + FFT,
#      Crank-Nicolson around bodies); double to 1e-10, float to 1e-4;
#   2. the case tests on --backend cuda: gpu.case.fs_poiseuille_inflow_outflow,
#      fs_channel_obstacle_vs_projection, fs_duct_inflow_outflow, fs_mass_balance;
#   3. cases/fs/channel_sphere_3d.lua at 64 cells across (256 x 64 x 64), Re = 200, float,
#      to t = 10: slices, fluxes.csv, the run's time.
# What to look for: "100% tests passed" in gpu_ctest.log; the sphere run's line with
# inflow = outflow and max |div u| at the float solver's level (~1e-5).
# Results under $OUT (else /tmp/flowlua_fs_sides).
#   bash tests/gpu/fs_sides_on_device.sh
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"
root=$PWD
out=${OUT:-/tmp/flowlua_fs_sides}
mkdir -p "$out"
if [ "$root" != /work/main ]; then  # ctest files hold the configuring machine's paths
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} ctest --test-dir build-gpu -L gpu -j 4 \
  -R "CudaFractionalStepSides|gpu.case.fs_(poiseuille_inflow_outflow|channel_obstacle_vs_projection|duct_inflow_outflow|mass_balance)" \
  --output-on-failure > "$out/gpu_ctest.log" 2>&1
echo "fractional_step sides gpu tests:"; grep -E "tests passed|Failed|\(Failed\)" "$out/gpu_ctest.log"
start=$(date +%s)
build-gpu/flowlua cases/fs/channel_sphere_3d.lua --quiet --backend cuda --set n=64 --set Re=200 --set t_end=10 \
  --set precision=float --set png_dt=5 --output "$out/sphere" > "$out/sphere.txt" 2>&1
echo "channel_sphere_3d (cuda, 256 x 64 x 64): exit $? in $(( $(date +%s) - start )) s"; cat "$out/sphere.txt"
