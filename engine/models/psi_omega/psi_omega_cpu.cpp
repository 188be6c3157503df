// The psi-omega model on the CPU backend, and its factory that picks a backend.
#include "backend/cpu/cpu_exec.hpp"
#include "linalg/tridiagonal/solve_cpu.hpp"
#include "models/psi_omega/psi_omega_solver.hpp"

namespace flowlua {

namespace psi_omega {
#ifdef FLOWLUA_HAVE_CUDA
std::unique_ptr<Solver> make_cuda_solver(const PsiOmegaConfig& c);  // psi_omega_cuda.cu
#else
std::unique_ptr<Solver> make_cuda_solver(const PsiOmegaConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif
}  // namespace psi_omega

std::unique_ptr<Solver> make_psi_omega_solver(const PsiOmegaConfig& c) {
  std::string why;
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_available(&why);
  if (c.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why + "; use --backend cpu or auto");
  if (cuda) return psi_omega::make_cuda_solver(c);
  if (c.precision == Precision::Float) return std::make_unique<psi_omega::PsiOmegaSolver<CpuExec, float>>(c);
  return std::make_unique<psi_omega::PsiOmegaSolver<CpuExec, double>>(c);
}

}  // namespace flowlua
