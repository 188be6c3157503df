#!/usr/bin/env bash
# On the GPU machine: unpack build-gpu/ from the archive that tests/gpu/build_for_device.sh
# made (carry ["build-gpu-pack"]), unless build-gpu/ came along unpacked. Sourced by the
# *_on_device.sh scripts.
if [ ! -x build-gpu/flowlua ] && [ -f build-gpu-pack/build-gpu.tar.gz ]; then
  tar xzf build-gpu-pack/build-gpu.tar.gz || { echo "unpack_build: cannot unpack build-gpu-pack/build-gpu.tar.gz" >&2; exit 1; }
fi
