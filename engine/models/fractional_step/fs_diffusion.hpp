// Crank-Nicolson diffusion for the fractional-step model (diffusion = "crank_nicolson"):
// convection (and the body force) stay Adams-Bashforth 2, the viscous term is split
// half old, half new (the IMEX scheme the seed discusses in its sec. 1.2):
//   (I - a L) u* = u^n + dt [(1 + r/2) C^n - (r/2) C^{n-1}] + a L u^n,   a = nu dt / 2,
// so dt is no longer bound by AB2's diffusive limit. The predictor (fs_momentum.hpp)
// writes the right-hand side b into u*; this file solves the Helmholtz problem for all
// components at once by conjugate gradients (I - a L is symmetric positive definite on
// the staggered unknowns): start from x = b, whose residual is a L b with the ghost
// values of the sides (moving walls included), then corrections with the homogeneous
// sides (the ghosts of the search direction filled with zero wall velocities). Fixed
// faces (the normal component's last face on an axis with sides, faces beside
// obstacles) are not unknowns: their residual and direction are 0; a neighbour inside
// an obstacle is the mirror image (fs_state.hpp), which keeps I - a L symmetric.
// Point functions for both backends, any D.
#pragma once
#include "models/fractional_step/fs_state.hpp"

namespace flowlua::fractional_step {

// L_a v at face x of component a (values v): the same 2D + 1-point stencil as the
// momentum's viscous term, ghosts read through the ghost layer on axes with sides
// (kWalls), neighbours inside obstacles mirrored (kBodies).
template <int D, class Real, bool kWalls, bool kBodies = false>
FL_HD Real component_laplacian(const State<D, Real>& s, const Real* v, const Cell<D>& x, int a) {
  const Real c = v[s.at(x)];
  Real l = 0;
  for (int b = 0; b < D; ++b)
    l += (s.template neighbour<kWalls, kBodies>(v, x, a, b, 1) - Real(2) * c +
          s.template neighbour<kWalls, kBodies>(v, x, a, b, -1)) *
         s.inv_h2[b];
  return l;
}

// The CG vectors beside the state: residual, direction, operator times direction.
template <int D, class Real>
struct CgVectors {
  Real* r[D];
  Real* p[D];
  Real* q[D];
};

// r = a L b (the residual of x = b), p = r; returns r.r.
template <int D, class Real, bool kWalls, bool kBodies = false>
struct HelmholtzStart {
  State<D, Real> s;
  CgVectors<D, Real> v;
  Real a;
  FL_HD double point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    double rr = 0;
    for (int k = 0; k < D; ++k) {
      Real r = 0;
      if (!s.template fixed<kWalls, kBodies>(x, k))
        r = a * component_laplacian<D, Real, kWalls, kBodies>(s, s.star[k], x, k);
      v.r[k][c] = r;
      v.p[k][c] = r;
      rr += double(r) * double(r);
    }
    return rr;
  }
  FL_HD double operator()(int i, int j) const {
    if constexpr (D == 2) return point(Cell<D>{{i, j}});
    return 0;
  }
  FL_HD double operator()(int i, int j, int k) const {
    if constexpr (D == 3) return point(Cell<D>{{i, j, k}});
    return 0;
  }
};

// q = (I - a L) p (p's ghosts hold the homogeneous sides); returns p.q.
template <int D, class Real, bool kWalls, bool kBodies = false>
struct HelmholtzApply {
  State<D, Real> s;
  CgVectors<D, Real> v;
  Real a;
  FL_HD double point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    double pq = 0;
    for (int k = 0; k < D; ++k) {
      Real q = 0;
      if (!s.template fixed<kWalls, kBodies>(x, k))
        q = v.p[k][c] - a * component_laplacian<D, Real, kWalls, kBodies>(s, v.p[k], x, k);
      v.q[k][c] = q;
      pq += double(v.p[k][c]) * double(q);
    }
    return pq;
  }
  FL_HD double operator()(int i, int j) const {
    if constexpr (D == 2) return point(Cell<D>{{i, j}});
    return 0;
  }
  FL_HD double operator()(int i, int j, int k) const {
    if constexpr (D == 3) return point(Cell<D>{{i, j, k}});
    return 0;
  }
};

// x += alpha p, r -= alpha q; returns the new r.r.
template <int D, class Real>
struct CgStep {
  State<D, Real> s;
  CgVectors<D, Real> v;
  Real alpha;
  FL_HD double point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    double rr = 0;
    for (int k = 0; k < D; ++k) {
      s.star[k][c] += alpha * v.p[k][c];
      const Real r = v.r[k][c] - alpha * v.q[k][c];
      v.r[k][c] = r;
      rr += double(r) * double(r);
    }
    return rr;
  }
  FL_HD double operator()(int i, int j) const {
    if constexpr (D == 2) return point(Cell<D>{{i, j}});
    return 0;
  }
  FL_HD double operator()(int i, int j, int k) const {
    if constexpr (D == 3) return point(Cell<D>{{i, j, k}});
    return 0;
  }
};

// p = r + beta p.
template <int D, class Real>
struct CgDirection {
  State<D, Real> s;
  CgVectors<D, Real> v;
  Real beta;
  FL_HD void point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    for (int k = 0; k < D; ++k) v.p[k][c] = v.r[k][c] + beta * v.p[k][c];
  }
  FL_HD void operator()(int i, int j) const {
    if constexpr (D == 2) point(Cell<D>{{i, j}});
  }
  FL_HD void operator()(int i, int j, int k) const {
    if constexpr (D == 3) point(Cell<D>{{i, j, k}});
  }
};

}  // namespace flowlua::fractional_step
