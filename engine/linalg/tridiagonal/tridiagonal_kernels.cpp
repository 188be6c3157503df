#include "linalg/tridiagonal/tridiagonal_kernels.hpp"

#include <stdexcept>

#include "linalg/tridiagonal/batch_solve.hpp"

namespace flowlua::tridiag {

namespace {

// Ranks (highest applicable wins), from the shape of the work rather than from a
// measurement (none on a GPU yet: tests/gpu/bench_tridiagonal_on_device.sh measures
// them all): lines along x are contiguous, so one block per line (loads coalesced, each
// row read once) beats one thread per line, and PCR steps then Thomas do the least
// work of the block algorithms; lines along y are interleaved, so a thread per line
// (PTA) or per chunk of a line (partitioned) reads coalesced. Thomas leaves a GPU
// nearly idle with a few thousand lines (one thread each); partitioned gives each line
// n / 32 threads, so it is the default once lines hold several chunks. The block
// algorithms (strided loads along y) apply to few short lines only.
constexpr int kFewLines = 512;
constexpr int kPartitionFrom = 4 * kChunk;

int real_size(const KernelKey& k) { return k.precision == Precision::Float ? 4 : 8; }
bool fits(Algorithm a, int n, const KernelKey& k) {
  LineBatch b;
  b.n = n, b.count = 1;
  return supports(a, b, false, true, real_size(k));
}
bool cuda(const KernelKey& k) { return k.backend == "cuda"; }
bool always(const KernelKey&) { return true; }
bool x_cr(const KernelKey& k) { return cuda(k) && fits(Algorithm::CR, k.nx, k); }
bool x_pcr(const KernelKey& k) { return cuda(k) && fits(Algorithm::PCR, k.nx, k); }
bool x_hybrid(const KernelKey& k) { return cuda(k) && fits(Algorithm::PCRThomas, k.nx, k); }
bool y_cr(const KernelKey& k) { return cuda(k) && k.nx <= kFewLines && fits(Algorithm::CR, k.ny, k); }
bool y_pcr(const KernelKey& k) { return cuda(k) && k.nx <= kFewLines && fits(Algorithm::PCR, k.ny, k); }
bool y_hybrid(const KernelKey& k) { return cuda(k) && k.nx <= kFewLines && fits(Algorithm::PCRThomas, k.ny, k); }
bool y_partitioned(const KernelKey& k) { return cuda(k) && k.ny >= kPartitionFrom; }

}  // namespace

void add_line_solver_variants(KernelRegistry& r, const std::string& stage, LineDir dir) {
  const std::string fit = "the CUDA backend and lines that fit one block's shared memory";
  r.add({stage, "thomas", "Thomas, one thread per line (PTA)", "nothing", always, 0});
  if (dir == LineDir::X) {
    r.add({stage, "thomas_tiled", "Thomas, one thread per line, 32 x 32 tiles through shared memory (coalesced)",
           "the CUDA backend", cuda, 1});
    r.add({stage, "cr", "cyclic reduction, one block per line in shared memory", fit, x_cr, 2});
    r.add({stage, "pcr", "parallel cyclic reduction, one block per line in shared memory", fit, x_pcr, 3});
    r.add({stage, "pcr_thomas", "PCR steps then Thomas per subsystem, one block per line in shared memory", fit,
           x_hybrid, 4});
  } else {
    const std::string few = fit + ", at most " + std::to_string(kFewLines) + " lines";
    r.add({stage, "cr", "cyclic reduction, one block per line in shared memory", few, y_cr, 1});
    r.add({stage, "pcr", "parallel cyclic reduction, one block per line in shared memory", few, y_pcr, 2});
    r.add({stage, "pcr_thomas", "PCR steps then Thomas per subsystem, one block per line in shared memory", few,
           y_hybrid, 3});
    r.add({stage, "partitioned", "chunks of 32 rows, one thread each, joined by Thomas on their interfaces",
           "the CUDA backend and lines of at least " + std::to_string(kPartitionFrom) + " unknowns", y_partitioned,
           4});
  }
}

Algorithm algorithm_named(const std::string& name) {
  for (Algorithm a : kAllAlgorithms)
    if (name == algorithm_name(a)) return a;
  throw std::logic_error("no tridiagonal algorithm '" + name + "'");
}

}  // namespace flowlua::tridiag
