// The CUDA instances of run_poisson (poisson_run.hpp).
#include "backend/cuda/cuda_exec.cuh"
#include "linalg/poisson_run.hpp"

namespace flowlua {

PoissonRun run_poisson_cuda(Precision precision, const PressureControl& c, const PoissonProblem& pr,
                            const std::vector<double>& rhs, int warmup, int repeats) {
  if (precision == Precision::Float) return run_poisson_on<CudaExec, float>(c, pr, rhs, warmup, repeats);
  return run_poisson_on<CudaExec, double>(c, pr, rhs, warmup, repeats);
}

PoissonRun run_poisson_cuda(Precision precision, const PressureControl& c, const PoissonProblem3& pr,
                            const std::vector<double>& rhs, int warmup, int repeats) {
  if (precision == Precision::Float) return run_poisson_on<CudaExec, float, 3>(c, pr, rhs, warmup, repeats);
  return run_poisson_on<CudaExec, double, 3>(c, pr, rhs, warmup, repeats);
}

PoissonRun run_poisson_refined_cuda(const PressureControl& inner, double tol, int max_steps, const PoissonProblem& pr,
                                    const std::vector<double>& rhs, int warmup, int repeats) {
  return run_refined_on<CudaExec>(inner, tol, max_steps, pr, rhs, warmup, repeats);
}

}  // namespace flowlua
