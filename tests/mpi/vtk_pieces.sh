#!/usr/bin/env bash
# VTK output on several MPI ranks: a .pvti and one piece a rank, read back by VTK's
# own reader (vtkXMLPImageDataReader) and compared with the one-rank .vti files
# (tests/mpi/check_pvti.py). Usage: vtk_pieces.sh FLOWLUA "NP PX PY" ... (PX = 0:
# automatic). Exit 77 (skip) without VTK's Python module (python3-vtk9).
set -euo pipefail
flowlua=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3  # Debian's python3-vtk9 goes with Debian's python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ] || ! "$py" -c 'import vtkmodules.vtkIOXML' 2>/dev/null; then
  echo "SKIP: VTK's Python module is not installed; install Debian's python3-vtk9 (setup.sh does)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
backend=${FLOWLUA_TEST_BACKEND:-cpu}  # cuda on the GPU machine (ranks may share one GPU)
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
"$flowlua" "$here/vtk_pieces.lua" --backend "$backend" --quiet --output "$work/one"
status=0
for run in "$@"; do
  read -r np px py_ <<<"$run"
  out="$work/np$np-$px-$py_"
  mpirun --oversubscribe -np "$np" "$flowlua" "$here/vtk_pieces.lua" --backend "$backend" --quiet --output "$out" \
    --set px="$px" --set py="$py_"
  "$py" "$here/check_pvti.py" "$work/one" "$out" "$np" || status=1
done
exit $status
