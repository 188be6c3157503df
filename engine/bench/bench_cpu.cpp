// The harness on the CPU backend.
#include "backend/cpu/cpu_exec.hpp"
#include "bench/batch_bench.hpp"
#include "bench/lbm_swe_bench.hpp"
#include "bench/fs_bench.hpp"
#include "bench/projection_bench.hpp"

namespace flowlua::bench {

std::vector<Row> bench_lbm_swe_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_lbm_swe<CpuExec, float>(n, opt, repeats, copy_gbs);
  return bench_lbm_swe<CpuExec, double>(n, opt, repeats, copy_gbs);
}

double copy_bandwidth_cpu(std::size_t bytes, int repeats) { return copy_bandwidth<CpuExec>(bytes, repeats); }

std::vector<Row> bench_projection_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_projection<CpuExec, float>(n, opt, repeats, copy_gbs);
  return bench_projection<CpuExec, double>(n, opt, repeats, copy_gbs);
}

std::vector<Row> bench_fractional_step_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_fractional_step<CpuExec, float>(n, opt, repeats, copy_gbs);
  return bench_fractional_step<CpuExec, double>(n, opt, repeats, copy_gbs);
}

std::vector<Row> bench_fractional_step3_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_fractional_step3<CpuExec, float>(n, opt, repeats, copy_gbs);
  return bench_fractional_step3<CpuExec, double>(n, opt, repeats, copy_gbs);
}

std::vector<Row> bench_projection_batch_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs) {
  if (p == Precision::Float) return bench_projection_batch<CpuExec, float>(n, opt, repeats, copy_gbs);
  return bench_projection_batch<CpuExec, double>(n, opt, repeats, copy_gbs);
}

}  // namespace flowlua::bench
