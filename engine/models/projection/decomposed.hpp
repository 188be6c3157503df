// The projection model on several MPI ranks (mpirun; docs/mpi.md, "projection"): each
// rank steps its block of the grid (parallel/decomposition.hpp). The model's arrays
// already have the ghost ring of the NaSt2D layout; on a block the ring's cells
// towards a neighbour are the halo, which holds the neighbour's values (the halo
// exchange of parallel/halo.hpp, Ring::Ghosts), and the ring's cells on a side of the
// domain keep the side's treatment. So the point functions of the step run unchanged
// on the block's local grid:
//   - the grid, flags, obstacles' wall velocities and initial fields are cut from the
//     whole case (flags of halo cells are those of the neighbour's cells; across a
//     periodic side cut by a block boundary they wrap); the cell flags are built once
//     on the whole grid (build_flags), so a block boundary never changes them;
//   - momentum runs on the block's faces (not the halo's), then F and G are exchanged
//     (the right-hand side reads F and G west and south of a cell);
//   - the pressure is solved distributed (linalg/block_halo.hpp) and p exchanged (the
//     correction reads it east and north);
//   - after the correction u and v are exchanged before the obstacle faces (which
//     mirror their neighbours) and again after the boundary fill, which fills only the
//     domain's sides; the side values (from Lua functions too) are cut per block;
//   - dt's maxima and the pressure's means are reduced over the ranks; snapshots,
//     diagnostics, forces, the steady test and checkpoints use whole-grid arrays
//     gathered to every rank (parallel/gather.hpp), so they work unchanged.
// Every cell is computed from the same numbers as on one rank; only sums add in
// another order (the pressure solve's norms and CG's dot products, the mean of p in a
// domain without outflow), so the fields agree to the solver's tolerance. On one rank the
// block is the whole grid and none of this runs.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backend/device_array.hpp"
#include "core/grid.hpp"
#include "models/projection/projection_config.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/gather.hpp"
#include "parallel/halo.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::projection {

// The block this rank steps: the whole grid on one rank, else from the case's
// decomposition (or the automatic one). Throws CaseError for what does not run on
// several ranks (immersed bodies).
ranks::Subdomain block_of_this_rank(const ProjectionConfig& c, bool immersed);

// The block's local grid: its cells with the spacing of the whole grid.
Grid block_grid(const Grid& whole, const ranks::Subdomain& s);

// The block's values along side k (0 left, 1 right, 2 bottom, 3 top) from the whole
// side's (`whole`: index 0 .. n + 1 of the side, as the fill reads them): local index
// q is global q + the block's first cell along the side, for q < len.
template <class Real>
std::vector<Real> block_side(const std::vector<Real>& whole, int side, const ranks::Subdomain& s, int len) {
  const int first = side <= 1 ? s.j0 : s.i0, n = side <= 1 ? s.gny : s.gnx;
  std::vector<Real> out(static_cast<std::size_t>(len));
  for (int q = 0; q < len; ++q) out[std::size_t(q)] = whole[std::size_t(std::clamp(q + first, 0, n + 1))];
  return out;
}

// The exchanges and collective operations of a block; on one rank (the whole grid)
// every call does nothing or returns its argument.
template <class Exec, class Real>
class BlockLink {
 public:
  BlockLink() = default;
  explicit BlockLink(const ranks::Subdomain& b) : b_(b), on_(!b.whole()) {
    if (!on_) return;
    uv_ = ranks::HaloExchange<Exec, Real>(b, 2, 10, ranks::Ring::Ghosts);
    fg_ = ranks::HaloExchange<Exec, Real>(b, 2, 11, ranks::Ring::Ghosts);
    p_ = ranks::HaloExchange<Exec, Real>(b, 1, 12, ranks::Ring::Ghosts);
    pd_ = ranks::HaloExchange<Exec, double>(b, 1, 13, ranks::Ring::Ghosts);
  }
  bool on() const { return on_; }
  const ranks::Subdomain& block() const { return b_; }

  void exchange_velocity(Real* u, Real* v) {
    if (on_) uv_.exchange({u, v});
  }
  void exchange_predictor(Real* f, Real* g) {
    if (on_) fg_.exchange({f, g});
  }
  void exchange_pressure(Real* p) {
    if (on_) p_.exchange(p);
  }
  void exchange_double(double* x) {  // pressure.mixed's double pressure
    if (on_) pd_.exchange(x);
  }

  // The largest of every rank's x; a NaN anywhere is +inf everywhere (MPI's max of a
  // NaN is not defined), which the callers treat as a blow-up as they treat NaN.
  double max(double x) const {
    if (!on_) return x;
    return ranks::max(std::isnan(x) ? std::numeric_limits<double>::infinity() : x);
  }
  double sum(double x) const { return on_ ? ranks::sum(x) : x; }

  // An array of the local layout as the whole grid's, on every rank (collective).
  template <class T>
  std::vector<T> whole(const std::vector<T>& local) const {
    return on_ ? ranks::gather_ring(local, b_) : local;
  }
  template <class T>
  std::vector<T> whole(const DeviceArray<Exec, T>& a) const {
    return whole(a.download());
  }
  // The block's part (with its ring) of a whole-grid array.
  template <class T>
  std::vector<T> cut(const std::vector<T>& whole) const {
    return on_ ? ranks::cut_ring(whole, b_) : whole;
  }

  // The faces the block computes F and G on: 0 .. n on one rank, from 1 where a halo
  // lies before the block (its faces there are the neighbour's).
  int first_face_i() const { return b_.halo[0] ? 1 : 0; }
  int first_face_j() const { return b_.halo[2] ? 1 : 0; }

 private:
  ranks::Subdomain b_;
  bool on_ = false;
  ranks::HaloExchange<Exec, Real> uv_, fg_, p_;
  ranks::HaloExchange<Exec, double> pd_;
};

}  // namespace flowlua::projection
