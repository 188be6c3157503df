// A block's state assembled from the blocks of another split of the same grid: a
// checkpoint written on N ranks continues on M (io/checkpoint_pieces.hpp). Each array
// of a piece is its writer's block (SolverState::Array::tile); the reader's block takes
// every cell it holds, its halo included, from the piece that owns that cell, exactly
// as cutting the gathered whole grid would (parallel/gather.hpp: cut_planes, cut_ring
// and gather_ring's periodic ghosts), without holding the whole grid.
#pragma once
#include <vector>

#include "parallel/decomposition.hpp"
#include "sim/solver_state.hpp"

namespace flowlua::ranks {

// Whether block `piece` (of any split) holds a cell that block `to` needs: its own
// cells, its halo and the domain's ghost cells beside them (across a periodic side too).
bool block_needed(const Subdomain& piece, const Subdomain& to);

class Retiler {
 public:
  // `to`: the block to fill; `from`: the split the pieces were written in (its
  // periodic ghosts are filled as gather_ring fills them).
  Retiler(const Subdomain& to, const Decomposition& from);
  // The state of block `piece` of the split `from`: its grid arrays give the cells of
  // `to` that they own; the first piece also gives the arrays that are not grid
  // arrays and the scalars. std::runtime_error when its arrays do not fit its block
  // or the first piece's.
  void add(const Subdomain& piece, const SolverState& state);
  // The state of `to`; std::runtime_error naming a cell that no piece gave.
  SolverState finish();

 private:
  Subdomain to_;
  Decomposition from_;
  bool started_ = false;
  SolverState out_;
  std::vector<char> planes_done_, ring_done_;  // per local cell of `to`
};

}  // namespace flowlua::ranks
