// The D2Q9 lattice and Zhou's shallow-water equilibrium (seed 003 eqs. 3.7-3.9; Zhou,
// "Lattice Boltzmann Methods for Shallow Water Flows", Springer 2004, ch. 2).
//
// Velocities are kept in lattice units U = u / e (e = dx / dt), so that with
// G = g h / e^2 the equilibrium reads
//   f0 = h (1 - 5G/6 - 2 U.U / 3)
//   fa = h (G/6  + c.U/3  + (c.U)^2/2 - U.U/6)    a = 1..4 (axis)
//   fa = h (G/24 + c.U/12 + (c.U)^2/8 - U.U/24)   a = 5..8 (diagonal)
// Numbering here: 0 rest, 1 E, 2 N, 3 W, 4 S, 5 NE, 6 NW, 7 SW, 8 SE (opposite of a
// is kOpp[a]); the seed numbers the same directions counter-clockwise from E.
#pragma once
#include "core/hd.hpp"

namespace flowlua::lbm_swe {

inline constexpr int kQ = 9;
FL_HD constexpr int cx(int a) { return a == 1 || a == 5 || a == 8 ? 1 : a == 3 || a == 6 || a == 7 ? -1 : 0; }
FL_HD constexpr int cy(int a) { return a == 2 || a == 5 || a == 6 ? 1 : a == 4 || a == 7 || a == 8 ? -1 : 0; }
FL_HD constexpr int opposite(int a) { return a == 0 ? 0 : a <= 4 ? (a + 1) % 4 + 1 : (a + 1) % 4 + 5; }
// Mirror images: x reflected (for left/right sides) and y reflected (bottom/top).
FL_HD constexpr int mirror_x(int a) {
  return a == 1 ? 3 : a == 3 ? 1 : a == 5 ? 6 : a == 6 ? 5 : a == 7 ? 8 : a == 8 ? 7 : a;
}
FL_HD constexpr int mirror_y(int a) {
  return a == 2 ? 4 : a == 4 ? 2 : a == 5 ? 8 : a == 8 ? 5 : a == 6 ? 7 : a == 7 ? 6 : a;
}

// Weight of a direction in the equilibrium's pressure and momentum terms: 1/3 on the
// axes, 1/12 on the diagonals (sum over a of w_a c_a c_a = identity). Used for the
// bed-slope and friction sources as well (see stream_collide.hpp).
template <class Real>
FL_HD constexpr Real source_weight(int a) {
  return a == 0 ? Real(0) : a <= 4 ? Real(1) / Real(3) : Real(1) / Real(12);
}

// Zhou's equilibrium (seed eq. 3.9) for direction a; G = g h / e^2, U in lattice units.
template <class Real>
FL_HD Real equilibrium(int a, Real h, Real G, Real Ux, Real Uy) {
  const Real uu = Ux * Ux + Uy * Uy;
  if (a == 0) return h * (Real(1) - Real(5) / Real(6) * G - Real(2) / Real(3) * uu);
  const Real cu = Real(cx(a)) * Ux + Real(cy(a)) * Uy;
  if (a <= 4) return h * (G / Real(6) + cu / Real(3) + cu * cu / Real(2) - uu / Real(6));
  return h * (G / Real(24) + cu / Real(12) + cu * cu / Real(8) - uu / Real(24));
}

}  // namespace flowlua::lbm_swe
