// A Simulation's snapshots as one VTK image: the bridge between any model's fields
// (FieldSnapshot, cell-centred) and the .vti writer, so a new model's fields are
// written without code of its own.
#pragma once
#include <vector>

#include "core/snapshot.hpp"
#include "core/snapshot3.hpp"
#include "io/vtk.hpp"

namespace flowlua::io {

// One Float64 cell array per snapshot, named like it; when both "u" and "v" are among
// them, also a 3-component "velocity" (u, v, 0) for ParaView's glyphs and stream
// tracers. The solid mask (UInt8 "solid", 1 inside obstacles) is always written: from
// the first snapshot that has one, zeros otherwise; a snapshot named "solid" is that
// mask and is not written twice. Origin (0, 0), spacing (dx, dy) from the snapshots'
// grid, which must be the same for all (std::logic_error otherwise).
VtkImage vtk_image(const std::vector<FieldSnapshot>& fields, double time, long step);
// The same for a 3D model's snapshots: extent 0 nx 0 ny 0 nz, spacing (dx, dy, dz), and
// "velocity" (u, v, w) when u and v are among them (w = 0 if it is not).
VtkImage vtk_image3(const std::vector<FieldSnapshot3>& fields, double time, long step);

}  // namespace flowlua::io
