// Preconditioned conjugate gradients (seed 000's CG with a preconditioner M ~ A):
// Jacobi as in seed 000, a multigrid V-cycle (grid-independent iteration counts,
// also with obstacles), or the FFT inverse of the obstacle-free box (seed 004).
// Matrix-free on A = -lap; written with s = rhs - lap x, which is minus CG's residual
// (see preconditioner.hpp), so the recurrences below are Saad's Algorithm 9.1 with
//   alpha = (s.z) / (d . lap d),  x += alpha d,  s -= alpha lap d,
//   beta = (s.z)_new / (s.z)_old,  d = z + beta d
// (both dot products are negative, their ratios the same as CG's).
// Per iteration: three reductions (d.lap d, |s|^2, s.z) and one update launch, plus
// the preconditioner's own passes. On several MPI ranks (linalg/block_halo.hpp) each
// reduction is summed over the ranks and the halo of d is refreshed before lap d.
#pragma once
#include <cmath>
#include <memory>
#include <sstream>

#include "linalg/poisson_problem.hpp"
#include "linalg/preconditioner.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

namespace pcg_detail {

template <class Real, int D = 2>
struct InitialResidual {
  PoissonViewOf<Real, D> v;
  Real* s;
  template <class... I>
  FL_HD double operator()(I... ix) const {
    std::size_t c = v.at(ix...);
    if (!is_fluid(v.flags[c])) { s[c] = 0; return 0.0; }
    s[c] = v.rhs[c] - apply_laplacian(v, v.p, ix...);
    return double(s[c]) * s[c];
  }
};

// q = lap d; returns d . q.
template <class Real, int D = 2>
struct ApplyLaplacian {
  PoissonViewOf<Real, D> v;
  const Real* d;
  Real* q;
  template <class... I>
  FL_HD double operator()(I... ix) const {
    std::size_t c = v.at(ix...);
    if (!is_fluid(v.flags[c])) return 0.0;
    q[c] = apply_laplacian(v, d, ix...);
    return double(d[c]) * q[c];
  }
};

// x += alpha d, s -= alpha q; returns |s|^2.
template <class Real, int D = 2>
struct UpdateIterate {
  PoissonViewOf<Real, D> v;
  const Real* d;
  const Real* q;
  Real* s;
  Real alpha;
  template <class... I>
  FL_HD double operator()(I... ix) const {
    std::size_t c = v.at(ix...);
    if (!is_fluid(v.flags[c])) return 0.0;
    v.p[c] += alpha * d[c];
    s[c] -= alpha * q[c];
    return double(s[c]) * s[c];
  }
};

// d = z + beta d on fluid cells; 0 elsewhere (the Laplacian reads d's neighbours).
template <class Real, int D = 2>
struct UpdateDirection {
  PoissonViewOf<Real, D> v;
  const Real* z;
  Real* d;
  Real beta;
  template <class... I>
  FL_HD void operator()(I... ix) const {
    std::size_t c = v.at(ix...);
    d[c] = is_fluid(v.flags[c]) ? z[c] + beta * d[c] : Real(0);
  }
};

}  // namespace pcg_detail

template <class Exec, class Real, int D = 2>
class PreconditionedCG final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  PreconditionedCG(const PressureControl& c, const PoissonProblemOf<D>& pr,
                   std::unique_ptr<Preconditioner<Exec, Real, D>> m,
                   std::string name = "preconditioned conjugate gradients")
      : c_(c), m_(std::move(m)), name_(std::move(name)), singular_(pr.singular()), fluid_cells_(pr.fluid_cells()),
        s_(pr.grid.size()), z_(pr.grid.size()), d_(pr.grid.size()), q_(pr.grid.size()),
        halo_(block_halo<Exec, Real>(pr, halo_tag::kCg)) {
    for (auto* a : {&s_, &z_, &d_, &q_}) a->fill(Real(0));
  }

  SolveReport solve(const View& v) override {
    using namespace pcg_detail;
    using linalg::sum_cells;
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs, halo_);
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), linalg::field_size(v));
      rep.converged = true;
      return rep;
    }
    halo_.exchange(v.p);
    double ss = halo_.sum(sum_cells<Exec>(v, InitialResidual<Real, D>{v, s_.data()}));
    if (singular_) ss = project(v);
    rep.residual = std::sqrt(ss) / bnorm;
    if (rep.residual <= c_.tol) { rep.converged = true; return rep; }
    double sz = m_->apply(v, s_.data(), z_.data());
    linalg::for_cells<Exec>(v, UpdateDirection<Real, D>{v, z_.data(), d_.data(), Real(0)});
    for (int it = 1; it <= c_.max_iter; ++it) {
      halo_.exchange(d_.data());
      double dq = halo_.sum(sum_cells<Exec>(v, ApplyLaplacian<Real, D>{v, d_.data(), q_.data()}));
      if (!(dq < 0) || !(sz < 0)) break;  // breakdown (or NaN): report what we have
      ss = halo_.sum(sum_cells<Exec>(v, UpdateIterate<Real, D>{v, d_.data(), q_.data(), s_.data(), Real(sz / dq)}));
      if (singular_) ss = project(v);
      rep.iterations = it;
      rep.residual = std::sqrt(ss) / bnorm;
      if (!(rep.residual > c_.tol)) break;
      double sz_new = m_->apply(v, s_.data(), z_.data());
      linalg::for_cells<Exec>(v, UpdateDirection<Real, D>{v, z_.data(), d_.data(), Real(sz_new / sz)});
      sz = sz_new;
    }
    // The recurrence residual keeps falling below what the precision can represent
    // (in float, far below the true residual on large grids); report the true one,
    // so that tol means the same as for the other solvers. One more pass.
    rep.residual = linalg::residual_norm<Exec>(v, halo_) / bnorm;
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << name_ << ", " << m_->describe() << " preconditioner (tol " << c_.tol << ", max_iter " << c_.max_iter
      << ")";
    return s.str();
  }

 private:
  // Singular problems (no outflow face): keep s in the range of the Laplacian (zero
  // fluid mean). A right-hand side that is consistent in double is not quite so once
  // rounded to float, and CG on an inconsistent singular system lets the null-space
  // part of its residual grow until the iteration breaks down (seen at 64^2 in float).
  // Returns |s|^2 after the projection.
  double project(const View& v) {
    double sum = halo_.sum(linalg::sum_cells<Exec>(v, linalg::fluid_sum(v, s_.data(), false)));
    linalg::for_cells<Exec>(v, linalg::subtract_on_fluid(v, s_.data(), Real(sum / double(fluid_cells_))));
    return halo_.sum(linalg::sum_cells<Exec>(v, linalg::fluid_sum(v, s_.data(), true)));
  }

  PressureControl c_;
  std::unique_ptr<Preconditioner<Exec, Real, D>> m_;
  std::string name_;
  bool singular_;
  long fluid_cells_;
  DeviceArray<Exec, Real> s_, z_, d_, q_;
  BlockHalo<Exec, Real> halo_;  // off on one rank
};

}  // namespace flowlua
