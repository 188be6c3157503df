// A uniform 2D grid of nx x ny cells with one ghost layer (NaSt2D layout).
//
// Every field is stored as (nx + 2) x (ny + 2) values, i fastest. Cell (i, j),
// 1 <= i <= nx, 1 <= j <= ny, is interior; i = 0, nx + 1 and j = 0, ny + 1 are
// ghosts. On the staggered (MAC) grid p(i, j) sits at the cell centre, u(i, j) on
// the cell's east face and v(i, j) on its north face (Griebel et al. 1998, ch. 3).
#pragma once
#include <cstddef>

#include "core/hd.hpp"

namespace flowlua {

struct Grid {
  int nx = 0, ny = 0;       // interior cells
  double lx = 1, ly = 1;    // domain size
  double dx = 1, dy = 1;    // cell size

  static Grid make(int nx, int ny, double lx, double ly) {
    Grid g;
    g.nx = nx; g.ny = ny; g.lx = lx; g.ly = ly;
    g.dx = lx / nx; g.dy = ly / ny;
    return g;
  }
  FL_HD int stride() const { return nx + 2; }
  FL_HD std::size_t size() const { return std::size_t(nx + 2) * std::size_t(ny + 2); }
  FL_HD std::size_t at(int i, int j) const { return std::size_t(j) * (nx + 2) + i; }
  long cells() const { return long(nx) * long(ny); }
  // Physical position of a cell centre.
  double xc(int i) const { return (i - 0.5) * dx; }
  double yc(int j) const { return (j - 0.5) * dy; }
};

}  // namespace flowlua
