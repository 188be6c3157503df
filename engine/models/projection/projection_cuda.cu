// The projection model on the CUDA backend: the same solver template as the CPU,
// instantiated with CudaExec.
#include "backend/cuda/cuda_exec.cuh"
#include "models/projection/projection_solver.hpp"

namespace flowlua::projection {

std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig& c) {
  if (c.precision == Precision::Float) return std::make_unique<ProjectionSolver<CudaExec, float>>(c);
  return std::make_unique<ProjectionSolver<CudaExec, double>>(c);
}

}  // namespace flowlua::projection
