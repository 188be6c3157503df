// Vorticity and temperature transport by Peaceman-Rachford ADI (seed 001; Peaceman &
// Rachford 1955): two half steps of dt/2, each implicit along one direction (diffusion
// and convection, one tridiagonal system per grid line) and explicit in the other:
//   (phi* - phi^n) / (dt/2)      = L_x phi*  + L_y phi^n  + S
//   (phi^n+1 - phi*) / (dt/2)    = L_x phi*  + L_y phi^n+1 + S
// with L_x phi = D d2phi/dx2 - u dphi/dx (D = nu or kappa), the node velocity from psi^n,
// and S the buoyancy of the vorticity equation from T^n (transport.hpp). Central
// convection gives a second-order scheme in time and space; upwind convection gives
// diagonally dominant lines at any cell Peclet number. The boundary ring holds the
// boundary values of the step (Thom's wall vorticity, T on the sides) and enters the
// first and last row of each line as known values; a body's nodes inside a line are
// identity rows that keep their boundary values (bodies.hpp). The lines are solved by
// linalg/tridiagonal with the rows generated here on the fly (no coefficient arrays).
#pragma once
#include "models/psi_omega/convection.hpp"

namespace flowlua::psi_omega {

template <class Real>
struct AdiParams {
  Real h;          // dt / 2
  Real D;          // diffusivity: nu for w, kappa for T
  Real beta, gx, gy;
  bool buoyancy;   // the vorticity equation of a heated case
  int scheme;      // ScalarAdvection: Upwind or Central
};

// The coefficients of -h (D d2/ds2 - a d/ds) along one direction with spacing ds:
// lo multiplies phi_{k-1}, hi phi_{k+1}, diag phi_k (the 1 of the identity excluded).
template <class Real>
FL_HD void line_operator(int scheme, Real a, Real D, Real ds, Real h, Real& lo, Real& diag, Real& hi) {
  const Real dif = D / (ds * ds);
  if (scheme == int(ScalarAdvection::Upwind)) {
    const Real ap = a > 0 ? a / ds : Real(0), am = a < 0 ? -a / ds : Real(0);
    lo = -h * (dif + ap), hi = -h * (dif + am), diag = h * (2 * dif + ap + am);
  } else {
    const Real c = a / (2 * ds);
    lo = -h * (dif + c), hi = -h * (dif - c), diag = h * 2 * dif;
  }
}

// Rows of one half step. kAlongX: lines along x (line = j - 1, k = i - 1), implicit in x,
// explicit in y; otherwise the other way round. `from` is phi at the start of the half
// step (its ring holds the boundary values), `to` receives the interior.
template <class Real, bool kAlongX>
struct AdiRows {
  State<Real> s;
  const Real* from;
  Real* to;
  AdiParams<Real> m;
  FL_HD void row(int line, int k, Real& a, Real& b, Real& c, Real& d) const {
    const int i = kAlongX ? k + 1 : line + 1, j = kAlongX ? line + 1 : k + 1;
    if (s.is_body(i, j)) {  // a body's node: its boundary value, known (an identity row)
      a = 0, b = 1, c = 0, d = from[s.at(i, j)];
      return;
    }
    const Real u = s.u_at(i, j), v = s.v_at(i, j);
    // Implicit direction.
    Real lo, diag, hi;
    line_operator(m.scheme, kAlongX ? u : v, m.D, kAlongX ? s.dx : s.dy, m.h, lo, diag, hi);
    a = lo, b = Real(1) + diag, c = hi;
    // Explicit direction: phi + h L phi, written as phi - (lo phi_- + diag phi + hi phi_+).
    Real elo, ediag, ehi;
    line_operator(m.scheme, kAlongX ? v : u, m.D, kAlongX ? s.dy : s.dx, m.h, elo, ediag, ehi);
    const Real pm = kAlongX ? from[s.at(i, j - 1)] : from[s.at(i - 1, j)];
    const Real pp = kAlongX ? from[s.at(i, j + 1)] : from[s.at(i + 1, j)];
    const Real pc = from[s.at(i, j)];
    d = pc - (elo * pm + ediag * pc + ehi * pp);
    if (m.buoyancy) {  // -beta (g_y dT/dx - g_x dT/dy), from T^n (transport.hpp)
      const Real dTdx = (s.T[s.at(i + 1, j)] - s.T[s.at(i - 1, j)]) / (2 * s.dx);
      const Real dTdy = (s.T[s.at(i, j + 1)] - s.T[s.at(i, j - 1)]) / (2 * s.dy);
      d += m.h * (-m.beta * (m.gy * dTdx - m.gx * dTdy));
    }
    // Boundary values of the line are known: move them to the right-hand side.
    const int n = kAlongX ? s.nx : s.ny;
    if (k == 0) d -= a * (kAlongX ? from[s.at(0, j)] : from[s.at(i, 0)]);
    if (k == n - 1) d -= c * (kAlongX ? from[s.at(s.nx + 1, j)] : from[s.at(i, s.ny + 1)]);
  }
  FL_HD void store(int line, int k, Real x) const {
    to[kAlongX ? s.at(k + 1, line + 1) : s.at(line + 1, k + 1)] = x;
  }
};

}  // namespace flowlua::psi_omega
