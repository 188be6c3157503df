// The projection model's kernel variants (core/kernel_registry.hpp): which stages
// it has, which variants each stage offers and when they apply.
#pragma once
#include <string>

#include "models/projection/projection_config.hpp"
#include "core/kernel_registry.hpp"

namespace flowlua::projection {

// The stages, in the order a step runs them, and their variants:
//   bodies          immersed | staircase  (obstacles of exact shape; chosen first)
//   boundaries      sides | sides_and_obstacles
//   dt              device | host  (where dt is computed and kept)
//   momentum        central_open | central | hybrid_open | central_tile_open |
//                   hybrid_tile_open | hybrid
//   rhs             open | flagged
//   pressure        rbsor_block_open | rbsor_block | rbsor_fused_open | rbsor_fused |
//                   rbsor_open | rbsor_tile_open | rbsor_tile | flagged
//   pressure_stop   device | host  (where the SOR solve decides to stop)
//   correction      open | flagged
//   launch          graph | direct  (a step as a CUDA graph, or kernel by kernel)
//   pdl             on | off  (programmatic edges between the graph's kernels)
// "open" variants compute each cell's flags from its position (no obstacles: no flag
// bytes moved); "central" drops the donor-cell terms at compile time; "fused" runs
// both red-black colours and the residual in one CUDA launch; "block" runs the sweeps
// between two checks of a small grid in one launch of one thread block. On several MPI ranks
// (a block of the grid each) neither applies: a block's flags are not those of a
// position in an open box, and a sweep exchanges the halo between its colours.
const KernelRegistry& kernel_registry();

// The key of a case: `open` says whether the domain's flags can be computed from the
// position (core/flags.hpp, open_domain_flags); `ranks`, how many MPI ranks split
// the grid.
KernelKey kernel_key(const ProjectionConfig& c, const char* backend, bool open, int ranks = 1);

// Whether obstacles of exact shape are immersed bodies (kernels.bodies; by default
// they are, unless immersed_fallback gives a reason): decided before the flags, since
// it decides them. Throws CaseError for kernels.bodies = "immersed" where the default
// would fall back for a reason other than grid-aligned rectangles.
bool immersed_bodies(const ProjectionConfig& c, const char* backend);

// Why the default keeps obstacles of exact shape as staircase cells on `ranks` MPI
// ranks ("" when they are immersed bodies): a body reaches an outflow or periodic
// side, several ranks, or every body is a rectangle on grid lines (exact as cells).
std::string immersed_fallback(const ProjectionConfig& c, int ranks);

}  // namespace flowlua::projection
