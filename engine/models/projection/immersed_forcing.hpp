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

  // F on u face (i, j), an unknown, computed already as f by the plain stencil.
  template <bool kCentral>
  FL_HD Real force_u(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real f) const {
    const std::size_t c = s.at(i, j);
    if (u.code[c] == kFaceFree) {
      if (u.near[c] < 0) return f;
      Real nb[4];
      neighbours(u, s.u, s, i, j, nb);
      return momentum_f_with<Real, kCentral>(s, m, i, j, nb[1], nb[0], nb[3], nb[2]);
    }
    return inside(u, s.u, s, i, j, m.dt * s.idx * (s.p[s.at(i + 1, j)] - s.p[c]));
  }
  template <bool kCentral>
  FL_HD Real force_v(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real g) const {
    const std::size_t c = s.at(i, j);
    if (v.code[c] == kFaceFree) {
      if (v.near[c] < 0) return g;
      Real nb[4];
      neighbours(v, s.v, s, i, j, nb);
      return momentum_g_with<Real, kCentral>(s, m, i, j, nb[1], nb[0], nb[3], nb[2]);
    }
    return inside(v, s.v, s, i, j, m.dt * s.idy * (s.p[s.at(i, j + 1)] - s.p[c]));
  }
};

}  // namespace flowlua::projection
