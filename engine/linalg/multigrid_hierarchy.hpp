// The multigrid hierarchy of one rank (linalg/multigrid.hpp): the levels planned by
// multigrid_levels.hpp (multigrid_levels3.hpp in 3D), red-black Gauss-Seidel
// smoothing, the transfers and the coarsest level's solve (multigrid_coarse.hpp), and
// the V- or F-cycle over them. On several MPI ranks linalg/multigrid_blocks.hpp runs
// the levels on the blocks and this hierarchy on the gathered coarse levels.
#pragma once
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "linalg/multigrid_coarse.hpp"
#include "linalg/pressure_control.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

namespace mg {
constexpr long kCoarsestCells = 64;  // stop halving at this size
}

// D = 2 or 3: the levels, transfers and coarse solve of that dimension; the cycle
// itself is one source.
template <class Exec, class Real, int D = 2>
class MultigridHierarchy {
 public:
  using View = PoissonViewOf<Real, D>;
  using Plan = std::conditional_t<D == 2, mg::LevelPlan, mg::LevelPlan3>;

  MultigridHierarchy(const PoissonProblemOf<D>& pr, int pre, int post) : pre_(pre), post_(post) {
    std::vector<Plan> plans;
    if constexpr (D == 2) {
      plans = mg::plan_levels(pr, mg::kCoarsestCells);
    } else {
      plans = mg::plan_levels3(pr, mg::kCoarsestCells);
    }
    total_levels_ = int(plans.size());
    levels_.resize(plans.size());
    for (std::size_t l = 0; l < plans.size(); ++l) {
      Level& lv = levels_[l];
      const auto& g = plans[l].grid;
      lv.plan = plans[l];
      lv.plan.flags.clear();  // the host copy is not needed after the upload
      if (l + 1 < plans.size()) lv.r = DeviceArray<Exec, Real>(g.size());
      if (l > 0) {
        lv.flags = DeviceArray<Exec, CellFlags>(g.size());
        lv.flags.upload(plans[l].flags);
        lv.e = DeviceArray<Exec, Real>(g.size());
        lv.f = DeviceArray<Exec, Real>(g.size());
        lv.e.fill(Real(0));
        lv.f.fill(Real(0));
      }
    }
    if (levels_.size() > 1) levels_[0].r.fill(Real(0));
    const Plan& last = plans.back();
    if (last.grid.cells() <= mg::kMaxDirectCells) {
      direct_ = std::make_unique<mg::CoarseDirectSolve<Exec, Real>>(last);
    } else {
      // No direct solve: sweep long enough to cross the coarsest grid a few times.
      int widest = std::max(last.grid.nx, last.grid.ny);
      if constexpr (D == 3) widest = std::max(widest, last.grid.nz);
      coarse_sweeps_ = std::min(1000, 2 * widest);
    }
  }

  // One cycle improving fine.p towards lap p = fine.rhs (fine.flags, fine.nb and the
  // spacing must be those of the problem the hierarchy was built from).
  void cycle(const View& fine, MultigridCycle kind) { run(0, fine, kind); }

  std::string describe() const {
    std::ostringstream s;
    s << total_levels_ << " levels (";
    for (int l = 0; l < total_levels_; ++l) {
      const auto& g = levels_[std::size_t(l)].plan.grid;
      s << (l ? ", " : "") << g.nx << "x" << g.ny;
      if constexpr (D == 3) s << "x" << g.nz;
    }
    s << "), ";
    s << smoothing();
    return s.str();
  }
  // Smoothing and the coarsest level's solve, for describe().
  std::string smoothing() const {
    std::ostringstream s;
    s << "red-black Gauss-Seidel " << pre_ << "+" << post_ << ", ";
    if (direct_) s << "direct coarsest solve";
    else s << coarse_sweeps_ << " sweeps on the coarsest level";
    return s.str();
  }
  int levels() const { return total_levels_; }

 private:
  struct Level {
    Plan plan;                           // grid, neighbours, halved axes (no flags)
    DeviceArray<Exec, CellFlags> flags;  // levels > 0 (level 0 uses the caller's)
    DeviceArray<Exec, Real> e, f, r;     // correction and rhs (levels > 0), residual
  };

  View view(std::size_t l) {
    Level& lv = levels_[l];
    const auto& g = lv.plan.grid;
    if constexpr (D == 2)
      return View{lv.e.data(), lv.f.data(), lv.flags.data(), lv.plan.nb, Real(1 / (g.dx * g.dx)),
                  Real(1 / (g.dy * g.dy))};
    else
      return View{lv.e.data(), lv.f.data(), lv.flags.data(), lv.plan.nb, Real(1 / (g.dx * g.dx)),
                  Real(1 / (g.dy * g.dy)), Real(1 / (g.dz * g.dz))};
  }

  void smooth(const View& v, int sweeps, bool red_first) {
    const int half = (v.nb.nx + 1) / 2;
    using GS = mg::GaussSeidelColour<Real, D>;
    for (int s = 0; s < sweeps; ++s) {
      if constexpr (D == 2) {
        Exec::for_each(0, half - 1, 1, v.nb.ny, GS{v, red_first ? 0 : 1});
        Exec::for_each(0, half - 1, 1, v.nb.ny, GS{v, red_first ? 1 : 0});
      } else {
        Exec::for_each3(0, half - 1, 1, v.nb.ny, 1, v.nb.nz, GS{v, red_first ? 0 : 1});
        Exec::for_each3(0, half - 1, 1, v.nb.ny, 1, v.nb.nz, GS{v, red_first ? 1 : 0});
      }
    }
  }

  void run(std::size_t l, const View& v, MultigridCycle kind) {
    if (l + 1 == levels_.size()) {
      if (direct_) direct_->solve(v.rhs, v.p);
      else {
        smooth(v, coarse_sweeps_ / 2, true);
        smooth(v, coarse_sweeps_ / 2, false);
      }
      return;
    }
    Level& lv = levels_[l];
    Level& cl = levels_[l + 1];
    const auto& cg = cl.plan.grid;
    smooth(v, pre_, true);
    linalg::for_cells<Exec>(v, mg::Residual<Real, D>{v, lv.r.data()});
    if constexpr (D == 2) {
      const mg::TransferShape t{v.nb.nx, cg.nx, cl.plan.nb, cl.plan.cx, cl.plan.cy, v.flags, cl.flags.data()};
      Exec::for_each(1, cg.nx, 1, cg.ny, mg::Restrict<Real>{t, lv.r.data(), cl.f.data()});
      descend(l, kind);
      Exec::for_each(1, v.nb.nx, 1, v.nb.ny, mg::ProlongAdd<Real>{t, cl.e.data(), v.p});
    } else {
      const mg::TransferShape3 t{v.nb.nx, v.nb.ny, cg.nx, cg.ny, cl.plan.nb,
                                 {cl.plan.c[0], cl.plan.c[1], cl.plan.c[2]}, v.flags, cl.flags.data()};
      Exec::for_each3(1, cg.nx, 1, cg.ny, 1, cg.nz, mg::Restrict3<Real>{t, lv.r.data(), cl.f.data()});
      descend(l, kind);
      Exec::for_each3(1, v.nb.nx, 1, v.nb.ny, 1, v.nb.nz, mg::ProlongAdd3<Real>{t, cl.e.data(), v.p});
    }
    smooth(v, post_, false);
  }

  // The coarse-grid correction of level l + 1 from e = 0.
  void descend(std::size_t l, MultigridCycle kind) {
    Level& cl = levels_[l + 1];
    cl.e.fill(Real(0));
    const View cv = view(l + 1);
    run(l + 1, cv, kind);
    if (kind == MultigridCycle::F && l + 2 < std::size_t(total_levels_)) run(l + 1, cv, MultigridCycle::V);
  }

  int pre_, post_;
  std::vector<Level> levels_;
  int total_levels_ = 0;
  std::unique_ptr<mg::CoarseDirectSolve<Exec, Real>> direct_;
  int coarse_sweeps_ = 0;
};

}  // namespace flowlua
