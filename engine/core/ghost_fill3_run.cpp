// The CPU instances of run_ghost_fill3, and the CUDA entry's stand-in without nvcc.
#include "core/ghost_fill3_run.hpp"

#include "backend/cpu/cpu_exec.hpp"
#include "core/error.hpp"

namespace flowlua {

void run_ghost_fill3(BackendChoice backend, Precision precision, const Grid3& g, const Boundaries3& sides,
                     std::vector<double>& u, std::vector<double>& v, std::vector<double>& w) {
  if (backend == BackendChoice::Cuda) return run_ghost_fill3_cuda(precision, g, sides, u, v, w);
  if (precision == Precision::Float) return run_ghost_fill3_on<CpuExec, float>(g, sides, u, v, w);
  run_ghost_fill3_on<CpuExec, double>(g, sides, u, v, w);
}

#ifndef FLOWLUA_HAVE_CUDA
void run_ghost_fill3_cuda(Precision, const Grid3&, const Boundaries3&, std::vector<double>&, std::vector<double>&,
                          std::vector<double>&) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif

}  // namespace flowlua
