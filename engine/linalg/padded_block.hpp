// A block of a pressure solve on several MPI ranks with a halo deeper than one cell
// (docs/mpi.md, "The pressure solvers"): multigrid's levels on the blocks
// (linalg/multigrid_blocks.hpp) and red-black SOR (linalg/rbsor.hpp).
//
// Why: an exchange costs tens of microseconds of latency whatever its size (on GPUs
// a pack kernel, a host round trip and the messages), and a red-black sweep on a
// block with a halo one cell deep needs one before each colour. With a halo H cells
// deep a rank computes each colour on its block AND on the ring, from what the last
// exchange brought: the cells of the ring it computes are exactly the neighbour's
// (the same numbers, the same operations), so one exchange serves several colours.
// Each colour computed on the ring loses one ring of cells that are right: a cell
// is right after an update when its four neighbours and its right-hand side were
// (a cell k cells out reads cells k + 1 out). So the solvers count, for each array,
// how many rings are right ("fresh", 0 = the block only), and exchange only when an
// operation needs more than that (PaddedBlock::ensure). Cells further out than
// `fresh` hold stale or half-updated values; nothing reads them before an exchange
// overwrites them, and they are finite (computed from finite values).
//
// The layout: a block of nx x ny cells with a ring hx (hy) cells deep across x (y),
// (nx + 2 hx) x (ny + 2 hy) values, is stored as the one-ring (NaSt2D) array of a
// "padded grid" of (nx + 2 hx - 2) x (ny + 2 hy - 2) cells, the block's cell (i, j)
// at padded cell (i + hx - 1, j + hy - 1). So every point function of the pressure
// solvers (PoissonView, the smoother, the residual) runs on the padded grid
// unchanged, and the ring's cells beyond a side of the domain have the flags of no
// fluid (they are never updated, and no fluid cell couples to them). The halo is
// deep only across an axis where blocks meet (px > 1): across one that a single
// block spans, the ring is the domain's ghost cells (or the periodic wrap) as on one
// rank. Red-black colours are the whole grid's (shifted by the parity of the block's
// first cell and of the padding).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "core/flags.hpp"
#include "core/grid.hpp"
#include "linalg/poisson_stencil.hpp"
#include "parallel/gather.hpp"
#include "parallel/halo.hpp"
#include "parallel/ranks.hpp"

namespace flowlua {

// The ring depth of a level whose blocks (every rank's: the depth must be the same on
// all of them) are `blocks`: `want`, but no deeper than the narrowest block across an
// axis where blocks meet (a neighbour sends its own cells only).
inline int padded_depth(const std::vector<ranks::Subdomain>& blocks, int want) {
  int h = std::max(1, want);
  for (const ranks::Subdomain& s : blocks) {
    if (s.decomposition.px > 1) h = std::min(h, s.nx);
    if (s.decomposition.py > 1) h = std::min(h, s.ny);
  }
  return std::max(1, h);
}

// Copies the block and its first ring ((nx + 2) x (ny + 2) cells, from i = j = 0)
// between two layouts: the caller's one-ring array and a padded one.
template <class Real>
struct CopyWindow {
  const Real* from;
  Real* to;
  int from_stride, to_stride;
  int from_off, to_off;  // index of local ring cell (0, 0)
  FL_HD void operator()(int i, int j) const {
    to[std::size_t(to_off) + std::size_t(j) * to_stride + i] = from[std::size_t(from_off) + std::size_t(j) * from_stride + i];
  }
};

template <class Exec, class Real>
class PaddedBlock {
 public:
  PaddedBlock() = default;
  // block: this rank's block of a level of the whole grid `whole` (spacing, periodic
  // sides in whole_nb, flags (gnx + 2) x (gny + 2)); depth: padded_depth's; tag: its
  // messages' (parallel/halo.hpp).
  PaddedBlock(const ranks::Subdomain& block, const Grid& whole, const Neighbours& whole_nb,
              const std::vector<CellFlags>& whole_flags, int depth, int tag)
      : block_(block),
        h_(depth),
        hx_(block.decomposition.px > 1 ? depth : 1),
        hy_(block.decomposition.py > 1 ? depth : 1) {
    nb_ = Neighbours{block.nx + 2 * hx_ - 2, block.ny + 2 * hy_ - 2, whole_nb.periodic_x && block.decomposition.px == 1,
                     whole_nb.periodic_y && block.decomposition.py == 1};
    idx2_ = Real(1 / (whole.dx * whole.dx));
    idy2_ = Real(1 / (whole.dy * whole.dy));
    parity_ = (block.i0 + block.j0 + hx_ + hy_) & 1;
    flags_ = DeviceArray<Exec, CellFlags>(size());
    flags_.upload(ranks::cut_ring(whole_flags, block, hx_, hy_));
    halo_ = ranks::HaloExchange<Exec, Real>(block, 1, tag, ranks::Ring::Ghosts, hx_, hy_);
  }

  const ranks::Subdomain& block() const { return block_; }
  int nx() const { return block_.nx; }
  int ny() const { return block_.ny; }
  // The depth of the ring across an axis where blocks meet: what an exchange makes fresh.
  int depth() const { return h_; }
  int hx() const { return hx_; }
  int hy() const { return hy_; }
  int ox() const { return hx_ - 1; }  // the padded i of the block's cell i is i + ox()
  int oy() const { return hy_ - 1; }
  std::size_t size() const { return std::size_t(nb_.nx + 2) * (nb_.ny + 2); }
  const Neighbours& nb() const { return nb_; }
  const CellFlags* flags() const { return flags_.data(); }
  PoissonView<Real> view(Real* p, const Real* rhs) const {
    return PoissonView<Real>{p, rhs, flags_.data(), nb_, idx2_, idy2_};
  }
  // The whole grid's red-black colour c (0: i + j even) on the padded grid.
  int colour(int c) const { return c ^ parity_; }

  // The ring of x from the neighbours: `fresh` rings of it are then right.
  void exchange(Real* x, int& fresh) {
    halo_.exchange(x);
    fresh = h_;
  }
  // Exchanges x unless `need` rings of it are fresh already.
  void ensure(Real* x, int& fresh, int need) {
    if (fresh < need) exchange(x, fresh);
  }

  // One colour (local colour `colour`, see colour()) of f over the whole padded grid: f
  // is a red-black point function taking (k, j), k counting cells of that colour.
  template <class F>
  void colour_sweep(const F& f) const {
    Exec::for_each(0, (nb_.nx + 1) / 2 - 1, 1, nb_.ny, f);
  }
  // f(i, j) on every cell of the padded grid.
  template <class F>
  void for_padded(const F& f) const {
    Exec::for_each(1, nb_.nx, 1, nb_.ny, f);
  }
  // The sum of f(i, j) (padded indices) over the block's cells on every rank.
  template <class F>
  double sum(const F& f) const {
    return ranks::sum(Exec::reduce_sum(ox() + 1, ox() + block_.nx, oy() + 1, oy() + block_.ny, f));
  }

  // The caller's one-ring array (block and first ring) into a padded one, and back
  // (ring = false: the block's cells only).
  void load(const Real* ring_layout, Real* padded) const {
    Exec::for_each(0, block_.nx + 1, 0, block_.ny + 1,
                   CopyWindow<Real>{ring_layout, padded, block_.nx + 2, nb_.nx + 2, 0, offset()});
  }
  void store(const Real* padded, Real* ring_layout, bool ring) const {
    const int r = ring ? 0 : 1;
    Exec::for_each(r, block_.nx + 1 - r, r, block_.ny + 1 - r,
                   CopyWindow<Real>{padded, ring_layout, nb_.nx + 2, block_.nx + 2, offset(), 0});
  }
  // A padded array as the block's one-ring layout (host), and back: the gathered
  // level of multigrid gathers and cuts the block's cells.
  std::vector<Real> cut_whole(const std::vector<Real>& whole) const {
    return ranks::cut_ring(whole, block_, hx_, hy_);
  }
  std::vector<Real> gather_whole(const std::vector<Real>& padded) const {
    return ranks::gather_ring(padded, block_, hx_, hy_);
  }

 private:
  int offset() const { return ox() + oy() * (nb_.nx + 2); }

  ranks::Subdomain block_;
  int h_ = 1, hx_ = 1, hy_ = 1, parity_ = 0;
  Neighbours nb_{};
  Real idx2_ = 0, idy2_ = 0;
  DeviceArray<Exec, CellFlags> flags_;
  ranks::HaloExchange<Exec, Real> halo_;
};

}  // namespace flowlua
