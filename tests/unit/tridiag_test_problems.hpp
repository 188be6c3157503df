// Random batches of tridiagonal systems laid along the lines of a padded 2D field, and
// the reference answer by dense Gaussian elimination with partial pivoting in double
// (tests/unit/test_tridiagonal.cpp, tests/gpu/test_cuda_tridiagonal.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "linalg/tridiagonal/line_batch.hpp"

namespace tridiag_test {

using flowlua::tridiag::LineBatch;
using flowlua::tridiag::LineDir;

template <class Real>
struct Problem {
  LineBatch lines;
  long size = 0;  // elements of each field
  std::vector<Real> a, b, c, d;
};

// The lines of an nx x ny block inside a field with a pitch and an offset, so that the
// strides of a real field (ghost layers) are exercised; rows strictly diagonally
// dominant (|b| >= |a| + |c| + 0.5), b of either sign.
template <class Real>
Problem<Real> random_problem(LineDir dir, int n, int count, unsigned seed) {
  const int nx = dir == LineDir::X ? n : count, ny = dir == LineDir::X ? count : n;
  const long pitch = nx + 3, offset = pitch + 1;
  Problem<Real> p;
  p.lines = flowlua::tridiag::field_lines(dir, nx, ny, pitch, offset);
  p.size = offset + pitch * (ny + 1);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  p.a.assign(p.size, Real(7)), p.b = p.a, p.c = p.a, p.d = p.a;  // 7 outside the block: never read
  for (int l = 0; l < p.lines.count; ++l)
    for (int k = 0; k < n; ++k) {
      const long i = p.lines.index(l, k);
      const double a = u(gen), c = u(gen), b = std::abs(a) + std::abs(c) + 0.5 + std::abs(u(gen));
      p.a[i] = Real(a), p.c[i] = Real(c), p.b[i] = Real(u(gen) < 0 ? -b : b), p.d[i] = Real(u(gen));
    }
  return p;
}

// x of line l by dense elimination; cyclic: a_0 couples x_{n-1}, c_{n-1} couples x_0.
template <class Real>
std::vector<double> dense_solve(const Problem<Real>& p, int l, bool cyclic) {
  const int n = p.lines.n;
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0.0));
  for (int k = 0; k < n; ++k) {
    const long i = p.lines.index(l, k);
    m[k][k] += p.b[i];
    if (k > 0) m[k][k - 1] += p.a[i];
    else if (cyclic) m[k][n - 1] += p.a[i];
    if (k < n - 1) m[k][k + 1] += p.c[i];
    else if (cyclic) m[k][0] += p.c[i];
    m[k][n] = p.d[i];
  }
  for (int col = 0; col < n; ++col) {
    int piv = col;
    for (int r = col + 1; r < n; ++r)
      if (std::abs(m[r][col]) > std::abs(m[piv][col])) piv = r;
    std::swap(m[col], m[piv]);
    for (int r = col + 1; r < n; ++r) {
      const double f = m[r][col] / m[col][col];
      for (int q = col; q <= n; ++q) m[r][q] -= f * m[col][q];
    }
  }
  std::vector<double> x(n);
  for (int r = n - 1; r >= 0; --r) {
    double s = m[r][n];
    for (int q = r + 1; q < n; ++q) s -= m[r][q] * x[q];
    x[r] = s / m[r][r];
  }
  return x;
}

// Largest |x - x_dense| over the batch, relative to the largest |x_dense|.
template <class Real>
double max_error(const Problem<Real>& p, const std::vector<Real>& x, bool cyclic) {
  double err = 0, scale = 0;
  for (int l = 0; l < p.lines.count; ++l) {
    const auto ref = dense_solve(p, l, cyclic);
    for (int k = 0; k < p.lines.n; ++k) {
      err = std::max(err, std::abs(double(x[p.lines.index(l, k)]) - ref[k]));
      scale = std::max(scale, std::abs(ref[k]));
    }
  }
  return err / scale;
}

// For lines too long for a dense solve: the largest |A x - d| relative to
// max|A| max|x| (backward error).
template <class Real>
double residual(const Problem<Real>& p, const std::vector<Real>& x, bool cyclic) {
  const int n = p.lines.n;
  double r = 0, amax = 0, xmax = 0;
  for (int l = 0; l < p.lines.count; ++l)
    for (int k = 0; k < n; ++k) {
      const long i = p.lines.index(l, k);
      const int km = k > 0 ? k - 1 : n - 1, kp = k < n - 1 ? k + 1 : 0;
      const bool lo = k > 0 || cyclic, hi = k < n - 1 || cyclic;
      double s = double(p.b[i]) * x[i] - p.d[i];
      if (lo) s += double(p.a[i]) * x[p.lines.index(l, km)];
      if (hi) s += double(p.c[i]) * x[p.lines.index(l, kp)];
      r = std::max(r, std::abs(s));
      amax = std::max(amax, std::abs(double(p.a[i])) + std::abs(double(p.b[i])) + std::abs(double(p.c[i])));
      xmax = std::max(xmax, std::abs(double(x[i])));
    }
  return r / (amax * xmax);
}

// Round-off allowed against the dense solve: a few hundred units in the last place.
template <class Real>
double tolerance() {
  return sizeof(Real) == 4 ? 2e-5 : 1e-12;
}

}  // namespace tridiag_test
