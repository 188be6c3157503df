#!/usr/bin/env bash
# Packs this machine's Open MPI runtime (Debian's openmpi-bin and libopenmpi3: mpirun,
# orted, libmpi, its plugins and help files, and every shared library they need
# beyond the C runtime) as build-gpu-pack/mpi-runtime.tar.gz, for the GPU machine,
# which has no MPI and reaches no package registry. There tests/gpu/mpi_env.sh unpacks
# it under /tmp/ompi and points OPAL_PREFIX, PATH and LD_LIBRARY_PATH at it (Open MPI
# finds its plugins relative to OPAL_PREFIX).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
multi=usr/lib/x86_64-linux-gnu
mkdir -p "$root/usr/bin" "$root/$multi" "$root/usr/share"
cp -a /usr/bin/orterun /usr/bin/orted "$root/usr/bin/"
ln -s orterun "$root/usr/bin/mpirun"
cp -a "/$multi/openmpi" "$root/$multi/"
cp -a /usr/share/openmpi "$root/usr/share/"
# The shared libraries of the programs, libmpi and the plugins, but not the C
# runtime, which the GPU machine has in its own version.
skip='^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64|linux-vdso)\.'
{
  ldd /usr/bin/orterun /usr/bin/orted "/$multi/libmpi.so.40"
  find "/$multi/openmpi/lib/openmpi3" -name '*.so' -exec ldd {} +
} 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u | while read -r lib; do
  name=$(basename "$lib")
  [[ $name =~ $skip ]] && continue
  cp -L "$lib" "$root/$multi/$name"
done
mkdir -p build-gpu-pack
tar czf build-gpu-pack/mpi-runtime.tar.gz -C "$root" usr
du -sh build-gpu-pack/mpi-runtime.tar.gz
