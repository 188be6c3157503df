// Convective and diffusive terms at an interior node, shared by the vorticity and the
// temperature equation (seed 000 eqs. 9 and 12) and by both backends.
//
// Convection c . grad(phi) in non-conservative form with the node velocity from psi
// (continuity holds exactly, so this equals the conservative form up to truncation):
//   upwind   first-order donor cell, the seed's scheme (sec. 3.1, eq. 18 first line);
//   central  second-order central differences (the seed's first attempt);
//   upwind2  second-order upwind, (3 phi_P - 4 phi_W + phi_WW) / (2 h) for u > 0;
//            central at nodes next to the boundary or a body, where the far upstream
//            node is missing.
#pragma once
#include "models/psi_omega/psi_omega_config.hpp"
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

// d(phi)/dx along one line: p[-2..2] are phi at offsets -2..2 (p[+-2] only read when
// has_far_* says they exist), a the advecting velocity, h the spacing.
template <class Real>
FL_HD Real upwind_derivative(int scheme, Real a, Real pmm, Real pm, Real pc, Real pp, Real ppp, bool far_minus,
                             bool far_plus, Real h) {
  if (scheme == int(ScalarAdvection::Upwind)) return a > 0 ? (pc - pm) / h : (pp - pc) / h;
  if (scheme == int(ScalarAdvection::Upwind2)) {
    if (a > 0 && far_minus) return (3 * pc - 4 * pm + pmm) / (2 * h);
    if (a <= 0 && far_plus) return (-3 * pc + 4 * pp - ppp) / (2 * h);
  }
  return (pp - pm) / (2 * h);
}

// c . grad(phi) at interior node (i, j); u, v the node velocity.
template <class Real>
FL_HD Real convection(const State<Real>& s, const Real* phi, int scheme, Real u, Real v, int i, int j) {
  const bool wide = scheme == int(ScalarAdvection::Upwind2);
  const Real pc = phi[s.at(i, j)];
  const Real pw = phi[s.at(i - 1, j)], pe = phi[s.at(i + 1, j)];
  const Real ps = phi[s.at(i, j - 1)], pn = phi[s.at(i, j + 1)];
  // The far upstream node exists only inside the domain and beyond a fluid node (not
  // through a body's surface node, whose far side is the body's inside).
  const bool fw = wide && i >= 2 && !s.is_body(i - 1, j), fe = wide && i <= s.nx - 1 && !s.is_body(i + 1, j);
  const bool fs = wide && j >= 2 && !s.is_body(i, j - 1), fn = wide && j <= s.ny - 1 && !s.is_body(i, j + 1);
  const Real pww = fw ? phi[s.at(i - 2, j)] : pc, pee = fe ? phi[s.at(i + 2, j)] : pc;
  const Real pss = fs ? phi[s.at(i, j - 2)] : pc, pnn = fn ? phi[s.at(i, j + 2)] : pc;
  const Real dx = upwind_derivative(scheme, u, pww, pw, pc, pe, pee, fw, fe, s.dx);
  const Real dy = upwind_derivative(scheme, v, pss, ps, pc, pn, pnn, fs, fn, s.dy);
  return u * dx + v * dy;
}

// Five-point Laplacian at an interior node.
template <class Real>
FL_HD Real laplacian(const State<Real>& s, const Real* phi, int i, int j) {
  const Real pc = phi[s.at(i, j)];
  return (phi[s.at(i + 1, j)] - 2 * pc + phi[s.at(i - 1, j)]) / (s.dx * s.dx) +
         (phi[s.at(i, j + 1)] - 2 * pc + phi[s.at(i, j - 1)]) / (s.dy * s.dy);
}

}  // namespace flowlua::psi_omega
