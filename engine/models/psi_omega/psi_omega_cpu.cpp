// The psi-omega model on the CPU backend, and its factory that picks a backend.
#include "backend/cpu/cpu_exec.hpp"
#include "models/psi_omega/psi_omega_solver.hpp"

namespace flowlua {

namespace psi_omega {
std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig& c);  // psi_omega_cuda.cu
}

std::unique_ptr<Solver> make_psi_omega_solver(const ProjectionConfig& c) {
  std::string why;
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_available(&why);
  if (c.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why + "; use --backend cpu or auto");
  if (cuda) return psi_omega::make_cuda_solver(c);
  if (c.precision == Precision::Float) return std::make_unique<psi_omega::PsiOmegaSolver<CpuExec, float>>(c);
  return std::make_unique<psi_omega::PsiOmegaSolver<CpuExec, double>>(c);
}

std::unique_ptr<Solver> make_solver(const ProjectionConfig& c) {
  return c.model == Model::PsiOmega ? make_psi_omega_solver(c) : make_projection_solver(c);
}

}  // namespace flowlua
