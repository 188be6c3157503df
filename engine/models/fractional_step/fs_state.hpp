// The fractional-step model's state as the kernels see it, for D = 2 or 3: the
// staggered velocity components, the predicted velocity u*, the previous right-hand
// side R(u^{n-1}) that AB2 needs (seed 004 eq. 5), the pressure and the Poisson
// right-hand side, all in the core's grid layout (one ghost layer, axis 0 fastest).
// Component a of cell c sits on the cell's face in +a (seed 004 sec. 1.3: u at
// (i+1/2, j), v at (i, j+1/2)).
//
// Periodic axes wrap neighbours inside the interior 1..n, so the QUICK stencil may
// reach two cells across a side without a second ghost layer. An axis with other
// sides (walls, inflow, outflow) keeps index 0 and n + 1 as the ghost layer (the
// normal component's faces 0 and n are the sides' faces); shifts are clamped to it,
// and the kernels that reach further (QUICK) switch to central faces there
// (fs_momentum.hpp). kWalls = false compiles the all-periodic indexing only.
//
// Obstacles (kBodies): cells flagged solid (core/flags.hpp, the staircase of the
// projection model). A face is open (an unknown) when both its cells are fluid; the
// others are fixed at 0, the no-slip body at rest (a face between two solid cells
// is never read as such: a stencil that reaches one reads the mirror image -u of its
// own face, so the wall halfway between them has velocity 0; NaSt2D's ghost faces,
// Griebel et al. 1998 sec. 3.1.4, taken inside the stencil, which in 3D leaves no
// doubt at edges where two fluid faces would claim one ghost).
#pragma once
#include <cstddef>

#include "core/flags.hpp"
#include "core/hd.hpp"

namespace flowlua::fractional_step {

template <int D>
struct Cell {
  int c[D];
};

template <int D, class Real>
struct State {
  Real* vel[D];   // u^n (u, v[, w])
  Real* star[D];  // u*
  Real* hist[D];  // R(u^{n-1})
  Real* p;        // pressure / rho
  Real* rhs;      // div(u*) / dt
  int n[D];            // interior cells per axis
  std::size_t stride[D];  // 1, nx + 2[, (nx + 2)(ny + 2)]
  Real inv_h[D];       // 1 / dx, 1 / dy[, 1 / dz]
  Real inv_h2[D];      // 1 / dx^2, ...
  bool periodic[D];    // per axis; read only by the kWalls kernels
  const CellFlags* flags = nullptr;  // read only by the kBodies kernels

  // Interior index along axis a after a shift of at most n[a].
  FL_HD int wrap(int a, int i) const { return i < 1 ? i + n[a] : (i > n[a] ? i - n[a] : i); }
  // The same on a periodic axis; on a wall axis (kWalls) clamped to the ghost layer.
  template <bool kWalls>
  FL_HD int shift(int a, int i) const {
    if (kWalls && !periodic[a]) return i < 0 ? 0 : (i > n[a] + 1 ? n[a] + 1 : i);
    return wrap(a, i);
  }
  FL_HD std::size_t at(const Cell<D>& x) const {
    std::size_t k = 0;
    for (int d = 0; d < D; ++d) k += std::size_t(x.c[d]) * stride[d];
    return k;
  }
  // Index of x shifted by s cells along axis a: the cell's own index plus the shift
  // along that axis only (the compiler shares at(x) between the calls of a kernel).
  template <bool kWalls = false>
  FL_HD std::size_t at(const Cell<D>& x, int a, int s) const {
    return at(x) + std::size_t(std::ptrdiff_t(shift<kWalls>(a, x.c[a] + s) - x.c[a]) * std::ptrdiff_t(stride[a]));
  }
  // Index of x shifted by s along a and t along b (a != b).
  template <bool kWalls = false>
  FL_HD std::size_t at(const Cell<D>& x, int a, int s, int b, int t) const {
    return at(x) + std::size_t(std::ptrdiff_t(shift<kWalls>(a, x.c[a] + s) - x.c[a]) * std::ptrdiff_t(stride[a]) +
                               std::ptrdiff_t(shift<kWalls>(b, x.c[b] + t) - x.c[b]) * std::ptrdiff_t(stride[b]));
  }
  // Whether component a's face at x is a wall face (the last face of a wall axis):
  // it stays at its boundary value (0) and is not a predictor/correction unknown.
  template <bool kWalls>
  FL_HD bool wall_face(const Cell<D>& x, int a) const {
    return kWalls && !periodic[a] && x.c[a] == n[a];
  }

  // ---- obstacles (kBodies) ----
  // x moved by s along a (wrapped, or clamped to the ghost layer).
  FL_HD Cell<D> moved(const Cell<D>& x, int a, int s) const {
    Cell<D> y = x;
    y.c[a] = shift<true>(a, x.c[a] + s);
    return y;
  }
  // Whether cell y is an obstacle cell; ghost cells are not (the sides' fill gives them).
  FL_HD bool solid(const Cell<D>& y) const {
    for (int d = 0; d < D; ++d)
      if (y.c[d] < 1 || y.c[d] > n[d]) return false;
    return !is_fluid(flags[at(y)]);
  }
  // Whether component a's face at y (between y and y + e_a) has fluid on both sides.
  FL_HD bool open(const Cell<D>& y, int a) const { return !solid(y) && !solid(moved(y, a, 1)); }
  // The face of component a at x moved by s along b is open.
  FL_HD bool open(const Cell<D>& x, int a, int b, int s) const { return open(moved(x, b, s), a); }
  // Whether component a's face at x keeps its value through a step: a side's face
  // (kWalls) or a face beside an obstacle (kBodies).
  template <bool kWalls, bool kBodies>
  FL_HD bool fixed(const Cell<D>& x, int a) const {
    if (wall_face<kWalls>(x, a)) return true;
    return kBodies && !open(x, a);
  }
  // Component a (values v) at the face x moved by s along b, as a stencil of face x
  // reads it: with kBodies, a face between two obstacle cells across b (b != a) gives
  // the mirror image -v(x), so that the body's wall between them is at rest.
  template <bool kWalls, bool kBodies>
  FL_HD Real neighbour(const Real* v, const Cell<D>& x, int a, int b, int sh) const {
    const Real w = v[at<kWalls>(x, b, sh)];
    if (!kBodies || b == a) return w;
    const Cell<D> y = moved(x, b, sh);
    return solid(y) && solid(moved(y, a, 1)) ? -v[at(x)] : w;
  }
};

}  // namespace flowlua::fractional_step
