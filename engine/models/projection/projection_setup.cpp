// Host-side preparation of a projection case: the checks the numerics rely on, the
// cell flags, and the plan text that --explain prints.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "models/projection/projection_solver.hpp"

namespace flowlua::projection {

namespace {

std::string where(Side s) { return std::string("boundaries.") + side_name(s); }

double net_inflow(const ProjectionConfig& c) {
  double q = 0;
  for (Side s : kSides) {
    const SideCondition& sc = c.boundaries[int(s)];
    if (sc.kind != BoundaryKind::Dirichlet) continue;
    const double h = (s == Side::Left || s == Side::Right) ? c.grid.dy : c.grid.dx;
    for (double un : sc.normal) q += un * h;
  }
  return q;
}

}  // namespace

void check_side(const ProjectionConfig& c, Side side, const SideCondition& sc) {
  const int n = (side == Side::Left || side == Side::Right) ? c.grid.ny : c.grid.nx;
  if (sc.kind == BoundaryKind::Dirichlet) {
    if ((!sc.normal.empty() && int(sc.normal.size()) != n) || (!sc.tangential.empty() && int(sc.tangential.size()) != n))
      throw CaseError(where(side) + ": expected " + std::to_string(n) + " boundary values");
    for (double x : sc.normal)
      if (!std::isfinite(x)) throw CaseError(where(side) + ": boundary velocity is not a finite number");
    for (double x : sc.tangential)
      if (!std::isfinite(x)) throw CaseError(where(side) + ": boundary velocity is not a finite number");
  }
  if (sc.kind != c.boundaries[int(side)].kind)
    throw CaseError(where(side) + ": a side cannot change its kind during a run");
}

Setup prepare(const ProjectionConfig& c, bool immersed) {
  const Grid& g = c.grid;
  if (g.nx < 2 || g.ny < 2) throw CaseError("grid: nx and ny must be at least 2");
  if (!(g.lx > 0) || !(g.ly > 0)) throw CaseError("grid: lx and ly must be positive");
  if (!(c.nu > 0) || !std::isfinite(c.nu)) throw CaseError("fluid.nu must be a positive number");
  if (!(c.rho > 0)) throw CaseError("fluid.rho must be positive");
  if (!(c.pressure.omega > 0 && c.pressure.omega < 2)) throw CaseError("pressure.omega must lie in (0, 2)");
  if (!(c.pressure.tol > 0)) throw CaseError("pressure.tol must be positive");
  if (c.pressure_mixed && c.precision != Precision::Float)
    throw CaseError("pressure.mixed = true refines a float solve in double: it needs precision = \"float\" "
                    "(in double the solve reaches its tolerance by itself)");
  if (c.pressure.max_iter < 1 || c.pressure.check_every < 1)
    throw CaseError("pressure.max_iter and pressure.check_every must be at least 1");
  if (!(c.time.cfl > 0 && c.time.cfl <= 1)) throw CaseError("time.cfl must lie in (0, 1]");
  if (c.time.dt < 0) throw CaseError("time.dt must be positive");
  if (c.time.scheme != TimeScheme::Explicit)
    throw CaseError("time.scheme = 'adi' is offered by the psi_omega model only; the projection model steps explicitly");
  if (c.advection.gamma > 1) throw CaseError("kernels.gamma must lie in [0, 1]");
  const std::size_t cells = std::size_t(g.nx) * g.ny;
  if (!c.solid.empty() && c.solid.size() != cells) throw CaseError("obstacle mask has the wrong size");
  for (auto* init : {&c.u0, &c.v0, &c.p0})
    if (!init->empty() && init->size() != g.size()) throw CaseError("initial field has the wrong size");

  const Boundaries& b = c.boundaries;
  if ((b[0].kind == BoundaryKind::Periodic) != (b[1].kind == BoundaryKind::Periodic))
    throw CaseError("boundaries: periodic must be set on both left and right");
  if ((b[2].kind == BoundaryKind::Periodic) != (b[3].kind == BoundaryKind::Periodic))
    throw CaseError("boundaries: periodic must be set on both bottom and top");
  if (b[0].kind == BoundaryKind::Periodic && g.nx % 2)
    throw CaseError("grid.nx must be even with periodic left/right sides (red-black ordering)");
  if (b[2].kind == BoundaryKind::Periodic && g.ny % 2)
    throw CaseError("grid.ny must be even with periodic bottom/top sides (red-black ordering)");
  for (Side s : kSides) check_side(c, s, b[int(s)]);

  Setup setup;
  if (immersed && !c.solid.empty()) {
    // Immersed bodies leave their cells to the fluid (the pressure is solved through
    // them; the forced faces hold the body's velocity): only obstacles without an
    // exact shape stay cells.
    std::vector<std::uint8_t> cells = c.solid;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const int id = c.obstacle_id.empty() ? 0 : c.obstacle_id[k];
      if (cells[k] && std::find(c.immersed.obstacles.begin(), c.immersed.obstacles.end(), id) !=
                          c.immersed.obstacles.end())
        cells[k] = 0;
    }
    bool any = false;
    for (auto v : cells) any = any || v;
    setup.flags = build_flags(g, b, any ? cells : std::vector<std::uint8_t>());
  } else {
    setup.flags = build_flags(g, b, c.solid);
  }
  setup.singular = true;
  for (Side s : kSides)
    if (b[int(s)].kind == BoundaryKind::Outflow) setup.singular = false;
  if (setup.singular) {
    double q = net_inflow(c), scale = 0;
    for (Side s : kSides)
      for (double un : b[int(s)].normal) scale += std::abs(un);
    if (std::abs(q) > 1e-9 * std::max(scale, 1e-300) * std::max(g.dx, g.dy) && scale > 0)
      throw CaseError("boundaries: fluid flows in but has nowhere to go; give one side flow.outflow()");
  }
  return setup;
}

std::string describe_plan(const ProjectionConfig& c, const Setup& setup, const char* backend,
                          const std::string& pressure_solver, const KernelPlan& kernels, bool immersed) {
  std::ostringstream s;
  const Grid& g = c.grid;
  const bool obstacles = setup.flags.fluid_cells < g.cells();
  s << "model      projection (staggered MAC grid, explicit momentum, pressure Poisson)\n";
  s << "backend    " << backend << ", " << precision_name(c.precision) << "\n";
  s << "grid       " << g.nx << " x " << g.ny << " cells, " << g.lx << " x " << g.ly << " (dx " << g.dx << ", dy "
    << g.dy << ")\n";
  s << "fluid      nu " << c.nu << ", rho " << c.rho;
  if (c.gx != 0 || c.gy != 0) s << ", body force (" << c.gx << ", " << c.gy << ")";
  s << "\n";
  s << "time       ";
  if (c.time.dt > 0) s << "fixed dt " << c.time.dt;
  else s << "adaptive dt, safety factor " << c.time.cfl;
  s << ", t_end " << c.time.t_end;
  if (c.time.max_steps >= 0) s << ", at most " << c.time.max_steps << " steps";
  if (c.time.steady > 0) s << ", stop when the velocity changes by less than " << c.time.steady << " of its scale per time unit";
  s << "\n";
  s << "boundaries";
  for (Side side : kSides)
    s << "  " << side_name(side) << ": " << c.boundaries[int(side)].label << " ("
      << kind_name(c.boundaries[int(side)].kind) << ")";
  s << "\n";
  if (immersed) {
    const ImmersedGeometry& geo = c.immersed;
    s << "bodies     " << geo.obstacles.size() << " immersed (ghost cells, Tseng & Ferziger 2003; cut-cell continuity): "
      << geo.u.inside + geo.v.inside + geo.u.ghost + geo.v.ghost << " faces inside (" << geo.u.ghost + geo.v.ghost
      << " ghosts), " << geo.u.near_wall + geo.v.near_wall
      << " free faces next to the surface; their cells are fluid for the pressure\n";
  }
  if (!immersed && !c.immersed.empty()) {
    const std::string& why = kernels.stages.at("bodies").note;
    s << "bodies     " << c.immersed.obstacles.size() << " of exact shape as staircase cells: "
      << (why.empty() ? std::string("kernels.bodies = 'staircase'") : why) << "\n";
  }
  s << "obstacles  " << (obstacles ? std::to_string(g.cells() - setup.flags.fluid_cells) + " solid cells" : "none");
  if (setup.flags.cells_opened) s << ", " << setup.flags.cells_opened << " one-cell-thin cells opened";
  if (setup.flags.cells_closed) s << ", " << setup.flags.cells_closed << " enclosed fluid cells closed";
  s << "\n";
  s << "advection  ";
  if (c.advection.gamma < 0) s << "hybrid donor-cell/central, gamma automatic (1.2 x max CFL)";
  else if (c.advection.gamma == 0) s << "central differences (gamma 0)";
  else if (c.advection.gamma == 1) s << "donor-cell (gamma 1)";
  else s << "hybrid donor-cell/central, gamma " << c.advection.gamma;
  s << "\n";
  s << "pressure   " << pressure_solver << (setup.singular ? ", mean fixed to 0 (no outflow)" : "") << "\n";
  s << "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n";
  s << kernels.describe();
  return s.str();
}

}  // namespace flowlua::projection
