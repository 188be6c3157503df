// The pressure stages of seed 004: the Poisson right-hand side from the divergence
// of u* (eq. 4 and 13, solved as lap (p/rho) = div u* / dt), the correction
// u^{n+1} = u* - dt grad (p/rho) on the faces (eq. 16-17), and the reduction the
// adaptive time step needs. Point functions for both backends, any D.
#pragma once
#include "models/fractional_step/fs_state.hpp"

namespace flowlua::fractional_step {

// div(v) at cell x (seed eq. 13): sum over axes of the face difference.
// On an axis with sides (kWalls) the first cell's "-" face is the side's face in the
// ghost layer (index 0), which holds its normal velocity (0 on walls, the inflow, or
// the outflow face the model keeps). Obstacle cells have every face at 0.
template <int D, class Real, bool kWalls = false>
FL_HD Real divergence(const State<D, Real>& s, Real* const* v, const Cell<D>& x) {
  const std::size_t c = s.at(x);
  Real d = 0;
  for (int b = 0; b < D; ++b) d += (v[b][c] - v[b][s.template at<kWalls>(x, b, -1)]) * s.inv_h[b];
  return d;
}

template <int D, class Real, bool kWalls = false>
struct PressureRhs {
  State<D, Real> s;
  Real inv_dt;
  FL_HD void point(const Cell<D>& x) const { s.rhs[s.at(x)] = divergence<D, Real, kWalls>(s, s.star, x) * inv_dt; }
  FL_HD void operator()(int i, int j) const {
    if constexpr (D == 2) point(Cell<D>{{i, j}});
  }
  FL_HD void operator()(int i, int j, int k) const {
    if constexpr (D == 3) point(Cell<D>{{i, j, k}});
  }
};

// u^{n+1} = u* - dt grad p; returns max |u^{n+1} - u^n| over the components (for
// steady-state stops; a plain launch drops it). Fixed faces (the sides' faces with
// kWalls, faces beside obstacles with kBodies: State::fixed) are left alone; the
// outflow faces are corrected by their own pass (fs_outflow.hpp).
template <int D, class Real, bool kWalls = false, bool kBodies = false>
struct Correction {
  State<D, Real> s;
  Real dt;
  FL_HD double point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    double change = 0;
    for (int a = 0; a < D; ++a) {
      if (s.template fixed<kWalls, kBodies>(x, a)) continue;
      const Real un = s.star[a][c] - dt * (s.p[s.at(x, a, 1)] - s.p[c]) * s.inv_h[a];
      double d = double(un) - double(s.vel[a][c]);
      d = d < 0 ? -d : d;
      change = d > change ? d : change;
      s.vel[a][c] = un;
    }
    return change;
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

template <class F>
struct Dropped {
  F f;
  FL_HD void operator()(int i, int j) const { (void)f(i, j); }
  FL_HD void operator()(int i, int j, int k) const { (void)f(i, j, k); }
};

// sum_a |u_a| / h_a at a cell: its inverse is the convective time-step limit.
template <int D, class Real>
struct InverseConvectiveTime {
  State<D, Real> s;
  FL_HD double point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    double t = 0;
    for (int a = 0; a < D; ++a) {
      const double u = double(s.vel[a][c]);
      t += (u < 0 ? -u : u) * double(s.inv_h[a]);
    }
    return t;
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

}  // namespace flowlua::fractional_step
