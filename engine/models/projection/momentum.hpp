// Explicit momentum step, the stage: F and G on every face in one pass, with the
// point functions of momentum_point.hpp and, for immersed bodies, the direct forcing
// of immersed_forcing.hpp.
#pragma once
#include "models/projection/immersed_forcing.hpp"
#include "models/projection/momentum_point.hpp"

namespace flowlua::projection {

// One pass computes F and G on every face; faces that are not unknowns (walls,
// obstacles, the boundary faces used by the pressure right-hand side) copy u, v
// (seed 002 sec. 1.5: F_0 = u_0, G_0 = v_0). Variants: kCentral drops the donor-cell
// terms; Cells is FlagArray or, without obstacles, OpenDomainFlags; Bodies is
// NoBodies or ImmersedFaces (free faces next to immersed bodies and faces inside them).
template <class Real, bool kCentral, class Cells, class Bodies = NoBodies>
struct MomentumStage {
  State<Real> s;
  MomentumParams<Real> m;
  Cells cells;
  Bodies bodies{};
  // kernels.dt = "device": dt and gamma from step[0] and step[2] (dt_rule.hpp), where
  // the device computed them; m holds the host's values otherwise.
  const double* step = nullptr;
  // Both values are computed before either is stored: the compiler cannot know that
  // f and g do not alias u and v, so a store in between would hold back the loads
  // of the second half (measured: float momentum at 46% of the copy bandwidth).
  FL_HD void operator()(int i, int j) const {
    MomentumParams<Real> m = this->m;
    if (step) {
      m.dt = Real(step[0]);
      m.gamma = Real(step[2]);
    }
    const std::size_t c = s.at(i, j);
    const bool eu = j >= 1 && u_unknown(cells, s.nb, i, j), ev = i >= 1 && v_unknown(cells, s.nb, i, j);
    Real fv = eu ? momentum_f<Real, kCentral>(s, m, i, j) : s.u[c];
    Real gv = ev ? momentum_g<Real, kCentral>(s, m, i, j) : s.v[c];
    if constexpr (Bodies::kActive) {
      if (eu) fv = bodies.template force_u<kCentral>(s, m, i, j, fv);
      if (ev) gv = bodies.template force_v<kCentral>(s, m, i, j, gv);
    }
    s.f[c] = fv;
    s.g[c] = gv;
  }
};

// The stage through a shared-memory tile (momentum_tile.cuh, CUDA only; the same
// bits): where `available`, run(s, m, cells, step) computes F, G on faces 0 .. nx by
// 0 .. ny of one rank without immersed bodies.
template <class Exec>
struct MomentumTile {
  static constexpr bool available = false;
};

}  // namespace flowlua::projection

#if defined(__CUDACC__)
#include "models/projection/momentum_tile.cuh"
#endif
