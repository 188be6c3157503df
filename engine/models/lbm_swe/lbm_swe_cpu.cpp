// The lbm_swe model on the CPU backend, and its factory that picks a backend.
#include "backend/cpu/cpu_exec.hpp"
#include "models/lbm_swe/lbm_swe_solver.hpp"

namespace flowlua {

namespace lbm_swe {
#ifdef FLOWLUA_HAVE_CUDA
std::unique_ptr<Solver> make_cuda_solver(const LbmSweConfig& c);  // lbm_swe_cuda.cu
#else
std::unique_ptr<Solver> make_cuda_solver(const LbmSweConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif
}  // namespace lbm_swe

std::unique_ptr<Solver> make_lbm_swe_solver(const LbmSweConfig& c) {
  std::string why;
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_available(&why);
  if (c.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why + "; use --backend cpu or auto");
  if (cuda) return lbm_swe::make_cuda_solver(c);
  using lbm_swe::Half;
  using lbm_swe::LbmSweSolver;
  if (c.precision == Precision::Float) {
    if (c.storage == SweStorage::Fp16) return std::make_unique<LbmSweSolver<CpuExec, float, Half>>(c);
    return std::make_unique<LbmSweSolver<CpuExec, float, float>>(c);
  }
  if (c.storage == SweStorage::Fp16) lbm_swe::prepare(c);  // throws: fp16 needs float arithmetic
  return std::make_unique<LbmSweSolver<CpuExec, double, double>>(c);
}

}  // namespace flowlua
