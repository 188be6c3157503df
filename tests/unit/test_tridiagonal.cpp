// Every batched tridiagonal algorithm on the CPU against a dense solve: lines along x
// and along y of a padded field, float and double, cyclic (Sherman-Morrison) and not,
// lengths that are and are not powers of two.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "core/error.hpp"
#include "linalg/tridiagonal/batch_solve.hpp"
#include "linalg/tridiagonal/tridiagonal_kernels.hpp"
#include "tridiag_test_problems.hpp"

using namespace flowlua::tridiag;
using namespace tridiag_test;

namespace {

template <class Real>
void check_all(LineDir dir, bool cyclic) {
  for (Algorithm alg : kAllAlgorithms)
    for (auto [n, count] : {std::pair{1, 3}, {2, 5}, {3, 4}, {5, 7}, {17, 9}, {33, 4}, {34, 3}, {64, 33}, {100, 5}, {257, 3}, {641, 2}}) {
      if (cyclic && n < 3) continue;
      auto p = random_problem<Real>(dir, n, count, unsigned(n * 131 + count));
      std::vector<Real> x(p.size, Real(-3)), scratch(scratch_size(p.lines, cyclic));
      solve_arrays_cpu<Real>(alg, p.lines, cyclic, p.a.data(), p.b.data(), p.c.data(), p.d.data(), x.data(),
                             scratch.data());
      const std::string what = std::string(algorithm_name(alg)) + " n=" + std::to_string(n) +
                               " count=" + std::to_string(count) + (dir == LineDir::X ? " x-lines" : " y-lines") +
                               (cyclic ? " cyclic" : "");
      if (n <= 257) EXPECT_LT(max_error(p, x, cyclic), tolerance<Real>()) << what;
      else EXPECT_LT(residual(p, x, cyclic), tolerance<Real>()) << what << ": residual";  // dense is O(n^3)
      // Nothing outside the block is written.
      long untouched = 0;
      for (long i = 0; i < p.size; ++i) untouched += x[i] == Real(-3);
      EXPECT_EQ(untouched, p.size - long(n) * count) << what;
    }
}

}  // namespace

TEST(Tridiagonal, XLinesFloat) { check_all<float>(LineDir::X, false); }
TEST(Tridiagonal, XLinesDouble) { check_all<double>(LineDir::X, false); }
TEST(Tridiagonal, YLinesFloat) { check_all<float>(LineDir::Y, false); }
TEST(Tridiagonal, YLinesDouble) { check_all<double>(LineDir::Y, false); }
TEST(Tridiagonal, CyclicXLinesFloat) { check_all<float>(LineDir::X, true); }
TEST(Tridiagonal, CyclicXLinesDouble) { check_all<double>(LineDir::X, true); }
TEST(Tridiagonal, CyclicYLinesFloat) { check_all<float>(LineDir::Y, true); }
TEST(Tridiagonal, CyclicYLinesDouble) { check_all<double>(LineDir::Y, true); }

// In place (x = d) gives the same answer.
TEST(Tridiagonal, InPlace) {
  for (Algorithm alg : kAllAlgorithms) {
    auto p = random_problem<double>(LineDir::Y, 37, 6, 5);
    std::vector<double> x = p.d, scratch(scratch_size(p.lines, true));
    solve_arrays_cpu<double>(alg, p.lines, true, p.a.data(), p.b.data(), p.c.data(), x.data(), x.data(),
                             scratch.data());
    EXPECT_LT(max_error(p, x, true), 1e-12) << algorithm_name(alg);
  }
}

TEST(Tridiagonal, CyclicTooShortIsRefused) {
  auto p = random_problem<double>(LineDir::X, 2, 2, 1);
  std::vector<double> x(p.size), scratch(scratch_size(p.lines, true));
  EXPECT_THROW(solve_arrays_cpu<double>(Algorithm::Thomas, p.lines, true, p.a.data(), p.b.data(), p.c.data(),
                                        p.d.data(), x.data(), scratch.data()),
               flowlua::BackendError);
}

// The registry picks by backend, precision and line length, and a forced variant that
// does not fit is refused with what it needs.
TEST(Tridiagonal, RegistryChoosesPerShape) {
  flowlua::KernelRegistry r;
  add_line_solver_variants(r, "lines_x", LineDir::X);
  add_line_solver_variants(r, "lines_y", LineDir::Y);
  flowlua::KernelKey k;
  k.model = "test", k.backend = "cpu", k.precision = flowlua::Precision::Double, k.nx = 1024, k.ny = 1024;
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "thomas");
  EXPECT_EQ(r.plan(k, {}).variant("lines_y"), "thomas");
  k.backend = "cuda";
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "pcr_thomas");
  EXPECT_EQ(r.plan(k, {}).variant("lines_y"), "partitioned");
  EXPECT_EQ(r.plan(k, {{"lines_y", "thomas"}}).variant("lines_y"), "thomas");
  EXPECT_THROW(r.plan(k, {{"lines_x", "partitioned"}}), flowlua::CaseError);  // strided loads along x
  k.nx = 4096;  // 4 * 4096 doubles fit one block's shared memory, 8 rows a thread of 512
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "pcr_thomas");
  k.nx = 4097;
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "thomas_tiled");
  EXPECT_THROW(r.plan(k, {{"lines_x", "pcr"}}), flowlua::CaseError);
  k.precision = flowlua::Precision::Float;
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "thomas_tiled");
  k.nx = 1024;
  EXPECT_EQ(r.plan(k, {}).variant("lines_x"), "pcr_thomas");
  k.nx = 64;  // few lines along y: one thread per chunk, or per line where lines are short
  EXPECT_EQ(r.plan(k, {}).variant("lines_y"), "partitioned");
  k.ny = 100;
  EXPECT_EQ(r.plan(k, {}).variant("lines_y"), "pcr_thomas");
  k.nx = 4096;
  EXPECT_EQ(r.plan(k, {}).variant("lines_y"), "thomas");
  EXPECT_EQ(algorithm_named("pcr"), Algorithm::PCR);
}
