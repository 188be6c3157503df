// The fractional-step model on the CUDA backend: the same solver template as the CPU,
// instantiated with CudaExec.
#include "backend/cuda/cuda_exec.cuh"
#include "models/fractional_step/fs_solver.hpp"

namespace flowlua::fractional_step {

std::unique_ptr<Solver> make_cuda_solver(const FractionalStepConfig& c) {
  if (c.dims == 3) {
    if (c.precision == Precision::Float) return std::make_unique<FractionalStepSolver<CudaExec, float, 3>>(c);
    return std::make_unique<FractionalStepSolver<CudaExec, double, 3>>(c);
  }
  if (c.precision == Precision::Float) return std::make_unique<FractionalStepSolver<CudaExec, float>>(c);
  return std::make_unique<FractionalStepSolver<CudaExec, double>>(c);
}

}  // namespace flowlua::fractional_step
