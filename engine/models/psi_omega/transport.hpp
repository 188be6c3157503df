// One explicit (forward Euler) step of vorticity and temperature transport at the
// interior nodes (seed 000 system (*), with convection and diffusion both explicit):
//   w' = w + dt (-c.grad w + nu lap w + buoyancy)
//   T' = T + dt (-c.grad T + kappa lap T)
// Buoyancy is the curl of the Boussinesq force -beta (T - T0) g (seed 000 sec. 2.4.2):
//   -beta (g_y dT/dx - g_x dT/dy), which for g = (0, -g) is beta g dT/dx (eq. 9, C = beta g).
// Central differences for the temperature gradient, as in the seed.
#pragma once
#include "models/psi_omega/convection.hpp"

namespace flowlua::psi_omega {

template <class Real>
struct TransportParams {
  Real dt, nu, kappa, beta, gx, gy;
  int scheme;  // ScalarAdvection
};

// The scheme as the kernel sees it: kAnyScheme reads it from the parameters at run
// time (the general variant); a ScalarAdvection value fixes it at compile time, so
// the other schemes' branches are not in the kernel (psi_omega_kernels.cpp).
constexpr int kAnyScheme = -1;

// Writes w_next (and T_next) at (i, j); returns max(|dw/dt|, |dT/dt|) there (the step
// drops it; the steady test compares velocities over an interval: sim/steady.hpp).
template <class Real, int kScheme = kAnyScheme>
struct TransportStage {
  State<Real> s;
  TransportParams<Real> m;
  FL_HD double operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    if (s.is_body(c)) {  // a body's node keeps its boundary values (bodies.hpp sets them)
      s.w_next[c] = s.w[c];
      if (s.T) s.T_next[c] = s.T[c];
      return 0;
    }
    const Real u = s.u_at(i, j), v = s.v_at(i, j);
    const int scheme = kScheme == kAnyScheme ? m.scheme : kScheme;
    Real dwdt = m.nu * laplacian(s, s.w, i, j) - convection(s, s.w, scheme, u, v, i, j);
    double change = 0;
    if (s.T) {
      const Real dTdx = (s.T[s.at(i + 1, j)] - s.T[s.at(i - 1, j)]) / (2 * s.dx);
      const Real dTdy = (s.T[s.at(i, j + 1)] - s.T[s.at(i, j - 1)]) / (2 * s.dy);
      dwdt += -m.beta * (m.gy * dTdx - m.gx * dTdy);
      const Real dTdt = m.kappa * laplacian(s, s.T, i, j) - convection(s, s.T, scheme, u, v, i, j);
      s.T_next[c] = s.T[c] + m.dt * dTdt;
      change = dTdt < 0 ? -double(dTdt) : double(dTdt);
    }
    s.w_next[c] = s.w[c] + m.dt * dwdt;
    const double aw = dwdt < 0 ? -double(dwdt) : double(dwdt);
    return aw > change ? aw : change;
  }
};

template <class F>
struct DropValue {
  F f;
  FL_HD void operator()(int i, int j) const { (void)f(i, j); }
};

// Inverse convective time |u|/dx + |v|/dy at a node (NaN if not finite), and |u|^2.
template <class Real>
struct InverseConvectiveTime {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    if (s.is_body(i, j)) return 0;  // at rest
    const double a = double(s.u_at(i, j)) / s.dx, b = double(s.v_at(i, j)) / s.dy;
    const double r = (a < 0 ? -a : a) + (b < 0 ? -b : b);
    return r - r != 0 ? r - r : r;  // NaN for inf/NaN
  }
};

template <class Real>
struct SpeedSquared {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    if (s.is_body(i, j)) return 0;
    const double a = s.u_at(i, j), b = s.v_at(i, j);
    return a * a + b * b;
  }
};

}  // namespace flowlua::psi_omega
