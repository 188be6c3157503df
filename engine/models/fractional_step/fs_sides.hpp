// The sides of the fractional-step model's box when some axis is not periodic (2D or
// 3D): their values in backend memory and the launches that apply them.
//   fill             the ghost layers and the sides' normal faces of a velocity-like
//                    set of arrays (core/ghost_fill.hpp): of u^n after the
//                    correction, and of u* after the predictor, where it puts the
//                    inflow (and wall) values on the faces that div u* reads and
//                    copies the first interior face onto an outflow face (the
//                    zero-gradient predictor of fs_outflow.hpp);
//   fill_homogeneous the same kinds with zero values: the Crank-Nicolson CG's
//                    search directions (fs_diffusion.hpp);
//   correct_outflow  the outflow faces after the pressure solve (fs_outflow.hpp);
//   set              new values for a side (inflow functions of time), same kind;
//   fill_side        that side's faces and ghosts alone (the other sides keep theirs:
//                    an outflow face keeps its corrected value, so a run that
//                    restarts from a checkpoint goes on bit for bit).
#pragma once
#include <array>
#include <memory>
#include <type_traits>

#include "core/ghost_fill.hpp"
#include "models/fractional_step/fs_outflow.hpp"

namespace flowlua::fractional_step {

template <int D, class Exec, class Real>
class BoxSides {
 public:
  using GridT = std::conditional_t<D == 2, Grid, Grid3>;
  using SidesT = std::array<SideCondition, 2 * D>;

  BoxSides(const GridT& g, const SidesT& sides, bool homogeneous) : values_(g, sides) {
    n_[0] = g.nx;
    n_[1] = g.ny;
    if constexpr (D == 3) n_[2] = g.nz;
    for (int s = 0; s < 2 * D; ++s) outflow_[s] = sides[s].kind == BoundaryKind::Outflow;
    if (homogeneous) {
      SidesT zero = sides;  // the same kinds with zero values: CG's corrections
      for (SideCondition& b : zero) {
        b.normal.clear();
        b.tangential.clear();
        b.tangential2.clear();
      }
      zero_ = std::make_unique<StaggeredSideArrays<D, Exec, Real>>(g, zero);
    }
  }

  void fill(Real* const* c) const { fill_ghosts<D, Exec, Real>(velocity(c), values_.values()); }
  void fill_homogeneous(Real* const* c) const { fill_ghosts<D, Exec, Real>(velocity(c), zero_->values()); }

  bool has_outflow() const {
    for (bool o : outflow_)
      if (o) return true;
    return false;
  }
  // u on the outflow faces from u* there and p beside them (after fill(u)).
  void correct_outflow(const State<D, Real>& s, Real dt) const {
    for (int side = 0; side < 2 * D; ++side) {
      if (!outflow_[side]) continue;
      int na, nb;
      side_extent<D>(n_, side, na, nb);
      Exec::for_each(1, na, 1, nb, OutflowFaces<D, Real>{s, side, dt});
    }
  }

  void set(Side side, const SideCondition& c) { values_.set(int(side), c); }
  void fill_side(Real* const* c, Side side) const {
    int na, nb;
    side_extent<D>(n_, int(side), na, nb);
    Exec::for_each(0, na + 1, 0, D == 3 ? nb + 1 : 0, FillSide<D, Real>{velocity(c), values_.values(), int(side)});
  }

 private:
  StaggeredVelocity<D, Real> velocity(Real* const* c) const {
    StaggeredVelocity<D, Real> v{};
    for (int a = 0; a < D; ++a) {
      v.c[a] = c[a];
      v.n[a] = n_[a];
    }
    return v;
  }

  int n_[D] = {};
  bool outflow_[2 * D] = {};
  StaggeredSideArrays<D, Exec, Real> values_;
  std::unique_ptr<StaggeredSideArrays<D, Exec, Real>> zero_;
};

}  // namespace flowlua::fractional_step
