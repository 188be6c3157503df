// A host copy of one 3D field at cell centres (the 3D counterpart of FieldSnapshot):
// values by (i, j, k), trilinear sampling at (x, y, z), statistics over fluid
// cells, and slices: the plane x, y or z = c as a 2D FieldSnapshot, which flow.png,
// f:line and every other 2D helper accept as they are.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/grid3.hpp"
#include "core/snapshot.hpp"

namespace flowlua {

struct FieldSnapshot3 {
  std::string name;
  Grid3 grid;
  std::vector<double> values;        // nx*ny*nz, index (i-1) + nx ((j-1) + ny (k-1))
  std::vector<std::uint8_t> solid;   // same layout, 1 inside an obstacle (may be empty)
  bool writable = false;

  int nx() const { return grid.nx; }
  int ny() const { return grid.ny; }
  int nz() const { return grid.nz; }
  std::size_t index(int i, int j, int k) const {
    return std::size_t(i - 1) + std::size_t(grid.nx) * (std::size_t(j - 1) + std::size_t(grid.ny) * (k - 1));
  }
  bool in_range(int i, int j, int k) const {
    return i >= 1 && i <= grid.nx && j >= 1 && j <= grid.ny && k >= 1 && k <= grid.nz;
  }
  bool is_solid(int i, int j, int k) const { return !solid.empty() && solid[index(i, j, k)] != 0; }
  double get(int i, int j, int k) const { return values[index(i, j, k)]; }
  void set(int i, int j, int k, double v) { values[index(i, j, k)] = v; }

  // Trilinear interpolation between cell centres, clamped to the outermost centres
  // (as FieldSnapshot::sample).
  double sample(double x, double y, double z) const;
  double min() const;   // over fluid cells
  double max() const;
  double mean() const;
  double norm() const;  // root mean square over fluid cells

  // The plane axis = c (axis 0: x, 1: y, 2: z), interpolated linearly between the two
  // nearest cell layers (clamped like sample). The 2D snapshot's axes are the other
  // two in order: (y, z) for an x slice, (x, z) for y, (x, y) for z. A cell of the
  // slice is solid when the nearer layer's cell is. CaseError when c is outside
  // [0, length].
  FieldSnapshot slice(int axis, double c) const;
};

}  // namespace flowlua
