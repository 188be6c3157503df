// Red-black SOR on a small grid in one thread block (issue 12): the sweeps between two
// residual checks in ONE launch of ONE block, p (and rhs and the flags where they fit)
// held in shared memory. On a 128^2 grid a sweep of the fused kernel is a latency
// floor of about 5 us whatever the grid (docs/performance.md); one block does the
// same sweeps from shared memory with a __syncthreads between colours. The kernel is
// linalg/rbsor_block.cuh; this header says when it fits, for the kernel plan
// (models/projection/projection_kernels.cpp), which compiles without CUDA.
#pragma once
#include <cstddef>

#include "core/flags.hpp"

namespace flowlua {

// Dynamic shared memory one block may opt into on sm_90 (H100, H200): 227 KiB. The
// launcher checks the device's own limit and says what to do where it is lower.
constexpr std::size_t kBlockSorSharedBytes = 227 * 1024;
constexpr int kBlockSorThreads = 1024;

// What goes into shared memory: p always (the sweeps write it); then rhs and, for
// the flag-array variant, the flags, each where it still fits (else read from global
// memory, where they stay in cache: they are only read).
struct BlockSorLayout {
  bool fits = false;  // p fits, and one colour of a row fits the block
  bool rhs_shared = false, flags_shared = false;
  std::size_t bytes = 0;  // dynamic shared memory of the launch
};

inline BlockSorLayout block_sor_layout(int nx, int ny, std::size_t real_size, bool flag_array,
                                       std::size_t limit = kBlockSorSharedBytes) {
  BlockSorLayout l;
  if (nx < 1 || ny < 1) return l;
  const std::size_t cells = std::size_t(nx + 2) * std::size_t(ny + 2);
  l.bytes = cells * real_size;
  l.fits = l.bytes <= limit && (nx + 1) / 2 <= kBlockSorThreads;
  if (!l.fits) return l;
  if (l.bytes + cells * real_size <= limit) {
    l.rhs_shared = true;
    l.bytes += cells * real_size;
  }
  if (flag_array && l.bytes + cells * sizeof(CellFlags) <= limit) {
    l.flags_shared = true;
    l.bytes += cells * sizeof(CellFlags);
  }
  return l;
}

// The sweeps exist only on the CUDA backend; rbsor_block.cuh specialises this.
template <class Exec>
struct BlockSorSweeps {
  static constexpr bool available = false;
};

}  // namespace flowlua
