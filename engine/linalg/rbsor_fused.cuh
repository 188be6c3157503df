// One red-black SOR sweep in one CUDA launch: both colours, and the residual of the
// sweep's input, from one read of p and rhs and one write of p (to a second buffer).
//
// Each warp owns a strip of 32 columns and a band of B rows. It first loads
// everything the band needs into registers (B + 4 rows of p, B + 2 of rhs and of
// flags: all loads in flight at once, so the warp waits for memory once), then
//   1. updates the red cells of rows j0 - 1 .. j0 + B (their neighbours are old
//      black values: its own column, and the columns beside it through warp
//      shuffles), and adds up the residual of the old values of rows j0 .. j0+B-1;
//   2. updates the black cells of rows j0 .. j0 + B - 1 from the new red values
//      (beside it, shuffled; above and below, its own registers) and writes them.
// Lanes 0 and 31 are halo: they compute the red values their neighbours need but
// write nothing, so a warp writes 30 columns. A band recomputes the red cells of
// the rows just outside it, so bands are independent; reading p_in and writing
// p_out (never the same buffer) makes blocks independent too. Periodic sides are
// not handled here (their neighbours are not the next lane): the plan uses the
// two-colour variant for them.
//
// The arithmetic is stencil_parts / sor_value, the same functions the two-colour
// kernels and the CPU run; tests/gpu compares the two variants.
//
// Gated (RedBlackSOR::solve_device, linalg/sor_device.hpp): every thread first reads
// the gate's two slots; a sweep past the stop or past max_iter returns at once (the
// whole block alike), and whether this sweep adds up the residual is decided there.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>

#include "backend/cuda/cuda_exec.cuh"
#include "linalg/poisson_stencil.hpp"
#include "linalg/sor_device.hpp"

namespace flowlua {

namespace rbsor_detail {

constexpr int kOut = 30;   // columns written per warp
constexpr int kWarps = 4;  // warps per block (side by side in x)

// Rows per band, B: 4 (or 8 for float on large grids), chosen by band_rows below
// from measurements. More rows put more loads in flight per warp but cost registers
// (96 a thread at 16 float rows: a third of the warps fit) and lengthen each warp's
// chain of dependent row updates.
// The work of one block (the band blockIdx.y of strip group blockIdx.x); `residual`
// (with kResidual) says whether this sweep adds up the residual of its input.
template <class Real, class Cells, bool kResidual, int B>
__device__ __forceinline__ void fused_sweep_block(const Real* __restrict__ pin, Real* __restrict__ pout,
                                                  const Real* __restrict__ rhs, const Cells& cells, int nx, int ny,
                                                  Real idx2, Real idy2, Real omega, Real omega_over_diag_interior,
                                                  double* res2, bool residual) {
  const int lane = threadIdx.x;
  const int i = (blockIdx.x * kWarps + threadIdx.y) * kOut + lane;  // lane 0: the west halo column
  const int j0 = 1 + blockIdx.y * B;
  const std::size_t stride = std::size_t(nx) + 2;
  const bool column = i <= nx + 1;  // a real column (interior or ghost)
  const bool writes = lane >= 1 && lane <= kOut && i >= 1 && i <= nx;
  const int ic = column ? i : nx + 1;  // clamped for loads
  // The halo lanes also need the column beyond them.
  const int ih = lane == 0 ? i - 1 : (lane == 31 ? ic + 1 : -1);
  const bool halo = ih >= 0 && ih <= nx + 1;
  const unsigned all = 0xffffffffu;

  // Loads: o[k] = p(i, j0 - 2 + k), rows j0 - 2 .. j0 + B + 1 (the red cells of rows
  // j0 - 1 .. j0 + B need the rows on either side); rr, ff, oh at row j0 - 1 + k.
  Real o[B + 4], rr[B + 2], oh[B + 2];
  CellFlags ff[B + 2];
#pragma unroll
  for (int k = 0; k < B + 4; ++k) {
    const int r = j0 - 2 + k;
    o[k] = (r >= 0 && r <= ny + 1) ? pin[std::size_t(r) * stride + ic] : Real(0);
  }
#pragma unroll
  for (int k = 0; k < B + 2; ++k) {
    const int r = j0 - 1 + k;
    const bool row = r <= ny + 1;
    rr[k] = row ? rhs[std::size_t(r) * stride + ic] : Real(0);
    oh[k] = (row && halo) ? pin[std::size_t(r) * stride + ih] : Real(0);
    ff[k] = (row && column) ? cells.at(i, r) : CellFlags(0);
  }

  // 1. Red cells of rows j0 - 1 .. j0 + B; the residual of rows j0 .. j0 + B - 1.
  Real q[B + 2];
  double acc = 0;
#pragma unroll
  for (int k = 0; k < B + 2; ++k) {
    const int r = j0 - 1 + k;
    const Real oc = o[k + 1];
    Real oe = __shfl_down_sync(all, oc, 1), ow = __shfl_up_sync(all, oc, 1);
    if (lane == 31) oe = oh[k];
    if (lane == 0) ow = oh[k];
    Real off, diag;
    stencil_parts(ff[k], oe, ow, o[k + 2], o[k], idx2, idy2, off, diag);
    // omega / diag is the same for every interior cell: computed once on the host,
    // the same bits as computing it here (sor_value_scaled).
    const Real wd = ff[k] == flag::kFluid ? omega_over_diag_interior : omega / diag;
    q[k] = (is_fluid(ff[k]) && ((i + r) & 1) == 0 && diag != 0) ? sor_value_scaled(oc, off, rr[k], omega, wd) : oc;
    if (kResidual && residual && k >= 1 && k <= B && writes && is_fluid(ff[k])) {
      const double res = double(rr[k]) - (double(off) - double(diag) * double(oc));
      acc += res * res;
    }
  }
  // 2. Black cells of rows j0 .. j0 + B - 1, from the new red values.
#pragma unroll
  for (int k = 1; k <= B; ++k) {
    const int r = j0 - 1 + k;
    const Real qe = __shfl_down_sync(all, q[k], 1), qw = __shfl_up_sync(all, q[k], 1);
    Real value = q[k];
    if (is_fluid(ff[k]) && ((i + r) & 1) == 1) {
      Real off, diag;
      stencil_parts(ff[k], qe, qw, q[k + 1], q[k - 1], idx2, idy2, off, diag);
      const Real wd = ff[k] == flag::kFluid ? omega_over_diag_interior : omega / diag;
      if (diag != 0) value = sor_value_scaled(q[k], off, rr[k], omega, wd);
    }
    if (writes && r <= ny) pout[std::size_t(r) * stride + i] = value;
  }
  if (kResidual && residual) {
    for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(all, acc, d);
    if (lane == 0 && acc != 0) atomicAdd(res2, acc);
  }
}

template <class Real, class Cells, bool kResidual, int B>
__global__ void __launch_bounds__(32 * kWarps) fused_sweep_kernel(const Real* __restrict__ pin,
                                                                   Real* __restrict__ pout,
                                                                   const Real* __restrict__ rhs, Cells cells,
                                                                   int nx, int ny, Real idx2, Real idy2,
                                                                   Real omega, Real omega_over_diag_interior,
                                                                   double* res2, SorGate gate) {
  cuda_detail::pdl_enter();  // before the gate and p are read (cuda_exec.cuh)
  bool residual = kResidual;
  if (gate.s) {
    if (!gate.open()) return;
    residual = kResidual && gate.check && gate.iteration() > 1;
  }
  fused_sweep_block<Real, Cells, kResidual, B>(pin, pout, rhs, cells, nx, ny, idx2, idy2, omega,
                                               omega_over_diag_interior, res2, residual);
}

// Batches (models/projection/projection_batch.hpp): member blockIdx.z sweeps with its
// own arguments, read in place from the batch's upload.
template <class Real, class Cells, int B>
__global__ void __launch_bounds__(32 * kWarps) fused_sweep_batch_kernel(const FusedSweepArgs<Real, Cells>* __restrict__ args,
                                                                         int nx, int ny) {
  const FusedSweepArgs<Real, Cells>& a = args[blockIdx.z];
  fused_sweep_block<Real, Cells, true, B>(a.pin, a.pout, a.rhs, a.cells, nx, ny, a.idx2, a.idy2, a.omega, a.wd,
                                          a.res2, a.residual);
}

}  // namespace rbsor_detail

template <>
struct FusedSorSweep<CudaExec> {
  static constexpr bool available = true;

  // pout = one sweep of v.p; with res2, *res2 += sum of squared residuals of v.p.
  template <class Real, class Cells>
  static void run(const PoissonView<Real>& v, Real* pout, const Cells& cells, Real omega, double* res2,
                  const SorGate& gate = SorGate{}) {
    switch (band_rows(v.nb.ny, sizeof(Real))) {
      case 4: launch<Real, Cells, 4>(v, pout, cells, omega, res2, gate); break;
      case 8: launch<Real, Cells, 8>(v, pout, cells, omega, res2, gate); break;
      default: launch<Real, Cells, 16>(v, pout, cells, omega, res2, gate);
    }
  }

  // Rows per band (4, 8 or 16). FLOWLUA_SOR_BAND overrides the choice, for the
  // benchmark harness's tuning runs (docs/performance.md says which won).
  static int band_rows(int ny, std::size_t real_size) {
    static const int forced = [] {
      const char* e = std::getenv("FLOWLUA_SOR_BAND");
      const int b = e ? std::atoi(e) : 0;
      return (b == 4 || b == 8 || b == 16) ? b : 0;
    }();
    if (forced) return forced;
    // Measured on the H100 (docs/performance.md): float is fastest with 4 rows up to
    // 1024 and 8 above; double with 4 everywhere (its registers double).
    if (real_size == 8 || ny <= 1024) return 4;
    return 8;
  }

  template <class Real, class Cells, int B>
  static void launch(const PoissonView<Real>& v, Real* pout, const Cells& cells, Real omega, double* res2,
                     const SorGate& gate) {
    using namespace rbsor_detail;
    const int nx = v.nb.nx, ny = v.nb.ny;
    const int strips = (nx + kOut - 1) / kOut;
    const Real diag = 2 * (v.idx2 + v.idy2);  // stencil_parts' interior diagonal
    const Real wd = omega / diag;
    dim3 block(32, kWarps);
    dim3 grid((strips + kWarps - 1) / kWarps, (ny + B - 1) / B);
    const Real* pin = v.p;
    if (res2)
      cuda_detail::launch(fused_sweep_kernel<Real, Cells, true, B>, grid, block, "fused SOR sweep launch", pin, pout,
                          v.rhs, cells, nx, ny, v.idx2, v.idy2, omega, wd, res2, gate);
    else
      cuda_detail::launch(fused_sweep_kernel<Real, Cells, false, B>, grid, block, "fused SOR sweep launch", pin, pout,
                          v.rhs, cells, nx, ny, v.idx2, v.idy2, omega, wd, static_cast<double*>(nullptr), gate);
  }

  // A batch's sweeps, one launch for the n members (args in backend memory); every
  // member has the grid nx x ny.
  template <class Real, class Cells>
  static void run_batch(const FusedSweepArgs<Real, Cells>* args, int n, int nx, int ny) {
    switch (band_rows(ny, sizeof(Real))) {
      case 4: launch_batch<Real, Cells, 4>(args, n, nx, ny); break;
      case 8: launch_batch<Real, Cells, 8>(args, n, nx, ny); break;
      default: launch_batch<Real, Cells, 16>(args, n, nx, ny);
    }
  }
  template <class Real, class Cells, int B>
  static void launch_batch(const FusedSweepArgs<Real, Cells>* args, int n, int nx, int ny) {
    using namespace rbsor_detail;
    const int strips = (nx + kOut - 1) / kOut;
    dim3 block(32, kWarps);
    for (int z0 = 0; z0 < n; z0 += 65535) {  // the grid's z limit
      dim3 grid((strips + kWarps - 1) / kWarps, (ny + B - 1) / B, std::min(n - z0, 65535));
      fused_sweep_batch_kernel<Real, Cells, B><<<grid, block, 0, cuda_detail::launch_stream()>>>(args + z0, nx, ny);
      cuda_check(cudaGetLastError(), "fused SOR batch sweep launch");
    }
  }

  // One device double for the residual sum, allocated once.
  static double* residual_slot() {
    static double* slot = nullptr;
    if (!slot) cuda_check(cudaMalloc(&slot, sizeof(double)), "cudaMalloc(residual)");
    return slot;
  }
  static void clear(double* slot) { cuda_check(cudaMemsetAsync(slot, 0, sizeof(double), cuda_detail::launch_stream()), "residual clear"); }
  static double read(const double* slot) {
    double h = 0;
    cuda_check(cudaMemcpy(&h, slot, sizeof(double), cudaMemcpyDeviceToHost), "residual copy");
    return h;
  }
};

}  // namespace flowlua
