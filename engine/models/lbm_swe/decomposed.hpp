// lbm_swe on several ranks (mpirun; parallel/decomposition.hpp): each rank steps its
// block of the grid with a halo layer one cell wide towards its neighbours. The
// fused step (stream_collide.hpp) needs no change for it: a block's local grid is its
// owned cells plus the halo, the step runs over the owned cells only, pulls across a
// halo like across any grid cell, and the halo is refilled from the neighbours after
// every step. A side of the block that is a side of the domain keeps the case's rule.
// So a run on N ranks computes every cell from the same numbers as one rank: the
// fields are the same bit for bit (tests/mpi).
#pragma once
#include <vector>

#include "models/lbm_swe/lbm_swe_config.hpp"
#include "models/lbm_swe/swe_fields.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/gather.hpp"

namespace flowlua::lbm_swe {

// The block this rank steps: the whole grid on one rank, else from the case's
// decomposition (or the automatic one) over all ranks.
ranks::Subdomain block_of_this_rank(const LbmSweConfig& c);

// The case as one block sees it: grid, arrays and sides cut to the block and its
// halo (halo cells take the neighbours' initial values, so the first step needs no
// exchange); sides towards a neighbour become walls, which the step never reaches.
LbmSweConfig local_case(const LbmSweConfig& global, const ranks::Subdomain& s);

// A side's values (one per boundary cell of the whole side) cut to the block's
// local cells along it; side 0, 1 run along y, 2, 3 along x.
std::vector<double> local_side_values(const std::vector<double>& global, int side, const ranks::Subdomain& s);

// Whole-grid planes from the blocks and back (parallel/gather.hpp, the Halo layout).
using ranks::cut_planes;
using ranks::gather_planes;

}  // namespace flowlua::lbm_swe
