// A host copy of one field at cell centres, as Lua and the writers see it.
//
// Staggered quantities (u, v) are averaged to cell centres; derived ones (speed,
// vorticity, stream function, divergence) are computed on the host from a download.
// Values inside obstacles are kept but excluded from min/max/mean/norm.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/boundary.hpp"
#include "core/grid.hpp"

namespace flowlua {

struct FieldSnapshot {
  std::string name;
  Grid grid;
  std::vector<double> values;        // nx*ny, index (i-1) + (j-1)*nx, 1-based i, j
  std::vector<std::uint8_t> solid;   // nx*ny, 1 inside an obstacle (may be empty: none)
  bool writable = false;             // set() is uploaded before the next step
  // The value on the domain boundary beside each boundary cell, per side (indexed by
  // Side: ny values on left/right, nx on bottom/top, in increasing coordinate order):
  // a wall's or an inflow's velocity, the stream function on the side, ... A side is
  // empty where the model gives no boundary value for this field (pressure, outflow).
  std::array<std::vector<double>, 4> edge;

  int nx() const { return grid.nx; }
  int ny() const { return grid.ny; }
  std::size_t index(int i, int j) const { return std::size_t(i - 1) + std::size_t(j - 1) * grid.nx; }
  bool in_range(int i, int j) const { return i >= 1 && i <= grid.nx && j >= 1 && j <= grid.ny; }
  bool is_solid(int i, int j) const { return !solid.empty() && solid[index(i, j)] != 0; }
  double get(int i, int j) const { return values[index(i, j)]; }
  void set(int i, int j, double v) { values[index(i, j)] = v; }

  // Bilinear interpolation at physical (x, y) between cell centres and, in the half
  // cell next to a side, the side's boundary values (edge): on a boundary it reads the
  // boundary value (1 on a lid moving at 1, 0 on a wall). Sides without edge values
  // repeat the nearest centre. Points outside the domain are clamped onto it; a corner
  // reads the mean of its two sides.
  double sample(double x, double y) const;
  // The edge value of `side` beside boundary cell k (1-based), or the nearest cell
  // centre's value when the side has none.
  double boundary_value(Side side, int k) const;
  // The interpolation lattice sample() uses, 0 <= i <= nx + 1, 0 <= j <= ny + 1: cell
  // centres inside, boundary values on the rim (i = 0 or nx + 1, j = 0 or ny + 1) where
  // the side lies half a cell from the outermost centres; corners the mean of two sides.
  double lattice(int i, int j) const;
  double min() const;   // over fluid cells
  double max() const;
  double mean() const;
  double norm() const;  // root mean square over fluid cells
};

}  // namespace flowlua
