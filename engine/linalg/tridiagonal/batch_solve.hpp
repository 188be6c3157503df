// Batched tridiagonal solves of coefficients given as arrays, on either backend: the
// entry points for tests, the benchmark, and any code that does not generate its rows
// from a stencil (those include solve_cpu.hpp / solve_cuda.cuh with their own Rows).
#pragma once
#include <algorithm>
#include <string>

#include "linalg/tridiagonal/line_batch.hpp"
#include "linalg/tridiagonal/line_steps.hpp"

namespace flowlua::tridiag {

// Whether `alg` can solve this batch on the backend; if not, why (for --explain and
// error messages).
inline bool supports(Algorithm alg, const LineBatch& b, bool cyclic, bool cuda, int real_size,
                     std::string* why = nullptr) {
  auto no = [&](std::string w) {
    if (why) *why = std::move(w);
    return false;
  };
  if (cyclic && b.n < 3) return no("a cyclic system needs at least 3 unknowns");
  const bool block = alg == Algorithm::CR || alg == Algorithm::PCR || alg == Algorithm::PCRThomas;
  if (cuda && block &&
      (shared_bytes(alg, b.n, real_size) > kMaxSharedBytes || b.n > kRowsPerThread * kMaxBlockThreads))
    return no("lines of at most " +
              std::to_string(std::min<long>(kMaxSharedBytes / (4 * real_size), kRowsPerThread * kMaxBlockThreads)) +
              " unknowns (one line per block in shared memory)");
  return true;
}

// a, b, c, d, x and scratch (scratch_size(b, cyclic) elements) in the backend's
// memory, laid out as `b` says; x may be d.
template <class Real>
void solve_arrays_cpu(Algorithm alg, const LineBatch& b, bool cyclic, const Real* a, const Real* bd, const Real* c,
                      const Real* d, Real* x, Real* scratch);
template <class Real>
void solve_arrays_cuda(Algorithm alg, const LineBatch& b, bool cyclic, const Real* a, const Real* bd, const Real* c,
                       const Real* d, Real* x, Real* scratch);  // BackendError without CUDA

}  // namespace flowlua::tridiag
