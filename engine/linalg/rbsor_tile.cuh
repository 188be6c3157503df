// One red-black SOR sweep in one CUDA launch through a shared-memory tile (issue 12):
// the sweep of rbsor_fused.cuh (both colours, and the residual of the sweep's input,
// from p_in into p_out), organised for memory bandwidth instead of registers. The
// fused kernel holds a band of rows per warp in registers (96 registers a thread at
// 16 rows, a third of the warps an SM can hold) and updates it in a long chain of
// dependent rows; here a block of 256 threads owns a tile of kW = 128 columns by H
// rows (8, 16 or 32) and
//   0. copies into shared memory the old p of the tile and of a ring two cells deep
//      around it (rows j0 - 2 .. j0 + H + 1, columns i0 - 2 .. i0 + kW + 1) and rhs
//      on rows j0 - 1 .. j0 + H, with asynchronous copies (cp.async): 16 bytes each
//      in the aligned middle of a row, single values at its ends. Every load of the
//      block is in flight at once, and none holds a register;
//   1. for every cell of the tile and of a ring one cell deep: the stencil of the old
//      values, the squared residual (cells of the tile), and for red cells the new
//      value, kept in a register until every thread has read the old values (a
//      barrier), then stored in place;
//   2. updates the black cells of the tile in place from the new red values;
//   3. copies the tile to p_out, 16 bytes a store in the middle of each row.
// Neighbouring tiles recompute the red cells of the ring, so tiles are independent;
// reading p_in and writing p_out (never the same buffer) makes them independent of
// the order blocks run in, as in the fused kernel. Periodic sides are not handled
// (the plan keeps the two-colour variant for them).
//
// The rows of the grid are not 16-byte aligned (the stride nx + 2 is any number), so
// each shared row starts `shift` values into its slot: an element whose index in the
// field is a multiple of the vector width lands on a 16-byte aligned shared address,
// and a 16-byte global access maps onto a 16-byte shared one. The fields themselves
// must start 16-byte aligned (cudaMalloc gives 256); launch() falls back to the fused
// kernel when one does not.
//
// The arithmetic is stencil_parts / sor_value_scaled on the same values in the same
// order as the fused kernel, so both write the same bits (tests/gpu holds the tile to
// the fused variant bit for bit and to the CPU to round-off); only the residual's sum
// is added up in another order.
#pragma once
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "backend/cuda/cuda_exec.cuh"
#include "linalg/poisson_stencil.hpp"
#include "linalg/sor_device.hpp"

namespace flowlua {

namespace rbsor_tile_detail {

constexpr int kW = 128;        // columns a tile writes (a power of two: index arithmetic)
constexpr int kThreads = 256;  // threads a block
constexpr int kWarps = kThreads / 32;

template <class Real>
constexpr int vec_width() { return int(16 / sizeof(Real)); }  // values in 16 bytes
// Values in one shared row: the kW + 4 loaded ones after a shift of up to V - 1,
// rounded up to whole vectors.
template <class Real>
constexpr int row_slot() {
  constexpr int V = vec_width<Real>();
  return (kW + 4 + V - 1 + V - 1) / V * V;
}
template <class Real, int H>
constexpr std::size_t shared_bytes() {  // p and rhs, H + 4 rows each
  return 2 * std::size_t(H + 4) * row_slot<Real>() * sizeof(Real);
}

template <class Real>
struct Vec16;
template <>
struct Vec16<float> { using type = float4; };
template <>
struct Vec16<double> { using type = double2; };

// Field elements [a, b) (indices into the field, one row's run) copied into shared
// memory, where element g goes to srow[g - gs] (gs: the field index of the shared
// row's first column) by the 32 lanes of one warp: vectors of V values where g is a
// multiple of V, single values at the two ends.
template <class Real>
__device__ __forceinline__ void load_run(Real* srow, std::int64_t gs, const Real* __restrict__ src, std::int64_t a,
                                         std::int64_t b, int lane) {
  constexpr int V = vec_width<Real>();
  const std::int64_t head = b < (a + V - 1) / V * V ? b : (a + V - 1) / V * V;  // first vector (a >= 0)
  const std::int64_t tail = head > b / V * V ? head : b / V * V;                // after the last
  const int nh = int(head - a), nt = int(b - tail);
  if (lane < nh) __pipeline_memcpy_async(srow + (a + lane - gs), src + a + lane, sizeof(Real));
  else if (lane < nh + nt) __pipeline_memcpy_async(srow + (tail + lane - nh - gs), src + tail + lane - nh, sizeof(Real));
  const int nv = int((tail - head) / V);
  for (int k = lane; k < nv; k += 32) {
    const std::int64_t g = head + std::int64_t(k) * V;
    __pipeline_memcpy_async(srow + (g - gs), src + g, 16);
  }
}

// The reverse for the result: shared srow[g - gs] -> field element g, g in [a, b).
template <class Real>
__device__ __forceinline__ void store_run(const Real* srow, std::int64_t gs, Real* __restrict__ dst, std::int64_t a,
                                          std::int64_t b, int lane) {
  constexpr int V = vec_width<Real>();
  using Vec = typename Vec16<Real>::type;
  const std::int64_t head = b < (a + V - 1) / V * V ? b : (a + V - 1) / V * V;
  const std::int64_t tail = head > b / V * V ? head : b / V * V;
  const int nh = int(head - a), nt = int(b - tail);
  if (lane < nh) dst[a + lane] = srow[a + lane - gs];
  else if (lane < nh + nt) dst[tail + lane - nh] = srow[tail + lane - nh - gs];
  const int nv = int((tail - head) / V);
  for (int k = lane; k < nv; k += 32) {
    const std::int64_t g = head + std::int64_t(k) * V;
    *reinterpret_cast<Vec*>(dst + g) = *reinterpret_cast<const Vec*>(srow + (g - gs));
  }
}

// Field row r's shared row rr = r - (j0 - 2) starts at rr * SW + shift: the shift
// puts the field's 16-byte boundaries on shared ones (sm = stride mod V; r >= -1 and
// i0 - 2 >= -1, and & (V - 1) is the mathematical mod V also for a negative sum).
template <class Real>
__device__ __forceinline__ int row_offset(int rr, int j0, int i0, int sm) {
  return rr * row_slot<Real>() + (((j0 - 2 + rr) * sm + i0 - 2) & (vec_width<Real>() - 1));
}

// Step 0 for tile t (column block t % tiles_x, row block t / tiles_x) into the buffer
// at sp (p) and sr (rhs): p rows 0 .. H + 3, rhs rows 1 .. H + 2, one run a warp.
template <class Real, int H>
__device__ __forceinline__ void load_tile(Real* sp, Real* sr, const Real* __restrict__ pin,
                                          const Real* __restrict__ rhs, int t, int tiles_x, int nx, int ny) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int i0 = 1 + (t % tiles_x) * kW, j0 = 1 + (t / tiles_x) * H;
  const std::int64_t stride = std::int64_t(nx) + 2;
  const int sm = int(stride & (vec_width<Real>() - 1));
  // Columns i0 - 2 .. i0 + kW + 1, clipped to the grid's 0 .. nx + 1.
  const int ilo = i0 - 2 > 0 ? i0 - 2 : 0, ihi = i0 + kW + 1 < nx + 1 ? i0 + kW + 1 : nx + 1;
  constexpr int kRows = H + 4;
  for (int task = warp; task < 2 * kRows - 2; task += kWarps) {
    const bool is_p = task < kRows;
    const int rr = is_p ? task : task - kRows + 1;
    const int r = j0 - 2 + rr;
    if (r < 0 || r > ny + 1) continue;
    const std::int64_t row = std::int64_t(r) * stride;
    Real* srow = (is_p ? sp : sr) + row_offset<Real>(rr, j0, i0, sm);
    load_run(srow, row + i0 - 2, is_p ? pin : rhs, row + ilo, row + ihi + 1, lane);
  }
}

// Step 1 for the cell at shared row rr, column x (field i0 - 2 + x, j0 - 2 + rr; has:
// the thread has a cell in this slot): its value after the red update (the old value
// unless it is a red fluid cell), and with res_cell its squared residual added to acc.
// The arithmetic of the fused kernel: stencil_parts, then sor_value_scaled.
template <class Real, class Cells>
__device__ __forceinline__ Real red_cell(const Real* sp, const Real* sr, const Cells& cells, int rr, int x, int i0,
                                         int j0, int sm, int nx, int ny, bool has, bool res_cell, Real idx2, Real idy2,
                                         Real omega, Real omega_over_diag_interior, double& acc) {
  const int i = i0 - 2 + x, r = j0 - 2 + rr;  // both >= 0 (i0, j0 >= 1)
  const bool in = has && i <= nx + 1 && r <= ny + 1;
  const bool red = ((i + r) & 1) == 0;
  const CellFlags f = in ? cells.at(i, r) : CellFlags(0);
  const int s = row_offset<Real>(rr, j0, i0, sm) + x;
  const Real oc = in ? sp[s] : Real(0);
  Real q = oc;
  if (is_fluid(f) && (red || res_cell)) {  // a black cell's stencil only for its residual
    Real off, diag;
    stencil_parts(f, sp[s + 1], sp[s - 1], sp[row_offset<Real>(rr + 1, j0, i0, sm) + x],
                  sp[row_offset<Real>(rr - 1, j0, i0, sm) + x], idx2, idy2, off, diag);
    const Real rh = sr[s];
    // omega / diag of an interior cell: computed once on the host (the same bits).
    const Real wd = f == flag::kFluid ? omega_over_diag_interior : omega / diag;
    if (red && diag != 0) q = sor_value_scaled(oc, off, rh, omega, wd);
    if (res_cell) {
      const double res = double(rh) - (double(off) - double(diag) * double(oc));
      acc += res * res;
    }
  }
  return q;
}

// Steps 1 to 3 for tile t, whose loads have landed in sp / sr (and every thread has
// passed a barrier since); adds the squared residual of its cells to acc.
template <class Real, class Cells, bool kResidual, int H>
__device__ __forceinline__ void sweep_tile(Real* sp, const Real* sr, Real* __restrict__ pout, const Cells& cells,
                                           int t, int tiles_x, int nx, int ny, Real idx2, Real idy2, Real omega,
                                           Real omega_over_diag_interior, bool residual, double& acc) {
  static_assert(H % 4 == 0, "step 2 gives every thread H / 4 black cells");
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int i0 = 1 + (t % tiles_x) * kW, j0 = 1 + (t / tiles_x) * H;
  const std::int64_t stride = std::int64_t(nx) + 2;
  const int sm = int(stride & (vec_width<Real>() - 1));

  // 1. The red cells of the tile and of a ring one deep (shared rows 1 .. H + 2,
  // columns 1 .. kW + 2) from the old values, and, with the residual, the residual of
  // every cell of the tile. New red values wait in registers until every thread has
  // read the old ones (the barrier), then replace them.
  if constexpr (kResidual) {
    // Every cell (black ones for their residual): slots 0 .. M - 1 cover columns
    // 2 .. kW + 1, 32 consecutive cells of one row a warp; slot M the two ring
    // columns, 2 (H + 2) cells (threads past them have none).
    constexpr int M = (H + 2) * kW / kThreads;
    static_assert((H + 2) * kW % kThreads == 0 && 2 * (H + 2) <= kThreads, "slots");
    Real val[M + 1];
    const auto slot = [&](int m, int& rr, int& x) {
      if (m < M) {
        const int c = m * kThreads + tid;
        rr = 1 + c / kW;
        x = 2 + c % kW;
        return true;
      }
      rr = tid < 2 * (H + 2) ? 1 + (tid >> 1) : 1;
      x = (tid & 1) ? kW + 2 : 1;
      return tid < 2 * (H + 2);
    };
#pragma unroll
    for (int m = 0; m <= M; ++m) {
      int rr, x;
      const bool has = slot(m, rr, x);
      const bool res_cell = residual && m < M && rr >= 2 && rr <= H + 1;
      val[m] = red_cell(sp, sr, cells, rr, x, i0, j0, sm, nx, ny, has, res_cell, idx2, idy2, omega,
                        omega_over_diag_interior, acc);
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m <= M; ++m) {
      int rr, x;
      const bool has = slot(m, rr, x);
      const int i = i0 - 2 + x, r = j0 - 2 + rr;
      if (has && i <= nx + 1 && r <= ny + 1 && ((i + r) & 1) == 0) sp[row_offset<Real>(rr, j0, i0, sm) + x] = val[m];
    }
  } else {
    // Red cells only: R = kW / 2 + 1 of each row's columns 1 .. kW + 2, consecutive
    // threads along a row, then the next row.
    constexpr int R = kW / 2 + 1, M = ((H + 2) * R + kThreads - 1) / kThreads;
    Real val[M];
    const auto slot = [&](int m, int& rr, int& x) {
      const int c = m * kThreads + tid;
      rr = 1 + c / R;
      x = 1 + 2 * (c - (rr - 1) * R) + ((i0 + j0 + rr + 1) & 1);  // i + r even: i0 - 2 + x + j0 - 2 + rr
      return c < (H + 2) * R;
    };
#pragma unroll
    for (int m = 0; m < M; ++m) {
      int rr, x;
      const bool has = slot(m, rr, x);
      val[m] = red_cell(sp, sr, cells, rr, x, i0, j0, sm, nx, ny, has, false, idx2, idy2, omega,
                        omega_over_diag_interior, acc);
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < M; ++m) {
      int rr, x;
      const bool has = slot(m, rr, x);
      if (has && i0 - 2 + x <= nx + 1 && j0 - 2 + rr <= ny + 1) sp[row_offset<Real>(rr, j0, i0, sm) + x] = val[m];
    }
  }
  __syncthreads();

  // 2. Black cells of the tile: kW / 2 a row, 64 consecutive threads a row.
#pragma unroll
  for (int m = 0; m < H / 4; ++m) {
    const int c = m * kThreads + tid;
    const int rr = 2 + c / (kW / 2);
    const int r = j0 - 2 + rr;
    const int i = i0 + 2 * (c % (kW / 2)) + ((i0 + r + 1) & 1);  // i + r odd
    if (i > nx || r > ny) continue;
    const CellFlags f = cells.at(i, r);
    if (!is_fluid(f)) continue;
    const int x = i - i0 + 2, s = row_offset<Real>(rr, j0, i0, sm) + x;
    Real off, diag;
    stencil_parts(f, sp[s + 1], sp[s - 1], sp[row_offset<Real>(rr + 1, j0, i0, sm) + x],
                  sp[row_offset<Real>(rr - 1, j0, i0, sm) + x], idx2, idy2, off, diag);
    const Real wd = f == flag::kFluid ? omega_over_diag_interior : omega / diag;
    if (diag != 0) sp[s] = sor_value_scaled(sp[s], off, sr[s], omega, wd);
  }
  __syncthreads();

  // 3. The tile's rows into p_out, one row a warp.
  const int iend = i0 + kW - 1 < nx ? i0 + kW - 1 : nx;
  for (int rr = 2 + warp; rr <= H + 1; rr += kWarps) {
    const int r = j0 - 2 + rr;
    if (r > ny) break;
    const std::int64_t row = std::int64_t(r) * stride;
    store_run(sp + row_offset<Real>(rr, j0, i0, sm), row + i0 - 2, pout, row + i0, row + iend + 1, lane);
  }
}

// Blocks take tiles blockIdx.x, + gridDim.x, ... With NB = 2 buffers the loads of a
// block's next tile are in flight while it sweeps the current one (the launch then
// has as many blocks as fit on the device at once); with NB = 1 every tile has its
// own block and the hardware overlaps one block's loads with another's sweep.
// Registers: left alone, the compiler hoists the shared loads of every slot of step 1
// (up to 170 registers a thread at 16 rows: one block a multiprocessor); the bound
// keeps 4 blocks (float: 64 registers) or 3 (double: 85) resident.
template <class Real>
constexpr int min_blocks() { return sizeof(Real) == 4 ? 4 : 3; }

template <class Real, class Cells, bool kResidual, int H, int NB>
__global__ void __launch_bounds__(kThreads, min_blocks<Real>()) tile_sweep_kernel(const Real* __restrict__ pin, Real* __restrict__ pout,
                                                              const Real* __restrict__ rhs, Cells cells, int nx,
                                                              int ny, Real idx2, Real idy2, Real omega,
                                                              Real omega_over_diag_interior, double* res2,
                                                              SorGate gate) {
  bool residual = kResidual;
  if (gate.s) {
    if (!gate.open()) return;  // the whole block alike, before any barrier
    residual = kResidual && gate.check && gate.iteration() > 1;
  }
  constexpr std::size_t kBuffer = std::size_t(H + 4) * row_slot<Real>();  // values: p or rhs of one tile
  extern __shared__ __align__(16) unsigned char tile_smem[];
  Real* const base = reinterpret_cast<Real*>(tile_smem);
  __shared__ double warp_sum[kWarps];
  const int tiles_x = (nx + kW - 1) / kW, tiles = tiles_x * ((ny + H - 1) / H);
  double acc = 0;
  int t = blockIdx.x;
  if (t < tiles) load_tile<Real, H>(base, base + kBuffer, pin, rhs, t, tiles_x, nx, ny);
  __pipeline_commit();
  for (int k = 0; t < tiles; ++k, t += gridDim.x) {
    Real* sp = base + (NB == 2 ? (k & 1) : 0) * 2 * kBuffer;
    const int next = t + int(gridDim.x);
    if (NB == 2 && next < tiles) {
      Real* np = base + ((k + 1) & 1) * 2 * kBuffer;
      load_tile<Real, H>(np, np + kBuffer, pin, rhs, next, tiles_x, nx, ny);
      __pipeline_commit();
      __pipeline_wait_prior(1);  // this tile's copies (committed before) have landed
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();  // and every thread's
    sweep_tile<Real, Cells, kResidual, H>(sp, sp + kBuffer, pout, cells, t, tiles_x, nx, ny, idx2, idy2, omega,
                                          omega_over_diag_interior, residual, acc);
    __syncthreads();  // the buffer is read out before it is loaded again
    if (NB == 1 && next < tiles) {
      load_tile<Real, H>(base, base + kBuffer, pin, rhs, next, tiles_x, nx, ny);
      __pipeline_commit();
    }
  }
  if (kResidual && residual) {
    for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xffffffffu, acc, d);
    if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
      double sum = 0;
      for (int w = 0; w < kWarps; ++w) sum += warp_sum[w];
      if (sum != 0) atomicAdd(res2, sum);
    }
  }
}

}  // namespace rbsor_tile_detail

template <>
struct TiledSorSweep<CudaExec> {
  // pout = one sweep of v.p; with res2, *res2 += sum of squared residuals of v.p:
  // what FusedSorSweep<CudaExec>::run computes.
  template <class Real, class Cells>
  static void run(const PoissonView<Real>& v, Real* pout, const Cells& cells, Real omega, double* res2,
                  const SorGate& gate = SorGate{}) {
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    if (!aligned(v.p) || !aligned(pout) || !aligned(v.rhs)) {
      FusedSorSweep<CudaExec>::run(v, pout, cells, omega, res2, gate);  // the same result
      return;
    }
    const Shape sh = shape(sizeof(Real));
    if (sh.rows == 8 && sh.buffers == 1) launch<Real, Cells, 8, 1>(v, pout, cells, omega, res2, gate);
    else if (sh.rows == 16 && sh.buffers == 1) launch<Real, Cells, 16, 1>(v, pout, cells, omega, res2, gate);
    else if constexpr (sizeof(Real) == 4) {
      if (sh.rows == 32) launch<Real, Cells, 32, 1>(v, pout, cells, omega, res2, gate);
      else if (sh.rows == 8) launch<Real, Cells, 8, 2>(v, pout, cells, omega, res2, gate);
      else launch<Real, Cells, 16, 2>(v, pout, cells, omega, res2, gate);
    }
  }

  // Rows a tile and shared buffers a block (2: the next tile's loads in flight during
  // the sweep of this one, one block per place on the device). FLOWLUA_SOR_TILE
  // overrides the default for tuning runs: "8", "16", "32" (one tile a block) or "8p",
  // "16p" (two buffers); double takes 8 and 16 only (the others would pass the 48 KiB
  // of shared memory a launch gets without opting in). It is read at every launch, so
  // that a test or the harness can change it between solvers.
  struct Shape {
    int rows, buffers;
  };
  static Shape shape(std::size_t real_size) {
    const char* e = std::getenv("FLOWLUA_SOR_TILE");
    const int t = e ? std::atoi(e) : 0;
    const bool two = e && std::strchr(e, 'p') != nullptr;
    if (real_size == 4 && ((t == 8 || t == 16) || (t == 32 && !two))) return {t, two ? 2 : 1};
    if (real_size == 8 && (t == 8 || t == 16) && !two) return {t, 1};
    return {16, 1};  // not yet measured: the middle of the range
  }

  template <class Real, class Cells, int H, int NB>
  static void launch(const PoissonView<Real>& v, Real* pout, const Cells& cells, Real omega, double* res2,
                     const SorGate& gate) {
    using namespace rbsor_tile_detail;
    constexpr std::size_t smem = NB * shared_bytes<Real, H>();
    static_assert(smem <= 48 * 1024, "more than a launch gets without opting in");
    const int nx = v.nb.nx, ny = v.nb.ny;
    const Real diag = 2 * (v.idx2 + v.idy2);  // stencil_parts' interior diagonal
    const Real wd = omega / diag;             // as FusedSorSweep::launch computes it
    const long tiles = long((nx + kW - 1) / kW) * ((ny + H - 1) / H);
    long blocks = tiles;
    if (NB == 2) {  // as many as are resident at once (asked once: the same every launch)
      static const long resident = [] {
        int dev = 0, sms = 0, per_sm = 0;
        cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
        cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count");
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                       &per_sm, tile_sweep_kernel<Real, Cells, true, H, NB>, kThreads, smem),
                   "tile sweep occupancy");
        return long(sms) * (per_sm > 0 ? per_sm : 1);
      }();
      blocks = std::min(tiles, resident);
    }
    if (blocks <= 0) return;
    if (res2)
      tile_sweep_kernel<Real, Cells, true, H, NB><<<unsigned(blocks), kThreads, smem, cuda_detail::launch_stream()>>>(
          v.p, pout, v.rhs, cells, nx, ny, v.idx2, v.idy2, omega, wd, res2, gate);
    else
      tile_sweep_kernel<Real, Cells, false, H, NB><<<unsigned(blocks), kThreads, smem, cuda_detail::launch_stream()>>>(
          v.p, pout, v.rhs, cells, nx, ny, v.idx2, v.idy2, omega, wd, nullptr, gate);
    cuda_check(cudaGetLastError(), "tiled SOR sweep launch");
  }
};

}  // namespace flowlua
