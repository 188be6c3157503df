// The psi-omega model on the CUDA backend: the same solver template as the CPU,
// instantiated with CudaExec.
#include "backend/cuda/cuda_exec.cuh"
#include "linalg/tridiagonal/solve_cuda.cuh"
#include "models/psi_omega/psi_omega_solver.hpp"

namespace flowlua::psi_omega {

std::unique_ptr<Solver> make_cuda_solver(const PsiOmegaConfig& c) {
  if (c.precision == Precision::Float) return std::make_unique<PsiOmegaSolver<CudaExec, float>>(c);
  return std::make_unique<PsiOmegaSolver<CudaExec, double>>(c);
}

}  // namespace flowlua::psi_omega
