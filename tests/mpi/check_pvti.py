#!/usr/bin/env python3
"""Reads the parallel VTK sets (.pvti and pieces) of a run on several MPI ranks with
VTK's own reader (vtkXMLPImageDataReader) and compares them with the .vti files of
the same case on one rank (vtkXMLImageDataReader): extent, origin, spacing, the array
names, types and components, every value (bit for bit), the time and step; that the
pieces tile the whole extent (each cell in one piece, neighbours sharing their points),
that each piece file is itself a readable image with its own extent, and that the .pvd
collections list the .pvti files with the one-rank times. No temporary file is left.

    check_pvti.py ONE_RANK_DIR N_RANK_DIR N

Exit 0: all good; 1: a mismatch (printed).
"""
import os
import sys
import xml.etree.ElementTree as ET

from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLPImageDataReader

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def read(reader_class, path):
    r = reader_class()
    r.SetFileName(path)
    r.Update()
    if r.GetErrorCode() != 0:
        fail(f"{path}: VTK reader error code {r.GetErrorCode()}")
        return None
    return r.GetOutput()


def field(img, name):
    a = img.GetFieldData().GetArray(name)
    return None if a is None else a.GetValue(0)


def arrays(img):
    cd = img.GetCellData()
    return {cd.GetArrayName(k): cd.GetArray(k) for k in range(cd.GetNumberOfArrays())}


def values(a):
    """Every value of a VTK array, components interleaved (no numpy: not a dependency)."""
    n = a.GetNumberOfTuples() * a.GetNumberOfComponents()
    return [a.GetValue(k) for k in range(n)]


def check_pieces(pvti, whole, nranks):
    root = ET.parse(pvti).getroot()
    pieces = root.findall("./PImageData/Piece")
    if len(pieces) != nranks:
        fail(f"{pvti}: {len(pieces)} pieces for {nranks} ranks")
    nx, ny = whole[1], whole[3]
    owner = [[0] * nx for _ in range(ny)]
    base = os.path.dirname(pvti)
    for p in pieces:
        e = [int(v) for v in p.get("Extent").split()]
        for j in range(max(e[2], 0), min(e[3], ny)):
            for i in range(max(e[0], 0), min(e[1], nx)):
                owner[j][i] += 1
        src = os.path.join(base, p.get("Source"))
        img = read(vtkXMLImageDataReader, src)
        if img is None:
            continue
        # read alone, a piece is its block: its own extent, its cells only
        if list(img.GetExtent()) != e or img.GetNumberOfCells() != (e[1] - e[0]) * (e[3] - e[2]):
            fail(f"{src}: extent {img.GetExtent()}, {img.GetNumberOfCells()} cells; the .pvti says {e}")
    counts = sorted({c for row in owner for c in row})
    if counts != [1]:
        fail(f"{pvti}: the pieces do not cover each cell once (counts {counts})")


def compare(one_path, n_path, nranks):
    a = read(vtkXMLImageDataReader, one_path)
    b = read(vtkXMLPImageDataReader, n_path)
    if a is None or b is None:
        return
    for what in ("GetExtent", "GetOrigin", "GetSpacing", "GetNumberOfCells"):
        va, vb = getattr(a, what)(), getattr(b, what)()
        if va != vb:
            fail(f"{n_path}: {what[3:]} {vb} != one rank's {va}")
    check_pieces(n_path, a.GetExtent(), nranks)
    for name in ("TimeValue", "Step"):
        if field(b, name) != field(a, name):
            fail(f"{n_path}: {name} {field(b, name)} != one rank's {field(a, name)}")
    aa, ab = arrays(a), arrays(b)
    if sorted(aa) != sorted(ab):
        fail(f"{n_path}: arrays {sorted(ab)} != one rank's {sorted(aa)}")
        return
    for name, x in aa.items():
        y = ab[name]
        if (x.GetDataTypeAsString(), x.GetNumberOfComponents()) != (y.GetDataTypeAsString(), y.GetNumberOfComponents()):
            fail(f"{n_path}: {name} is {y.GetDataTypeAsString()} x {y.GetNumberOfComponents()}, "
                 f"one rank's {x.GetDataTypeAsString()} x {x.GetNumberOfComponents()}")
            continue
        u, v = values(x), values(y)
        diff = [k for k in range(min(len(u), len(v))) if u[k] != v[k]]
        if len(u) != len(v) or diff:
            c = x.GetNumberOfComponents()
            fail(f"{n_path}: {name} differs from one rank's ({len(diff)} of {len(u)} values; first at value "
                 f"{diff[0] if diff else '?'}, cell {diff[0] // c if diff else '?'})")
    if not any(v != 0 for x in aa.values() for v in values(x)):
        fail(f"{one_path}: every array is zero (a test of nothing)")
    return len(aa)


def compare_pvd(one_pvd, n_pvd):
    if not os.path.isfile(n_pvd):
        fail(f"{n_pvd}: missing")
        return
    sa = ET.parse(one_pvd).getroot().findall("./Collection/DataSet")
    sb = ET.parse(n_pvd).getroot().findall("./Collection/DataSet")
    want = [(d.get("timestep"), d.get("file")[:-4] + ".pvti") for d in sa]
    got = [(d.get("timestep"), d.get("file")) for d in sb]
    if got != want:
        fail(f"{n_pvd}: lists {got}, expected {want}")


def main():
    one, many, nranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    compared = 0
    for dirpath, _, files in os.walk(one):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, f), one)
            if f.endswith(".vti"):
                n_path = os.path.join(many, rel[:-4] + ".pvti")
                if not os.path.isfile(n_path):
                    fail(f"{n_path}: missing")
                    continue
                k = compare(os.path.join(one, rel), n_path, nranks)
                if k:
                    compared += 1
                    print(f"check_pvti: {nranks} ranks: {rel[:-4]}.pvti, {k} arrays the same as one rank's .vti")
            elif f.endswith(".pvd"):
                compare_pvd(os.path.join(one, rel), os.path.join(many, rel))
    for dirpath, _, files in os.walk(many):
        for f in files:
            if ".tmp." in f:
                fail(f"{os.path.join(dirpath, f)}: a temporary file was left")
    if compared < 6:
        fail(f"only {compared} images compared (expected 6 or more)")
    if failures:
        print(f"check_pvti: {len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
