// A uniform 3D grid of nx x ny x nz cells with one ghost layer: the 2D layout
// (grid.hpp) stacked in z. Every field is stored as (nx + 2) x (ny + 2) x (nz + 2)
// values, i fastest, then j, then k. Cell (i, j, k), 1 <= i <= nx, 1 <= j <= ny,
// 1 <= k <= nz, is interior; index 0 and n + 1 in each direction are ghosts. On the
// staggered (MAC) grid p sits at the cell centre, u on the east face (+x), v on the
// north face (+y) and w on the front face (+z) of cell (i, j, k).
//
// A 2D case keeps its Grid; Grid3 exists only for 3D models, so the 2D kernels
// index exactly as before.
#pragma once
#include <cstddef>

#include "core/grid.hpp"
#include "core/hd.hpp"

namespace flowlua {

struct Grid3 {
  int nx = 0, ny = 0, nz = 0;   // interior cells
  double lx = 1, ly = 1, lz = 1;
  double dx = 1, dy = 1, dz = 1;

  static Grid3 make(int nx, int ny, int nz, double lx, double ly, double lz) {
    Grid3 g;
    g.nx = nx; g.ny = ny; g.nz = nz;
    g.lx = lx; g.ly = ly; g.lz = lz;
    g.dx = lx / nx; g.dy = ly / ny; g.dz = lz / nz;
    return g;
  }
  FL_HD int stride() const { return nx + 2; }
  FL_HD std::size_t plane() const { return std::size_t(nx + 2) * std::size_t(ny + 2); }
  FL_HD std::size_t size() const { return plane() * std::size_t(nz + 2); }
  FL_HD std::size_t at(int i, int j, int k) const {
    return std::size_t(k) * plane() + std::size_t(j) * (nx + 2) + i;
  }
  long cells() const { return long(nx) * long(ny) * long(nz); }
  double xc(int i) const { return (i - 0.5) * dx; }
  double yc(int j) const { return (j - 0.5) * dy; }
  double zc(int k) const { return (k - 0.5) * dz; }
  // The x-y plane of the grid (what a z slice is drawn on).
  Grid xy() const { return Grid::make(nx, ny, lx, ly); }
};

}  // namespace flowlua
