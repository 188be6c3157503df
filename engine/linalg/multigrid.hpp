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
#include <vector>

#include "linalg/multigrid_coarse.hpp"
#include "linalg/preconditioner.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

namespace mg {
constexpr long kCoarsestCells = 64;  // stop halving at this size
}

template <class Exec, class Real>
class MultigridHierarchy {
 public:
  MultigridHierarchy(const PoissonProblem& pr, int pre, int post) : pre_(pre), post_(post) {
    std::vector<mg::LevelPlan> plans = mg::plan_levels(pr, mg::kCoarsestCells);
    levels_.resize(plans.size());
    for (std::size_t l = 0; l < plans.size(); ++l) {
      Level& lv = levels_[l];
      const Grid& g = plans[l].grid;
      lv.grid = g;
      lv.nb = plans[l].nb;
      lv.cx = plans[l].cx;
      lv.cy = plans[l].cy;
      lv.idx2 = Real(1 / (g.dx * g.dx));
      lv.idy2 = Real(1 / (g.dy * g.dy));
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
    const mg::LevelPlan& last = plans.back();
    if (last.grid.cells() <= mg::kMaxDirectCells) {
      direct_ = std::make_unique<mg::CoarseDirectSolve<Exec, Real>>(last);
    } else {
      // No direct solve: sweep long enough to cross the coarsest grid a few times.
      coarse_sweeps_ = std::min(1000, 2 * std::max(last.grid.nx, last.grid.ny));
    }
  }

  // One cycle improving fine.p towards lap p = fine.rhs (fine.flags, fine.nb and the
  // spacing must be those of the problem the hierarchy was built from).
  void cycle(const PoissonView<Real>& fine, MultigridCycle kind) { run(0, fine, kind); }

  std::string describe() const {
    std::ostringstream s;
    s << levels_.size() << " levels (";
    for (std::size_t l = 0; l < levels_.size(); ++l)
      s << (l ? ", " : "") << levels_[l].grid.nx << "x" << levels_[l].grid.ny;
    s << "), red-black Gauss-Seidel " << pre_ << "+" << post_ << ", ";
    if (direct_) s << "direct coarsest solve";
    else s << coarse_sweeps_ << " sweeps on the coarsest level";
    return s.str();
  }
  int levels() const { return int(levels_.size()); }

 private:
  struct Level {
    Grid grid;
    Neighbours nb{};
    bool cx = false, cy = false;
    Real idx2 = 0, idy2 = 0;
    DeviceArray<Exec, CellFlags> flags;  // levels > 0 (level 0 uses the caller's)
    DeviceArray<Exec, Real> e, f, r;     // correction and rhs (levels > 0), residual
  };

  PoissonView<Real> view(std::size_t l) {
    Level& lv = levels_[l];
    return PoissonView<Real>{lv.e.data(), lv.f.data(), lv.flags.data(), lv.nb, lv.idx2, lv.idy2};
  }

  void smooth(const PoissonView<Real>& v, int sweeps, bool red_first) {
    const int half = (v.nb.nx + 1) / 2;
    for (int s = 0; s < sweeps; ++s) {
      Exec::for_each(0, half - 1, 1, v.nb.ny, mg::GaussSeidelColour<Real>{v, red_first ? 0 : 1});
      Exec::for_each(0, half - 1, 1, v.nb.ny, mg::GaussSeidelColour<Real>{v, red_first ? 1 : 0});
    }
  }

  void run(std::size_t l, const PoissonView<Real>& v, MultigridCycle kind) {
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
    smooth(v, pre_, true);
    Exec::for_each(1, v.nb.nx, 1, v.nb.ny, mg::Residual<Real>{v, lv.r.data()});
    const mg::TransferShape t{v.nb.nx, cl.grid.nx, cl.nb, cl.cx, cl.cy, v.flags, cl.flags.data()};
    Exec::for_each(1, cl.grid.nx, 1, cl.grid.ny, mg::Restrict<Real>{t, lv.r.data(), cl.f.data()});
    cl.e.fill(Real(0));
    const PoissonView<Real> cv = view(l + 1);
    run(l + 1, cv, kind);
    if (kind == MultigridCycle::F && l + 2 < levels_.size()) run(l + 1, cv, MultigridCycle::V);
    Exec::for_each(1, v.nb.nx, 1, v.nb.ny, mg::ProlongAdd<Real>{t, cl.e.data(), v.p});
    smooth(v, post_, false);
  }

  int pre_, post_;
  std::vector<Level> levels_;
  std::unique_ptr<mg::CoarseDirectSolve<Exec, Real>> direct_;
  int coarse_sweeps_ = 0;
};

// Multigrid as a solver: cycles until the relative residual is below tol.
template <class Exec, class Real>
class MultigridSolver final : public PressureSolver<Exec, Real> {
 public:
  MultigridSolver(const PressureControl& c, const PoissonProblem& pr)
      : c_(c), h_(pr, c.pre_smooth, c.post_smooth) {}

  SolveReport solve(const PoissonView<Real>& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs);
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), std::size_t(v.nb.nx + 2) * (v.nb.ny + 2));
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
  MultigridHierarchy<Exec, Real> h_;
};

// Multigrid as a preconditioner: z = one V-cycle for lap z = s from z = 0. The
// V-cycle (not F) because it is the symmetric one (see multigrid_levels.hpp).
template <class Exec, class Real>
class MultigridPreconditioner final : public Preconditioner<Exec, Real> {
 public:
  MultigridPreconditioner(const PressureControl& c, const PoissonProblem& pr)
      : h_(pr, c.pre_smooth, c.post_smooth) {}

  double apply(const PoissonView<Real>& v, const Real* s, Real* z) override {
    const int nx = v.nb.nx, ny = v.nb.ny;
    Exec::fill(z, Real(0), std::size_t(nx + 2) * (ny + 2));
    PoissonView<Real> zv{z, s, v.flags, v.nb, v.idx2, v.idy2};
    h_.cycle(zv, MultigridCycle::V);
    return Exec::reduce_sum(1, nx, 1, ny, DotOnFluid<Real>{s, z, v.flags, nx + 2});
  }
  std::string describe() const override { return "multigrid V-cycle, " + h_.describe(); }

 private:
  MultigridHierarchy<Exec, Real> h_;
};

}  // namespace flowlua
