// One red-black SOR sweep in one CUDA launch: both colours, and the residual of the
// sweep's input, from one read of p and rhs and one write of p (to a second buffer).
//
// Each warp owns a strip of 32 columns and marches up a band of rows, holding a
// window of three rows of its own column in registers. At row r it
//   1. updates the red cells of row r (their neighbours are old black values: its
//      own window, and the columns beside it through warp shuffles);
//   2. updates the black cells of row r - 1 from the new red values of rows r - 2,
//      r - 1 (beside it, shuffled) and r, and writes row r - 1;
//   3. adds the residual of the old values at row r.
// Lanes 0 and 31 are halo: they compute the red values their neighbours need but
// write nothing, so a warp writes 30 columns. A band recomputes the red cells of
// the row below and above it, so bands are independent; reading p_in and writing
// p_out (never the same buffer) makes blocks independent too. Periodic sides are
// not handled here (their neighbours are not the next lane): the plan uses the
// two-colour variant for them.
//
// The arithmetic is stencil_parts / sor_value, the same functions the two-colour
// kernels and the CPU run; tests/gpu compares the two variants.
#pragma once
#include <cuda_runtime.h>

#include "backend/cuda/cuda_exec.cuh"
#include "linalg/poisson_stencil.hpp"

namespace flowlua {

namespace rbsor_detail {

constexpr int kOut = 30;      // columns written per warp
constexpr int kWarps = 4;     // warps per block (side by side in x)
constexpr int kBand = 32;     // rows per band

template <class Real, class Cells, bool kResidual>
__global__ void __launch_bounds__(32 * kWarps) fused_sweep_kernel(const Real* __restrict__ pin,
                                                                   Real* __restrict__ pout,
                                                                   const Real* __restrict__ rhs, Cells cells,
                                                                   int nx, int ny, Real idx2, Real idy2,
                                                                   Real omega, double* res2) {
  const int lane = threadIdx.x;
  const int strip = blockIdx.x * kWarps + threadIdx.y;
  const int i = strip * kOut + lane;  // lane 0 is column 30 * strip, the west halo
  const int j0 = 1 + blockIdx.y * kBand;
  const int j1 = min(ny, j0 + kBand - 1);
  const int stride = nx + 2;
  const bool column = i <= nx + 1;                  // a real column (interior or ghost)
  const bool writes = lane >= 1 && lane <= kOut && i >= 1 && i <= nx;
  const int ic = column ? i : nx + 1;               // clamped for loads
  auto load = [&](const Real* a, int ii, int jj) {  // in range or 0
    return (ii >= 0 && ii <= nx + 1 && jj >= 0 && jj <= ny + 1) ? a[std::size_t(jj) * stride + ii] : Real(0);
  };
  const unsigned all = 0xffffffffu;

  // Old values of this column at rows r - 1, r, r + 1, and the red-updated values
  // ("q") at rows r - 2, r - 1.
  int r = j0 - 1;
  Real o_s = load(pin, ic, r - 1), o_c = load(pin, ic, r), o_n = load(pin, ic, r + 1);
  Real rhs_c = load(rhs, ic, r);
  Real q_ss = 0, q_s = 0, rhs_s = 0;
  CellFlags f_s = 0;
  double acc = 0;
  for (; r <= j1 + 1; ++r) {
    // Prefetch the next row before the arithmetic of this one.
    const Real o_nn = load(pin, ic, r + 2), rhs_n = load(rhs, ic, r + 1);
    // Old values beside this one: shuffled, or loaded by the two halo lanes.
    Real o_e = __shfl_down_sync(all, o_c, 1), o_w = __shfl_up_sync(all, o_c, 1);
    if (lane == 31) o_e = load(pin, ic + 1, r);
    if (lane == 0) o_w = load(pin, i - 1, r);
    const CellFlags f = column ? cells.at(i, r) : CellFlags(0);
    Real off, diag;
    stencil_parts(f, o_e, o_w, o_n, o_s, idx2, idy2, off, diag);
    // 1. Red cells of row r.
    Real q_c = o_c;
    if (is_fluid(f) && ((i + r) & 1) == 0 && diag != 0) q_c = sor_value(o_c, off, diag, rhs_c, omega);
    // 3. Residual of the old iterate at row r.
    if (kResidual && writes && r >= j0 && r <= j1 && is_fluid(f)) {
      const double res = double(rhs_c) - (double(off) - double(diag) * double(o_c));
      acc += res * res;
    }
    // 2. Black cells of row r - 1, now that every red neighbour is known.
    const Real q_e = __shfl_down_sync(all, q_s, 1), q_w = __shfl_up_sync(all, q_s, 1);
    if (r - 1 >= j0) {
      Real value = q_s;
      if (is_fluid(f_s) && ((i + r - 1) & 1) == 1) {
        Real off_b, diag_b;
        stencil_parts(f_s, q_e, q_w, q_c, q_ss, idx2, idy2, off_b, diag_b);
        if (diag_b != 0) value = sor_value(q_s, off_b, diag_b, rhs_s, omega);
      }
      if (writes) pout[std::size_t(r - 1) * stride + i] = value;
    }
    q_ss = q_s; q_s = q_c; f_s = f; rhs_s = rhs_c;
    o_s = o_c; o_c = o_n; o_n = o_nn; rhs_c = rhs_n;
  }
  if (kResidual) {
    for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(all, acc, d);
    if (lane == 0 && acc != 0) atomicAdd(res2, acc);
  }
}

}  // namespace rbsor_detail

template <>
struct FusedSorSweep<CudaExec> {
  static constexpr bool available = true;

  // pout = one sweep of v.p; with res2, *res2 += sum of squared residuals of v.p.
  template <class Real, class Cells>
  static void run(const PoissonView<Real>& v, Real* pout, const Cells& cells, Real omega, double* res2) {
    using namespace rbsor_detail;
    const int nx = v.nb.nx, ny = v.nb.ny;
    const int strips = (nx + kOut - 1) / kOut;
    dim3 block(32, kWarps);
    dim3 grid((strips + kWarps - 1) / kWarps, (ny + kBand - 1) / kBand);
    if (res2)
      fused_sweep_kernel<Real, Cells, true><<<grid, block>>>(v.p, pout, v.rhs, cells, nx, ny, v.idx2, v.idy2,
                                                              omega, res2);
    else
      fused_sweep_kernel<Real, Cells, false><<<grid, block>>>(v.p, pout, v.rhs, cells, nx, ny, v.idx2, v.idy2,
                                                               omega, nullptr);
    cuda_check(cudaGetLastError(), "fused SOR sweep launch");
  }

  // One device double for the residual sum, allocated once.
  static double* residual_slot() {
    static double* slot = nullptr;
    if (!slot) cuda_check(cudaMalloc(&slot, sizeof(double)), "cudaMalloc(residual)");
    return slot;
  }
  static void clear(double* slot) { cuda_check(cudaMemsetAsync(slot, 0, sizeof(double)), "residual clear"); }
  static double read(const double* slot) {
    double h = 0;
    cuda_check(cudaMemcpy(&h, slot, sizeof(double), cudaMemcpyDeviceToHost), "residual copy");
    return h;
  }
};

}  // namespace flowlua
