// Geometric multigrid for lap p = rhs on the PoissonView flags (walls, outflow faces,
// periodic sides, obstacles): V- and F-cycles with red-black Gauss-Seidel smoothing,
// the transfers of multigrid_levels.hpp and a direct solve on the coarsest level
// (multigrid_coarse.hpp; many sweeps when the coarsest level is still large, e.g. a
// grid whose sides are odd multiples of large primes). Usable as a solver (one cycle
// per iteration, the residual checked after each) and as a CG preconditioner (one
// symmetric V-cycle from zero).
//
// Every step is a backend launch on backend memory; the only scalars that come back
// are the residual norms the solver's convergence test needs.
#pragma once
#include <algorithm>
#include <memory>
#include <sstream>
#include <type_traits>
#include <vector>

#include "linalg/multigrid_coarse.hpp"
#include "linalg/preconditioner.hpp"
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
    if constexpr (D == 2) plans = mg::plan_levels(pr, mg::kCoarsestCells);
    else plans = mg::plan_levels3(pr, mg::kCoarsestCells);
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
    s << levels_.size() << " levels (";
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      const auto& g = levels_[l].plan.grid;
      s << (l ? ", " : "") << g.nx << "x" << g.ny;
      if constexpr (D == 3) s << "x" << g.nz;
    }
    s << "), red-black Gauss-Seidel " << pre_ << "+" << post_ << ", ";
    if (direct_) s << "direct coarsest solve";
    else s << coarse_sweeps_ << " sweeps on the coarsest level";
    return s.str();
  }
  int levels() const { return int(levels_.size()); }

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
    if (kind == MultigridCycle::F && l + 2 < levels_.size()) run(l + 1, cv, MultigridCycle::V);
  }

  int pre_, post_;
  std::vector<Level> levels_;
  std::unique_ptr<mg::CoarseDirectSolve<Exec, Real>> direct_;
  int coarse_sweeps_ = 0;
};

// Multigrid as a solver: cycles until the relative residual is below tol.
template <class Exec, class Real, int D = 2>
class MultigridSolver final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  MultigridSolver(const PressureControl& c, const PoissonProblemOf<D>& pr)
      : c_(c), h_(pr, c.pre_smooth, c.post_smooth) {}

  SolveReport solve(const View& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs);
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), linalg::field_size(v));
      rep.converged = true;
      return rep;
    }
    rep.residual = linalg::residual_norm<Exec>(v) / bnorm;
    int stalled = 0;
    for (int it = 1; it <= c_.max_iter && rep.residual > c_.tol; ++it) {
      h_.cycle(v, c_.cycle);
      rep.iterations = it;
      const double previous = rep.residual;
      rep.residual = linalg::residual_norm<Exec>(v) / bnorm;
      if (!(rep.residual == rep.residual)) break;  // NaN: the caller sees it
      // A cycle divides the residual by about 5; three cycles in a row that gain
      // less than 10% mean the rounding floor (a tolerance too small for float).
      stalled = rep.residual > 0.9 * previous ? stalled + 1 : 0;
      if (stalled == 3) break;
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "multigrid " << (c_.cycle == MultigridCycle::V ? "V" : "F") << "-cycles, " << h_.describe() << " (tol "
      << c_.tol << ", max_iter " << c_.max_iter << ")";
    return s.str();
  }

 private:
  PressureControl c_;
  MultigridHierarchy<Exec, Real, D> h_;
};

// Multigrid as a preconditioner: z = one V-cycle for lap z = s from z = 0. The
// V-cycle (not F) because it is the symmetric one (see multigrid_levels.hpp).
template <class Exec, class Real, int D = 2>
class MultigridPreconditioner final : public Preconditioner<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  MultigridPreconditioner(const PressureControl& c, const PoissonProblemOf<D>& pr)
      : h_(pr, c.pre_smooth, c.post_smooth) {}

  double apply(const View& v, const Real* s, Real* z) override {
    Exec::fill(z, Real(0), linalg::field_size(v));
    View zv = v;
    zv.p = z;
    zv.rhs = s;
    h_.cycle(zv, MultigridCycle::V);
    return linalg::sum_cells<Exec>(v, dot_on_fluid(v, s, z));
  }
  std::string describe() const override { return "multigrid V-cycle, " + h_.describe(); }

 private:
  MultigridHierarchy<Exec, Real, D> h_;
};

}  // namespace flowlua
