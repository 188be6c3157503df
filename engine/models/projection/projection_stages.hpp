// The remaining point functions of one projection step: the Poisson right-hand side
// (seed 002 eq. 8), the velocity correction (eqs. 6-7, with dt/dy in eq. 7), and the
// largest velocity over cell size that sets the adaptive time step (eq. 9).
#pragma once
#include <limits>

#include "models/projection/fields.hpp"

namespace flowlua::projection {

// rhs = div(F, G) / dt on fluid cells.
template <class Real, class Cells>
struct PressureRhs {
  State<Real> s;
  Real inv_dt;
  Cells cells;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    if (!is_fluid(cells.at(i, j))) { s.rhs[c] = 0; return; }
    const Real div = (s.f[c] - s.f[s.at(s.nb.west(i), j)]) / s.dx + (s.g[c] - s.g[s.at(i, s.nb.south(j))]) / s.dy;
    s.rhs[c] = div * inv_dt;
  }
};

// u = F - dt dp/dx, v = G - dt dp/dy on unknown faces; returns the largest change
// |u_new - u_old| (for the steady-state test).
template <class Real, class Cells>
struct VelocityCorrection {
  State<Real> s;
  Real dt;
  Cells cells;
  FL_HD double operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    double change = 0;
    if (u_unknown(cells, s.nb, i, j)) {
      const Real un = s.f[c] - dt / s.dx * (s.p[s.at(s.nb.east(i), j)] - s.p[c]);
      change = un - s.u[c];
      s.u[c] = un;
    }
    if (v_unknown(cells, s.nb, i, j)) {
      const Real vn = s.g[c] - dt / s.dy * (s.p[s.at(i, s.nb.north(j))] - s.p[c]);
      const double dv = double(vn) - double(s.v[c]);
      s.v[c] = vn;
      change = (change < 0 ? -change : change) > (dv < 0 ? -dv : dv) ? change : dv;
    }
    return change < 0 ? -change : change;
  }
};

// max(|u|/dx, |v|/dy) at a cell: the inverse of the convective time-step limit.
// A non-finite velocity returns NaN, which the reduction carries to the host.
template <class Real>
struct InverseConvectiveTime {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    const double a = double(s.u[s.at(i, j)]) / s.dx, b = double(s.v[s.at(i, j)]) / s.dy;
    if (a - a != 0 || b - b != 0) return std::numeric_limits<double>::quiet_NaN();
    const double aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
    return aa > bb ? aa : bb;
  }
};

// u^2 + v^2 from the two faces of a cell: with the donor-cell weight gamma small,
// explicit central advection is stable only for dt <= 2 nu / |u|^2 (the cell
// Peclet limit of forward-time central-space schemes), so the time step needs it.
template <class Real>
struct SpeedSquared {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    const double a = s.u[s.at(i, j)], b = s.v[s.at(i, j)];
    return a * a + b * b;
  }
};

}  // namespace flowlua::projection
