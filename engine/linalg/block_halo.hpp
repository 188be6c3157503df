// The pressure solvers on several MPI ranks (docs/mpi.md): each rank holds its block
// of the grid with the ghost ring of the NaSt2D layout, whose cells towards a
// neighbour are that neighbour's (the halo). A solver refreshes the halo of a field
// before every stencil that reads it (ranks::HaloExchange, Ring::Ghosts) and adds its
// sums over the ranks (ranks::sum); red-black colours are those of the whole grid
// (the colour of a local cell is shifted by the parity of the block's first cell).
// So the sweeps, the matrix-vector products and the multigrid transfers compute on
// each cell exactly what one rank computes there; only the order of the sums differs.
// Red-black SOR and multigrid work on padded copies with a deeper halo instead
// (linalg/padded_block.hpp), which need fewer exchanges; CG and the refinement use
// this one.
//
// On one rank (PoissonProblem::blocks null) a BlockHalo is off: exchange() and
// sum() do nothing, and the solvers run as they always did.
#pragma once
#include <cmath>

#include "linalg/poisson_problem.hpp"
#include "linalg/poisson_stencil.hpp"
#include "parallel/halo.hpp"
#include "parallel/ranks.hpp"

namespace flowlua {

// Message tags of the solvers' exchanges (parallel/halo.hpp); the projection model's
// own fields use 10..19, multigrid levels 40 + level.
namespace halo_tag {
constexpr int kSor = 20, kCg = 21, kCgDirection = 22, kRefinement = 23, kMultigrid = 40;
}

template <class Exec, class Real>
class BlockHalo {
 public:
  BlockHalo() = default;
  BlockHalo(const ranks::Subdomain& block, int tag)
      : x_(block, 1, tag, ranks::Ring::Ghosts), on_(true), parity_((block.i0 + block.j0) & 1) {}

  bool on() const { return on_; }
  // The halo of x (an array of the block's layout) from the neighbours.
  void exchange(Real* x) {
    if (on_) x_.exchange(x);
  }
  // A sum over the blocks of every rank (collective).
  double sum(double x) const { return on_ ? ranks::sum(x) : x; }
  // Global red-black colour c (0: i + j even on the whole grid) as a local colour.
  int colour(int c) const { return c ^ parity_; }

 private:
  ranks::HaloExchange<Exec, Real> x_;
  bool on_ = false;
  int parity_ = 0;
};

// The halo of a problem's block; off on one rank and for 3D problems (one rank only).
template <class Exec, class Real>
BlockHalo<Exec, Real> block_halo(const PoissonProblem& pr, int tag) {
  return pr.blocks ? BlockHalo<Exec, Real>(pr.blocks->block, tag) : BlockHalo<Exec, Real>();
}
template <class Exec, class Real>
BlockHalo<Exec, Real> block_halo(const PoissonProblem3&, int) {
  return BlockHalo<Exec, Real>();
}

}  // namespace flowlua
