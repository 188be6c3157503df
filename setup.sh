#!/usr/bin/env bash
# Sets flowlua up from nothing on Debian/Ubuntu: installs the packages it needs,
# configures and builds it (with the CUDA backend when nvcc is found).
#   ./setup.sh                 install + build into ./build
#   BUILD_DIR=dir ./setup.sh   build elsewhere
# Extra arguments go to CMake's configure step (e.g. -DFLOWLUA_CUDA=OFF).
set -euo pipefail
cd "$(dirname "$0")"

packages=(build-essential cmake ninja-build pkg-config liblua5.4-dev libstb-dev libcli11-dev libgtest-dev libfftw3-dev libhdf5-dev hdf5-tools zlib1g-dev fonts-dejavu-core python3 python3-vtk9
          libopenmpi-dev openmpi-bin  # MPI: mpirun -np N flowlua (docs/mpi.md)
          clang libclang-rt-dev)  # clang: the sanitizer build and the libFuzzer target (tests/sanitize, tests/fuzz)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# nvcc is often installed outside PATH.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi

build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
echo "setup: built $build/flowlua"
