// Whether a CUDA device answers. Built only with nvcc; backend/no_cuda.cpp stands in
// otherwise.
#include <cuda_runtime.h>

#include <string>

#include "sim/solver.hpp"

namespace flowlua {

bool cuda_available(std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    if (why) *why = std::string("no CUDA device answers (") + (e != cudaSuccess ? cudaGetErrorString(e) : "0 devices") + ")";
    cudaGetLastError();  // clear the sticky error so later calls start clean
    return false;
  }
  return true;
}

bool cuda_free_memory(std::size_t* free_bytes) {
  std::size_t total = 0;
  if (!cuda_available() || cudaMemGetInfo(free_bytes, &total) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

void use_cuda_device(int k) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    return;
  }
  cudaSetDevice(k % n);
}

}  // namespace flowlua
