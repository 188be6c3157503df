// Conjugate gradients with a Jacobi (diagonal) preconditioner, as in seed 000, on
// A = -lap, which is symmetric positive (semi-)definite with the epsilon-flag
// stencil. Matrix-free: A is applied by the same point function as the SOR update.
#pragma once
#include <cmath>
#include <sstream>

#include "linalg/pressure_solver.hpp"
#include "linalg/rbsor.hpp"

namespace flowlua {

namespace cg_detail {

// r = b - A x for A = -lap, b = -rhs, that is r = lap x - rhs.
template <class Real>
struct InitialResidual {
  PoissonView<Real> v;
  Real* r;
  FL_HD double operator()(int i, int j) const {
    std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) { r[c] = 0; return 0.0; }
    r[c] = apply_laplacian(v, v.p, i, j) - v.rhs[c];
    return double(r[c]) * r[c];
  }
};

// Returns r . z with z = r / diag(A); also sets d = z + beta d.
template <class Real>
struct PreconditionAndDirection {
  PoissonView<Real> v;
  const Real* r;
  Real* d;
  Real beta;
  FL_HD void operator()(int i, int j) const {
    std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) { d[c] = 0; return; }
    Real off, diag;
    laplacian_parts(v, v.p, i, j, off, diag);
    d[c] = r[c] / diag + beta * d[c];
  }
};

template <class Real>
struct PreconditionedDot {
  PoissonView<Real> v;
  const Real* r;
  FL_HD double operator()(int i, int j) const {
    std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) return 0.0;
    Real off, diag;
    laplacian_parts(v, v.p, i, j, off, diag);
    return double(r[c]) * r[c] / diag;
  }
};

// q = A d = -lap d; returns d . q.
template <class Real>
struct ApplyOperator {
  PoissonView<Real> v;
  const Real* d;
  Real* q;
  FL_HD double operator()(int i, int j) const {
    std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) return 0.0;
    q[c] = -apply_laplacian(v, d, i, j);
    return double(d[c]) * q[c];
  }
};

// x += alpha d, r -= alpha q; returns |r|^2.
template <class Real>
struct UpdateIterate {
  PoissonView<Real> v;
  const Real* d;
  const Real* q;
  Real* r;
  Real alpha;
  FL_HD double operator()(int i, int j) const {
    std::size_t c = v.at(i, j);
    if (!is_fluid(v.flags[c])) return 0.0;
    v.p[c] += alpha * d[c];
    r[c] -= alpha * q[c];
    return double(r[c]) * r[c];
  }
};

}  // namespace cg_detail

template <class Exec, class Real>
class JacobiCG final : public PressureSolver<Exec, Real> {
 public:
  JacobiCG(const PressureControl& c, const Grid& g) : c_(c), r_(g.size()), d_(g.size()), q_(g.size()) {
    r_.fill(Real(0));
    d_.fill(Real(0));
    q_.fill(Real(0));
  }

  SolveReport solve(const PoissonView<Real>& v) override {
    using namespace cg_detail;
    const int nx = v.nb.nx, ny = v.nb.ny;
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs);
    if (bnorm == 0) {
      Exec::fill(v.p, Real(0), std::size_t(nx + 2) * (ny + 2));
      rep.converged = true;
      return rep;
    }
    double rr = Exec::reduce_sum(1, nx, 1, ny, InitialResidual<Real>{v, r_.data()});
    rep.residual = std::sqrt(rr) / bnorm;
    if (rep.residual <= c_.tol) { rep.converged = true; return rep; }
    Exec::for_each(1, nx, 1, ny, PreconditionAndDirection<Real>{v, r_.data(), d_.data(), Real(0)});
    double rz = Exec::reduce_sum(1, nx, 1, ny, PreconditionedDot<Real>{v, r_.data()});
    for (int it = 1; it <= c_.max_iter; ++it) {
      double dq = Exec::reduce_sum(1, nx, 1, ny, ApplyOperator<Real>{v, d_.data(), q_.data()});
      if (!(dq > 0)) break;  // breakdown (or NaN): report what we have
      Real alpha = Real(rz / dq);
      rr = Exec::reduce_sum(1, nx, 1, ny, UpdateIterate<Real>{v, d_.data(), q_.data(), r_.data(), alpha});
      rep.iterations = it;
      rep.residual = std::sqrt(rr) / bnorm;
      if (!(rep.residual > c_.tol)) break;
      double rz_new = Exec::reduce_sum(1, nx, 1, ny, PreconditionedDot<Real>{v, r_.data()});
      Exec::for_each(1, nx, 1, ny,
                     PreconditionAndDirection<Real>{v, r_.data(), d_.data(), Real(rz_new / rz)});
      rz = rz_new;
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "conjugate gradients, Jacobi preconditioner (tol " << c_.tol << ", max_iter " << c_.max_iter << ")";
    return s.str();
  }

 private:
  PressureControl c_;
  DeviceArray<Exec, Real> r_, d_, q_;
};

template <class Exec, class Real>
std::unique_ptr<PressureSolver<Exec, Real>> make_pressure_solver(const PressureControl& c, const Grid& g) {
  if (c.solver == PressureSolverKind::ConjugateGradient) return std::make_unique<JacobiCG<Exec, Real>>(c, g);
  return std::make_unique<RedBlackSOR<Exec, Real>>(c);
}

}  // namespace flowlua
