// The momentum stage (momentum.hpp) through a shared-memory tile, CUDA only (issue
// 12): kernels.momentum = "central_tile_open" / "hybrid_tile_open". The for_each
// kernel reads ~16 values through L1 for every two it writes and in float stays near
// 70% of the copy bandwidth, short of loads in flight; here a block of 256 threads
// copies u and v of a tile of kW = 128 by H = 16 faces and a ring one face deep into
// shared memory with 16-byte asynchronous copies (cp.async; the aligned middle of each
// row, single values at its ends, as linalg/rbsor_tile.cuh), so that each value comes
// from device memory once and every load of the block is in flight at once, then
// computes F and G of its faces from shared memory with momentum_f_values /
// momentum_g_values, the functions the for_each kernel calls on the same values:
// the same bits.
//
// Faces 0 .. nx by 0 .. ny on one rank, no immersed bodies (the plan says where it
// applies); the outflow faces are the stage's second launch, as before.
#pragma once
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "backend/cuda/cuda_exec.cuh"
#include "models/projection/momentum.hpp"

namespace flowlua::projection {

namespace momentum_tile_detail {

constexpr int kW = 128, kH = 16, kThreads = 256;

template <class Real>
constexpr int vec_width() { return int(16 / sizeof(Real)); }
// kW + 2 values a row after a shift of up to V - 1, in whole vectors.
template <class Real>
constexpr int row_slot() {
  constexpr int V = vec_width<Real>();
  return (kW + 2 + V - 1 + V - 1) / V * V;
}
template <class Real>
constexpr std::size_t shared_bytes() { return 2 * std::size_t(kH + 2) * row_slot<Real>() * sizeof(Real); }

// Shared row rr holds field row j0 - 1 + rr from column i0 - 1 on, starting at
// rr * SW + shift so that 16-byte boundaries of the field fall on 16-byte shared
// addresses (sm = stride mod V; the sum is >= -1 - 1 and & (V - 1) is its mod V).
template <class Real>
__device__ __forceinline__ int row_offset(int rr, int j0, int i0, int sm) {
  return rr * row_slot<Real>() + (((j0 - 1 + rr) * sm + i0 - 1) & (vec_width<Real>() - 1));
}

// Field elements [a, b) of one row into srow[g - gs], by one warp's lanes.
template <class Real>
__device__ __forceinline__ void load_run(Real* srow, std::int64_t gs, const Real* __restrict__ src, std::int64_t a,
                                         std::int64_t b, int lane) {
  constexpr int V = vec_width<Real>();
  const std::int64_t head = b < (a + V - 1) / V * V ? b : (a + V - 1) / V * V;
  const std::int64_t tail = head > b / V * V ? head : b / V * V;
  const int nh = int(head - a), nt = int(b - tail);
  if (lane < nh) __pipeline_memcpy_async(srow + (a + lane - gs), src + a + lane, sizeof(Real));
  else if (lane < nh + nt) __pipeline_memcpy_async(srow + (tail + lane - nh - gs), src + tail + lane - nh, sizeof(Real));
  const int nv = int((tail - head) / V);
  for (int k = lane; k < nv; k += 32) {
    const std::int64_t g = head + std::int64_t(k) * V;
    __pipeline_memcpy_async(srow + (g - gs), src + g, 16);
  }
}

// The tile (blockIdx.x, blockIdx.y): faces i0 .. i0 + kW - 1, j0 .. j0 + kH - 1 of
// 0 .. nx, 0 .. ny. Shared: u, then v, kH + 2 rows each.
template <class Real, bool kCentral, class Cells>
__global__ void __launch_bounds__(kThreads) momentum_tile_kernel(State<Real> s, MomentumParams<Real> m, Cells cells,
                                                                 const double* step) {
  extern __shared__ __align__(16) unsigned char momentum_smem[];
  constexpr int SW = row_slot<Real>();
  Real* const su = reinterpret_cast<Real*>(momentum_smem);
  Real* const sv = su + (kH + 2) * SW;
  const int nx = s.nb.nx, ny = s.nb.ny;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int i0 = blockIdx.x * kW, j0 = blockIdx.y * kH;
  const std::int64_t stride = std::int64_t(nx) + 2;
  const int sm = int(stride & (vec_width<Real>() - 1));
  // Columns i0 - 1 .. i0 + kW, rows j0 - 1 .. j0 + kH, clipped to 0 .. nx + 1, 0 .. ny + 1.
  const int ilo = i0 - 1 > 0 ? i0 - 1 : 0, ihi = i0 + kW < nx + 1 ? i0 + kW : nx + 1;
  for (int task = warp; task < 2 * (kH + 2); task += kThreads / 32) {
    const bool is_u = task < kH + 2;
    const int rr = is_u ? task : task - (kH + 2);
    const int r = j0 - 1 + rr;
    if (r < 0 || r > ny + 1) continue;
    const std::int64_t row = std::int64_t(r) * stride;
    load_run((is_u ? su : sv) + row_offset<Real>(rr, j0, i0, sm), row + i0 - 1, is_u ? s.u : s.v, row + ilo,
             row + ihi + 1, lane);
  }
  __pipeline_commit();
  if (step) {  // kernels.dt = "device" (MomentumStage)
    m.dt = Real(step[0]);
    m.gamma = Real(step[2]);
  }
  __pipeline_wait_prior(0);
  __syncthreads();

  // kW * kH / kThreads faces a thread, 32 consecutive ones of a row a warp; every
  // value is computed before any is stored (the stores then go out together).
  constexpr int M = kW * kH / kThreads;
  Real fv[M], gv[M];
#pragma unroll
  for (int k = 0; k < M; ++k) {
    const int c = k * kThreads + tid;
    const int x = 1 + c % kW, rr = 1 + c / kW;
    const int i = i0 - 1 + x, j = j0 - 1 + rr;
    fv[k] = gv[k] = Real(0);
    if (i > nx || j > ny) continue;
    const int o = row_offset<Real>(rr, j0, i0, sm) + x;
    const bool eu = j >= 1 && u_unknown(cells, s.nb, i, j), ev = i >= 1 && v_unknown(cells, s.nb, i, j);
    fv[k] = su[o];
    gv[k] = sv[o];
    if (eu) {
      const int on = row_offset<Real>(rr + 1, j0, i0, sm) + x, os = row_offset<Real>(rr - 1, j0, i0, sm) + x;
      fv[k] = momentum_f_values<Real, kCentral>(m, s.idx, s.idy, su[o], su[o + 1], su[o - 1], su[on], su[os], sv[o],
                                                sv[o + 1], sv[os], sv[os + 1]);
    }
    if (ev) {
      const int on = row_offset<Real>(rr + 1, j0, i0, sm) + x, os = row_offset<Real>(rr - 1, j0, i0, sm) + x;
      gv[k] = momentum_g_values<Real, kCentral>(m, s.idx, s.idy, sv[o], sv[o + 1], sv[o - 1], sv[on], sv[os], su[o],
                                                su[on], su[o - 1], su[on - 1]);
    }
  }
#pragma unroll
  for (int k = 0; k < M; ++k) {
    const int c = k * kThreads + tid;
    const int i = i0 + c % kW, j = j0 + c / kW;
    if (i > nx || j > ny) continue;
    const std::size_t at = std::size_t(j) * std::size_t(stride) + std::size_t(i);
    s.f[at] = fv[k];
    s.g[at] = gv[k];
  }
}

}  // namespace momentum_tile_detail

template <>
struct MomentumTile<CudaExec> {
  static constexpr bool available = true;
  // F, G on faces 0 .. nx by 0 .. ny (MomentumStage's for_each range on one rank).
  template <class Real, bool kCentral, class Cells>
  static void run(const State<Real>& s, const MomentumParams<Real>& m, const Cells& cells, const double* step) {
    using namespace momentum_tile_detail;
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    if (!aligned(s.u) || !aligned(s.v)) {  // cudaMalloc gives 256: not expected
      CudaExec::for_each(0, s.nb.nx, 0, s.nb.ny, MomentumStage<Real, kCentral, Cells>{s, m, cells, {}, step});
      return;
    }
    const dim3 grid((s.nb.nx + 1 + kW - 1) / kW, (s.nb.ny + 1 + kH - 1) / kH);
    constexpr std::size_t smem = shared_bytes<Real>();
    static_assert(smem <= 48 * 1024, "more than a launch gets without opting in");
    momentum_tile_kernel<Real, kCentral, Cells>
        <<<grid, kThreads, smem, cuda_detail::launch_stream()>>>(s, m, cells, step);
    cuda_check(cudaGetLastError(), "momentum tile launch");
  }
};

}  // namespace flowlua::projection
