// Host-side preparation of a fractional-step case: the checks the numerics rely on,
// the cell flags of the periodic box, the time-step rule and the --explain text.
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "models/fractional_step/fs_solver.hpp"

namespace flowlua::fractional_step {

FlagReport prepare(const FractionalStepConfig& c) {
  const Grid& g = c.grid;
  if (g.nx < 4 || g.ny < 4) throw CaseError("grid: the fractional_step model needs nx and ny of at least 4 (QUICK reaches two cells)");
  if (!(g.lx > 0) || !(g.ly > 0)) throw CaseError("grid: lx and ly must be positive");
  if (!(c.nu >= 0) || !std::isfinite(c.nu)) throw CaseError("fluid.nu must be a number >= 0");
  if (!(c.rho > 0)) throw CaseError("fluid.rho must be positive");
  if (!(c.time.cfl > 0 && c.time.cfl <= 1)) throw CaseError("time.cfl must lie in (0, 1]");
  if (c.time.dt < 0) throw CaseError("time.dt must be positive");
  if (!(c.pressure.tol > 0)) throw CaseError("pressure.tol must be positive");
  for (Side s : kSides)
    if (c.boundaries[int(s)].kind != BoundaryKind::Periodic)
      throw CaseError(std::string("boundaries.") + side_name(s) +
                      ": the fractional_step model has periodic sides only so far (the seed's box); "
                      "walls, inflow and outflow are not yet available in it");
  for (auto* init : {&c.u0, &c.v0, &c.p0})
    if (!init->empty() && init->size() != g.size()) throw CaseError("initial field has the wrong size");
  const double lap = 1 / (g.dx * g.dx) + 1 / (g.dy * g.dy);
  if (c.diffusion == FsDiffusion::Explicit && c.time.dt > 0 && c.nu > 0 && c.time.dt * 4 * c.nu * lap > 1 + 1e-12) {
    std::ostringstream o;
    o << "time.dt = " << c.time.dt << " exceeds AB2's diffusive stability limit 1 / (4 nu (1/dx^2 + 1/dy^2)) = "
      << 1 / (4 * c.nu * lap) << " for nu = " << c.nu << " on this grid; give a smaller dt, or time.cfl for an "
      << "adaptive one";
    throw CaseError(o.str());
  }
  return build_flags(g, c.boundaries, {});
}

bool periodic_axis3(const FractionalStepConfig& c, int a) {
  return c.boundaries3[2 * a].kind == BoundaryKind::Periodic;
}

// The 3D box: every side periodic (in pairs) or a wall whose normal velocity is 0
// (no-slip, moving along itself, slip), so the wall faces stay fixed and the kernels
// need only the ghost layer (fs_state.hpp).
FlagReport prepare3(const FractionalStepConfig& c) {
  const Grid3& g = c.grid3;
  if (c.dims != 3) throw CaseError("fractional_step: a 3D solver needs a 3D grid (grid.nz > 1)");
  if (g.nx < 4 || g.ny < 4 || g.nz < 4)
    throw CaseError("grid: the fractional_step model needs nx, ny and nz of at least 4 (QUICK reaches two cells)");
  if (!(g.lx > 0) || !(g.ly > 0) || !(g.lz > 0)) throw CaseError("grid: lx, ly and lz must be positive");
  if (!(c.nu >= 0) || !std::isfinite(c.nu)) throw CaseError("fluid.nu must be a number >= 0");
  if (!(c.rho > 0)) throw CaseError("fluid.rho must be positive");
  if (!(c.time.cfl > 0 && c.time.cfl <= 1)) throw CaseError("time.cfl must lie in (0, 1]");
  if (c.time.dt < 0) throw CaseError("time.dt must be positive");
  if (!(c.pressure.tol > 0)) throw CaseError("pressure.tol must be positive");
  for (double f : c.force)
    if (!std::isfinite(f)) throw CaseError("fluid.force must be finite");
  for (Side s : kSides3) {
    const SideCondition& b = c.boundaries3[int(s)];
    const std::string where = std::string("boundaries.") + side_name(s);
    if (b.kind == BoundaryKind::Outflow)
      throw CaseError(where + ": outflow is not yet available in the 3D fractional_step model (periodic sides, "
                              "flow.wall() and flow.slip() are); drive the flow with fluid.force in a periodic box");
    if (b.kind == BoundaryKind::Dirichlet)
      for (double v : b.normal)
        if (v != 0)
          throw CaseError(where + ": inflow (a velocity through the side) is not yet available in the 3D "
                                  "fractional_step model (periodic sides, flow.wall() and flow.slip() are); drive "
                                  "the flow with fluid.force in a periodic box");
    const SideCondition& o = c.boundaries3[int(s) ^ 1];
    if ((b.kind == BoundaryKind::Periodic) != (o.kind == BoundaryKind::Periodic))
      throw CaseError(where + ": periodic on one side of an axis needs periodic on the other");
  }
  for (auto* init : {&c.u0, &c.v0, &c.w0, &c.p0})
    if (!init->empty() && init->size() != g.size()) throw CaseError("initial field has the wrong size");
  const double lap = 1 / (g.dx * g.dx) + 1 / (g.dy * g.dy) + 1 / (g.dz * g.dz);
  if (c.diffusion == FsDiffusion::Explicit && c.time.dt > 0 && c.nu > 0 && c.time.dt * 4 * c.nu * lap > 1 + 1e-12) {
    std::ostringstream o;
    o << "time.dt = " << c.time.dt
      << " exceeds AB2's diffusive stability limit 1 / (4 nu (1/dx^2 + 1/dy^2 + 1/dz^2)) = " << 1 / (4 * c.nu * lap)
      << " for nu = " << c.nu << " on this grid; give a smaller dt, or time.cfl for an adaptive one";
    throw CaseError(o.str());
  }
  return build_flags3(g, c.boundaries3, {});
}

// AB2's stability region reaches -1 on the real axis: dt <= 1 / (4 nu sum 1/h^2) for
// the explicit Laplacian; the convective limit is the CFL number 1 (QUICK's upwind
// part damps AB2's weak growth on the imaginary axis; seed 004 sec. 4.4).
double stable_dt(const FractionalStepConfig& c, double inv_t) {
  const Grid& g = c.grid;
  double lap = 1 / (g.dx * g.dx) + 1 / (g.dy * g.dy);
  if (c.dims == 3) lap = 1 / (c.grid3.dx * c.grid3.dx) + 1 / (c.grid3.dy * c.grid3.dy) + 1 / (c.grid3.dz * c.grid3.dz);
  double dt = c.nu > 0 && c.diffusion == FsDiffusion::Explicit ? 1 / (4 * c.nu * lap) : 0;
  if (inv_t > 0) dt = dt > 0 ? std::min(dt, 1 / inv_t) : 1 / inv_t;
  if (!(dt > 0))
    throw CaseError(c.diffusion == FsDiffusion::Explicit
                        ? "time: the flow is at rest and nu = 0, so no time step follows from time.cfl; give time.dt"
                        : "time: the flow is at rest and diffusion is implicit (crank_nicolson), so no time step "
                          "follows from time.cfl; give time.dt");
  return c.time.cfl * dt;
}

std::string describe_plan(const FractionalStepConfig& c, const char* backend, const std::string& pressure_solver,
                          const KernelPlan& plan) {
  std::ostringstream o;
  o << "fractional_step model on the " << backend << " backend, " << precision_name(c.precision) << " precision\n";
  if (c.dims == 3) {
    const char* axes[3] = {"x", "y", "z"};
    o << "  3D staggered (MAC) grid " << c.grid3.nx << " x " << c.grid3.ny << " x " << c.grid3.nz << ";";
    for (int a = 0; a < 3; ++a) o << " " << axes[a] << (periodic_axis3(c, a) ? " periodic" : " walls") << (a < 2 ? "," : ";");
    o << " AB2 (forward Euler first step), " << fs_advection_name(c.advection) << " convection, "
      << (c.diffusion == FsDiffusion::Explicit ? "explicit diffusion" : "Crank-Nicolson diffusion (CG)") << "\n";
    if (c.force[0] != 0 || c.force[1] != 0 || c.force[2] != 0)
      o << "  body force (" << c.force[0] << ", " << c.force[1] << ", " << c.force[2] << ") per unit mass\n";
  } else {
    o << "  staggered (MAC) grid, periodic box; AB2 (forward Euler first step), " << fs_advection_name(c.advection)
      << " convection" << (c.diffusion == FsDiffusion::Explicit ? "" : ", Crank-Nicolson diffusion (CG)") << "\n";
  }
  o << "  pressure: " << pressure_solver << "\n";
  o << "  key: " << kernel_key(c, backend).describe() << "\n";
  o << "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n" << plan.describe();
  return o.str();
}

}  // namespace flowlua::fractional_step
