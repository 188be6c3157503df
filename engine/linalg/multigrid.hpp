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
//
// On several MPI ranks (PoissonProblem::blocks; linalg/block_halo.hpp) the levels are
// planned on the whole grid, and the fine ones are cut into the blocks: each rank
// smooths, restricts and prolongs its block, with a halo exchange before every colour
// of a sweep, before the residual, the restriction (of the residual) and the
// prolongation (of the coarse correction). Levels stay on the blocks while every block
// halves evenly, keeps kMinBlockSide cells a side and the level has more than
// pressure.multigrid_gather cells; the first level that does not is gathered: every rank gathers
// its right-hand side and iterate, runs the rest of the cycle on the whole level
// (redundantly, the same on every rank: the one-rank hierarchy from there down), and
// cuts its block's correction back. So a cycle computes on each cell what one rank
// computes there, and the iteration counts are those of one rank.
#pragma once
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "linalg/block_halo.hpp"
#include "linalg/multigrid_coarse.hpp"
#include "linalg/preconditioner.hpp"
#include "linalg/pressure_solver.hpp"
#include "parallel/gather.hpp"

namespace flowlua {

namespace mg {
constexpr long kCoarsestCells = 64;  // stop halving at this size
// Several ranks: a level whose blocks would have fewer than kMinBlockSide cells a
// side is gathered, and so is the first with at most PressureControl::multigrid_gather
// cells. Each exchange costs tens of microseconds of latency whatever its size,
// about as much as a sweep of a 1024^2 level; a gathered level costs two allgathers
// and the rest of the cycle on every rank. Measured on 2 GPUs (weak scaling at 4096^2
// a GPU, docs/mpi.md): 16384 cells (the default) beat 1024 by 8% and 65536 by 2%;
// 262144 was 20% slower.
constexpr int kMinBlockSide = 4;
}

// D = 2 or 3: the levels, transfers and coarse solve of that dimension; the cycle
// itself is one source.
template <class Exec, class Real, int D = 2>
class MultigridHierarchy {
 public:
  using View = PoissonViewOf<Real, D>;
  using Plan = std::conditional_t<D == 2, mg::LevelPlan, mg::LevelPlan3>;

  MultigridHierarchy(const PoissonProblemOf<D>& pr, int pre, int post,
                     long gather_cells = PressureControl{}.multigrid_gather)
      : pre_(pre), post_(post) {
    std::vector<Plan> plans;
    if constexpr (D == 2) {
      if (pr.blocks) {
        setup_blocks(pr, gather_cells);
        return;
      }
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
      if (whole_) {
        s << (l ? ", " : "") << global_sizes_[std::size_t(l)];
        continue;
      }
      const auto& g = levels_[std::size_t(l)].plan.grid;
      s << (l ? ", " : "") << g.nx << "x" << g.ny;
      if constexpr (D == 3) s << "x" << g.nz;
    }
    s << "), ";
    if (whole_) {  // several ranks
      const std::size_t on_blocks = levels_.size() - 1;
      if (on_blocks == 0)
        s << "the whole grid gathered to each of " << ranks::size() << " ranks every cycle (its blocks do not halve "
          << "evenly), ";
      else
        s << (on_blocks == 1 ? "the finest" : "the finest " + std::to_string(on_blocks)) << " on the blocks of "
          << ranks::size() << " ranks, from " << global_sizes_[on_blocks] << " down gathered to every rank, ";
      s << whole_->smoothing();
      return s.str();
    }
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
  // The halo of the finest level (off on one rank): the solver's norms use it.
  BlockHalo<Exec, Real>& halo() { return levels_[0].halo; }

 private:
  struct Level {
    Plan plan;                           // grid, neighbours, halved axes (no flags)
    DeviceArray<Exec, CellFlags> flags;  // levels > 0 (level 0 uses the caller's)
    DeviceArray<Exec, Real> e, f, r;     // correction and rhs (levels > 0), residual
    BlockHalo<Exec, Real> halo;          // several ranks: the block's halo on this level
  };

  // Several ranks (see the header comment): the levels on the blocks, and the
  // whole-grid hierarchy from the first gathered level down.
  void setup_blocks(const PoissonProblem& pr, long gather_cells) {
    const PoissonBlocks& b = *pr.blocks;
    const std::vector<mg::LevelPlan> plans = mg::plan_levels(PoissonProblem{b.grid, b.nb, b.flags}, mg::kCoarsestCells);
    total_levels_ = int(plans.size());
    for (const mg::LevelPlan& p : plans) global_sizes_.push_back(std::to_string(p.grid.nx) + "x" + std::to_string(p.grid.ny));
    // Every rank's block on each level, while all of them halve evenly.
    std::vector<ranks::Subdomain> blocks(static_cast<std::size_t>(ranks::size()));
    for (int r = 0; r < ranks::size(); ++r)
      blocks[r] = ranks::subdomain(b.block.decomposition, b.grid.nx, b.grid.ny, r);
    std::vector<ranks::Subdomain> mine{b.block};
    std::size_t gathered = plans.size() - 1;  // the coarsest is always gathered
    for (std::size_t l = 1; l < plans.size(); ++l) {
      const mg::LevelPlan& c = plans[l];
      bool even = true, small = c.grid.cells() <= gather_cells;
      for (ranks::Subdomain& s : blocks) {
        if ((c.cx && (s.i0 % 2 || s.nx % 2)) || (c.cy && (s.j0 % 2 || s.ny % 2))) even = false;
        s = ranks::resized(s, c.cx ? s.i0 / 2 : s.i0, c.cy ? s.j0 / 2 : s.j0, c.cx ? s.nx / 2 : s.nx,
                           c.cy ? s.ny / 2 : s.ny, c.grid.nx, c.grid.ny);
        small = small || s.nx < mg::kMinBlockSide || s.ny < mg::kMinBlockSide;
      }
      if (!even) {  // the blocks of level l - 1 do not restrict to whole cells of level l
        gathered = l - 1;
        break;
      }
      mine.push_back(blocks[std::size_t(b.block.rank)]);
      if (small) {
        gathered = l;
        break;
      }
    }
    levels_.resize(gathered + 1);
    for (std::size_t l = 0; l <= gathered; ++l) {
      Level& lv = levels_[l];
      const ranks::Subdomain& s = mine[l];
      const mg::LevelPlan& gp = plans[l];
      lv.plan.grid = gp.grid;
      lv.plan.grid.nx = s.nx;
      lv.plan.grid.ny = s.ny;
      lv.plan.grid.lx = gp.grid.dx * s.nx;
      lv.plan.grid.ly = gp.grid.dy * s.ny;
      const ranks::Decomposition& d = s.decomposition;
      lv.plan.nb = Neighbours{s.nx, s.ny, gp.nb.periodic_x && d.px == 1, gp.nb.periodic_y && d.py == 1};
      lv.plan.cx = gp.cx;
      lv.plan.cy = gp.cy;
      const std::size_t n = lv.plan.grid.size();
      if (l < gathered) {
        lv.r = DeviceArray<Exec, Real>(n);
        lv.r.fill(Real(0));
      }
      if (l > 0) {
        lv.flags = DeviceArray<Exec, CellFlags>(n);
        lv.flags.upload(ranks::cut_ring(gp.flags, s));
        lv.e = DeviceArray<Exec, Real>(n);
        lv.f = DeviceArray<Exec, Real>(n);
        lv.e.fill(Real(0));
        lv.f.fill(Real(0));
      }
      lv.halo = BlockHalo<Exec, Real>(s, halo_tag::kMultigrid + int(l));
    }
    // The whole level `gathered` and the one-rank hierarchy from it down (plan_levels
    // from it repeats the rest of `plans`).
    const mg::LevelPlan& gl = plans[gathered];
    whole_block_ = mine[gathered];
    whole_ = std::make_unique<MultigridHierarchy>(PoissonProblem{gl.grid, gl.nb, gl.flags}, pre_, post_);
    whole_view_ = PoissonView<Real>{nullptr, nullptr, nullptr, gl.nb, Real(1 / (gl.grid.dx * gl.grid.dx)),
                                    Real(1 / (gl.grid.dy * gl.grid.dy))};
    whole_flags_ = DeviceArray<Exec, CellFlags>(gl.grid.size());
    whole_flags_.upload(gl.flags);
    whole_e_ = DeviceArray<Exec, Real>(gl.grid.size());
    whole_f_ = DeviceArray<Exec, Real>(gl.grid.size());
  }

  // The gathered level: lap e = f on the whole level, on every rank, by the one-rank
  // hierarchy from there down; the block's part of e (with its ring) comes back.
  void solve_gathered(const View& v, MultigridCycle kind) {
    if constexpr (D == 2) {
      const std::size_t n = levels_.back().plan.grid.size();
      host_.resize(n);
      Exec::download(host_.data(), v.p, n);
      whole_e_.upload(ranks::gather_ring(host_, whole_block_));
      Exec::download(host_.data(), v.rhs, n);
      whole_f_.upload(ranks::gather_ring(host_, whole_block_));
      View w = whole_view_;
      w.p = whole_e_.data();
      w.rhs = whole_f_.data();
      w.flags = whole_flags_.data();
      whole_->cycle(w, kind);
      const std::vector<Real> cut = ranks::cut_ring(whole_e_.download(), whole_block_);
      Exec::upload(v.p, cut.data(), n);
    }
  }

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

  void smooth(BlockHalo<Exec, Real>& h, const View& v, int sweeps, bool red_first) {
    const int half = (v.nb.nx + 1) / 2;
    using GS = mg::GaussSeidelColour<Real, D>;
    for (int s = 0; s < sweeps; ++s) {
      if constexpr (D == 2) {
        h.exchange(v.p);
        Exec::for_each(0, half - 1, 1, v.nb.ny, GS{v, h.colour(red_first ? 0 : 1)});
        h.exchange(v.p);
        Exec::for_each(0, half - 1, 1, v.nb.ny, GS{v, h.colour(red_first ? 1 : 0)});
      } else {
        Exec::for_each3(0, half - 1, 1, v.nb.ny, 1, v.nb.nz, GS{v, red_first ? 0 : 1});
        Exec::for_each3(0, half - 1, 1, v.nb.ny, 1, v.nb.nz, GS{v, red_first ? 1 : 0});
      }
    }
  }

  void run(std::size_t l, const View& v, MultigridCycle kind) {
    if (l + 1 == levels_.size()) {
      if (whole_) solve_gathered(v, kind);
      else if (direct_) direct_->solve(v.rhs, v.p);
      else {
        smooth(levels_[l].halo, v, coarse_sweeps_ / 2, true);
        smooth(levels_[l].halo, v, coarse_sweeps_ / 2, false);
      }
      return;
    }
    Level& lv = levels_[l];
    Level& cl = levels_[l + 1];
    const auto& cg = cl.plan.grid;
    smooth(lv.halo, v, pre_, true);
    lv.halo.exchange(v.p);
    linalg::for_cells<Exec>(v, mg::Residual<Real, D>{v, lv.r.data()});
    if constexpr (D == 2) {
      const mg::TransferShape t{v.nb.nx, cg.nx, cl.plan.nb, cl.plan.cx, cl.plan.cy, v.flags, cl.flags.data()};
      lv.halo.exchange(lv.r.data());  // the restriction reads the row beyond a block's coarse cells
      Exec::for_each(1, cg.nx, 1, cg.ny, mg::Restrict<Real>{t, lv.r.data(), cl.f.data()});
      descend(l, kind);
      // The gathered level's correction comes back with its ring; a block level's halo
      // is refreshed here (the interpolation reads across the coarse faces).
      if (l + 2 < levels_.size() || !whole_) cl.halo.exchange(cl.e.data());
      Exec::for_each(1, v.nb.nx, 1, v.nb.ny, mg::ProlongAdd<Real>{t, cl.e.data(), v.p});
    } else {
      const mg::TransferShape3 t{v.nb.nx, v.nb.ny, cg.nx, cg.ny, cl.plan.nb,
                                 {cl.plan.c[0], cl.plan.c[1], cl.plan.c[2]}, v.flags, cl.flags.data()};
      Exec::for_each3(1, cg.nx, 1, cg.ny, 1, cg.nz, mg::Restrict3<Real>{t, lv.r.data(), cl.f.data()});
      descend(l, kind);
      Exec::for_each3(1, v.nb.nx, 1, v.nb.ny, 1, v.nb.nz, mg::ProlongAdd3<Real>{t, cl.e.data(), v.p});
    }
    smooth(lv.halo, v, post_, false);
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
  int total_levels_ = 0;  // levels_.size() on one rank; with the gathered ones on several
  std::unique_ptr<mg::CoarseDirectSolve<Exec, Real>> direct_;
  int coarse_sweeps_ = 0;
  // Several ranks: the gathered level's block, its whole-level hierarchy and arrays.
  std::unique_ptr<MultigridHierarchy> whole_;
  ranks::Subdomain whole_block_;
  PoissonView<Real> whole_view_{};
  DeviceArray<Exec, CellFlags> whole_flags_;
  DeviceArray<Exec, Real> whole_e_, whole_f_;
  std::vector<Real> host_;
  std::vector<std::string> global_sizes_;  // of every level, for describe()
};

// Multigrid as a solver: cycles until the relative residual is below tol.
template <class Exec, class Real, int D = 2>
class MultigridSolver final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  MultigridSolver(const PressureControl& c, const PoissonProblemOf<D>& pr)
      : c_(c), h_(pr, c.pre_smooth, c.post_smooth, c.multigrid_gather) {}

  SolveReport solve(const View& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs, h_.halo());
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), linalg::field_size(v));
      rep.converged = true;
      return rep;
    }
    rep.residual = linalg::residual_norm<Exec>(v, h_.halo()) / bnorm;
    int stalled = 0;
    for (int it = 1; it <= c_.max_iter && rep.residual > c_.tol; ++it) {
      h_.cycle(v, c_.cycle);
      rep.iterations = it;
      const double previous = rep.residual;
      rep.residual = linalg::residual_norm<Exec>(v, h_.halo()) / bnorm;
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
      : h_(pr, c.pre_smooth, c.post_smooth, c.multigrid_gather) {}

  double apply(const View& v, const Real* s, Real* z) override {
    Exec::fill(z, Real(0), linalg::field_size(v));
    View zv = v;
    zv.p = z;
    zv.rhs = s;
    h_.cycle(zv, MultigridCycle::V);
    return h_.halo().sum(linalg::sum_cells<Exec>(v, dot_on_fluid(v, s, z)));
  }
  std::string describe() const override { return "multigrid V-cycle, " + h_.describe(); }

 private:
  MultigridHierarchy<Exec, Real, D> h_;
};

}  // namespace flowlua
