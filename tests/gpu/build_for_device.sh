#!/usr/bin/env bash
# Builds flowlua and its tests for the GPU machine into build-gpu/: CUDA for sm_90
# (plus PTX), Lua and the C++ runtime linked statically so the binaries need only
# the CUDA driver and libgomp there. Run here, then carry build-gpu/ to the device
# and run tests/gpu/on_device.sh there (docs/gpu-testing.md); carry build-gpu-pack/.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=build-gpu ./setup.sh -DFLOWLUA_STATIC_RUNTIME=ON -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual"
# Object files are not needed there and would only fill the carry limit; libgomp
# goes along in case the machine lacks it (on_device.sh puts it on the library path).
find build-gpu \( -name '*.o' -o -name '*.a' \) -delete
# CMake's compiler checks (about 11 MB) are not needed to run the tests either; the
# carry limit is 64 MiB.
rm -rf build-gpu/CMakeFiles/[0-9]*.[0-9]* build-gpu/CMakeFiles/CheckCUDA
rm -f build-gpu/tests/flowlua_unit  # the CPU unit tests run here, not there
mkdir -p build-gpu/lib
cp "$(g++ -print-file-name=libgomp.so.1)" build-gpu/lib/
du -sh build-gpu
# HDF5 (checkpoints) is linked statically (Debian's libhdf5.a with szip and zlib): the
# GPU machine has no HDF5. Refuse a binary that would need it there.
if ldd build-gpu/flowlua | grep -E 'hdf5|libsz|libaec|libcurl'; then
  echo "build_for_device: build-gpu/flowlua needs the shared libraries above, which the GPU machine lacks" >&2
  exit 1
fi
# The carry limit is 64 MiB and the build outgrew it: strip the symbols (not needed
# there) and carry one compressed archive, build-gpu-pack/build-gpu.tar.gz, which the
# scripts there unpack (tests/gpu/unpack_build.sh).
find build-gpu -maxdepth 2 -type f -name 'flowlua*' -perm -u+x -exec strip {} +
mkdir -p build-gpu-pack
tar czf build-gpu-pack/build-gpu.tar.gz build-gpu
du -sh build-gpu build-gpu-pack/build-gpu.tar.gz
