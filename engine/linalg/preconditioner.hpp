// A preconditioner for conjugate gradients on lap p = rhs: z ~ lap^-1 s for a residual
// s = rhs - lap p, on fluid cells (z is 0 elsewhere). apply() also returns s . z,
// which CG needs next and which a preconditioner can often compute in its last pass.
//
// Sign convention: CG runs on A = -lap (symmetric positive semi-definite); with
// b = -rhs its residual b - A x is -s and its preconditioned residual
// M^-1 (b - A x) = (-lap)^-1 (-s) = lap^-1 s: the z here. So every preconditioner
// approximates the inverse of the Laplacian itself, as multigrid and the FFT solve do.
#pragma once
#include <string>

#include "linalg/poisson_problem.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

template <class Exec, class Real, int D = 2>
class Preconditioner {
 public:
  using View = PoissonViewOf<Real, D>;
  virtual ~Preconditioner() = default;
  // v gives the operator (flags, spacing); v.p and v.rhs are not used.
  virtual double apply(const View& v, const Real* s, Real* z) = 0;
  virtual std::string describe() const = 0;
};

namespace pcg_detail {

// Jacobi: z = s / diag(lap) = -s / diag(A); returns s . z.
template <class Real, int D = 2>
struct JacobiApply {
  PoissonViewOf<Real, D> v;
  const Real* s;
  Real* z;
  template <class... I>
  FL_HD double operator()(I... ix) const {
    std::size_t c = v.at(ix...);
    if (!is_fluid(v.flags[c])) { z[c] = 0; return 0.0; }
    Real off, diag;
    laplacian_parts(v, s, ix..., off, diag);
    z[c] = diag > 0 ? -s[c] / diag : Real(0);
    return double(s[c]) * z[c];
  }
};

}  // namespace pcg_detail

// s . z over fluid cells.
template <class Real>
struct DotOnFluid {
  const Real* s;
  const Real* z;
  const CellFlags* flags;
  int stride;
  std::size_t plane = 0;  // 3D: (nx + 2) (ny + 2)
  FL_HD double operator()(int i, int j) const {
    std::size_t c = std::size_t(j) * stride + i;
    return is_fluid(flags[c]) ? double(s[c]) * z[c] : 0.0;
  }
  FL_HD double operator()(int i, int j, int k) const {
    std::size_t c = std::size_t(k) * plane + std::size_t(j) * stride + i;
    return is_fluid(flags[c]) ? double(s[c]) * z[c] : 0.0;
  }
};

template <class Real>
DotOnFluid<Real> dot_on_fluid(const PoissonView<Real>& v, const Real* s, const Real* z) {
  return DotOnFluid<Real>{s, z, v.flags, v.nb.nx + 2};
}
template <class Real>
DotOnFluid<Real> dot_on_fluid(const PoissonView3<Real>& v, const Real* s, const Real* z) {
  return DotOnFluid<Real>{s, z, v.flags, v.nb.nx + 2, v.plane()};
}

template <class Exec, class Real, int D = 2>
class JacobiPreconditioner final : public Preconditioner<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  JacobiPreconditioner() = default;
  // On several ranks s . z is summed over the blocks (the diagonal needs no halo).
  explicit JacobiPreconditioner(const PoissonProblemOf<D>& pr) : halo_(block_halo<Exec, Real>(pr, 0)) {}
  double apply(const View& v, const Real* s, Real* z) override {
    return halo_.sum(linalg::sum_cells<Exec>(v, pcg_detail::JacobiApply<Real, D>{v, s, z}));
  }
  std::string describe() const override { return "Jacobi (diagonal)"; }

 private:
  BlockHalo<Exec, Real> halo_;  // for its sum only
};

}  // namespace flowlua
