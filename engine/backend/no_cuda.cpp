// Without nvcc: no device answers, and every case runs on the CPU (each model's
// make_cuda_solver then throws BackendError; see models/<model>/<model>_cpu.cpp).
#ifndef FLOWLUA_HAVE_CUDA
#include "core/error.hpp"
#include "sim/solver.hpp"

namespace flowlua {

bool cuda_available(std::string* why) {
  if (why) *why = "this flowlua was built without CUDA (nvcc was not found at build time)";
  return false;
}

bool cuda_free_memory(std::size_t*) { return false; }
void use_cuda_device(int) {}

}  // namespace flowlua
#endif
