// Mixed-precision iterative refinement of the Poisson solve (issue 12): the solution x
// and the right-hand side b are kept in double; each refinement step computes the
// residual r = b - lap x in double, rounds it to float, solves lap e = r approximately
// with a float solver (any PressureSolver<Exec, float>: a few red-black sweeps reduce
// the residual by its own tolerance, e.g. 1e-2), and adds e to x in double. The float
// solve only has to be accurate relative to r, so rounding to float limits each step's
// gain, not the final residual (Wilkinson's iterative refinement; Moler, J. ACM 14,
// 1967; for Krylov/SOR inner solvers see Carson & Higham, SIAM J. Sci. Comput. 40, 2018).
//
// On several MPI ranks (linalg/block_halo.hpp) the inner solver is the distributed
// one, the norms are summed over the ranks and the halo of x is refreshed before each
// residual and at the end (the caller's correction reads x across the block's faces).
//
// Why: a float solve alone stalls where the float rounding of p, amplified by the
// Laplacian's 1/h^2, is as large as the residual it aims for (about 2e-2 relative at
// 1024^2; docs/case-language.md). Here the sweeps move float data (the bandwidth of a
// float solve) and only the residual pass and the update read the double fields.
#pragma once
#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "backend/device_array.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

namespace refine_detail {

// r = float(b - lap x) on fluid cells, 0 elsewhere; returns the squared residual (double).
struct ResidualToFloat {
  PoissonView<double> v;
  float* r;
  FL_HD double operator()(int i, int j) const {
    const std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) {
      r[c] = 0.0f;
      return 0.0;
    }
    const double res = v.rhs[c] - apply_laplacian(v, v.p, i, j);
    r[c] = float(res);
    return res * res;
  }
};

// x += e on fluid cells; e is zeroed for the next step's first guess.
struct AddCorrection {
  double* x;
  float* e;
  const CellFlags* flags;
  int stride;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = std::size_t(j) * stride + i;
    if (is_fluid(flags[c])) x[c] += double(e[c]);
    e[c] = 0.0f;
  }
};

}  // namespace refine_detail

template <class Exec>
class RefinedPoissonSolver {
 public:
  // outer: tol (relative, on ||b - lap x|| / ||b|| in double) and max_iter (refinement
  // steps); inner: the float solver, its own tolerance the gain of one step.
  // pr: the problem both are built for (its blocks on several ranks).
  RefinedPoissonSolver(const PressureControl& outer, std::unique_ptr<PressureSolver<Exec, float>> inner,
                       const PoissonProblem& pr = PoissonProblem{})
      : c_(outer), inner_(std::move(inner)), halo_(block_halo<Exec, double>(pr, halo_tag::kRefinement)) {}

  // Solves lap x = b; v.p is x (first guess in, solution out), v.rhs is b, both double.
  // iterations counts the inner solver's iterations (sweeps) over all steps.
  SolveReport solve(const PoissonView<double>& v) {
    using namespace refine_detail;
    const std::size_t n = linalg::field_size(v);
    if (r_.size() != n) {
      r_ = DeviceArray<Exec, float>(n);
      e_ = DeviceArray<Exec, float>(n);
      r_.fill(0.0f);
      e_.fill(0.0f);
    }
    const int nx = v.nb.nx, ny = v.nb.ny;
    SolveReport rep;
    const double bnorm =
        std::sqrt(halo_.sum(Exec::reduce_sum(1, nx, 1, ny, FluidSum<double>{v.rhs, v.flags, nx + 2, true})));
    if (bnorm == 0) {
      Exec::fill(v.p, 0.0, n);
      rep.converged = true;
      return rep;
    }
    const PoissonView<float> inner{e_.data(), r_.data(), v.flags, v.nb, float(v.idx2), float(v.idy2)};
    steps_ = 0;
    for (int k = 0;; ++k) {
      halo_.exchange(v.p);
      rep.residual = std::sqrt(halo_.sum(Exec::reduce_sum(1, nx, 1, ny, ResidualToFloat{v, r_.data()}))) / bnorm;
      if (!(rep.residual > c_.tol) || k == c_.max_iter) break;  // also stops on NaN
      const SolveReport in = inner_->solve(inner);
      rep.iterations += in.iterations;
      Exec::for_each(1, nx, 1, ny, AddCorrection{v.p, e_.data(), v.flags, nx + 2});
      ++steps_;
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;  // x's halo is current: the last residual refreshed it, and no step came after
  }
  int refinement_steps() const { return steps_; }  // of the last solve

  std::string describe() const {
    std::ostringstream s;
    s << "mixed-precision refinement (residual and solution in double, tol " << c_.tol << ", at most "
      << c_.max_iter << " steps) around " << inner_->describe() << " in float";
    return s.str();
  }

 private:
  PressureControl c_;
  std::unique_ptr<PressureSolver<Exec, float>> inner_;
  BlockHalo<Exec, double> halo_;  // off on one rank
  DeviceArray<Exec, float> r_, e_;
  int steps_ = 0;
};

}  // namespace flowlua
