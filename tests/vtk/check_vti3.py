#!/usr/bin/env python3
"""Reads the 3D .vti that tests/vtk/fs3d_vtk.lua wrote with VTK's reader and checks the
extent (0 nx 0 ny 0 nz), spacing, time and step, and every value of every field and of
the (u, v, w) velocity array against the snapshots' CSV (bit for bit).

    check_vti3.py OUTDIR
"""
import csv
import os
import sys

try:
    from vtkmodules.vtkIOXML import vtkXMLImageDataReader
except ImportError as e:
    print(f"SKIP: VTK's Python module is not installed ({e})")
    sys.exit(77)

base = os.path.join(sys.argv[1], "fs3d")
with open(os.path.join(base, "final_meta.csv")) as f:
    meta = next(csv.DictReader(f))
nx, ny, nz = int(meta["nx"]), int(meta["ny"]), int(meta["nz"])
r = vtkXMLImageDataReader()
r.SetFileName(os.path.join(base, "final.vti"))
r.Update()
img = r.GetOutput()
bad = []
if tuple(img.GetExtent()) != (0, nx, 0, ny, 0, nz):
    bad.append(f"extent {img.GetExtent()} is not (0, {nx}, 0, {ny}, 0, {nz})")
for got, want in zip(img.GetSpacing(), (float(meta["dx"]), float(meta["dy"]), float(meta["dz"]))):
    if abs(got - want) > 1e-12:
        bad.append(f"spacing {img.GetSpacing()}")
if img.GetFieldData().GetArray("TimeValue").GetValue(0) != float(meta["time"]):
    bad.append("TimeValue differs")
cd = img.GetCellData()
with open(os.path.join(base, "final_cells.csv")) as f:
    rows = list(csv.DictReader(f))
names = [k for k in rows[0] if k not in ("i", "j", "k")]
vel = cd.GetArray("velocity")
if vel is None or vel.GetNumberOfComponents() != 3:
    bad.append("no 3-component velocity array")
for row in rows:
    i, j, k = int(row["i"]), int(row["j"]), int(row["k"])
    c = (i - 1) + nx * ((j - 1) + ny * (k - 1))
    for n in names:
        a = cd.GetArray(n)
        if a is None:
            bad.append(f"no array {n}")
            names.remove(n)
            continue
        if a.GetValue(c) != float(row[n]):
            bad.append(f"{n} at ({i}, {j}, {k}): {a.GetValue(c)} != {row[n]}")
    if vel is not None:
        for m, n in enumerate(("u", "v", "w")):
            if vel.GetComponent(c, m) != float(row[n]):
                bad.append(f"velocity[{m}] at ({i}, {j}, {k}) differs")
for b in bad[:20]:
    print("FAIL:", b)
if bad:
    sys.exit(1)
print(f"3D vti: extent 0 {nx} 0 {ny} 0 {nz}, {len(names)} fields and velocity read back bit for bit")
