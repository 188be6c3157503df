// Geometric multigrid for lap p = rhs on the PoissonView flags (walls, outflow faces,
// periodic sides, obstacles): V- and F-cycles with red-black Gauss-Seidel smoothing,
// the transfers of multigrid_levels.hpp and a direct solve on the coarsest level
// (multigrid_coarse.hpp; many sweeps when the coarsest level is still large, e.g. a
// grid whose sides are odd multiples of large primes): linalg/multigrid_hierarchy.hpp.
// Usable as a solver (one cycle per iteration, the residual checked after each) and
// as a CG preconditioner (one symmetric V-cycle from zero).
//
// Every step is a backend launch on backend memory; the only scalars that come back
// are the residual norms the solver's convergence test needs.
//
// On several MPI ranks (PoissonProblem::blocks) the cycles run on the blocks and a
// gathered coarse level (linalg/multigrid_blocks.hpp), with the iteration counts of
// one rank.
#pragma once
#include <memory>
#include <sstream>
#include <string>

#include "linalg/block_halo.hpp"
#include "linalg/multigrid_blocks.hpp"
#include "linalg/multigrid_hierarchy.hpp"
#include "linalg/preconditioner.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

// Multigrid as a solver: cycles until the relative residual is below tol.
template <class Exec, class Real, int D = 2>
class MultigridSolver final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  MultigridSolver(const PressureControl& c, const PoissonProblemOf<D>& pr) : c_(c) {
    if constexpr (D == 2)
      if (pr.blocks) {
        blocks_ = std::make_unique<BlockMultigrid<Exec, Real>>(pr, c.pre_smooth, c.post_smooth, c.multigrid_gather);
        halo_ = block_halo<Exec, Real>(pr, 0);
        return;
      }
    h_ = std::make_unique<MultigridHierarchy<Exec, Real, D>>(pr, c.pre_smooth, c.post_smooth);
  }

  SolveReport solve(const View& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs, halo_);
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), linalg::field_size(v));
      rep.converged = true;
      return rep;
    }
    if constexpr (D == 2)
      if (blocks_) {
        blocks_->load(v);
        iterate(rep, bnorm, [&] { blocks_->cycle(c_.cycle); }, [&] { return blocks_->residual_norm(); });
        blocks_->store(v);
        return rep;
      }
    iterate(rep, bnorm, [&] { h_->cycle(v, c_.cycle); }, [&] { return linalg::residual_norm<Exec>(v); });
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "multigrid " << (c_.cycle == MultigridCycle::V ? "V" : "F") << "-cycles, "
      << (blocks_ ? blocks_->describe() : h_->describe()) << " (tol " << c_.tol << ", max_iter " << c_.max_iter
      << ")";
    return s.str();
  }

 private:
  template <class Cycle, class Norm>
  void iterate(SolveReport& rep, double bnorm, Cycle cycle, Norm norm) {
    rep.residual = norm() / bnorm;
    int stalled = 0;
    for (int it = 1; it <= c_.max_iter && rep.residual > c_.tol; ++it) {
      cycle();
      rep.iterations = it;
      const double previous = rep.residual;
      rep.residual = norm() / bnorm;
      if (!(rep.residual == rep.residual)) break;  // NaN: the caller sees it
      // A cycle divides the residual by about 5; three cycles in a row that gain
      // less than 10% mean the rounding floor (a tolerance too small for float).
      stalled = rep.residual > 0.9 * previous ? stalled + 1 : 0;
      if (stalled == 3) break;
    }
    rep.converged = rep.residual <= c_.tol;
  }

  PressureControl c_;
  std::unique_ptr<MultigridHierarchy<Exec, Real, D>> h_;  // one rank
  std::unique_ptr<BlockMultigrid<Exec, Real>> blocks_;    // several
  BlockHalo<Exec, Real> halo_;                            // several: the sums
};

// Multigrid as a preconditioner: z = one V-cycle for lap z = s from z = 0. The
// V-cycle (not F) because it is the symmetric one (see multigrid_levels.hpp).
template <class Exec, class Real, int D = 2>
class MultigridPreconditioner final : public Preconditioner<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  MultigridPreconditioner(const PressureControl& c, const PoissonProblemOf<D>& pr) {
    if constexpr (D == 2)
      if (pr.blocks) {
        blocks_ = std::make_unique<BlockMultigrid<Exec, Real>>(pr, c.pre_smooth, c.post_smooth, c.multigrid_gather);
        halo_ = block_halo<Exec, Real>(pr, 0);
        return;
      }
    h_ = std::make_unique<MultigridHierarchy<Exec, Real, D>>(pr, c.pre_smooth, c.post_smooth);
  }

  double apply(const View& v, const Real* s, Real* z) override {
    bool done = false;
    if constexpr (D == 2)
      if (blocks_) {
        blocks_->precondition(s, z);  // the block's cells of z (its ring is not read)
        done = true;
      }
    if (!done) {
      Exec::fill(z, Real(0), linalg::field_size(v));
      View zv = v;
      zv.p = z;
      zv.rhs = s;
      h_->cycle(zv, MultigridCycle::V);
    }
    return halo_.sum(linalg::sum_cells<Exec>(v, dot_on_fluid(v, s, z)));
  }
  std::string describe() const override {
    return "multigrid V-cycle, " + (blocks_ ? blocks_->describe() : h_->describe());
  }

 private:
  std::unique_ptr<MultigridHierarchy<Exec, Real, D>> h_;
  std::unique_ptr<BlockMultigrid<Exec, Real>> blocks_;
  BlockHalo<Exec, Real> halo_;  // several ranks: the sum
};

}  // namespace flowlua
