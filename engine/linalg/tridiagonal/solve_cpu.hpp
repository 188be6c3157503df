// The batched solvers on the CPU: OpenMP over lines, each line by the same row
// arithmetic as the CUDA kernels (line_steps.hpp). cr, pcr and pcr_thomas run their
// steps serially on a copy of the line, in the order the GPU block runs them, so that
// the CPU is the reference for each algorithm and not only for the answer.
// thomas_tiled differs from thomas only in how the GPU moves memory: the same here.
#pragma once
#include <vector>

#include "backend/cpu/cpu_exec.hpp"

#include "linalg/tridiagonal/line_batch.hpp"
#include "linalg/tridiagonal/line_steps.hpp"
#include "linalg/tridiagonal/partitioned.hpp"
#include "linalg/tridiagonal/rows.hpp"

namespace flowlua::tridiag::cpu {

template <class Real, class Rows>
void load_line(const Rows& rows, int line, int n, std::vector<Row4<Real>>& r) {
  for (int k = 0; k < n; ++k) rows.row(line, k, r[k].a, r[k].b, r[k].c, r[k].d);
  r[0].a = 0;
  r[n - 1].c = 0;
}

template <class Real>
Row4<Real> at(const std::vector<Row4<Real>>& r, int k, int n) {
  return k < 0 || k >= n ? identity_row<Real>() : r[k];
}

// PCR steps with strides 1, 2, ..., until the stride reaches `until`.
template <class Real>
void pcr_steps(std::vector<Row4<Real>>& r, std::vector<Row4<Real>>& tmp, int n, int until) {
  for (int s = 1; s < until; s *= 2) {
    for (int k = 0; k < n; ++k) tmp[k] = reduce_row(at(r, k - s, n), r[k], at(r, k + s, n));
    r.swap(tmp);
  }
}

template <class Real, class Rows>
void solve_line(Algorithm alg, const Rows& rows, int line, int n, std::vector<Row4<Real>>& r,
                std::vector<Row4<Real>>& tmp, std::vector<Real>& cp, std::vector<Real>& dp) {
  if (alg == Algorithm::Thomas || alg == Algorithm::ThomasTiled) {
    thomas_line(rows, line, n, cp.data(), dp.data(), 1);
    return;
  }
  if (alg == Algorithm::PCR) {
    load_line(rows, line, n, r);
    pcr_steps(r, tmp, n, n);
    for (int k = 0; k < n; ++k) rows.store(line, k, r[k].d / r[k].b);
    return;
  }
  if (alg == Algorithm::PCRThomas) {
    load_line(rows, line, n, r);
    const int S = hybrid_subsystems(n);
    pcr_steps(r, tmp, n, S);
    for (int t = 0; t < S && t < n; ++t) {  // subsystem t: rows t, t + S, ...
      Real cprev = 0, dprev = 0;
      int k = t;
      for (; k < n; k += S) {
        thomas_forward(k == t ? Real(0) : r[k].a, r[k].b, r[k].c, r[k].d, cprev, dprev);
        r[k].c = cprev, r[k].d = dprev;
      }
      k -= S;
      Real x = r[k].d;
      rows.store(line, k, x);
      for (k -= S; k >= t; k -= S) {
        x = r[k].d - r[k].c * x;
        rows.store(line, k, x);
      }
    }
    return;
  }
  // CR on the system padded with identity rows to a power of two N.
  const int N = pow2_ceil(n);
  load_line(rows, line, n, r);
  for (int k = n; k < N; ++k) r[k] = identity_row<Real>();
  for (int s = 1; s < N; s *= 2)
    for (int k = 2 * s - 1; k < N; k += 2 * s) r[k] = reduce_row(at(r, k - s, N), r[k], at(r, k + s, N));
  r[N - 1].d = r[N - 1].d / r[N - 1].b;  // d holds x once a row is solved
  for (int s = N / 2; s >= 1; s /= 2)
    for (int k = s - 1; k < N; k += 2 * s)
      r[k].d = substitute_row(r[k], k - s >= 0 ? r[k - s].d : Real(0), k + s < N ? r[k + s].d : Real(0));
  for (int k = 0; k < n; ++k) rows.store(line, k, r[k].d);
}

// scratch: solve_scratch(b) elements (partitioned only; the others keep theirs per thread).
template <class Real, class Rows>
void solve(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
  const int n = b.n;
  if (n <= 0 || b.count <= 0) return;
  if (alg == Algorithm::Partitioned) {  // the three phases of partitioned.hpp, line by line
    const ChunkScratch<Real> s{scratch, chunks(n), b.count};
#pragma omp parallel for schedule(static) if (long(b.n) * b.count > 4096)
    for (int line = 0; line < b.count; ++line) {
      for (int p = 0; p < s.P; ++p) partitioned_chunk_reduce(rows, line, p, n, s);
      partitioned_interfaces(rows, line, n, s);
      for (int p = 0; p < s.P; ++p) partitioned_chunk_solve(rows, line, p, n, s);
    }
    return;
  }
#pragma omp parallel if (long(b.n) * b.count > 4096)
  {
    std::vector<Row4<Real>> r(pow2_ceil(n)), tmp(pow2_ceil(n));
    std::vector<Real> cp(n), dp(n);
#pragma omp for schedule(static)
    for (int line = 0; line < b.count; ++line) solve_line(alg, rows, line, n, r, tmp, cp, dp);
  }
}

// A cyclic batch by Sherman-Morrison: two solves of A' and one combining pass.
// scratch: scratch_size(b, true) elements.
template <class Real, class Rows>
void solve_cyclic(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
  const long nc = long(b.n) * b.count;
  Real *y = scratch + solve_scratch(b), *z = y + nc;
  solve<Real>(alg, b, ShermanMorrisonRows<Real, Rows>{rows, b.n, b.count, false, y}, scratch);
  solve<Real>(alg, b, ShermanMorrisonRows<Real, Rows>{rows, b.n, b.count, true, z}, scratch);
  const ShermanMorrisonCombine<Real, Rows> combine{rows, b.n, b.count, y, z};
#pragma omp parallel for schedule(static) if (nc > 4096)
  for (int line = 0; line < b.count; ++line)
    for (int k = 0; k < b.n; ++k) combine(line, k);
}

}  // namespace flowlua::tridiag::cpu

namespace flowlua::tridiag {
template <>
struct LineSolver<CpuExec> {
  template <class Real, class Rows>
  static void solve(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
    cpu::solve<Real>(alg, b, rows, scratch);
  }
  template <class Real, class Rows>
  static void solve_cyclic(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
    cpu::solve_cyclic<Real>(alg, b, rows, scratch);
  }
};
}  // namespace flowlua::tridiag
