// The stream function on the boundary ring and the Poisson right-hand side.
//
// Dirichlet psi (walls, inflow, slip: psi_b from integrating the inflow flux along the
// boundary, seed 000 sec. 3.3; see psi_omega_setup.cpp) is folded into the right-hand
// side, lap_0 psi = -w - sum over boundary neighbours of psi_b / h^2, and the ring is
// zeroed during the solve. Then the linalg solvers see a homogeneous problem whose
// tolerance ||rhs - lap psi|| <= tol ||rhs|| is measured against the full forcing,
// boundary included (with psi_b left in the ring and rhs = -w, a case starting at
// w = 0, such as a channel, would have ||rhs|| = 0 and the solvers would return 0).
// Outflow sides are Neumann (dpsi/dn = 0) through the cell flags: psi_b = psi_1.
#pragma once
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

// rhs at an interior node: psi_b is zero inside and on outflow sides.
template <class Real>
struct StreamRhs {
  State<Real> s;
  FL_HD void operator()(int i, int j) const {
    const Real* pb = s.psi_b;
    s.rhs[s.at(i, j)] = -s.w[s.at(i, j)] - (pb[s.at(i + 1, j)] + pb[s.at(i - 1, j)]) / (s.dx * s.dx) -
                        (pb[s.at(i, j + 1)] + pb[s.at(i, j - 1)]) / (s.dy * s.dy);
  }
};

// The ring of psi: zero (before the solve) or the boundary values (after it); one call
// per k = 0..max(nx, ny) + 1.
template <class Real>
struct StreamRing {
  State<Real> s;
  int outflow_side;  // -1 none
  bool restore;
  FL_HD void set(int i, int j, int ii, int jj, bool outflow) const {
    const std::size_t c = s.at(i, j);
    s.psi[c] = !restore ? Real(0) : (outflow ? s.psi[s.at(ii, jj)] : s.psi_b[c]);
  }
  FL_HD void operator()(int k, int) const {
    const int nx = s.nx, ny = s.ny;
    if (k <= ny + 1) {
      const bool inner = k >= 1 && k <= ny;  // corners belong to the neighbouring sides' walls
      set(0, k, 1, k, inner && outflow_side == 0);
      set(nx + 1, k, nx, k, inner && outflow_side == 1);
    }
    if (k >= 1 && k <= nx) {
      set(k, 0, k, 1, outflow_side == 2);
      set(k, ny + 1, k, ny, outflow_side == 3);
    }
  }
};

// Initial guess for the next solve: psi <- 2 psi - psi_prev (linear extrapolation in
// time, error O(dt^2) instead of O(dt)), psi_prev <- psi. Interior nodes only.
template <class Real>
struct ExtrapolateGuess {
  State<Real> s;
  Real* prev;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    const Real p = s.psi[c];
    s.psi[c] = 2 * p - prev[c];
    prev[c] = p;
  }
};

}  // namespace flowlua::psi_omega
