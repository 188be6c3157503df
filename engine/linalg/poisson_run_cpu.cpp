// The CPU instances of run_poisson (poisson_run.hpp), and the CUDA entry's stand-in
// when flowlua is built without nvcc.
#include "backend/cpu/cpu_exec.hpp"
#include "core/error.hpp"
#include "linalg/poisson_run.hpp"

namespace flowlua {

PoissonRun run_poisson(BackendChoice backend, Precision precision, const PressureControl& c,
                       const PoissonProblem& pr, const std::vector<double>& rhs, int warmup, int repeats) {
  if (backend == BackendChoice::Cuda) return run_poisson_cuda(precision, c, pr, rhs, warmup, repeats);
  if (precision == Precision::Float) return run_poisson_on<CpuExec, float>(c, pr, rhs, warmup, repeats);
  return run_poisson_on<CpuExec, double>(c, pr, rhs, warmup, repeats);
}

PoissonRun run_poisson(BackendChoice backend, Precision precision, const PressureControl& c,
                       const PoissonProblem3& pr, const std::vector<double>& rhs, int warmup, int repeats) {
  if (backend == BackendChoice::Cuda) return run_poisson_cuda(precision, c, pr, rhs, warmup, repeats);
  if (precision == Precision::Float) return run_poisson_on<CpuExec, float, 3>(c, pr, rhs, warmup, repeats);
  return run_poisson_on<CpuExec, double, 3>(c, pr, rhs, warmup, repeats);
}

PoissonRun run_poisson_refined(BackendChoice backend, const PressureControl& inner, double tol, int max_steps,
                               const PoissonProblem& pr, const std::vector<double>& rhs, int warmup, int repeats) {
  if (backend == BackendChoice::Cuda) return run_poisson_refined_cuda(inner, tol, max_steps, pr, rhs, warmup, repeats);
  return run_refined_on<CpuExec>(inner, tol, max_steps, pr, rhs, warmup, repeats);
}

#ifndef FLOWLUA_HAVE_CUDA
PoissonRun run_poisson_refined_cuda(const PressureControl&, double, int, const PoissonProblem&,
                                    const std::vector<double>&, int, int) {
  throw BackendError("this flowlua was built without CUDA");
}
PoissonRun run_poisson_cuda(Precision, const PressureControl&, const PoissonProblem&, const std::vector<double>&,
                            int, int) {
  throw BackendError("this flowlua was built without CUDA");
}
PoissonRun run_poisson_cuda(Precision, const PressureControl&, const PoissonProblem3&, const std::vector<double>&,
                            int, int) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif

}  // namespace flowlua
