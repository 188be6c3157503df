// The arithmetic of the tridiagonal algorithms, one row or one line at a time, shared
// by the CPU loops (solve_cpu.hpp) and the CUDA kernels (solve_cuda.cuh).
#pragma once
#include "core/hd.hpp"
#include "linalg/tridiagonal/line_batch.hpp"

namespace flowlua::tridiag {

template <class Real>
struct Row4 {
  Real a, b, c, d;
};

// The row outside the system on either side: x = 0 there, coupled to nothing.
template <class Real>
FL_HD Row4<Real> identity_row() {
  return {Real(0), Real(1), Real(0), Real(0)};
}

// One step of the Thomas forward elimination: row (a, b, c, d) minus a times the
// previous eliminated row (1, cp, dp) gives the eliminated row (1, cp, dp) of this one.
// At k = 0 pass cp = dp = 0 and a = 0.
template <class Real>
FL_HD void thomas_forward(Real a, Real b, Real c, Real d, Real& cp, Real& dp) {
  const Real m = Real(1) / (b - a * cp);
  cp = c * m;
  dp = (d - a * dp) * m;
}

// The whole Thomas algorithm on one line (the seed's PTA when each thread runs one
// line): c' and d' go to cp[k * stride], dp[k * stride] and are read back by the
// back substitution, which hands x_k to rows.store.
template <class Real, class Rows>
FL_HD void thomas_line(const Rows& rows, int line, int n, Real* cp, Real* dp, long stride) {
  Real a, b, c, d, cprev = 0, dprev = 0;
  rows.row(line, 0, a, b, c, d);
  thomas_forward(Real(0), b, c, d, cprev, dprev);
  cp[0] = cprev;
  dp[0] = dprev;
  for (int k = 1; k < n; ++k) {
    rows.row(line, k, a, b, c, d);
    thomas_forward(a, b, c, d, cprev, dprev);
    cp[k * stride] = cprev;
    dp[k * stride] = dprev;
  }
  Real x = dprev;
  rows.store(line, n - 1, x);
  for (int k = n - 2; k >= 0; --k) {
    x = dp[k * stride] - cp[k * stride] * x;
    rows.store(line, k, x);
  }
}

// Cyclic reduction and PCR both replace row k by itself plus multiples of the rows s
// below (lo) and s above (hi) that remove its couplings to x_{k-s} and x_{k+s}; the
// new row couples x_{k-2s} and x_{k+2s}. Rows outside the system are identity rows,
// so the couplings of rows near the ends (zero by then) stay zero.
template <class Real>
FL_HD Row4<Real> reduce_row(const Row4<Real>& lo, const Row4<Real>& me, const Row4<Real>& hi) {
  const Real alpha = -me.a / lo.b, gamma = -me.c / hi.b;
  return {alpha * lo.a, me.b + alpha * lo.c + gamma * hi.a, gamma * hi.c, me.d + alpha * lo.d + gamma * hi.d};
}

// Back substitution of cyclic reduction: x_k from its reduced row and the solved
// x_{k-s}, x_{k+s} (0 outside the system).
template <class Real>
FL_HD Real substitute_row(const Row4<Real>& me, Real x_lo, Real x_hi) {
  return (me.d - me.a * x_lo - me.c * x_hi) / me.b;
}

// Sherman-Morrison for a cyclic system (Press et al., Numerical Recipes, 2nd ed.,
// section 2.7, eqs. 2.7.9-2.7.11): with beta = a_0 (x_{n-1} in row 0), alpha = c_{n-1}
// (x_0 in row n-1) and gamma = -b_0, the matrix A' = A - u v^T with
// u = (gamma, 0, ..., 0, alpha), v = (1, 0, ..., 0, beta / gamma) is tridiagonal:
// b'_0 = b_0 - gamma, b'_{n-1} = b_{n-1} - alpha beta / gamma. Solve A' y = d and
// A' z = u; then x = y - z (y_0 + beta y_{n-1} / gamma) / (1 + z_0 + beta z_{n-1} / gamma).
template <class Real>
FL_HD Real sherman_morrison_factor(Real y0, Real yn, Real z0, Real zn, Real beta, Real gamma) {
  return (y0 + beta * yn / gamma) / (Real(1) + z0 + beta * zn / gamma);
}

// Threads of a block that solves one line in shared memory (cr, pcr, pcr_thomas):
// enough that each holds at most kRowsPerThread rows during a PCR step.
constexpr int kRowsPerThread = 8;
// 512, not the hardware's 1024: a PCR thread holds kRowsPerThread rows in registers
// (64 in double), and a 1024-thread block allows only 64 registers per thread
// (the kernels carry __launch_bounds__(kMaxBlockThreads)).
constexpr int kMaxBlockThreads = 512;
inline int pow2_ceil(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}
inline int block_threads(int n) {
  int t = pow2_ceil((n + kRowsPerThread - 1) / kRowsPerThread);
  return t < 32 ? 32 : t;
}
// pcr_thomas: PCR steps until there are this many independent subsystems (a power
// of two, each of about kRowsPerThread rows), then one thread per subsystem.
inline int hybrid_subsystems(int n) {
  int s = 1;
  while (s * 2 <= block_threads(n) && s * 2 * kRowsPerThread <= n) s *= 2;
  return s;
}
// Shared memory of the one-line-per-block algorithms: four rows' worth of Real per
// (padded, for cr) unknown; lines longer than the device allows are left to thomas.
inline long shared_bytes(Algorithm alg, int n, int real_size) {
  const long rows = alg == Algorithm::CR ? pow2_ceil(n) : n;
  return 4 * rows * real_size;
}
constexpr long kMaxSharedBytes = 200 * 1024;  // H100: 227 KiB per block with opt-in

}  // namespace flowlua::tridiag
