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

// F at the u face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_f(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* u = s.u;
  const Real* v = s.v;
  const std::size_t c = s.at(i, j), e = s.at(i + 1, j), w = s.at(i - 1, j);
  const std::size_t n = s.at(i, j + 1), so = s.at(i, j - 1);
  const std::size_t en = s.at(i + 1, j), es = s.at(i + 1, j - 1), cs = s.at(i, j - 1);
  const Real idx = s.idx, idy = s.idy;
  // d(u^2)/dx
  const Real ue = u[c] + u[e], uw = u[w] + u[c];
  const Real du2dx = Real(0.25) * idx * ((ue * ue - uw * uw) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (u[c] - u[e]) - abs_(uw) * (u[w] - u[c])));
  // d(uv)/dy
  const Real vn = v[c] + v[en], vs = v[cs] + v[es];
  const Real duvdy = Real(0.25) * idy * ((vn * (u[c] + u[n]) - vs * (u[so] + u[c])) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (u[c] - u[n]) - abs_(vs) * (u[so] - u[c])));
  const Real lap = (u[e] - 2 * u[c] + u[w]) * idx * idx + (u[n] - 2 * u[c] + u[so]) * idy * idy;
  return u[c] + m.dt * (m.nu * lap - du2dx - duvdy + m.gx);
}

// G at the v face (i, j).
template <class Real, bool kCentral = false>
FL_HD Real momentum_g(const State<Real>& s, const MomentumParams<Real>& m, int i, int j) {
  const Real* u = s.u;
  const Real* v = s.v;
  const std::size_t c = s.at(i, j), e = s.at(i + 1, j), w = s.at(i - 1, j);
  const std::size_t n = s.at(i, j + 1), so = s.at(i, j - 1);
  const std::size_t cn = s.at(i, j + 1), wn = s.at(i - 1, j + 1);
  const Real idx = s.idx, idy = s.idy;
  // d(v^2)/dy
  const Real vn = v[c] + v[n], vs = v[so] + v[c];
  const Real dv2dy = Real(0.25) * idy * ((vn * vn - vs * vs) +
                     upwind_part<kCentral>(m.gamma, abs_(vn) * (v[c] - v[n]) - abs_(vs) * (v[so] - v[c])));
  // d(uv)/dx
  const Real ue = u[c] + u[cn], uw = u[w] + u[wn];
  const Real duvdx = Real(0.25) * idx * ((ue * (v[c] + v[e]) - uw * (v[w] + v[c])) +
                     upwind_part<kCentral>(m.gamma, abs_(ue) * (v[c] - v[e]) - abs_(uw) * (v[w] - v[c])));
  const Real lap = (v[e] - 2 * v[c] + v[w]) * idx * idx + (v[n] - 2 * v[c] + v[so]) * idy * idy;
  return v[c] + m.dt * (m.nu * lap - duvdx - dv2dy + m.gy);
}

}  // namespace flowlua::projection
