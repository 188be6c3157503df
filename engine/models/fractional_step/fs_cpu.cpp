// The fractional-step model on the CPU backend, and the factory that picks a backend.
#include "backend/cpu/cpu_exec.hpp"
#include "models/fractional_step/fs_solver.hpp"

namespace flowlua {

namespace fractional_step {
#ifdef FLOWLUA_HAVE_CUDA
std::unique_ptr<Solver> make_cuda_solver(const FractionalStepConfig& c);  // fs_cuda.cu
#else
std::unique_ptr<Solver> make_cuda_solver(const FractionalStepConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
#endif
}  // namespace fractional_step

std::unique_ptr<Solver> make_fractional_step_solver(const FractionalStepConfig& c) {
  std::string why;
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_available(&why);
  if (c.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why + "; use --backend cpu or auto");
  if (cuda) return fractional_step::make_cuda_solver(c);
  if (c.dims == 3) {
    if (c.precision == Precision::Float)
      return std::make_unique<fractional_step::FractionalStepSolver<CpuExec, float, 3>>(c);
    return std::make_unique<fractional_step::FractionalStepSolver<CpuExec, double, 3>>(c);
  }
  if (c.precision == Precision::Float)
    return std::make_unique<fractional_step::FractionalStepSolver<CpuExec, float>>(c);
  return std::make_unique<fractional_step::FractionalStepSolver<CpuExec, double>>(c);
}

}  // namespace flowlua
