#!/usr/bin/env python3
"""Reads flowlua's .vti and .pvd files back with VTK's own reader (vtkXMLImageDataReader)
and checks them against what flowlua wrote in plain CSV (tests/vtk/expect.lua):
extent, origin, spacing, array names, every value (bit for bit: Float64 written,
round-trip CSV), the solid mask, the time and step in the field data, and that the
.pvd collection lists every callback file with its time.

    check_vti.py OUTDIR CASE[:compressed|raw][:PVD] ...

Exit 0: all good; 1: a mismatch (printed); 77: VTK's Python module is missing (skip).
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET

try:
    from vtkmodules.vtkIOXML import vtkXMLImageDataReader
except ImportError as e:
    print(f"SKIP: VTK's Python module is not installed ({e}); "
          "install Debian's python3-vtk9 (setup.sh does) to run this test")
    sys.exit(77)

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def read_vti(path):
    if not os.path.isfile(path):
        fail(f"{path}: missing")
        return None
    r = vtkXMLImageDataReader()
    r.SetFileName(path)
    r.Update()
    if r.GetErrorCode() != 0:
        fail(f"{path}: VTK reader error code {r.GetErrorCode()}")
        return None
    return r.GetOutput()


def field_value(img, name):
    a = img.GetFieldData().GetArray(name)
    return None if a is None else a.GetValue(0)


def check_final(outdir, case, compressed):
    base = os.path.join(outdir, case)
    with open(os.path.join(base, "final_meta.csv")) as f:
        meta = next(csv.DictReader(f))
    nx, ny = int(meta["nx"]), int(meta["ny"])
    dx, dy = float(meta["dx"]), float(meta["dy"])
    path = os.path.join(base, "final.vti")
    with open(path, "rb") as f:
        head = f.read(400)
    if compressed != (b'compressor="vtkZLibDataCompressor"' in head):
        fail(f"{path}: expected {'compressed' if compressed else 'raw'} data")
    img = read_vti(path)
    if img is None:
        return
    if tuple(img.GetExtent()) != (0, nx, 0, ny, 0, 0):
        fail(f"{path}: extent {img.GetExtent()} != (0, {nx}, 0, {ny}, 0, 0)")
    sp = img.GetSpacing()
    if (sp[0], sp[1]) != (dx, dy):
        fail(f"{path}: spacing {sp[:2]} != ({dx}, {dy})")
    if tuple(img.GetOrigin()) != (0.0, 0.0, 0.0):
        fail(f"{path}: origin {img.GetOrigin()} != (0, 0, 0)")
    if img.GetNumberOfCells() != nx * ny:
        fail(f"{path}: {img.GetNumberOfCells()} cells != {nx * ny}")
    if field_value(img, "TimeValue") != float(meta["time"]):
        fail(f"{path}: TimeValue {field_value(img, 'TimeValue')} != {meta['time']}")
    if field_value(img, "Step") != int(meta["step"]):
        fail(f"{path}: Step {field_value(img, 'Step')} != {meta['step']}")
    cd = img.GetCellData()
    names = sorted(cd.GetArrayName(k) for k in range(cd.GetNumberOfArrays()))
    expected_names = sorted(meta["arrays"].split())
    if names != expected_names:
        fail(f"{path}: arrays {names} != {expected_names}")
        return
    with open(os.path.join(base, "final_cells.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != nx * ny:
        fail(f"{case}: {len(rows)} expected cells != {nx * ny}")
        return
    vel = cd.GetArray("velocity")
    if vel.GetNumberOfComponents() != 3:
        fail(f"{path}: velocity has {vel.GetNumberOfComponents()} components")
    bad = {}
    for row in rows:
        i, j = int(row["i"]), int(row["j"])
        c = (i - 1) + (j - 1) * nx  # VTK cell id: x fastest, like flowlua's (i, j)
        for name, text in row.items():
            if name in ("i", "j"):
                continue
            want = float(text)
            if name == "solid":
                got = cd.GetArray("solid").GetValue(c)
            else:
                got = cd.GetArray(name).GetValue(c)
            if got != want:
                bad.setdefault(name, (i, j, got, want))
        if "solid" not in row and cd.GetArray("solid").GetValue(c) != 0:
            bad.setdefault("solid", (i, j, cd.GetArray("solid").GetValue(c), 0))
        t = vel.GetTuple3(c)
        if t != (float(row["u"]), float(row["v"]), 0.0):
            bad.setdefault("velocity", (i, j, t, (row["u"], row["v"], 0)))
    for name, (i, j, got, want) in bad.items():
        fail(f"{path}: {name} at cell ({i}, {j}) reads {got!r}, flowlua wrote {want!r}")
    if "solid" in rows[0]:
        n_solid = sum(int(float(r["solid"])) for r in rows)
        if n_solid == 0:
            fail(f"{case}: expected obstacle cells in the solid mask")
    print(f"{case}: final.vti {nx} x {ny}, spacing {sp[0]:g} x {sp[1]:g}, t = {field_value(img, 'TimeValue'):.6g}, "
          f"{len(names)} arrays, {nx * ny} cells compared")


def check_collection(outdir, case, pvd_name):
    base = os.path.join(outdir, case)
    pvd = os.path.join(base, pvd_name)
    root = ET.parse(pvd).getroot()
    sets = root.findall("./Collection/DataSet")
    if len(sets) != 3:
        fail(f"{pvd}: {len(sets)} data sets, expected 3 (steps 10, 20, 30)")
    steps = []
    for ds in sets:
        f = os.path.join(base, ds.get("file"))
        img = read_vti(f)
        if img is None:
            continue
        if field_value(img, "TimeValue") != float(ds.get("timestep")):
            fail(f"{pvd}: {ds.get('file')} has TimeValue {field_value(img, 'TimeValue')}, "
                 f"the collection says {ds.get('timestep')}")
        steps.append(field_value(img, "Step"))
    if steps != [10, 20, 30]:
        fail(f"{pvd}: steps {steps} != [10, 20, 30]")
    print(f"{case}: {pvd_name} lists {len(sets)} files, times and steps match")


def main():
    outdir = sys.argv[1]
    for spec in sys.argv[2:]:
        case, mode, pvd = spec.split(":")
        check_final(outdir, case, mode == "compressed")
        check_collection(outdir, case, pvd)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
