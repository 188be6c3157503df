// The lbm_swe model on the CUDA backend: the same solver template as the CPU,
// instantiated with CudaExec.
#include "backend/cuda/cuda_exec.cuh"
#include "models/lbm_swe/lbm_swe_solver.hpp"

namespace flowlua::lbm_swe {

std::unique_ptr<Solver> make_cuda_solver(const LbmSweConfig& c) {
  if (c.precision == Precision::Float) {
    if (c.storage == SweStorage::Fp16) return std::make_unique<LbmSweSolver<CudaExec, float, Half>>(c);
    return std::make_unique<LbmSweSolver<CudaExec, float, float>>(c);
  }
  if (c.storage == SweStorage::Fp16) prepare(c);  // throws: fp16 needs float arithmetic
  return std::make_unique<LbmSweSolver<CudaExec, double, double>>(c);
}

}  // namespace flowlua::lbm_swe
