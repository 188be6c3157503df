#!/usr/bin/env bash
# VTK output read back by VTK: runs the three writer cases (cavity, cylinder,
# psi_omega) and a 3D one (fs3d) and checks their files with check_vti.py (vtkXMLImageDataReader).
#   readback.sh FLOWLUA OUTDIR
# Exit 77 (skip) when python3 or VTK's Python module (python3-vtk9) is missing.
set -euo pipefail
flowlua=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
# Debian's python3-vtk9 goes with Debian's python3: prefer it over one earlier in PATH.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ]; then
  echo "SKIP: python3 is not installed (setup.sh installs it with python3-vtk9)"
  exit 77
fi
"$py" -c 'import vtkmodules.vtkIOXML' 2>/dev/null || {
  echo "SKIP: VTK's Python module is not installed; install Debian's python3-vtk9 (setup.sh does)"
  exit 77
}
rm -rf "$out"
for c in cavity cylinder psi_omega; do
  "$flowlua" --quiet --backend cpu --output "$out" "$here/${c}_vtk.lua"
done
"$py" "$here/check_vti.py" "$out" cavity:compressed:cavity.pvd cylinder:compressed:cylinder.pvd \
  psi_omega:raw:po.pvd
# a 3D model's fields (fractional_step in a duct): extent, spacing, every value
"$flowlua" --quiet --backend cpu --output "$out" "$here/fs3d_vtk.lua"
"$py" "$here/check_vti3.py" "$out"
