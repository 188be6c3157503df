// Red-black SOR sweeps of a small grid in one launch of one thread block (see
// rbsor_block.hpp for when it applies).
//
// The block copies p (with its ghosts) into shared memory, and rhs and the flags where
// the layout says they fit, then runs its sweeps in place, colour by colour, with a
// __syncthreads after each colour, and writes the interior of p back. A colour's cells
// read only cells of the other colour (no periodic side: the plan keeps those on the
// two-colour kernels), so the order of the cells within a colour does not matter:
// every cell gets exactly what SorColourSweep (the two-colour kernels, the CPU) gives
// it, through the same stencil_parts and sor_value_scaled, with omega / diag computed
// once for interior cells as the fused kernel does (the same bits: diag is the same
// expression). tests/gpu/test_cuda_block_sor.cpp holds it to the two-colour kernels bit
// for bit.
//
// Gated (RedBlackSOR::solve_device, linalg/sor_device.hpp): sweep q of the launch has
// the gate of body position gate.pos + q. The slots a gate reads change only in the
// one-thread stages between launches, never during this one, and a gate's iteration
// grows with q, so the open sweeps are the first n: every thread computes the same n
// from the same reads before any __syncthreads, and with n = 0 the whole block returns.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "backend/cuda/cuda_exec.cuh"
#include "linalg/poisson_stencil.hpp"
#include "linalg/rbsor_block.hpp"
#include "linalg/sor_device.hpp"

namespace flowlua {

namespace rbsor_block_detail {

template <class Real, class Cells>
__device__ __forceinline__ void colour_pass(Real* sp, const Real* r, const Cells& cells, int nx, int ny, int colour,
                                            int tx, int ty, int rows, Real idx2, Real idy2, Real omega, Real wd) {
  const int stride = nx + 2;
  if (ty >= rows) return;
#pragma unroll 4
  for (int j = 1 + ty; j <= ny; j += rows) {
    // SorColourSweep's cell k = tx of this colour in row j.
    const int i = 1 + ((1 + j + colour) & 1) + 2 * tx;
    if (i > nx) continue;
    const CellFlags f = cells.at(i, j);
    if (!is_fluid(f)) continue;
    const int c = j * stride + i;
    Real off, diag;
    stencil_parts(f, sp[c + 1], sp[c - 1], sp[c + stride], sp[c - stride], idx2, idy2, off, diag);
    if (diag == 0) continue;  // no neighbour couples: cannot happen after build_flags
    const Real w = f == flag::kFluid ? wd : omega / diag;
    sp[c] = sor_value_scaled(sp[c], off, r[c], omega, w);
  }
}

template <class Real, class Cells>
__global__ void __launch_bounds__(kBlockSorThreads)
    block_sweeps_kernel(Real* __restrict__ p, const Real* __restrict__ rhs, Cells cells, int nx, int ny, Real idx2,
                        Real idy2, Real omega, int sweeps, SorGate gate, bool rhs_shared, bool flags_shared) {
  int n = sweeps;
  if (gate.s) {
    n = 0;
    for (SorGate g = gate; n < sweeps && g.open(); ++g.pos) ++n;
  }
  if (n == 0) return;  // the same n in every thread: the whole block returns

  extern __shared__ __align__(16) unsigned char block_sor_shared[];
  const int cells_n = (nx + 2) * (ny + 2);
  Real* sp = reinterpret_cast<Real*>(block_sor_shared);
  for (int k = threadIdx.x; k < cells_n; k += blockDim.x) sp[k] = p[k];
  const Real* r = rhs;
  unsigned char* next = block_sor_shared + std::size_t(cells_n) * sizeof(Real);
  if (rhs_shared) {
    Real* sr = reinterpret_cast<Real*>(next);
    for (int k = threadIdx.x; k < cells_n; k += blockDim.x) sr[k] = rhs[k];
    r = sr;
    next += std::size_t(cells_n) * sizeof(Real);
  }
  Cells cl = cells;
  if constexpr (std::is_same_v<Cells, FlagArray>) {
    if (flags_shared) {
      CellFlags* sf = reinterpret_cast<CellFlags*>(next);
      for (int k = threadIdx.x; k < cells_n; k += blockDim.x) sf[k] = cells.flags[k];
      cl.flags = sf;
    }
  }
  __syncthreads();

  // Threads in rows of `half` (a row's cells of one colour): thread (tx, ty) takes
  // cell tx of rows 1 + ty, 1 + ty + rows, ...
  const int half = (nx + 1) / 2;
  const int rows = int(blockDim.x) / half;
  const int tx = int(threadIdx.x) % half, ty = int(threadIdx.x) / half;
  const Real wd = omega / (2 * (idx2 + idy2));  // stencil_parts' interior diagonal
  for (int s = 0; s < n; ++s) {
    colour_pass(sp, r, cl, nx, ny, 0, tx, ty, rows, idx2, idy2, omega, wd);
    __syncthreads();
    colour_pass(sp, r, cl, nx, ny, 1, tx, ty, rows, idx2, idy2, omega, wd);
    __syncthreads();
  }
  const int stride = nx + 2;
  for (int k = threadIdx.x; k < nx * ny; k += blockDim.x) {
    const int c = (1 + k / nx) * stride + 1 + k % nx;
    p[c] = sp[c];
  }
}

}  // namespace rbsor_block_detail

template <>
struct BlockSorSweeps<CudaExec> {
  static constexpr bool available = true;

  // `sweeps` red-black sweeps of v.p in place (gated: the open ones of them).
  template <class Real, class Cells>
  static void run(const PoissonView<Real>& v, const Cells& cells, Real omega, int sweeps,
                  const SorGate& gate = SorGate{}) {
    using namespace rbsor_block_detail;
    if (sweeps <= 0) return;
    const int nx = v.nb.nx, ny = v.nb.ny;
    const BlockSorLayout l = block_sor_layout(nx, ny, sizeof(Real), std::is_same_v<Cells, FlagArray>);
    if (!l.fits || v.nb.periodic_x || v.nb.periodic_y)
      throw std::logic_error("block SOR sweep on a grid it does not fit (the plan should not have chosen it)");
    static const int optin = [] {
      int dev = 0, bytes = 0;
      cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
      cuda_check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
                 "cudaDeviceGetAttribute(shared memory per block)");
      return bytes;
    }();
    if (std::size_t(optin) < l.bytes)
      throw std::runtime_error("kernels.pressure = 'rbsor_block*': this GPU gives a block " + std::to_string(optin) +
                               " bytes of shared memory, the grid needs " + std::to_string(l.bytes) +
                               "; set kernels.pressure = 'rbsor_fused_open' (or 'rbsor_fused' with obstacles)");
    // Once per instantiation, before any graph capture (solve_device runs directly
    // the first time a step comes).
    static const bool opted = [] {
      const int most = std::min(optin, int(kBlockSorSharedBytes));
      cuda_check(cudaFuncSetAttribute(block_sweeps_kernel<Real, Cells>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      most),
                 "cudaFuncSetAttribute(block SOR shared memory)");
      return true;
    }();
    (void)opted;
    block_sweeps_kernel<Real, Cells><<<1, kBlockSorThreads, l.bytes, cuda_detail::launch_stream()>>>(
        v.p, v.rhs, cells, nx, ny, v.idx2, v.idy2, omega, sweeps, gate, l.rhs_shared, l.flags_shared);
    cuda_check(cudaGetLastError(), "block SOR sweeps launch");
  }
};

}  // namespace flowlua
