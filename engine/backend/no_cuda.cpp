// Stand-ins when flowlua is built without nvcc: every case runs on the CPU.
#ifndef FLOWLUA_HAVE_CUDA
#include "core/error.hpp"
#include "sim/solver.hpp"

namespace flowlua {

bool cuda_available(std::string* why) {
  if (why) *why = "this flowlua was built without CUDA (nvcc was not found at build time)";
  return false;
}

namespace projection {
std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
}  // namespace projection

namespace psi_omega {
std::unique_ptr<Solver> make_cuda_solver(const ProjectionConfig&) {
  throw BackendError("this flowlua was built without CUDA");
}
}  // namespace psi_omega

}  // namespace flowlua
#endif
