// One Poisson solve (and optionally its timing) on a chosen backend and precision,
// from plain host data: what the solver benchmark and the CUDA-vs-CPU solver tests
// need without instantiating the backend templates themselves. The CPU instances are
// compiled in poisson_run_cpu.cpp, the CUDA ones in poisson_run_cuda.cu.
#pragma once
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bench/measure.hpp"
#include "core/config.hpp"
#include "linalg/pressure_control.hpp"
#include "linalg/refinement.hpp"
#include "linalg/solver_factory.hpp"

namespace flowlua {

struct PoissonRun {
  SolveReport report;
  std::vector<double> p;   // the solution, grid layout (ghosts 0)
  std::string solver;      // describe()
  double setup_ms = 0;     // building the solver (levels, plans)
  double first_ms = 0;     // the first, untimed-by-events solve (wall clock)
  bench::Timing timing;    // per solve from p = 0, when repeats > 0
};

// Solves lap p = rhs from p = 0. With repeats > 0 it then times `repeats` solves
// after `warmup` ones (repeats < 0: as many as fit in about two seconds, 3 to 20) (bench::time_median; each resets p to 0 first, one write pass,
// except fft, which ignores the starting p).
PoissonRun run_poisson(BackendChoice backend, Precision precision, const PressureControl& c,
                       const PoissonProblem& pr, const std::vector<double>& rhs, int warmup = 0, int repeats = 0);

PoissonRun run_poisson_cuda(Precision precision, const PressureControl& c, const PoissonProblem& pr,
                            const std::vector<double>& rhs, int warmup, int repeats);
// The same in 3D (rhs and p in the Grid3 layout).
PoissonRun run_poisson(BackendChoice backend, Precision precision, const PressureControl& c,
                       const PoissonProblem3& pr, const std::vector<double>& rhs, int warmup = 0, int repeats = 0);
PoissonRun run_poisson_cuda(Precision precision, const PressureControl& c, const PoissonProblem3& pr,
                            const std::vector<double>& rhs, int warmup, int repeats);

// The mixed-precision solve (linalg/refinement.hpp) of lap p = rhs from p = 0: `inner`
// is the float solver (its tol: the gain of one refinement step), tol and max_steps the
// double residual's target and the step limit. report.iterations: the inner solver's.
PoissonRun run_poisson_refined(BackendChoice backend, const PressureControl& inner, double tol, int max_steps,
                               const PoissonProblem& pr, const std::vector<double>& rhs, int warmup = 0,
                               int repeats = 0);
PoissonRun run_poisson_refined_cuda(const PressureControl& inner, double tol, int max_steps, const PoissonProblem& pr,
                                    const std::vector<double>& rhs, int warmup, int repeats);

template <class Real>
PoissonView<Real> poisson_view(const PoissonProblem& pr, Real* p, const Real* rhs, const CellFlags* flags) {
  const Grid& g = pr.grid;
  return PoissonView<Real>{p, rhs, flags, pr.nb, Real(1 / (g.dx * g.dx)), Real(1 / (g.dy * g.dy))};
}
template <class Real>
PoissonView3<Real> poisson_view(const PoissonProblem3& pr, Real* p, const Real* rhs, const CellFlags* flags) {
  const Grid3& g = pr.grid;
  return PoissonView3<Real>{p,      rhs, flags, pr.nb, Real(1 / (g.dx * g.dx)), Real(1 / (g.dy * g.dy)),
                            Real(1 / (g.dz * g.dz))};
}

template <class Exec, class Real, int D = 2>
PoissonRun run_poisson_on(const PressureControl& c, const PoissonProblemOf<D>& pr, const std::vector<double>& rhs,
                          int warmup, int repeats) {
  const auto& g = pr.grid;
  DeviceArray<Exec, CellFlags> flags(g.size());
  flags.upload(pr.flags);
  DeviceArray<Exec, Real> p(g.size()), b(g.size());
  b.upload(std::vector<Real>(rhs.begin(), rhs.end()));
  p.fill(Real(0));
  PoissonRun out;
  const auto t0 = std::chrono::steady_clock::now();
  auto solver = make_pressure_solver<Exec, Real, D>(c, pr);
  Exec::synchronize();
  out.setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.solver = solver->describe();
  const auto v = poisson_view(pr, p.data(), b.data(), flags.data());
  const auto t1 = std::chrono::steady_clock::now();
  out.report = solver->solve(v);
  Exec::synchronize();
  out.first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  std::vector<Real> host = p.download();
  out.p.assign(host.begin(), host.end());
  if (repeats < 0)  // automatic: about two seconds of timed solves, 3 to 20 of them
    repeats = std::max(3, std::min(20, int(2000 / std::max(out.first_ms, 1e-3))));
  if (repeats > 0) {
    const bool reset = c.solver != PressureSolverKind::FFT;
    out.timing = bench::time_median<Exec>(
        [&] {
          if (reset) p.fill(Real(0));
          solver->solve(v);
        },
        warmup, repeats);
  }
  return out;
}

template <class Exec>
PoissonRun run_refined_on(const PressureControl& inner, double tol, int max_steps, const PoissonProblem& pr,
                          const std::vector<double>& rhs, int warmup, int repeats) {
  const auto& g = pr.grid;
  DeviceArray<Exec, CellFlags> flags(g.size());
  flags.upload(pr.flags);
  DeviceArray<Exec, double> p(g.size()), b(g.size());
  b.upload(rhs);
  p.fill(0.0);
  PoissonRun out;
  PressureControl outer = inner;
  outer.tol = tol;
  outer.max_iter = max_steps;
  const auto t0 = std::chrono::steady_clock::now();
  RefinedPoissonSolver<Exec> solver(outer, make_pressure_solver<Exec, float>(inner, pr));
  Exec::synchronize();
  out.setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.solver = solver.describe();
  const auto v = poisson_view(pr, p.data(), b.data(), flags.data());
  const auto t1 = std::chrono::steady_clock::now();
  out.report = solver.solve(v);
  Exec::synchronize();
  out.first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  out.p = p.download();
  if (repeats < 0) repeats = std::max(3, std::min(20, int(2000 / std::max(out.first_ms, 1e-3))));
  if (repeats > 0)
    out.timing = bench::time_median<Exec>(
        [&] {
          p.fill(0.0);
          solver.solve(v);
        },
        warmup, repeats);
  return out;
}

}  // namespace flowlua
