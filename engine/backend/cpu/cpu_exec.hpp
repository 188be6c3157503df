// The CPU backend: memory is plain host memory, a launch is an OpenMP loop over the
// index range, a reduction is an OpenMP reduction. The point functions it runs are
// the same ones the CUDA backend runs (see backend/cuda/cuda_exec.cuh).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>

#include "core/error.hpp"

namespace flowlua {

struct CpuExec {
  static constexpr const char* name = "cpu";

  template <class T>
  static T* alloc(std::size_t n) {
    T* p = static_cast<T*>(::operator new[](n * sizeof(T), std::align_val_t(64), std::nothrow));
    if (!p) throw BackendError("out of host memory");
    return p;
  }
  template <class T>
  static void release(T* p) { ::operator delete[](p, std::align_val_t(64)); }
  // Host memory for transfers (page-locked on CUDA): the same here.
  template <class T>
  static T* alloc_host(std::size_t n) { return alloc<T>(n); }
  template <class T>
  static void release_host(T* p) { release(p); }
  template <class T>
  static void upload(T* dst, const T* src, std::size_t n) {
    if (n) std::memcpy(dst, src, n * sizeof(T));  // an empty array's pointer may be null
  }
  template <class T>
  static void download(T* dst, const T* src, std::size_t n) {
    if (n) std::memcpy(dst, src, n * sizeof(T));
  }
  template <class T>
  static void fill(T* dst, T value, std::size_t n) { std::fill(dst, dst + n, value); }
  // Parallel over chunks for large arrays: one thread's memcpy reaches a fraction
  // of the memory bandwidth (the benchmark harness measures the copy too).
  template <class T>
  static void copy(T* dst, const T* src, std::size_t n) {
    constexpr std::size_t chunk = std::size_t(1) << 16;
    const long chunks = long((n + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (chunks > 4)
    for (long c = 0; c < chunks; ++c) {
      const std::size_t a = std::size_t(c) * chunk, b = std::min(n, a + chunk);
      std::memcpy(dst + a, src + a, (b - a) * sizeof(T));
    }
  }

  // f(i, j) for i0 <= i <= i1, j0 <= j <= j1 (inclusive, like the formulas).
  template <class F>
  static void for_each(int i0, int i1, int j0, int j1, const F& f) {
#pragma omp parallel for schedule(static) if ((i1 - i0 + 1) * (j1 - j0 + 1) > 4096)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) f(i, j);
  }
  // f1 over its range, then f2 over its: two for_each calls (one launch on CUDA).
  template <class F1, class F2>
  static void for_each_in_turn(int i0, int i1, int j0, int j1, const F1& f1, int k0, int k1, int l0, int l1,
                               const F2& f2) {
    for_each(i0, i1, j0, j1, f1);
    for_each(k0, k1, l0, l1, f2);
  }
  // The CUDA backend's register budget (blocks per multiprocessor) means nothing here.
  template <int kMinBlocks, class F>
  static void for_each_bounded(int i0, int i1, int j0, int j1, const F& f) {
    for_each(i0, i1, j0, j1, f);
  }

  // Max of f(i, j) over the range; a NaN anywhere makes the result NaN, so that
  // blow-ups are seen by the scalar that comes back.
  template <class F>
  static double reduce_max(int i0, int i1, int j0, int j1, const F& f) {
    double m = -std::numeric_limits<double>::infinity();
    bool nan = false;
#pragma omp parallel for schedule(static) reduction(max : m) reduction(|| : nan) if ((i1 - i0 + 1) * (j1 - j0 + 1) > 4096)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        double v = f(i, j);
        if (v != v) nan = true;
        else m = v > m ? v : m;
      }
    return nan ? std::numeric_limits<double>::quiet_NaN() : m;
  }

  template <class F>
  static double reduce_sum(int i0, int i1, int j0, int j1, const F& f) {
    double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if ((i1 - i0 + 1) * (j1 - j0 + 1) > 4096)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) s += f(i, j);
    return s;
  }

  // The reductions into backend memory, as the CUDA backend has them.
  template <class F>
  static void reduce_max_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    *out = reduce_max(i0, i1, j0, j1, f);
  }
  template <class F>
  static void reduce_sum_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    *out = reduce_sum(i0, i1, j0, j1, f);
  }
  // f where gate.open() (backend/launch.hpp, GatedPoint): here memory is the host's,
  // so the gate is read once.
  template <class G, class F>
  static void for_each_gated(const G& gate, int i0, int i1, int j0, int j1, const F& f) {
    if (gate.open()) for_each(i0, i1, j0, j1, f);
  }
  // A reduction, then a one-thread stage (the CUDA backend runs both in one launch).
  template <class F, class Then>
  static void reduce_max_into_then(int i0, int i1, int j0, int j1, const F& f, double* out, const Then& then) {
    *out = reduce_max(i0, i1, j0, j1, f);
    then(0, 0);
  }
  template <class F, class Then>
  static void reduce_sum_into_then(int i0, int i1, int j0, int j1, const F& f, double* out, const Then& then) {
    *out = reduce_sum(i0, i1, j0, j1, f);
    then(0, 0);
  }
  template <class F1, class F2, class Then>
  static void reduce_max2_into_then(int i0, int i1, int j0, int j1, const F1& f1, const F2& f2, double* out1,
                                    double* out2, const Then& then) {
    *out1 = reduce_max(i0, i1, j0, j1, f1);
    *out2 = reduce_max(i0, i1, j0, j1, f2);
    then(0, 0);
  }
  static void read_scalars(double* host, const double* dev, int n) { std::memcpy(host, dev, n * sizeof(double)); }
  // The first n of every `stride` scalars, `rows` times (host laid out as dev).
  static void read_scalar_rows(double* host, const double* dev, int n, int stride, int rows) {
    for (int r = 0; r < rows; ++r) std::memcpy(host + std::size_t(r) * stride, dev + std::size_t(r) * stride, n * sizeof(double));
  }

  // Batches (backend/batch_launch.hpp): fs[b] for the members b = 0 .. n-1, each over
  // the same range, each result into *outs[b]. A member's loop is the one for_each /
  // reduce_* run alone, so its bits do not change: the members run side by side (one
  // thread each) where that keeps them (a launch's cells in any order; a sum only
  // where running alone would not have split it between threads), else in turn.
  // Members go to threads only when the launch as a whole is as large as one that
  // for_each would split (4096 points): smaller ones cost more in thread start-up
  // than they gain.
  static bool members_side_by_side(int i0, int i1, int j0, int j1, int n) {
    return n > 1 && long(i1 - i0 + 1) * (j1 - j0 + 1) * n > 4096;
  }
  template <class F>
  static void for_each_batch(int i0, int i1, int j0, int j1, const F* fs, int n) {
    if (n == 1) { for_each(i0, i1, j0, j1, fs[0]); return; }
#pragma omp parallel for schedule(static) if (members_side_by_side(i0, i1, j0, j1, n))
    for (int b = 0; b < n; ++b)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) fs[b](i, j);
  }
  template <class F>
  static void reduce_max_batch_into(int i0, int i1, int j0, int j1, const F* fs, double* const* outs, int n) {
    // The largest value is the same in any order (a NaN is carried either way).
#pragma omp parallel for schedule(static) if (members_side_by_side(i0, i1, j0, j1, n))
    for (int b = 0; b < n; ++b) *outs[b] = reduce_max(i0, i1, j0, j1, fs[b]);
  }
  template <class F>
  static void reduce_sum_batch_into(int i0, int i1, int j0, int j1, const F* fs, double* const* outs, int n) {
    const bool split_alone = (i1 - i0 + 1) * (j1 - j0 + 1) > 4096;  // reduce_sum's threshold
    if (split_alone || n == 1) {
      for (int b = 0; b < n; ++b) *outs[b] = reduce_sum(i0, i1, j0, j1, fs[b]);
      return;
    }
#pragma omp parallel for schedule(static) if (members_side_by_side(i0, i1, j0, j1, n))
    for (int b = 0; b < n; ++b) {
      double s = 0;
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) s += fs[b](i, j);
      *outs[b] = s;
    }
  }

  // The 3D loops: f(i, j, k) over the inclusive box, k slowest. The 2D loops above
  // are separate functions, so 2D kernels compile exactly as before.
  template <class F>
  static void for_each3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
#pragma omp parallel for collapse(2) schedule(static) if (long(i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1) > 4096)
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) f(i, j, k);
  }
  template <class F>
  static double reduce_sum3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
    double s = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : s) if (long(i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1) > 4096)
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) s += f(i, j, k);
    return s;
  }
  template <class F>
  static double reduce_max3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
    double m = -std::numeric_limits<double>::infinity();
    bool nan = false;
#pragma omp parallel for collapse(2) schedule(static) reduction(max : m) reduction(|| : nan) if (long(i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1) > 4096)
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
          double v = f(i, j, k);
          if (v != v) nan = true;
          else m = v > m ? v : m;
        }
    return nan ? std::numeric_limits<double>::quiet_NaN() : m;
  }
  template <class F>
  static void reduce_sum3_into(int i0, int i1, int j0, int j1, int k0, int k1, const F& f, double* out) {
    *out = reduce_sum3(i0, i1, j0, j1, k0, k1, f);
  }
  template <class F>
  static void reduce_max3_into(int i0, int i1, int j0, int j1, int k0, int k1, const F& f, double* out) {
    *out = reduce_max3(i0, i1, j0, j1, k0, k1, f);
  }

  static void synchronize() {}

  // Wall time of host work between start() and stop_ms(); the CUDA backend's Timer
  // has the same face and times device work with events.
  class Timer {
   public:
    void start() { t0_ = std::chrono::steady_clock::now(); }
    double stop_ms() {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
    }

   private:
    std::chrono::steady_clock::time_point t0_;
  };
};

}  // namespace flowlua
