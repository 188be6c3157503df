// The projection model's side of immersed bodies (core/immersed.hpp): the momentum
// stage replaces F and G on forced faces by the direct-forcing value. NoBodies
// compiles the check away, so the staircase variant is the plain kernel.
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

  // F on u face (i, j), an unknown. The partner's predictor is recomputed here
  // (momentum_f is a pure function of u^n, v^n) rather than read from F, which
  // another thread of the same launch may be overwriting.
  template <bool kCentral>
  FL_HD Real force_u(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real f) const {
    const std::size_t c = s.at(i, j);
    const std::int8_t code = u.code[c];
    if (code == kFaceFree) return f;
    const Real gp = m.dt * s.idx * (s.p[s.at(i + 1, j)] - s.p[c]);
    Real partner = 0;
    if (code != kFaceInside && u.weight[c] != Real(0)) {
      int di, dj;
      forcing_partner(code, di, dj);
      const int ip = i + di, jp = j + dj;
      partner = s.u[s.at(ip, jp)];
    }
    return forced_velocity(code, u.weight[c], u.value[c], partner, gp);
  }
  template <bool kCentral>
  FL_HD Real force_v(const State<Real>& s, const MomentumParams<Real>& m, int i, int j, Real g) const {
    const std::size_t c = s.at(i, j);
    const std::int8_t code = v.code[c];
    if (code == kFaceFree) return g;
    const Real gp = m.dt * s.idy * (s.p[s.at(i, j + 1)] - s.p[c]);
    Real partner = 0;
    if (code != kFaceInside && v.weight[c] != Real(0)) {
      int di, dj;
      forcing_partner(code, di, dj);
      const int ip = i + di, jp = j + dj;
      partner = s.v[s.at(ip, jp)];
    }
    return forced_velocity(code, v.weight[c], v.value[c], partner, gp);
  }
};

}  // namespace flowlua::projection
