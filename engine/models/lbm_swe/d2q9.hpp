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
#include <cfloat>
#include <cmath>
#include <type_traits>

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

// x / D in float by one product and one FMA correction (Markstein): q = x (1/D) with
// 1/D rounded to float, r = x - q D (exact through the FMA), then q + r (1/D) rounded
// once; q itself where it is +-0, inf or NaN (as the division gives). No division,
// no branch. Against x / D for all 2^32 floats and D = 3, 6, 12, 24
// (tests/unit/test_lbm_swe_division.cpp): the same bits wherever |x / D| >= 2^-121
// and for 0, inf and NaN; below 2^-121 (quotients near the subnormal range) a tie
// can round to the other neighbour, one unit of 2^-149 -- which the equilibrium's
// sum with G/6 or G/24 (G = g h / e^2, far above 2^-100 in any wet cell) rounds away.
template <int D>
FL_HD float divide_by_fma(float x) {
  constexpr float inv = 1.0f / float(D);
  const float q = x * inv;
  const float r = fmaf(fmaf(-q, float(D), x), inv, q);
  const float a = fabsf(q);
  return (a > 0.0f && a <= FLT_MAX) ? r : q;
}

// x / D as CUDA computes it in divide_by (the unit test runs it on the CPU, whose
// float product, FMA and division round as the GPU's do). Double keeps the division.
template <int D, class Real>
FL_HD Real divide_by_on_device(Real x) {
  if constexpr (std::is_same_v<Real, float>) return divide_by_fma<D>(x);
  else return x / Real(D);
}

// x / D for the equilibrium's divisors: on the CPU the division; on CUDA, in float,
// divide_by_fma. A CUDA float division is a reciprocal, an FMA refinement and a
// range check (FCHK) that branches to a slow subroutine for operands outside the
// range the refinement handles; a zero dividend has the exponent field of a
// subnormal. In water at rest every c.U and U.U is exactly 0 (cells of a uniform
// state stream identical values): ten of the twelve divisions a cell. The case path
// (a basin at rest) ran the step 30% slower than the harness (a moving wave) and
// compute-bound (docs/performance.md); tests/gpu/lbm_case_vs_harness.sh times rest
// against motion on the device. Double keeps the division (not measured at rest).
template <int D, class Real>
FL_HD Real divide_by(Real x) {
#if defined(__CUDA_ARCH__)
  return divide_by_on_device<D>(x);
#else
  return x / Real(D);
#endif
}

// Zhou's equilibrium (seed eq. 3.9) for direction a; G = g h / e^2, U in lattice units.
// The divisions by 2 and 8 are exact products; the others go through divide_by.
template <class Real>
FL_HD Real equilibrium(int a, Real h, Real G, Real Ux, Real Uy) {
  const Real uu = Ux * Ux + Uy * Uy;
  if (a == 0) return h * (Real(1) - Real(5) / Real(6) * G - Real(2) / Real(3) * uu);
  const Real cu = Real(cx(a)) * Ux + Real(cy(a)) * Uy;
  if (a <= 4) return h * (divide_by<6>(G) + divide_by<3>(cu) + cu * cu / Real(2) - divide_by<6>(uu));
  return h * (divide_by<24>(G) + divide_by<12>(cu) + cu * cu / Real(8) - divide_by<24>(uu));
}

}  // namespace flowlua::lbm_swe
