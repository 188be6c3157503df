// The fractional-step model's state as the kernels see it, for D = 2 (and, once the
// core has 3D grids, D = 3): the staggered velocity components, the predicted
// velocity u*, the previous right-hand side R(u^{n-1}) that AB2 needs (seed 004 eq. 5),
// the pressure and the Poisson right-hand side, all in the core's grid layout
// (one ghost layer, axis 0 fastest). Component a of cell c sits on the cell's face
// in +a (seed 004 sec. 1.3: u at (i+1/2, j), v at (i, j+1/2)).
//
// The box is periodic on every axis: neighbours wrap inside the interior 1..n, so
// the QUICK stencil may reach two cells across a side without a second ghost layer.
#pragma once
#include <cstddef>

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

  // Interior index along axis a after a shift of at most n[a].
  FL_HD int wrap(int a, int i) const { return i < 1 ? i + n[a] : (i > n[a] ? i - n[a] : i); }
  FL_HD std::size_t at(const Cell<D>& x) const {
    std::size_t k = 0;
    for (int d = 0; d < D; ++d) k += std::size_t(x.c[d]) * stride[d];
    return k;
  }
  // Index of x shifted by s cells along axis a (periodic).
  FL_HD std::size_t at(const Cell<D>& x, int a, int s) const {
    std::size_t k = 0;
    for (int d = 0; d < D; ++d) k += std::size_t(d == a ? wrap(d, x.c[d] + s) : x.c[d]) * stride[d];
    return k;
  }
  // Index of x shifted by s along a and t along b (a != b).
  FL_HD std::size_t at(const Cell<D>& x, int a, int s, int b, int t) const {
    std::size_t k = 0;
    for (int d = 0; d < D; ++d) {
      int i = x.c[d];
      if (d == a) i = wrap(d, i + s);
      else if (d == b) i = wrap(d, i + t);
      k += std::size_t(i) * stride[d];
    }
    return k;
  }
};

}  // namespace flowlua::fractional_step
