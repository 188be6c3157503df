// The batched solvers on the GPU (included by .cu files only). The arithmetic is
// line_steps.hpp's, as on the CPU (solve_cpu.hpp); what differs is how lines map to
// threads and how memory is moved:
//   thomas        one thread per line (PTA); c', d' in scratch laid out k * count + line,
//                 so a warp's loads and stores are coalesced when the lines are
//                 interleaved (lines along y) and the scratch always is;
//   thomas_tiled  the same per line, for lines along the contiguous direction: a warp
//                 owns 32 lines and moves them through a 32 x 33 shared tile, so it
//                 reads and writes whole rows of 32 consecutive unknowns;
//   cr, pcr, pcr_thomas  one block per line in shared memory (loads coalesced along a
//                 contiguous line), the line's rows read once and x written once;
//   partitioned   one thread per chunk of 32 rows, line fastest (coalesced on
//                 interleaved lines), three kernels (partitioned.hpp).
#pragma once
#include <cuda_runtime.h>

#include "backend/cuda/cuda_exec.cuh"
#include "core/error.hpp"
#include "linalg/tridiagonal/line_batch.hpp"
#include "linalg/tridiagonal/line_steps.hpp"
#include "linalg/tridiagonal/partitioned.hpp"
#include "linalg/tridiagonal/rows.hpp"

namespace flowlua::tridiag::cuda {

template <class Real, class Rows>
__global__ void thomas_kernel(Rows rows, int n, int count, Real* cp, Real* dp) {
  const int line = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (line < count) thomas_line(rows, line, n, cp + line, dp + line, long(count));
}

constexpr int kTile = 32;

template <class Real, class Rows>
__global__ void thomas_tiled_kernel(Rows rows, int n, int count, Real* cp, Real* dp) {
  __shared__ Real t[4][kTile][kTile + 1];  // +1: a thread's walk along its line hits distinct banks
  const int lane = int(threadIdx.x), base = int(blockIdx.x) * kTile, line = base + lane;
  const int lines = min(kTile, count - base);
  Real cprev = 0, dprev = 0;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    const int m = min(kTile, n - k0);
    if (lane < m)
      for (int l = 0; l < lines; ++l) rows.row(base + l, k0 + lane, t[0][l][lane], t[1][l][lane], t[2][l][lane], t[3][l][lane]);
    __syncwarp();
    if (lane < lines)
      for (int kk = 0; kk < m; ++kk) {
        const int k = k0 + kk;
        thomas_forward(k == 0 ? Real(0) : t[0][lane][kk], t[1][lane][kk], t[2][lane][kk], t[3][lane][kk], cprev, dprev);
        cp[long(k) * count + line] = cprev;
        dp[long(k) * count + line] = dprev;
      }
    __syncwarp();
  }
  Real x = dprev;
  for (int k0 = ((n - 1) / kTile) * kTile; k0 >= 0; k0 -= kTile) {
    const int m = min(kTile, n - k0);
    if (lane < lines)
      for (int kk = m - 1; kk >= 0; --kk) {
        const int k = k0 + kk;
        if (k < n - 1) x = dp[long(k) * count + line] - cp[long(k) * count + line] * x;
        t[0][lane][kk] = x;
      }
    __syncwarp();
    if (lane < m)
      for (int l = 0; l < lines; ++l) rows.store(base + l, k0 + lane, t[0][l][lane]);
    __syncwarp();
  }
}

template <class Real>
struct SharedRows {
  Real *a, *b, *c, *d;
  int n;
  __device__ Row4<Real> get(int k) const {
    if (k < 0 || k >= n) return identity_row<Real>();
    return {a[k], b[k], c[k], d[k]};
  }
  __device__ void put(int k, const Row4<Real>& r) const { a[k] = r.a, b[k] = r.b, c[k] = r.c, d[k] = r.d; }
};

template <class Real, class Rows>
__device__ SharedRows<Real> load_line(const Rows& rows, int line, int n, int padded) {
  extern __shared__ __align__(16) unsigned char smem[];
  Real* base = reinterpret_cast<Real*>(smem);
  SharedRows<Real> s{base, base + padded, base + 2 * padded, base + 3 * padded, padded};
  for (int k = int(threadIdx.x); k < padded; k += int(blockDim.x)) {
    Real a = 0, b = 1, c = 0, d = 0;  // identity rows pad a cr system to a power of two
    if (k < n) rows.row(line, k, a, b, c, d);
    if (k == 0) a = 0;
    if (k == n - 1) c = 0;
    s.put(k, {a, b, c, d});
  }
  __syncthreads();
  return s;
}

// pcr (subsystems = 0): PCR steps until every row is decoupled, x = d / b.
// pcr_thomas (subsystems = S): PCR steps with strides 1 .. S/2, then thread t < S runs
// Thomas on rows t, t + S, ... (consecutive threads, consecutive banks).
template <class Real, class Rows>
__global__ void __launch_bounds__(kMaxBlockThreads) pcr_kernel(Rows rows, int n, int subsystems) {
  const int line = int(blockIdx.x), T = int(blockDim.x), tid = int(threadIdx.x);
  SharedRows<Real> s = load_line<Real>(rows, line, n, n);
  const int until = subsystems ? subsystems : n;
  for (int st = 1; st < until; st *= 2) {
    Row4<Real> r[kRowsPerThread];
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int k = tid + i * T;
      if (k < n) r[i] = reduce_row(s.get(k - st), s.get(k), s.get(k + st));
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int k = tid + i * T;
      if (k < n) s.put(k, r[i]);
    }
    __syncthreads();
  }
  if (!subsystems) {
    for (int k = tid; k < n; k += T) rows.store(line, k, s.d[k] / s.b[k]);
    return;
  }
  if (tid < subsystems && tid < n) {
    Real cprev = 0, dprev = 0;
    int k = tid;
    for (; k < n; k += subsystems) {
      thomas_forward(k == tid ? Real(0) : s.a[k], s.b[k], s.c[k], s.d[k], cprev, dprev);
      s.c[k] = cprev, s.d[k] = dprev;
    }
    k -= subsystems;
    Real x = s.d[k];
    for (k -= subsystems; k >= tid; k -= subsystems) {
      x = s.d[k] - s.c[k] * x;
      s.d[k] = x;
    }
  }
  __syncthreads();
  for (int k = tid; k < n; k += T) rows.store(line, k, s.d[k]);
}

// Cyclic reduction on the line padded to N = 2^p rows: forward reduction of rows
// 2s-1 mod 2s, x_{N-1}, back substitution of rows s-1 mod 2s (d holds x once solved).
template <class Real, class Rows>
__global__ void __launch_bounds__(kMaxBlockThreads) cr_kernel(Rows rows, int n, int N) {
  const int line = int(blockIdx.x), T = int(blockDim.x), tid = int(threadIdx.x);
  SharedRows<Real> s = load_line<Real>(rows, line, n, N);
  for (int st = 1; st < N; st *= 2) {
    for (int t = tid; t < N / (2 * st); t += T) {
      const int k = 2 * st * (t + 1) - 1;
      s.put(k, reduce_row(s.get(k - st), s.get(k), s.get(k + st)));
    }
    __syncthreads();
  }
  if (tid == 0) s.d[N - 1] = s.d[N - 1] / s.b[N - 1];
  __syncthreads();
  for (int st = N / 2; st >= 1; st /= 2) {
    for (int t = tid; t < N / (2 * st); t += T) {
      const int k = st - 1 + 2 * st * t;
      s.d[k] = substitute_row(s.get(k), k - st >= 0 ? s.d[k - st] : Real(0), k + st < N ? s.d[k + st] : Real(0));
    }
    __syncthreads();
  }
  for (int k = tid; k < n; k += T) rows.store(line, k, s.d[k]);
}

// The phases of partitioned.hpp: thread t works on line t % count, chunk t / count.
template <class Real, class Rows>
__global__ void chunk_reduce_kernel(Rows rows, int n, ChunkScratch<Real> s) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < long(s.P) * s.count) partitioned_chunk_reduce(rows, int(t % s.count), int(t / s.count), n, s);
}
template <class Real, class Rows>
__global__ void interfaces_kernel(Rows rows, int n, ChunkScratch<Real> s) {
  const int line = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (line < s.count) partitioned_interfaces(rows, line, n, s);
}
template <class Real, class Rows>
__global__ void chunk_solve_kernel(Rows rows, int n, ChunkScratch<Real> s) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < long(s.P) * s.count) partitioned_chunk_solve(rows, int(t % s.count), int(t / s.count), n, s);
}

template <class Kernel>
void allow_shared(Kernel kernel, long bytes) {
  if (bytes > 48 * 1024)
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute(shared memory)");
}

// One batch; scratch: solve_scratch(b) elements of device memory (thomas, partitioned).
template <class Real, class Rows>
void solve(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
  const int n = b.n, count = b.count;
  if (n <= 0 || count <= 0) return;
  const long nc = long(n) * count;
  const long bytes = shared_bytes(alg, n, int(sizeof(Real)));
  const bool block = alg == Algorithm::CR || alg == Algorithm::PCR || alg == Algorithm::PCRThomas;
  if (block && (bytes > kMaxSharedBytes || n > kRowsPerThread * kMaxBlockThreads))
    throw BackendError(std::string("tridiagonal ") + algorithm_name(alg) + ": a line of " + std::to_string(n) +
                       " unknowns does not fit in one block's shared memory");
  switch (alg) {
    case Algorithm::Thomas:
      thomas_kernel<Real><<<(count + 127) / 128, 128>>>(rows, n, count, scratch, scratch + nc);
      break;
    case Algorithm::ThomasTiled:
      thomas_tiled_kernel<Real><<<(count + kTile - 1) / kTile, kTile>>>(rows, n, count, scratch, scratch + nc);
      break;
    case Algorithm::PCR:
      allow_shared(pcr_kernel<Real, Rows>, bytes);
      pcr_kernel<Real><<<count, block_threads(n), bytes>>>(rows, n, 0);
      break;
    case Algorithm::PCRThomas:
      allow_shared(pcr_kernel<Real, Rows>, bytes);
      pcr_kernel<Real><<<count, block_threads(n), bytes>>>(rows, n, hybrid_subsystems(n));
      break;
    case Algorithm::CR:
      allow_shared(cr_kernel<Real, Rows>, bytes);
      cr_kernel<Real><<<count, block_threads(n), bytes>>>(rows, n, pow2_ceil(n));
      break;
    case Algorithm::Partitioned: {
      const ChunkScratch<Real> s{scratch, chunks(n), count};
      const long threads = long(s.P) * count;
      const unsigned blocks = unsigned((threads + 127) / 128);
      chunk_reduce_kernel<Real><<<blocks, 128>>>(rows, n, s);
      interfaces_kernel<Real><<<(count + 127) / 128, 128>>>(rows, n, s);
      chunk_solve_kernel<Real><<<blocks, 128>>>(rows, n, s);
      break;
    }
  }
  cuda_check(cudaGetLastError(), "tridiagonal solve launch");
}

// A cyclic batch by Sherman-Morrison (line_steps.hpp); scratch: scratch_size(b, true).
template <class Real, class Rows>
void solve_cyclic(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
  const long nc = long(b.n) * b.count;
  Real *y = scratch + solve_scratch(b), *z = y + nc;
  solve<Real>(alg, b, ShermanMorrisonRows<Real, Rows>{rows, b.n, b.count, false, y}, scratch);
  solve<Real>(alg, b, ShermanMorrisonRows<Real, Rows>{rows, b.n, b.count, true, z}, scratch);
  CudaExec::for_each(0, b.count - 1, 0, b.n - 1, ShermanMorrisonCombine<Real, Rows>{rows, b.n, b.count, y, z});
}

}  // namespace flowlua::tridiag::cuda

namespace flowlua::tridiag {
template <>
struct LineSolver<CudaExec> {
  template <class Real, class Rows>
  static void solve(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
    cuda::solve<Real>(alg, b, rows, scratch);
  }
  template <class Real, class Rows>
  static void solve_cyclic(Algorithm alg, const LineBatch& b, const Rows& rows, Real* scratch) {
    cuda::solve_cyclic<Real>(alg, b, rows, scratch);
  }
};
}  // namespace flowlua::tridiag
