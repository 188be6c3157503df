// The projection model's side of immersed bodies (core/immersed.hpp): the momentum
// stage computes F and G of a free face next to a body with the stencil's neighbours
// inside the body replaced by the profile through the surface on their grid line, and
// sets the faces inside a body to their target. NoBodies compiles the check away, so
// the staircase variant is the plain kernel.
#pragma once
#include "core/immersed.hpp"
#include "models/projection/momentum_point.hpp"

namespace flowlua::projection {

struct NoBodies {
  static constexpr bool kActive = false;
  template <bool kCentral, class Real>
  FL_HD Real force_u(const State<Real>&, const MomentumParams<Real>&, int, int, Real f) const { return f; }
  template <bool kCentral, class Real>
  FL_HD Real force_v(const State<Real>&, const MomentumParams<Real>&, int, int, Real g) const { return g; }
};

template <class Real>
struct ImmersedFaces {
  static constexpr bool kActive = true;
  ForcingView<Real> u, v;

  // The four same-component neighbours (west, east, south, north) of free face (i, j)
  // next to a body, those inside a body replaced (FaceForcing::near).
  FL_HD static void neighbours(const ForcingView<Real>& f, const Real* a, const State<Real>& s, int i, int j,
                               Real nb[4]) {
    const std::int32_t r = f.near[s.at(i, j)];
    const std::size_t k4[4] = {s.at(i - 1, j), s.at(i + 1, j), s.at(i, j - 1), s.at(i, j + 1)};
    Real raw[4];
    for (int k = 0; k < 4; ++k) raw[k] = a[k4[k]];
    for (int k = 0; k < 4; ++k) {
      nb[k] = raw[k];
      if (f.code[k4[k]] == kFaceFree) continue;
      const Real w = f.near_weight[4 * r + k], b = f.near_value[4 * r + k];
      nb[k] = b + w * (raw[k ^ 1] - b);  // k ^ 1: the opposite neighbour
    }
  }

  // A face inside a body: its target (forced_velocity), from u^n of a ghost's partner
  // (momentum_f is a pure function of u^n, v^n, so nothing here reads F, which another
  // thread of the same launch may be writing).
  FL_HD static Real inside(const ForcingView<Real>& f, const Real* a, const State<Real>& s, int i, int j, Real gp) {
    const std::size_t c = s.at(i, j);
    const std::int8_t code = f.code[c];
    Real partner = 0;
    if (code != kFaceInside) {
      int di, dj;
      ghost_partner(code, di, dj);
      partner = a[s.at(i + di, j + dj)];
    }
    return forced_velocity(code, f.weight[c], f.value[c], partner, gp);
  }

  // F of free face (i, j) next to a body (component array a, spacings along x and y
  // as 1/h^2: ix2, iy2; gp = dt grad p^n at the face). The convection reads the
  // neighbours continued through the surface (neighbours()); the viscous term along
  // a line that meets the surface t h away is the second difference over the points
  // (-h, 0, t h) with the body's velocity at the crossing (the Shortley-Weller
  // difference: its local error is O(h), where the continued neighbour's is O(1),
  // which the pressure next to the surface would take up as an O(h) error; Shortley
  // & Weller 1938, J. Appl. Phys. 9, 334-348). Its part beyond the plain stencil's
  // diagonal, -2 (1/t - 1) u_c / h^2, is taken implicitly at the face, so that t -> 0
  // does not shrink the stable time step; with the pressure gradient of the last
  // step moved out of the implicit division, a steady state satisfies the momentum
  // equation with the full gradient (as immersed_mass.hpp's lag).
  template <bool kU, bool kCentral>
  FL_HD Real near_wall(const ForcingView<Real>& f, const Real* a, const State<Real>& s, const MomentumParams<Real>& m,
                       int i, int j, Real gp) const {
    Real nb[4];
    neighbours(f, a, s, i, j, nb);
    Real fc = kU ? momentum_f_with<Real, kCentral>(s, m, i, j, nb[1], nb[0], nb[3], nb[2])
                 : momentum_g_with<Real, kCentral>(s, m, i, j, nb[1], nb[0], nb[3], nb[2]);
    const std::size_t c = s.at(i, j);
    const std::int32_t r = f.near[c];
    const Real uc = a[c];
    const std::size_t k4[4] = {s.at(i - 1, j), s.at(i + 1, j), s.at(i, j - 1), s.at(i, j + 1)};
    Real extra = 0, stiff = 0;
    for (int k = 0; k < 4; ++k) {
      const Real t = f.near_t[4 * r + k];
      if (f.code[k4[k]] == kFaceFree || t < Real(0)) continue;
      const Real ih2 = k < 2 ? s.idx * s.idx : s.idy * s.idy;
      const Real uo = a[k4[k ^ 1]], b = f.near_value[4 * r + k];
      // Shortley-Weller's explicit part less the plain one that fc holds
      extra += ih2 * (2 * (uo / (1 + t) + b / (t * (1 + t)) - uc) - (nb[k] - 2 * uc + uo));
      stiff += ih2 * 2 * (1 / t - 1);
    }
    fc += m.dt * m.nu * extra;
    return gp + (fc - gp) / (1 + m.dt * m.nu * stiff);
  }

  // F on u face (i, j), an unknown, computed already as f by the plain stencil.
  template <bool kCentral>
  FL_HD Real force_u(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real f) const {
    const std::size_t c = s.at(i, j);
    if (u.code[c] == kFaceFree && u.near[c] < 0) return f;
    const Real gp = m.dt * s.idx * (s.p[s.at(i + 1, j)] - s.p[c]);
    if (u.code[c] != kFaceFree) return inside(u, s.u, s, i, j, gp);
    return near_wall<true, kCentral>(u, s.u, s, m, i, j, gp);
  }
  template <bool kCentral>
  FL_HD Real force_v(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real g) const {
    const std::size_t c = s.at(i, j);
    if (v.code[c] == kFaceFree && v.near[c] < 0) return g;
    const Real gp = m.dt * s.idy * (s.p[s.at(i, j + 1)] - s.p[c]);
    if (v.code[c] != kFaceFree) return inside(v, s.v, s, i, j, gp);
    return near_wall<false, kCentral>(v, s.v, s, m, i, j, gp);
  }
};

}  // namespace flowlua::projection
