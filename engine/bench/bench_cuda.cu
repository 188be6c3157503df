// The harness on the CUDA backend.
#include "backend/cuda/cuda_exec.cuh"
#include "bench/batch_bench.hpp"
#include "bench/lbm_swe_bench.hpp"
#include "bench/fs_bench.hpp"
#include "bench/projection_bench.hpp"

namespace flowlua::bench {

std::vector<Row> bench_lbm_swe_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_lbm_swe<CudaExec, float>(n, opt, repeats, copy_gbs);
  return bench_lbm_swe<CudaExec, double>(n, opt, repeats, copy_gbs);
}

double copy_bandwidth_cuda(std::size_t bytes, int repeats) { return copy_bandwidth<CudaExec>(bytes, repeats); }

std::vector<Row> bench_projection_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_projection<CudaExec, float>(n, opt, repeats, copy_gbs);
  return bench_projection<CudaExec, double>(n, opt, repeats, copy_gbs);
}

std::vector<Row> bench_fractional_step_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_fractional_step<CudaExec, float>(n, opt, repeats, copy_gbs);
  return bench_fractional_step<CudaExec, double>(n, opt, repeats, copy_gbs);
}

std::string cuda_device_name() {
  cudaDeviceProp prop{};
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
  cuda_check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  return std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs";
}

std::vector<Row> bench_fractional_step3_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_fractional_step3<CudaExec, float>(n, opt, repeats, copy_gbs);
  return bench_fractional_step3<CudaExec, double>(n, opt, repeats, copy_gbs);
}

std::vector<Row> bench_projection_batch_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_projection_batch<CudaExec, float>(n, opt, repeats, copy_gbs);
  return bench_projection_batch<CudaExec, double>(n, opt, repeats, copy_gbs);
}

}  // namespace flowlua::bench
