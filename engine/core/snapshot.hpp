// A host copy of one field at cell centres, as Lua and the writers see it.
//
// Staggered quantities (u, v) are averaged to cell centres; derived ones (speed,
// vorticity, stream function, divergence) are computed on the host from a download.
// Values inside obstacles are kept but excluded from min/max/mean/norm.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/grid.hpp"

namespace flowlua {

struct FieldSnapshot {
  std::string name;
  Grid grid;
  std::vector<double> values;        // nx*ny, index (i-1) + (j-1)*nx, 1-based i, j
  std::vector<std::uint8_t> solid;   // nx*ny, 1 inside an obstacle (may be empty: none)
  bool writable = false;             // set() is uploaded before the next step

  int nx() const { return grid.nx; }
  int ny() const { return grid.ny; }
  std::size_t index(int i, int j) const { return std::size_t(i - 1) + std::size_t(j - 1) * grid.nx; }
  bool in_range(int i, int j) const { return i >= 1 && i <= grid.nx && j >= 1 && j <= grid.ny; }
  bool is_solid(int i, int j) const { return !solid.empty() && solid[index(i, j)] != 0; }
  double get(int i, int j) const { return values[index(i, j)]; }
  void set(int i, int j, double v) { values[index(i, j)] = v; }

  // Bilinear interpolation between cell centres at physical (x, y); clamped to the
  // outermost centres, so a point on the wall reads the nearest interior value.
  double sample(double x, double y) const;
  double min() const;   // over fluid cells
  double max() const;
  double mean() const;
  double norm() const;  // root mean square over fluid cells
};

}  // namespace flowlua
