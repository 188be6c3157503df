#!/usr/bin/env bash
# An installed flowlua runs a shipped case from anywhere: `cmake --install BUILD
# --prefix P`, the prefix moved elsewhere (modules are found relative to the
# executable, not the source tree), then P/bin/flowlua runs a copy of cases/cavity.lua
# (short, through --set; it requires flowlua.ghia, which reads its reference CSV)
# from an unrelated folder. Also checks what --version prints.
#   install_runs.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work/elsewhere"
cmake --install "$build" --prefix "$work/prefix1" >/dev/null
mv "$work/prefix1" "$work/prefix"
P=$work/prefix
for f in bin/flowlua share/flowlua/scripts/flowlua/ghia.lua share/flowlua/scripts/reference/ghia1982.csv \
         share/flowlua/cases/cavity.lua; do
  [ -e "$P/$f" ] || { echo "FAIL: $f was not installed"; exit 1; }
done
version=$("$P/bin/flowlua" --version)
echo "$version"
for want in "flowlua " "CUDA backend: " "precisions: float, double" "Lua: Lua 5.4" "FFTW: fftw-3" "zlib: " "HDF5: " \
            "Lua modules: $(cd "$P" && pwd -P)/share/flowlua/scripts"; do
  grep -qF -- "$want" <<<"$version" || { echo "FAIL: --version does not print '$want'"; exit 1; }
done
cp "$P/share/flowlua/cases/cavity.lua" "$work/elsewhere/"
cd "$work/elsewhere"
out=$("$P/bin/flowlua" --quiet --backend cpu cavity.lua --set n=16 --set t_end=0.3 2>&1) || {
  echo "$out"; echo "FAIL: the installed flowlua could not run cavity.lua"; exit 1; }
echo "$out"
grep -q "largest deviation from Ghia" <<<"$out" || { echo "FAIL: flowlua.ghia did not run"; exit 1; }
[ -f out/cavity/speed.png ] || { echo "FAIL: no out/cavity/speed.png in the working folder"; exit 1; }
echo "installed flowlua ran cavity.lua from $(pwd)"
