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

// F at the u face (i, j), with the values of its four u neighbours given (east,
// west, north, south): immersed bodies replace those inside a body
// (immersed_forcing.hpp); momentum_f reads them from the array.
template <class Real, bool kCentral = false>
FL_HD Real momentum_f_with(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real u_e, Real u_w,
                           Real u_n, Real u_s) {
  const Real* u = s.u;
  const Real* v = s.v;
  const std::size_t c = s.at(i, j);
  const std::size_t en = s.at(i + 1, j), es = s.at(i + 1, j - 1), cs = s.at(i, j - 1);
  const Real idx = s.idx, idy = s.idy;
  const Real uc = u[c];
  // d(u^2)/dx
  const Real ue = uc + u_e, uw = u_w + uc;
  const Real du2dx = Real(0.25) * idx * ((ue * ue - uw * uw) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (uc - u_e) - abs_(uw) * (u_w - uc)));
  // d(uv)/dy
  const Real vn = v[c] + v[en], vs = v[cs] + v[es];
  const Real duvdy = Real(0.25) * idy * ((vn * (uc + u_n) - vs * (u_s + uc)) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (uc - u_n) - abs_(vs) * (u_s - uc)));
  const Real lap = (u_e - 2 * uc + u_w) * idx * idx + (u_n - 2 * uc + u_s) * idy * idy;
  return uc + m.dt * (m.nu * lap - du2dx - duvdy + m.gx);
}

// F at the u face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_f(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* u = s.u;
  return momentum_f_with<Real, kCentral>(s, m, i, j, u[s.at(i + 1, j)], u[s.at(i - 1, j)], u[s.at(i, j + 1)],
                                         u[s.at(i, j - 1)]);
}

// G at the v face (i, j), with its four v neighbours given (east, west, north, south).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g_with(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real v_e, Real v_w,
                           Real v_n, Real v_s) {
  const Real* u = s.u;
  const Real* v = s.v;
  const std::size_t c = s.at(i, j), w = s.at(i - 1, j);
  const std::size_t cn = s.at(i, j + 1), wn = s.at(i - 1, j + 1);
  const Real idx = s.idx, idy = s.idy;
  const Real vc = v[c];
  // d(v^2)/dy
  const Real vn = vc + v_n, vs = v_s + vc;
  const Real dv2dy = Real(0.25) * idy * ((vn * vn - vs * vs) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (vc - v_n) - abs_(vs) * (v_s - vc)));
  // d(uv)/dx
  const Real ue = u[c] + u[cn], uw = u[w] + u[wn];
  const Real duvdx = Real(0.25) * idx * ((ue * (vc + v_e) - uw * (v_w + vc)) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (vc - v_e) - abs_(uw) * (v_w - vc)));
  const Real lap = (v_e - 2 * vc + v_w) * idx * idx + (v_n - 2 * vc + v_s) * idy * idy;
  return vc + m.dt * (m.nu * lap - duvdx - dv2dy + m.gy);
}

// G at the v face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* v = s.v;
  return momentum_g_with<Real, kCentral>(s, m, i, j, v[s.at(i + 1, j)], v[s.at(i - 1, j)], v[s.at(i, j + 1)],
                                         v[s.at(i, j - 1)]);
}

}  // namespace flowlua::projection
