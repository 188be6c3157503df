// The CUDA tridiagonal solvers against the CPU ones and a dense solve: every
// algorithm, lines along x and y, float and double, cyclic and not, on line counts
// that are not multiples of a warp and lengths up to 4096 (shared memory beyond the
// default 48 KiB). Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <string>

#include "../unit/tridiag_test_problems.hpp"
#include "backend/device_array.hpp"
#include "linalg/tridiagonal/batch_solve.hpp"
#include "sim/solver.hpp"

using namespace flowlua;
using namespace flowlua::tridiag;
using namespace tridiag_test;

namespace {

template <class Real>
std::vector<Real> on_cuda(Algorithm alg, const Problem<Real>& p, bool cyclic);

}  // namespace

#ifdef FLOWLUA_HAVE_CUDA
#include <cuda_runtime.h>
namespace {
template <class Real>
struct Dev {
  Real* p = nullptr;
  explicit Dev(const std::vector<Real>& h) {
    cudaMalloc(&p, h.size() * sizeof(Real));
    cudaMemcpy(p, h.data(), h.size() * sizeof(Real), cudaMemcpyHostToDevice);
  }
  ~Dev() { cudaFree(p); }
};
template <class Real>
std::vector<Real> on_cuda(Algorithm alg, const Problem<Real>& p, bool cyclic) {
  std::vector<Real> x(p.size, Real(-3));
  Dev<Real> a(p.a), b(p.b), c(p.c), d(p.d), xd(x), s(std::vector<Real>(scratch_size(p.lines, cyclic)));
  solve_arrays_cuda<Real>(alg, p.lines, cyclic, a.p, b.p, c.p, d.p, xd.p, s.p);
  cudaMemcpy(x.data(), xd.p, x.size() * sizeof(Real), cudaMemcpyDeviceToHost);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  return x;
}
}  // namespace
#else
namespace {
template <class Real>
std::vector<Real> on_cuda(Algorithm, const Problem<Real>& p, bool) {
  return std::vector<Real>(p.size);
}
}  // namespace
#endif

namespace {

template <class Real>
void compare(LineDir dir, bool cyclic) {
  for (Algorithm alg : kAllAlgorithms)
    for (auto [n, count] : {std::pair{3, 5}, {17, 33}, {100, 70}, {257, 40}, {1024, 65}, {4096, 9}}) {
      auto p = random_problem<Real>(dir, n, count, unsigned(n + count));
      std::vector<Real> cpu(p.size, Real(-3)), scratch(scratch_size(p.lines, cyclic));
      solve_arrays_cpu<Real>(alg, p.lines, cyclic, p.a.data(), p.b.data(), p.c.data(), p.d.data(), cpu.data(),
                             scratch.data());
      const auto gpu = on_cuda(alg, p, cyclic);
      const std::string what = std::string(algorithm_name(alg)) + " n=" + std::to_string(n) +
                               " count=" + std::to_string(count) + (dir == LineDir::X ? " x-lines" : " y-lines") +
                               (cyclic ? " cyclic" : "");
      if (n <= 257) EXPECT_LT(max_error(p, gpu, cyclic), tolerance<Real>()) << what;
      else EXPECT_LT(residual(p, gpu, cyclic), tolerance<Real>()) << what << ": residual";
      double diff = 0, scale = 0;
      for (long i = 0; i < p.size; ++i) {
        diff = std::max(diff, std::abs(double(gpu[i]) - double(cpu[i])));
        scale = std::max(scale, std::abs(double(cpu[i])));
      }
      EXPECT_LT(diff / scale, tolerance<Real>()) << what << ": CUDA against CPU";
    }
}

}  // namespace

#define TRIDIAG_GPU_TEST(name, Real, dir, cyclic)              \
  TEST(CudaTridiagonal, name) {                                \
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";   \
    compare<Real>(dir, cyclic);                                \
  }
TRIDIAG_GPU_TEST(XLinesFloat, float, LineDir::X, false)
TRIDIAG_GPU_TEST(XLinesDouble, double, LineDir::X, false)
TRIDIAG_GPU_TEST(YLinesFloat, float, LineDir::Y, false)
TRIDIAG_GPU_TEST(YLinesDouble, double, LineDir::Y, false)
TRIDIAG_GPU_TEST(CyclicXLinesFloat, float, LineDir::X, true)
TRIDIAG_GPU_TEST(CyclicXLinesDouble, double, LineDir::X, true)
TRIDIAG_GPU_TEST(CyclicYLinesFloat, float, LineDir::Y, true)
TRIDIAG_GPU_TEST(CyclicYLinesDouble, double, LineDir::Y, true)
