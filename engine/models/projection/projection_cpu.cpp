// The projection model on the CPU backend, and the factory that picks a backend.
#include "backend/cpu/cpu_exec.hpp"
#include "models/projection/projection_solver.hpp"

namespace flowlua {

namespace projection {
#ifdef FLOWLUA_HAVE_CUDA
std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig& c);  // projection_cuda.cu
#else
std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif
}  // namespace projection

std::unique_ptr<Solver> make_projection_solver(const ProjectionConfig& c) {
  std::string why;
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_available(&why);
  if (c.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why + "; use --backend cpu or auto");
  if (cuda) return projection::make_cuda_solver(c);
  if (c.precision == Precision::Float) return std::make_unique<projection::ProjectionSolver<CpuExec, float>>(c);
  return std::make_unique<projection::ProjectionSolver<CpuExec, double>>(c);
}

}  // namespace flowlua
