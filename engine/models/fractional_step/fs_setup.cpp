// Host-side preparation of a fractional-step case: the checks the numerics rely on,
// the cell flags of the periodic box, the time-step rule and the --explain text.
#include <array>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "models/fractional_step/fs_solver.hpp"

namespace flowlua::fractional_step {

namespace {

std::string where(Side s) { return std::string("boundaries.") + side_name(s); }

// The pressure condition a side gives (core/flags.hpp): p = 0 on outflow, dp/dn = 0
// on walls and inflow, or the wrap.
enum class PressureSide { Periodic, Neumann, Dirichlet };
PressureSide pressure_side(const SideCondition& b) {
  return b.kind == BoundaryKind::Periodic ? PressureSide::Periodic
         : b.kind == BoundaryKind::Outflow ? PressureSide::Dirichlet
                                           : PressureSide::Neumann;
}

// The checks of the sides, the obstacles and the pressure solver that 2D and 3D share.
// n, h: cells and spacing per axis; cell(i, j, k) the solid mask's entry.
template <std::size_t kN, class Solid>
void check_case(const FractionalStepConfig& c, const std::array<SideCondition, kN>& sides, const int* n,
                const double* h, long solid_cells, const Solid& solid_at) {
  constexpr int D = int(kN) / 2;
  const char* axes[3] = {"x", "y", "z"};
  // per axis: periodic on both sides or on neither
  for (int a = 0; a < D; ++a) {
    const SideCondition &lo = sides[2 * a], &hi = sides[2 * a + 1];
    if ((lo.kind == BoundaryKind::Periodic) != (hi.kind == BoundaryKind::Periodic))
      throw CaseError(where(Side(lo.kind == BoundaryKind::Periodic ? 2 * a : 2 * a + 1)) +
                      ": periodic on one side of an axis needs periodic on the other (" + axes[a] + ": " +
                      side_name(Side(2 * a)) + " and " + side_name(Side(2 * a + 1)) + ")");
  }
  // values per boundary cell, finite; the net inflow when nothing can leave
  double net = 0, scale = 0;
  bool outflow = false;
  for (int s = 0; s < int(kN); ++s) {
    const SideCondition& b = sides[s];
    outflow = outflow || b.kind == BoundaryKind::Outflow;
    if (b.kind != BoundaryKind::Dirichlet) continue;
    const int A = s / 2;
    std::size_t cells = 1;
    double area = 1;
    for (int d = 0; d < D; ++d)
      if (d != A) {
        cells *= std::size_t(n[d]);
        area *= h[d];
      }
    for (const std::vector<double>* v : {&b.normal, &b.tangential, &b.tangential2}) {
      if (!v->empty() && v->size() != cells)
        throw CaseError(where(Side(s)) + ": expected " + std::to_string(cells) + " boundary values, got " +
                        std::to_string(v->size()));
      for (double x : *v)
        if (!std::isfinite(x)) throw CaseError(where(Side(s)) + ": boundary velocity is not a finite number");
    }
    for (double un : b.normal) {
      net += un * area;
      scale += std::abs(un) * area;
    }
  }
  if (!outflow && scale > 0 && std::abs(net) > 1e-9 * scale) {
    std::ostringstream o;
    o << "boundaries: fluid flows in (net flux " << net << ") but has nowhere to go; give one side flow.outflow()";
    throw CaseError(o.str());
  }
  // obstacles must not touch an inflow or outflow side: the side's normal face would
  // carry flow into a solid cell
  if (solid_cells > 0)
    for (int s = 0; s < int(kN); ++s) {
      const SideCondition& b = sides[s];
      const bool through = b.kind == BoundaryKind::Outflow;
      if (b.kind != BoundaryKind::Dirichlet && !through) continue;
      const int A = s / 2, T1 = D == 2 ? 1 - A : (A == 0 ? 1 : 0), T2 = D == 2 ? -1 : (A == 2 ? 1 : 2);
      const int na = n[T1], nb = D == 3 ? n[T2] : 1;
      for (int q2 = 1; q2 <= nb; ++q2)
        for (int q1 = 1; q1 <= na; ++q1) {
          const std::size_t q = std::size_t(q1 - 1) + std::size_t(na) * (q2 - 1);
          if (!through && (b.normal.empty() || b.normal[q] == 0)) continue;
          int x[3] = {1, 1, 1};
          x[A] = s % 2 ? n[A] : 1;
          x[T1] = q1;
          if (D == 3) x[T2] = q2;
          if (!solid_at(x[0], x[1], x[2])) continue;
          std::ostringstream o;
          o << "obstacles: the cell (" << x[0] << ", " << x[1];
          if (D == 3) o << ", " << x[2];
          o << ") beside the " << (through ? "outflow" : "inflow") << " side " << side_name(Side(s))
            << " is solid; obstacles must not touch a side that flow passes through (move the obstacle at least "
               "one cell away, or make that stretch of the side a wall)";
          throw CaseError(o.str());
        }
    }
  // the pressure solver: the FFT needs the obstacle-free box with one condition per axis
  const bool fft_direct = c.pressure.solver == PressureSolverKind::FFT;
  const bool fft_pre =
      c.pressure.solver == PressureSolverKind::PreconditionedCG && c.pressure.preconditioner == PreconditionerKind::FFT;
  if (fft_direct && solid_cells > 0) {
    std::ostringstream o;
    o << "pressure.solver = 'fft' (the direct solve) needs an obstacle-free box, and this case has " << solid_cells
      << " obstacle cells; use pressure = { solver = 'pcg' } (preconditioner 'fft', the box's inverse: seed 004's "
         "method where bodies break the box) or { solver = 'multigrid' }";
    throw CaseError(o.str());
  }
  if (fft_direct || fft_pre)
    for (int a = 0; a < D; ++a) {
      const PressureSide lo = pressure_side(sides[2 * a]), hi = pressure_side(sides[2 * a + 1]);
      if (lo == hi) continue;
      auto text = [](PressureSide p) {
        return p == PressureSide::Dirichlet ? "outflow (p = 0)" : "wall or inflow (dp/dn = 0)";
      };
      throw CaseError(std::string(fft_direct ? "pressure.solver = 'fft'" : "pressure.preconditioner = 'fft'") +
                      " needs the same pressure condition on both sides of an axis (walls on both, outflow on both, "
                      "or periodic); here " + side_name(Side(2 * a)) + " is " + text(lo) + " and " +
                      side_name(Side(2 * a + 1)) + " is " + text(hi) +
                      "; use pressure = { solver = 'multigrid' } or { solver = 'pcg', preconditioner = 'multigrid' }");
    }
}

void check_common(const FractionalStepConfig& c) {
  if (!(c.nu >= 0) || !std::isfinite(c.nu)) throw CaseError("fluid.nu must be a number >= 0");
  if (!(c.rho > 0)) throw CaseError("fluid.rho must be positive");
  if (!(c.time.cfl > 0 && c.time.cfl <= 1)) throw CaseError("time.cfl must lie in (0, 1]");
  if (c.time.dt < 0) throw CaseError("time.dt must be positive");
  if (!(c.pressure.tol > 0)) throw CaseError("pressure.tol must be positive");
  for (double f : c.force)
    if (!std::isfinite(f)) throw CaseError("fluid.force must be finite");
}

void check_diffusive_limit(const FractionalStepConfig& c, double lap, const char* formula) {
  if (c.diffusion == FsDiffusion::Explicit && c.time.dt > 0 && c.nu > 0 && c.time.dt * 4 * c.nu * lap > 1 + 1e-12) {
    std::ostringstream o;
    o << "time.dt = " << c.time.dt << " exceeds AB2's diffusive stability limit " << formula << " = "
      << 1 / (4 * c.nu * lap) << " for nu = " << c.nu << " on this grid; give a smaller dt, or time.cfl for an "
      << "adaptive one";
    throw CaseError(o.str());
  }
}

}  // namespace

// The 2D box: per axis periodic, or walls (no-slip, moving, slip), inflow and outflow;
// obstacle cells (the staircase).
FlagReport prepare(const FractionalStepConfig& c) {
  const Grid& g = c.grid;
  if (g.nx < 4 || g.ny < 4) throw CaseError("grid: the fractional_step model needs nx and ny of at least 4 (QUICK reaches two cells)");
  if (!(g.lx > 0) || !(g.ly > 0)) throw CaseError("grid: lx and ly must be positive");
  check_common(c);
  for (auto* init : {&c.u0, &c.v0, &c.p0})
    if (!init->empty() && init->size() != g.size()) throw CaseError("initial field has the wrong size");
  if (!c.solid.empty() && c.solid.size() != std::size_t(g.cells())) throw CaseError("obstacle mask has the wrong size");
  const int n[2] = {g.nx, g.ny};
  const double h[2] = {g.dx, g.dy};
  long solid = 0;
  for (std::uint8_t x : c.solid) solid += x != 0;
  check_case(c, c.boundaries, n, h, solid, [&](int i, int j, int) {
    return !c.solid.empty() && c.solid[std::size_t(i - 1) + std::size_t(g.nx) * (j - 1)] != 0;
  });
  check_diffusive_limit(c, 1 / (g.dx * g.dx) + 1 / (g.dy * g.dy), "1 / (4 nu (1/dx^2 + 1/dy^2))");
  return build_flags(g, c.boundaries, c.solid);
}

bool periodic_axis3(const FractionalStepConfig& c, int a) {
  return c.boundaries3[2 * a].kind == BoundaryKind::Periodic;
}

// The 3D box: the same sides and obstacles.
FlagReport prepare3(const FractionalStepConfig& c) {
  const Grid3& g = c.grid3;
  if (c.dims != 3) throw CaseError("fractional_step: a 3D solver needs a 3D grid (grid.nz > 1)");
  if (g.nx < 4 || g.ny < 4 || g.nz < 4)
    throw CaseError("grid: the fractional_step model needs nx, ny and nz of at least 4 (QUICK reaches two cells)");
  if (!(g.lx > 0) || !(g.ly > 0) || !(g.lz > 0)) throw CaseError("grid: lx, ly and lz must be positive");
  check_common(c);
  for (auto* init : {&c.u0, &c.v0, &c.w0, &c.p0})
    if (!init->empty() && init->size() != g.size()) throw CaseError("initial field has the wrong size");
  if (!c.solid.empty() && c.solid.size() != std::size_t(g.cells())) throw CaseError("obstacle mask has the wrong size");
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.dx, g.dy, g.dz};
  long solid = 0;
  for (std::uint8_t x : c.solid) solid += x != 0;
  check_case(c, c.boundaries3, n, h, solid, [&](int i, int j, int k) {
    return !c.solid.empty() &&
           c.solid[std::size_t(i - 1) + std::size_t(g.nx) * (std::size_t(j - 1) + std::size_t(g.ny) * (k - 1))] != 0;
  });
  check_diffusive_limit(c, 1 / (g.dx * g.dx) + 1 / (g.dy * g.dy) + 1 / (g.dz * g.dz),
                        "1 / (4 nu (1/dx^2 + 1/dy^2 + 1/dz^2))");
  return build_flags3(g, c.boundaries3, c.solid);
}

void check_side_update(const FractionalStepConfig& c, Side side, const SideCondition& sc) {
  const SideCondition& now = c.dims == 3 ? c.boundaries3[int(side)] : c.boundaries[int(side)];
  if (sc.kind != now.kind)
    throw CaseError(where(side) + ": a side cannot change its kind during a run");
  FractionalStepConfig next = c;
  if (c.dims == 3) {
    next.boundaries3[int(side)] = sc;
    const Grid3& g = c.grid3;
    const int n[3] = {g.nx, g.ny, g.nz};
    const double h[3] = {g.dx, g.dy, g.dz};
    check_case(next, next.boundaries3, n, h, 0, [](int, int, int) { return false; });
  } else {
    next.boundaries[int(side)] = sc;
    const int n[2] = {c.grid.nx, c.grid.ny};
    const double h[2] = {c.grid.dx, c.grid.dy};
    check_case(next, next.boundaries, n, h, 0, [](int, int, int) { return false; });
  }
}

// A face of component a is open when the cells on both sides are fluid; on a periodic
// axis the last face joins the last cell to the first, on the others it is the
// side's face (the fill sets it).
void zero_body_faces(const FractionalStepConfig& c, const FlagReport& flags, int a, std::vector<double>& v) {
  const bool d3 = c.dims == 3;
  const int n[3] = {d3 ? c.grid3.nx : c.grid.nx, d3 ? c.grid3.ny : c.grid.ny, d3 ? c.grid3.nz : 1};
  const bool periodic = d3 ? c.boundaries3[2 * a].kind == BoundaryKind::Periodic
                           : c.boundaries[2 * a].kind == BoundaryKind::Periodic;
  auto at = [&](int i, int j, int k) { return d3 ? c.grid3.at(i, j, k) : c.grid.at(i, j); };
  for (int k = 1; k <= n[2]; ++k)
    for (int j = 1; j <= n[1]; ++j)
      for (int i = 1; i <= n[0]; ++i) {
        int x[3] = {i, j, k};
        if (x[a] == n[a] && !periodic) continue;
        const bool here = is_fluid(flags.flags[at(i, j, k)]);
        x[a] = x[a] == n[a] ? 1 : x[a] + 1;
        const bool next = is_fluid(flags.flags[at(x[0], x[1], x[2])]);
        if (!(here && next)) v[at(i, j, k)] = 0;
      }
}

// The model's own memory need (the core's check, sim/memory_check.hpp, counts 8 arrays
// a cell for every model): u, u*, R^{n-1} per component, p, rhs and about two arrays
// for the pressure solver's work, in Real, and the flag byte (a 3D double case at 128^3
// peaks at 12.3 arrays of RSS on the CPU). CaseError with the bytes needed and available.
void check_memory(std::size_t cells, int dims, std::size_t real_size, bool cuda, int nx, int ny, int nz) {
  const std::size_t arrays = 3 * std::size_t(dims) + 4, need = cells * (arrays * real_size + 1);
  std::size_t have = 0;
  if (cuda ? !cuda_free_memory(&have) : false) return;
  if (!cuda) have = host_bytes_available();
  if (need <= have) return;
  std::ostringstream o;
  o << "fractional_step: the grid " << nx << " x " << ny;
  if (dims == 3) o << " x " << nz;
  o << " needs about " << double(need) / (1024.0 * 1024 * 1024) << " GiB (" << need << " bytes: " << arrays
    << " arrays of " << (real_size == 4 ? "float" : "double") << " per cell, u, u* and R^{n-1} per component, p, "
    << "rhs and the pressure solver's work) and " << double(have) / (1024.0 * 1024 * 1024) << " GiB (" << have
    << " bytes) is " << (cuda ? "free on the GPU" : "available on the host") << ": use a smaller grid"
    << (real_size == 8 ? ", or precision = \"float\" (half the memory)" : "");
  throw CaseError(o.str());
}

void wrap_periodic_ghosts(const Grid& g, bool px, bool py, std::vector<double>& h) {
  if (px)
    for (int j = 1; j <= g.ny; ++j) {
      h[g.at(0, j)] = h[g.at(g.nx, j)];
      h[g.at(g.nx + 1, j)] = h[g.at(1, j)];
    }
  if (py)
    for (int i = 0; i <= g.nx + 1; ++i) {
      h[g.at(i, 0)] = h[g.at(i, g.ny)];
      h[g.at(i, g.ny + 1)] = h[g.at(i, 1)];
    }
}

std::string first_non_finite(const FractionalStepConfig& c, const std::vector<std::vector<double>>& arrays,
                             int* cell) {
  const bool d3 = c.dims == 3;
  const int nz = d3 ? c.grid3.nz : 1;
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= c.grid.ny; ++j)
      for (int i = 1; i <= c.grid.nx; ++i) {
        const std::size_t at = d3 ? c.grid3.at(i, j, k) : c.grid.at(i, j);
        bool bad = false;
        for (const auto& a : arrays) bad = bad || !std::isfinite(a[at]);
        if (!bad) continue;
        cell[0] = i;
        cell[1] = j;
        cell[2] = d3 ? k : 0;
        std::ostringstream o;
        if (d3)
          o << ", first in cell (" << i << ", " << j << ", " << k << ") at x = " << c.grid3.xc(i)
            << ", y = " << c.grid3.yc(j) << ", z = " << c.grid3.zc(k);
        else
          o << ", first in cell (" << i << ", " << j << ") at x = " << c.grid.xc(i) << ", y = " << c.grid.yc(j);
        return o.str();
      }
  return "";
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
                          const KernelPlan& plan, const FlagReport& flags) {
  std::ostringstream o;
  o << "fractional_step model on the " << backend << " backend, " << precision_name(c.precision) << " precision\n";
  const char* axes[3] = {"x", "y", "z"};
  const int D = c.dims == 3 ? 3 : 2;
  auto side_text = [&](int a) {
    const SideCondition &lo = D == 3 ? c.boundaries3[2 * a] : c.boundaries[2 * a],
                        &hi = D == 3 ? c.boundaries3[2 * a + 1] : c.boundaries[2 * a + 1];
    if (lo.kind == BoundaryKind::Periodic) return std::string(" periodic");
    return " " + lo.label + " | " + hi.label;
  };
  if (D == 3) o << "  3D staggered (MAC) grid " << c.grid3.nx << " x " << c.grid3.ny << " x " << c.grid3.nz << ";";
  else o << "  staggered (MAC) grid " << c.grid.nx << " x " << c.grid.ny << ";";
  for (int a = 0; a < D; ++a) o << " " << axes[a] << side_text(a) << (a < D - 1 ? "," : ";");
  o << " AB2 (forward Euler first step), " << fs_advection_name(c.advection) << " convection, "
    << (c.diffusion == FsDiffusion::Explicit ? "explicit diffusion" : "Crank-Nicolson diffusion (CG)") << "\n";
  if (c.force[0] != 0 || c.force[1] != 0 || (D == 3 && c.force[2] != 0)) {
    o << "  body force (" << c.force[0] << ", " << c.force[1];
    if (D == 3) o << ", " << c.force[2];
    o << ") per unit mass\n";
  }
  const long cells = D == 3 ? c.grid3.cells() : c.grid.cells();
  if (flags.fluid_cells < cells) {
    o << "  obstacles: " << cells - flags.fluid_cells << " solid cells (staircase; no-slip at rest on their faces)";
    if (flags.cells_opened) o << ", " << flags.cells_opened << " one-cell-thin cells opened";
    if (flags.cells_closed) o << ", " << flags.cells_closed << " enclosed fluid cells closed";
    o << "\n";
  }
  o << "  pressure: " << pressure_solver << "\n";
  o << "  key: " << kernel_key(c, backend).describe() << "\n";
  o << "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n" << plan.describe();
  return o.str();
}

}  // namespace flowlua::fractional_step
