// The CUDA instances of run_ghost_fill3 (ghost_fill3_run.hpp).
#include "backend/cuda/cuda_exec.cuh"
#include "core/ghost_fill3_run.hpp"

namespace flowlua {

void run_ghost_fill3_cuda(Precision precision, const Grid3& g, const Boundaries3& sides, std::vector<double>& u,
                          std::vector<double>& v, std::vector<double>& w) {
  if (precision == Precision::Float) return run_ghost_fill3_on<CudaExec, float>(g, sides, u, v, w);
  run_ghost_fill3_on<CudaExec, double>(g, sides, u, v, w);
}

}  // namespace flowlua
