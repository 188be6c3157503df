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
#include "linalg/pressure_control.hpp"
#include "linalg/poisson_stencil.hpp"

namespace flowlua {

struct SolveReport {
  int iterations = 0;
  double residual = 0;  // relative, as above
  bool converged = false;
};

template <class Exec, class Real>
class PressureSolver {
 public:
  virtual ~PressureSolver() = default;
  // Solves lap p = rhs in place, starting from the p it is given.
  virtual SolveReport solve(const PoissonView<Real>& v) = 0;
  virtual std::string describe() const = 0;
};

namespace linalg {

template <class Exec, class Real>
double fluid_norm(const PoissonView<Real>& v, const Real* x) {
  const int nx = v.nb.nx, ny = v.nb.ny;
  return std::sqrt(Exec::reduce_sum(1, nx, 1, ny, FluidSum<Real>{x, v.flags, nx + 2, true}));
}

template <class Exec, class Real>
double residual_norm(const PoissonView<Real>& v) {
  return std::sqrt(Exec::reduce_sum(1, v.nb.nx, 1, v.nb.ny, ResidualSquared<Real>{v}));
}

}  // namespace linalg

}  // namespace flowlua
