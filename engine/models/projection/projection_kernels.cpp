#include "models/projection/projection_kernels.hpp"

#include <map>
#include <string>

#include "core/error.hpp"
#include "linalg/rbsor_block.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::projection {

namespace {

bool always(const KernelKey&) { return true; }
bool no_obstacles(const KernelKey& k) { return !k.obstacles; }
// Flags from the position: an open box on one rank (a block's flags are not).
bool open(const KernelKey& k) { return !k.obstacles && k.ranks == 1; }
bool central(const KernelKey& k) { return k.scheme == "central"; }
bool central_open(const KernelKey& k) { return central(k) && open(k); }
bool shapes(const KernelKey& k) { return k.shapes; }
bool rbsor(const KernelKey& k) { return k.pressure == "rbsor"; }
bool rbsor_open(const KernelKey& k) { return rbsor(k) && open(k); }
bool rbsor_fused(const KernelKey& k) { return rbsor(k) && k.backend == "cuda" && !k.periodic && k.ranks == 1; }
bool rbsor_fused_open(const KernelKey& k) { return rbsor_fused(k) && open(k); }
// One thread block holds p (with ghosts) in shared memory (linalg/rbsor_block.hpp).
bool rbsor_block(const KernelKey& k) {
  return rbsor_fused(k) && block_sor_layout(k.nx, k.ny, k.precision == Precision::Float ? 4 : 8, false).fits;
}
bool rbsor_block_open(const KernelKey& k) { return rbsor_block(k) && open(k); }
bool one_rank(const KernelKey& k) { return k.ranks == 1; }
bool rbsor_one_rank(const KernelKey& k) { return rbsor(k) && k.ranks == 1; }
bool cuda_one_rank(const KernelKey& k) { return k.backend == "cuda" && k.ranks == 1; }
bool tile_open(const KernelKey& k) { return open(k) && k.backend == "cuda" && !k.shapes; }
bool central_tile_open(const KernelKey& k) { return central(k) && tile_open(k); }

KernelRegistry build() {
  KernelRegistry r;
  // Stages in step order; within a stage, the highest rank that applies wins.
  // bodies: how obstacles of exact shape enter (decided before the flags are built;
  // `general = true` leaves it alone: it changes what is computed, not how). Immersed
  // bodies are the default since they are validated (docs/validation.md, "Cylinder in
  // a channel": Couette second order, DFG 2D-1 in its bands, 2D-2 within 2%); where
  // they cannot run the key has no `shapes` and the staircase stays, with the reason
  // in the plan (immersed_fallback below).
  r.add({"bodies", "immersed",
         "obstacles of exact shape as immersed boundaries: ghost values inside them continue the fluid's "
         "profile through the exact surface (Tseng & Ferziger 2003), cut-cell continuity, their cells fluid "
         "for the pressure",
         "an obstacle given by its exact shape (flow.circle, flow.rect, flow.polygon, flow.level_set)", shapes, 1});
  r.add({"bodies", "staircase", "obstacles as whole cells (NaSt2D flags), faces between fluid and obstacle walls",
         "nothing", always, 0});
  r.add({"boundaries", "sides", "ghost cells of the four sides", "no obstacles", no_obstacles, 1});
  r.add({"boundaries", "sides_and_obstacles", "ghost cells of the sides, then the faces of obstacle cells",
         "nothing", always, 0});
  // dt: where the adaptive time step is computed and kept (dt_rule.hpp). On several
  // ranks the maxima of every block meet on the host.
  r.add({"dt", "device",
         "dt, 1/dt and gamma computed by one thread after the maxima and read by the kernels from backend memory; "
         "the host reads dt and the time a few steps late",
         "one rank", one_rank, 1});
  r.add({"dt", "host", "the maxima copied to the host each step, dt computed there and passed to the kernels",
         "nothing", always, 0});
  r.add({"momentum", "central_open", "F and G in one pass, central differences, flags from the position",
         "central advection and no obstacles, on one rank", central_open, 3});
  r.add({"momentum", "central", "F and G in one pass, central differences, flag array", "central advection",
         central, 2});
  r.add({"momentum", "hybrid_open", "F and G in one pass, donor-cell/central blend, flags from the position",
         "no obstacles, on one rank", open, 1});
  // Through a shared-memory tile (models/projection/momentum_tile.cuh), the same bits.
  // Below the one-pass variants until the H100 measures them faster: forced only.
  r.add({"momentum", "central_tile_open",
         "F and G from a shared-memory tile of u and v (16-byte loads), central differences, flags from the position",
         "central advection, the CUDA backend, no obstacles, on one rank", central_tile_open, 1});
  r.add({"momentum", "hybrid_tile_open",
         "F and G from a shared-memory tile of u and v (16-byte loads), donor-cell/central blend, flags from the "
         "position",
         "the CUDA backend, no obstacles, on one rank", tile_open, 1});
  r.add({"momentum", "hybrid", "F and G in one pass, donor-cell/central blend (any gamma), flag array", "nothing",
         always, 0});
  r.add({"rhs", "open", "div(F, G) / dt, flags from the position", "no obstacles, on one rank", open, 1});
  r.add({"rhs", "flagged", "div(F, G) / dt, flag array", "nothing", always, 0});
  // Forced only: measured slower than the fused sweep (H100, 2026-11-26: the 128^2 float
  // step 89.6 us against 52.6 us; one block cannot hide its own latency).
  r.add({"pressure", "rbsor_block_open",
         "red-black SOR, the sweeps between two residual checks in one launch of one thread block, p in shared "
         "memory, flags from the position",
         "the rbsor solver, the CUDA backend, no obstacles and no periodic side, on one rank, and p of the grid with "
         "its ghosts within 227 KiB (a square grid: float up to 239^2, double 168^2)",
         rbsor_block_open, 1});
  r.add({"pressure", "rbsor_block",
         "red-black SOR, the sweeps between two residual checks in one launch of one thread block, p in shared "
         "memory, flag array",
         "the rbsor solver, the CUDA backend and no periodic side, on one rank, and p of the grid with its ghosts "
         "within 227 KiB (a square grid: float up to 239^2, double 168^2)",
         rbsor_block, 1});
  r.add({"pressure", "rbsor_fused_open",
         "red-black SOR, both colours and the residual in one launch, flags from the position",
         "the rbsor solver, the CUDA backend, no obstacles and no periodic side, on one rank", rbsor_fused_open, 3});
  r.add({"pressure", "rbsor_fused", "red-black SOR, both colours and the residual in one launch, flag array",
         "the rbsor solver, the CUDA backend and no periodic side, on one rank", rbsor_fused, 2});
  // The fused sweep through a shared-memory tile (linalg/rbsor_tile.cuh), the same
  // bits. Below the fused variants until the H100 measures it faster: forced only
  // (kernels = { pressure = "rbsor_tile_open" }; the harness times it beside them).
  r.add({"pressure", "rbsor_tile_open",
         "red-black SOR, the fused sweep through a shared-memory tile (16-byte loads), flags from the position",
         "the rbsor solver, the CUDA backend, no obstacles and no periodic side, on one rank", rbsor_fused_open, 1});
  r.add({"pressure", "rbsor_tile",
         "red-black SOR, the fused sweep through a shared-memory tile (16-byte loads), flag array",
         "the rbsor solver, the CUDA backend and no periodic side, on one rank", rbsor_fused, 1});
  r.add({"pressure", "rbsor_open", "red-black SOR, one launch per colour, flags from the position",
         "the rbsor solver and no obstacles, on one rank", rbsor_open, 1});
  r.add({"pressure", "flagged",
         "the solver's own kernels on the flag array (red-black SOR: one launch per colour)", "nothing", always,
         0});
  // pressure_stop: where the SOR solve decides to stop (linalg/sor_device.hpp).
  r.add({"pressure_stop", "device",
         "the SOR solve's norms, checks and stop decided in backend memory, the sweeps after the stop gated off; "
         "the host reads the report with the step's",
         "the rbsor solver, on one rank (and dt on the device; not pressure.mixed)", rbsor_one_rank, 1});
  r.add({"pressure_stop", "host", "the solver reads its norms back and decides on the host", "nothing", always, 0});
  r.add({"correction", "open", "u, v = F, G - dt grad p, flags from the position", "no obstacles, on one rank", open, 1});
  r.add({"correction", "flagged", "u, v = F, G - dt grad p, flag array", "nothing", always, 0});
  // launch: how a step reaches the GPU (backend/step_graph.hpp).
  r.add({"launch", "graph",
         "the step recorded into a CUDA graph and replayed with one launch (the SOR loop a conditional while "
         "node); direct launches where the step reads anything back",
         "the CUDA backend, on one rank", cuda_one_rank, 1});
  r.add({"launch", "direct", "every kernel of a step launched from the host", "nothing", always, 0});
  // pdl: programmatic dependent launch inside a recorded step (backend/cuda/cuda_exec.cuh,
  // pdl_enter): each kernel's launch overlaps the end of the one before.
  r.add({"pdl", "on",
         "with launch = \"graph\": a kernel of the recorded step that follows a kernel may start while that one "
         "finishes (programmatic dependent launch; it waits for it before reading anything); ordinary edges on "
         "GPUs before compute capability 9.0",
         "the CUDA backend, on one rank", cuda_one_rank, 1});
  r.add({"pdl", "off", "each kernel of a recorded step starts after the one before has ended", "nothing", always, 0});
  return r;
}

}  // namespace

const KernelRegistry& kernel_registry() {
  static const KernelRegistry r = build();
  return r;
}

KernelKey kernel_key(const ProjectionConfig& c, const char* backend, bool open_domain, int ranks) {
  KernelKey k;
  k.ranks = ranks;
  k.model = "projection";
  k.backend = backend;
  k.precision = c.precision;
  k.nx = c.grid.nx;
  k.ny = c.grid.ny;
  k.scheme = c.advection.gamma == 0 ? "central" : "hybrid";
  switch (c.pressure.solver) {
    case PressureSolverKind::RedBlackSOR: k.pressure = "rbsor"; break;
    case PressureSolverKind::ConjugateGradient: k.pressure = "cg"; break;
    case PressureSolverKind::PreconditionedCG: k.pressure = "pcg"; break;
    case PressureSolverKind::Multigrid: k.pressure = "multigrid"; break;
    case PressureSolverKind::FFT: k.pressure = "fft"; break;
    case PressureSolverKind::LineAdi: k.pressure = "adi"; break;
  }
  k.obstacles = !open_domain;
  k.periodic = is_periodic_x(c.boundaries) || is_periodic_y(c.boundaries);
  // Bodies of exact shape that the immersed treatment takes: by default none where
  // it falls back to the staircase (immersed_fallback); kernels.bodies = "immersed"
  // passes that (immersed_bodies refuses what cannot run).
  auto f = c.kernels.find("bodies");
  const bool forced = f != c.kernels.end() && f->second == "immersed";
  k.shapes = !c.immersed.empty() && (forced || immersed_fallback(c, ranks).empty());
  return k;
}

namespace {

std::string obstacle_name(int k) { return "obstacles[" + std::to_string(k + 1) + "]"; }

// A body on a side the immersed treatment cannot have there: across a periodic side
// (its faces are not forced across it) or on an outflow side (the outflow's faces
// would be inside it); "" when none.
std::string body_on_side(const ProjectionConfig& c) {
  const ImmersedGeometry& geo = c.immersed;
  for (std::size_t b = 0; b < geo.obstacles.size(); ++b)
    for (Side sd : kSides) {
      if (!(geo.sides_reached[b] & (1 << int(sd)))) continue;
      const BoundaryKind kind = c.boundaries[int(sd)].kind;
      if (kind == BoundaryKind::Outflow || kind == BoundaryKind::Periodic)
        return obstacle_name(geo.obstacles[b]) + " reaches the " + (kind == BoundaryKind::Outflow ? "outflow" : "periodic") +
               " side " + side_name(sd);
    }
  return "";
}

}  // namespace

std::string immersed_fallback(const ProjectionConfig& c, int ranks) {
  if (c.immersed.empty()) return "";
  const std::string side = body_on_side(c);
  if (!side.empty()) return side + ", which an immersed body must keep clear of";
  if (ranks > 1)
    return "immersed bodies run on one MPI rank only, and this run has " + std::to_string(ranks) + " (docs/mpi.md)";
  if (c.immersed.all_on_grid_lines)
    return "every body is a flow.rect with its sides on grid lines, which the cells represent exactly";
  return "";
}

bool immersed_bodies(const ProjectionConfig& c, const char* backend) {
  auto f = c.kernels.find("bodies");
  const bool forced = f != c.kernels.end() && f->second == "immersed";
  if (forced && !c.immersed.empty()) {
    // What the default falls back from is an error when asked for by name.
    if (ranks::several())
      throw CaseError("kernels.bodies = 'immersed' runs on one rank only; on several MPI ranks obstacles are "
                      "staircase cells (leave kernels.bodies out, or run without mpirun)");
    const std::string side = body_on_side(c);
    if (!side.empty())
      throw CaseError("kernels.bodies = 'immersed': " + side +
                      "; an immersed body must keep clear of outflow and periodic sides (move it, or leave "
                      "kernels.bodies out: it is then staircase cells)");
  }
  std::map<std::string, std::string> chosen;
  if (f != c.kernels.end()) chosen["bodies"] = f->second;
  // Only the bodies stage is planned here: the rest of the key (open flags) is not known yet.
  return kernel_registry().plan(kernel_key(c, backend, c.solid.empty(), ranks::size()), chosen).variant("bodies") ==
         "immersed";
}

}  // namespace flowlua::projection
