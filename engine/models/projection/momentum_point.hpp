// Explicit momentum step: F and G (Griebel, Dornseifer & Neunhoeffer 1998, eqs.
// 3.36-3.40; seed 002 eqs. 4-5). Convection blends central and donor-cell
// differences with weight gamma; diffusion is the central five-point Laplacian.
#pragma once
#include "models/projection/fields.hpp"

namespace flowlua::projection {

template <class Real>
struct MomentumParams {
  Real dt, nu, gamma, gx, gy;
};

template <class Real>
FL_HD Real abs_(Real x) { return x < 0 ? -x : x; }

// The donor-cell part of a convective flux difference, dropped at compile time by
// the central variant (gamma = 0 adds exactly nothing, so both agree bit for bit).
template <bool kCentral, class Real>
FL_HD Real upwind_part(Real gamma, Real a) { return kCentral ? Real(0) : gamma * a; }

// F at a u face from the values it reads: u there (uc) and at its four u
// neighbours (east, west, north, south), v at (i, j), (i + 1, j), (i, j - 1),
// (i + 1, j - 1). Every F goes through this (the array version below, the
// shared-memory tile of momentum_tile.cuh), so all compute the same bits.
template <class Real, bool kCentral = false>
FL_HD Real momentum_f_values(const MomentumParams<Real>& m, Real idx, Real idy, Real uc, Real u_e, Real u_w, Real u_n,
                             Real u_s, Real v_c, Real v_e, Real v_s, Real v_es) {
  // d(u^2)/dx
  const Real ue = uc + u_e, uw = u_w + uc;
  const Real du2dx = Real(0.25) * idx * ((ue * ue - uw * uw) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (uc - u_e) - abs_(uw) * (u_w - uc)));
  // d(uv)/dy
  const Real vn = v_c + v_e, vs = v_s + v_es;
  const Real duvdy = Real(0.25) * idy * ((vn * (uc + u_n) - vs * (u_s + uc)) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (uc - u_n) - abs_(vs) * (u_s - uc)));
  const Real lap = (u_e - 2 * uc + u_w) * idx * idx + (u_n - 2 * uc + u_s) * idy * idy;
  return uc + m.dt * (m.nu * lap - du2dx - duvdy + m.gx);
}

// F at the u face (i, j), with the values of its four u neighbours given (east,
// west, north, south): immersed bodies replace those inside a body
// (immersed_forcing.hpp); momentum_f reads them from the array.
template <class Real, bool kCentral = false>
FL_HD Real momentum_f_with(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real u_e, Real u_w,
                           Real u_n, Real u_s) {
  const Real* v = s.v;
  return momentum_f_values<Real, kCentral>(m, s.idx, s.idy, s.u[s.at(i, j)], u_e, u_w, u_n, u_s, v[s.at(i, j)],
                                           v[s.at(i + 1, j)], v[s.at(i, j - 1)], v[s.at(i + 1, j - 1)]);
}

// F at the u face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_f(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* u = s.u;
  return momentum_f_with<Real, kCentral>(s, m, i, j, u[s.at(i + 1, j)], u[s.at(i - 1, j)], u[s.at(i, j + 1)],
                                         u[s.at(i, j - 1)]);
}

// G at a v face from the values it reads: v there (vc) and at its four v
// neighbours, u at (i, j), (i, j + 1), (i - 1, j), (i - 1, j + 1).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g_values(const MomentumParams<Real>& m, Real idx, Real idy, Real vc, Real v_e, Real v_w, Real v_n,
                             Real v_s, Real u_c, Real u_n, Real u_w, Real u_wn) {
  // d(v^2)/dy
  const Real vn = vc + v_n, vs = v_s + vc;
  const Real dv2dy = Real(0.25) * idy * ((vn * vn - vs * vs) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (vc - v_n) - abs_(vs) * (v_s - vc)));
  // d(uv)/dx
  const Real ue = u_c + u_n, uw = u_w + u_wn;
  const Real duvdx = Real(0.25) * idx * ((ue * (vc + v_e) - uw * (v_w + vc)) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (vc - v_e) - abs_(uw) * (v_w - vc)));
  const Real lap = (v_e - 2 * vc + v_w) * idx * idx + (v_n - 2 * vc + v_s) * idy * idy;
  return vc + m.dt * (m.nu * lap - duvdx - dv2dy + m.gy);
}

// G at the v face (i, j), with its four v neighbours given (east, west, north, south).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g_with(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real v_e, Real v_w,
                           Real v_n, Real v_s) {
  const Real* u = s.u;
  return momentum_g_values<Real, kCentral>(m, s.idx, s.idy, s.v[s.at(i, j)], v_e, v_w, v_n, v_s, u[s.at(i, j)],
                                           u[s.at(i, j + 1)], u[s.at(i - 1, j)], u[s.at(i - 1, j + 1)]);
}

// G at the v face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* v = s.v;
  return momentum_g_with<Real, kCentral>(s, m, i, j, v[s.at(i + 1, j)], v[s.at(i - 1, j)], v[s.at(i, j + 1)],
                                         v[s.at(i, j - 1)]);
}

}  // namespace flowlua::projection
