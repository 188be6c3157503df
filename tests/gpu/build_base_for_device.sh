#!/usr/bin/env bash
# build_base_for_device.sh REF
# Builds flowlua and flowlua_bench_solvers of commit REF for the GPU machine into
# build-gpu-base/ (as tests/gpu/build_for_device.sh does for the working tree), so that
# tests/perf/compare_2d_step.sh can time the 2D step of REF and of this tree side by
# side on the same device. Only the two programs and libgomp are kept (about 16 MB), so
# build-gpu/ and build-gpu-base/ fit in one carry together.
#   tests/gpu/build_base_for_device.sh 5ddc90f    # the commit before the 3D core
set -euo pipefail
ref=${1:?usage: build_base_for_device.sh REF}
cd "$(dirname "$0")/../.."
root=$PWD
src=$(mktemp -d /tmp/flowlua_base.XXXXXX)
git archive "$ref" | tar -x -C "$src"
(cd "$src" && BUILD_DIR=build-gpu ./setup.sh -DFLOWLUA_STATIC_RUNTIME=ON \
   -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual")
rm -rf "$root/build-gpu-base"
mkdir -p "$root/build-gpu-base/tests" "$root/build-gpu-base/lib"
cp "$src/build-gpu/flowlua" "$root/build-gpu-base/"
cp "$src/build-gpu/tests/flowlua_bench_solvers" "$root/build-gpu-base/tests/"
cp "$(g++ -print-file-name=libgomp.so.1)" "$root/build-gpu-base/lib/"
git rev-parse --short "$ref" > "$root/build-gpu-base/commit.txt"
rm -rf "$src"
du -sh "$root/build-gpu-base"
