// What every pressure (Poisson) solver offers. Tolerances mean the same for all of
// them: stop when ||rhs - lap p||_2 <= tol * ||rhs||_2 over the fluid cells. The
// report's iterations are SOR sweeps, CG iterations or multigrid cycles (1 for the
// FFT solve). linalg/solver_factory.hpp builds the one a case asks for.
#pragma once
#include <cmath>
#include <memory>
#include <string>

#include "backend/device_array.hpp"
#include "core/config.hpp"
#include "linalg/block_halo.hpp"
#include "linalg/pressure_control.hpp"
#include "linalg/poisson_stencil.hpp"

namespace flowlua {

struct SolveReport {
  int iterations = 0;
  double residual = 0;  // relative, as above
  bool converged = false;
};

// D = 2 (PoissonView, the 2D models) or 3 (PoissonView3); one source for both.
template <class Exec, class Real, int D = 2>
class PressureSolver {
 public:
  using View = PoissonViewOf<Real, D>;
  virtual ~PressureSolver() = default;
  // Solves lap p = rhs in place, starting from the p it is given.
  virtual SolveReport solve(const View& v) = 0;
  virtual std::string describe() const = 0;
};

namespace linalg {

// Launches over the interior cells of a view: f(i, j) in 2D, f(i, j, k) in 3D.
template <class Exec, class Real, class F>
void for_cells(const PoissonView<Real>& v, const F& f) {
  Exec::for_each(1, v.nb.nx, 1, v.nb.ny, f);
}
template <class Exec, class Real, class F>
void for_cells(const PoissonView3<Real>& v, const F& f) {
  Exec::for_each3(1, v.nb.nx, 1, v.nb.ny, 1, v.nb.nz, f);
}
template <class Exec, class Real, class F>
double sum_cells(const PoissonView<Real>& v, const F& f) {
  return Exec::reduce_sum(1, v.nb.nx, 1, v.nb.ny, f);
}
template <class Exec, class Real, class F>
double sum_cells(const PoissonView3<Real>& v, const F& f) {
  return Exec::reduce_sum3(1, v.nb.nx, 1, v.nb.ny, 1, v.nb.nz, f);
}
// Values in a field of the view's layout, ghosts included.
template <class Real>
std::size_t field_size(const PoissonView<Real>& v) {
  return std::size_t(v.nb.nx + 2) * (v.nb.ny + 2);
}
template <class Real>
std::size_t field_size(const PoissonView3<Real>& v) {
  return v.plane() * std::size_t(v.nb.nz + 2);
}
// Sum of x (or of x^2) over the fluid cells of the view.
template <class Real>
FluidSum<Real> fluid_sum(const PoissonView<Real>& v, const Real* x, bool squared) {
  return FluidSum<Real>{x, v.flags, v.nb.nx + 2, squared};
}
template <class Real>
FluidSum<Real> fluid_sum(const PoissonView3<Real>& v, const Real* x, bool squared) {
  return FluidSum<Real>{x, v.flags, v.nb.nx + 2, squared, v.plane()};
}
template <class Real>
SubtractOnFluid<Real> subtract_on_fluid(const PoissonView<Real>& v, Real* x, Real value) {
  return SubtractOnFluid<Real>{x, v.flags, v.nb.nx + 2, value};
}
template <class Real>
SubtractOnFluid<Real> subtract_on_fluid(const PoissonView3<Real>& v, Real* x, Real value) {
  return SubtractOnFluid<Real>{x, v.flags, v.nb.nx + 2, value, v.plane()};
}

template <class Exec, class Real>
double fluid_norm(const PoissonView3<Real>& v, const Real* x) {
  return std::sqrt(sum_cells<Exec>(v, fluid_sum(v, x, true)));
}
template <class Exec, class Real>
double residual_norm(const PoissonView3<Real>& v) {
  return std::sqrt(sum_cells<Exec>(v, ResidualSquared<Real, 3>{v}));
}

template <class Exec, class Real>
double fluid_norm(const PoissonView<Real>& v, const Real* x) {
  const int nx = v.nb.nx, ny = v.nb.ny;
  return std::sqrt(Exec::reduce_sum(1, nx, 1, ny, FluidSum<Real>{x, v.flags, nx + 2, true}));
}

template <class Exec, class Real>
double residual_norm(const PoissonView<Real>& v) {
  return std::sqrt(Exec::reduce_sum(1, v.nb.nx, 1, v.nb.ny, ResidualSquared<Real>{v}));
}

// The same over the blocks of every rank (linalg/block_halo.hpp): the norms every
// solver's tolerance is measured in. residual_norm refreshes the halo of p first.
// With the halo off they are the one-rank norms above, computed the same way.
template <class Exec, class View, class Real>
double fluid_norm(const View& v, const Real* x, const BlockHalo<Exec, Real>& h) {
  return std::sqrt(h.sum(sum_cells<Exec>(v, fluid_sum(v, x, true))));
}
template <class Exec, class View, class Real>
double residual_norm(const View& v, BlockHalo<Exec, Real>& h) {
  h.exchange(v.p);
  return std::sqrt(h.sum(sum_cells<Exec>(v, ResidualSquared<Real, std::is_same_v<View, PoissonView<Real>> ? 2 : 3>{v})));
}

}  // namespace linalg

}  // namespace flowlua
