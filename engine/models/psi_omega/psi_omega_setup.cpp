// Host-side preparation of a psi-omega case: checks, node flags, the boundary
// stream function and the --explain plan.
#include "models/psi_omega/psi_omega_setup.hpp"

#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

namespace {

std::string where(Side s) { return std::string("boundaries.") + side_name(s); }

int nodes_on(const PsiOmegaConfig& c, Side s) {
  return (s == Side::Left || s == Side::Right) ? c.grid.ny + 1 : c.grid.nx + 1;
}

bool has_inflow(const SideCondition& sc) {
  if (sc.kind != BoundaryKind::Dirichlet) return false;
  for (double x : sc.normal)
    if (x != 0) return true;
  return false;
}

}  // namespace

void check_side(const PsiOmegaConfig& c, Side side, const SideCondition& sc) {
  const int n = nodes_on(c, side);
  if (sc.kind == BoundaryKind::Periodic)
    throw CaseError(where(side) + ": periodic sides are not yet available in the psi_omega model");
  if (sc.kind == BoundaryKind::Dirichlet) {
    if ((!sc.normal.empty() && int(sc.normal.size()) != n) || (!sc.tangential.empty() && int(sc.tangential.size()) != n))
      throw CaseError(where(side) + ": expected " + std::to_string(n) + " boundary values (one per node)");
    for (const auto* a : {&sc.normal, &sc.tangential})
      for (double x : *a)
        if (!std::isfinite(x)) throw CaseError(where(side) + ": boundary velocity is not a finite number");
  }
  if (sc.T.kind != ScalarCondition::Kind::None) {
    if (!c.heat.enabled)
      throw CaseError(where(side) + ": T needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");
    if (sc.kind == BoundaryKind::Outflow)
      throw CaseError(where(side) + ": an outflow carries T out with zero gradient; it takes no T condition");
    if (int(sc.T.values.size()) != n)
      throw CaseError(where(side) + ": expected " + std::to_string(n) + " temperature values (one per node)");
    for (double x : sc.T.values)
      if (!std::isfinite(x)) throw CaseError(where(side) + ": T is not a finite number");
  }
  if (sc.kind != c.boundaries[int(side)].kind)
    throw CaseError(where(side) + ": a side cannot change its kind during a run");
}

Setup prepare(const PsiOmegaConfig& c) {
  const Grid& g = c.grid;
  if (g.nx < 4 || g.ny < 4) throw CaseError("grid: the psi_omega model needs nx and ny of at least 4 cells");
  if (!(g.lx > 0) || !(g.ly > 0)) throw CaseError("grid: lx and ly must be positive");
  if (!(c.nu > 0) || !std::isfinite(c.nu)) throw CaseError("fluid.nu must be a positive number");
  if (c.heat.enabled && (!(c.heat.kappa > 0) || !std::isfinite(c.heat.kappa)))
    throw CaseError("fluid.kappa must be a positive number");
  if (!std::isfinite(c.heat.beta)) throw CaseError("fluid.beta must be a finite number");
  if (!(c.pressure.omega > 0 && c.pressure.omega < 2)) throw CaseError("pressure.omega must lie in (0, 2)");
  if (!(c.pressure.tol > 0)) throw CaseError("pressure.tol must be positive");
  if (c.pressure.max_iter < 1 || c.pressure.check_every < 1)
    throw CaseError("pressure.max_iter and pressure.check_every must be at least 1");
  if (!(c.time.cfl > 0 && c.time.cfl <= 1)) throw CaseError("time.cfl must lie in (0, 1]");
  if (c.time.dt < 0) throw CaseError("time.dt must be positive");
  if (c.time.scheme == TimeScheme::Adi && c.psi_omega.advection == ScalarAdvection::Upwind2)
    throw CaseError("time.scheme = 'adi' solves convection implicitly with advection 'upwind' or 'central'; "
                    "'upwind2' is for the explicit scheme");
  const std::size_t nodes = std::size_t(g.nx + 1) * (g.ny + 1);
  if (!c.heat.T0.empty() && (!c.heat.enabled || c.heat.T0.size() != nodes))
    throw CaseError(c.heat.enabled ? "initial T has the wrong size"
                                   : "initial.T needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");

  Setup s;
  s.nodes = Grid::make(g.nx - 1, g.ny - 1, g.lx - 2 * g.dx, g.ly - 2 * g.dy);
  s.nodes.dx = g.dx;
  s.nodes.dy = g.dy;
  int outflows = 0;
  for (Side side : kSides) {
    check_side(c, side, c.boundaries[int(side)]);
    if (c.boundaries[int(side)].kind == BoundaryKind::Outflow) {
      ++outflows;
      s.outflow_side = int(side);
    }
  }
  if (outflows > 1)
    throw CaseError("boundaries: the psi_omega model takes at most one outflow side (with two, the split of "
                    "the flow between them would be undetermined)");
  const Grid& n = s.nodes;
  s.flags.assign(n.size(), 0);
  for (int j = 1; j <= n.ny; ++j)
    for (int i = 1; i <= n.nx; ++i) {
      CellFlags f = flag::kFluid;
      auto neumann = [&](flag::Dir d) { f |= CellFlags(flag::Neumann << flag::shift(d)); };
      if (i == 1 && s.outflow_side == int(Side::Left)) neumann(flag::West);
      if (i == n.nx && s.outflow_side == int(Side::Right)) neumann(flag::East);
      if (j == 1 && s.outflow_side == int(Side::Bottom)) neumann(flag::South);
      if (j == n.ny && s.outflow_side == int(Side::Top)) neumann(flag::North);
      s.flags[n.at(i, j)] = f;
    }
  const std::vector<double> ring = boundary_stream(c, s);  // checks the mass balance of a closed domain
  for (const auto& th : c.bodies.T) {
    if (th.kind != ScalarCondition::Kind::None && !c.heat.enabled)
      throw CaseError("obstacles: T needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");
    if (!std::isfinite(th.value)) throw CaseError("obstacles: T is not a finite number");
  }
  s.bodies = build_bodies(c, s.nodes, ring, s.outflow_side);
  // A body's nodes are Dirichlet nodes of the stream function (their psi_B folded into
  // the right-hand side, like the ring's): not unknowns.
  for (int node : s.bodies.node) s.flags[std::size_t(node)] = 0;
  return s;
}

std::vector<double> boundary_stream(const PsiOmegaConfig& c, const Setup& s) {
  const Grid& n = s.nodes;
  const int NX = n.nx + 1, NY = n.ny + 1;  // last node index per direction
  std::vector<double> psib(n.size(), 0.0);
  // Counter-clockwise: bottom (x up), right (y up), top (x down), left (y down).
  const Side order[4] = {Side::Bottom, Side::Right, Side::Top, Side::Left};
  int start = 0, count = 4;
  for (int p = 0; p < 4; ++p)
    if (int(order[p]) == s.outflow_side) { start = (p + 1) % 4; count = 3; }
  double psi = 0, scale = 0;
  for (int q = 0; q < count; ++q) {
    const Side side = order[(start + q) % 4];
    const SideCondition& sc = c.boundaries[int(side)];
    const bool lr = side == Side::Left || side == Side::Right;
    const int last = lr ? NY : NX;
    const double h = lr ? n.dy : n.dx;
    const bool reverse = side == Side::Top || side == Side::Left;
    auto normal = [&](int k) {
      return sc.kind == BoundaryKind::Dirichlet && !sc.normal.empty() ? sc.normal[k] : 0.0;
    };
    auto node = [&](int k) {
      switch (side) {
        case Side::Bottom: return n.at(k, 0);
        case Side::Right: return n.at(NX, k);
        case Side::Top: return n.at(k, NY);
        default: return n.at(0, k);
      }
    };
    for (int m = 0; m <= last; ++m) {
      const int k = reverse ? last - m : m;
      if (m > 0) {
        const int kp = reverse ? k + 1 : k - 1;
        const double flux = 0.5 * (normal(k) + normal(kp)) * h;  // inflow through the segment
        psi -= flux;
        scale += std::abs(flux);
      }
      psib[node(k)] = psi;
    }
  }
  if (s.outflow_side < 0 && std::abs(psi) > 1e-9 * std::max(scale, 1e-300) && scale > 0)
    throw CaseError("boundaries: fluid flows in but has nowhere to go (net inflow " + std::to_string(-psi) +
                    "); give one side flow.outflow()");
  return psib;
}

std::vector<double> side_tangential(const SideCondition& sc, int nodes) {
  if (sc.kind == BoundaryKind::Dirichlet && !sc.tangential.empty()) return sc.tangential;
  return std::vector<double>(nodes, 0.0);
}

std::vector<double> side_scalar(const SideCondition& sc, int nodes) {
  if (sc.T.kind != ScalarCondition::Kind::None) return sc.T.values;
  return std::vector<double>(nodes, 0.0);
}

int side_kind(const SideCondition& sc) {
  if (sc.kind == BoundaryKind::Slip) return kSlipSide;
  if (sc.kind == BoundaryKind::Outflow) return kOutflowSide;
  return kWallSide;
}

int scalar_kind(const SideCondition& sc) {
  if (sc.kind == BoundaryKind::Outflow) return kScalarZeroGradient;
  if (sc.T.kind == ScalarCondition::Kind::Dirichlet) return kScalarDirichlet;
  if (sc.T.kind == ScalarCondition::Kind::Neumann) return kScalarNeumann;
  return has_inflow(sc) ? kScalarDirichlet : kScalarNeumann;  // inflow at T = 0, walls adiabatic
}

std::string describe_plan(const PsiOmegaConfig& c, const Setup& s, const char* backend,
                          const std::string& poisson_solver) {
  std::ostringstream o;
  const Grid& g = c.grid;
  o << "model      psi_omega (stream function-vorticity on the grid nodes, seed 000";
  o << (c.heat.enabled ? ", Boussinesq heat transport)\n" : ")\n");
  o << "backend    " << backend << ", " << precision_name(c.precision) << "\n";
  o << "grid       " << g.nx << " x " << g.ny << " cells = " << g.nx + 1 << " x " << g.ny + 1 << " nodes, " << g.lx
    << " x " << g.ly << " (dx " << g.dx << ", dy " << g.dy << "); unknowns at " << s.nodes.nx << " x " << s.nodes.ny
    << " interior nodes\n";
  o << "fluid      nu " << c.nu;
  if (c.heat.enabled) o << ", kappa " << c.heat.kappa << ", beta " << c.heat.beta;
  if (c.gx != 0 || c.gy != 0) o << ", gravity (" << c.gx << ", " << c.gy << ")";
  o << "\n";
  o << "time       ";
  const bool adi = c.time.scheme == TimeScheme::Adi;
  if (adi) o << "Peaceman-Rachford ADI (w" << (c.heat.enabled ? " and T" : "") << " implicit along x, then along y), ";
  if (c.time.dt > 0) o << "fixed dt " << c.time.dt;
  else if (adi) o << "adaptive dt (CFL only), safety factor " << c.time.cfl;
  else o << "adaptive dt (CFL, diffusion" << (c.psi_omega.advection == ScalarAdvection::Upwind ? "" : ", cell Peclet")
         << "), safety factor " << c.time.cfl;
  o << ", t_end " << c.time.t_end;
  if (c.time.max_steps >= 0) o << ", at most " << c.time.max_steps << " steps";
  if (c.time.steady > 0) o << ", stop when the velocity and T change by less than " << c.time.steady << " of their scales per time unit";
  o << "\n";
  o << "boundaries";
  for (Side side : kSides) {
    const SideCondition& sc = c.boundaries[int(side)];
    o << "  " << side_name(side) << ": " << sc.label;
    if (c.heat.enabled) {
      const int k = scalar_kind(sc);
      o << (k == kScalarDirichlet ? " (T given)" : k == kScalarNeumann ? " (dT/dn given)" : " (dT/dn = 0)");
    }
  }
  o << "\n";
  o << "numerics\n";
  if (adi)
    o << "  transport  w" << (c.heat.enabled ? " and T" : "") << " by ADI half steps of dt/2: "
      << advection_name(c.psi_omega.advection) << " convection and three-point diffusion implicit along the "
      << "line, explicit across it; one tridiagonal system per grid line (lines_x, lines_y below)"
      << (c.heat.enabled ? ", central buoyancy -beta (gy dT/dx - gx dT/dy) from T^n" : "") << "\n";
  else
    o << "  transport  w" << (c.heat.enabled ? " and T" : "") << " fused, forward Euler, "
      << advection_name(c.psi_omega.advection) << " convection (variants: upwind, central, upwind2), "
      << "explicit five-point diffusion" << (c.heat.enabled ? ", central buoyancy -beta (gy dT/dx - gx dT/dy)" : "")
      << "\n";
  o << "  stream     -lap psi = w: " << poisson_solver << "; boundary psi folded into the right-hand side"
    << (s.outflow_side >= 0 ? std::string(", dpsi/dn = 0 on the ") + side_name(Side(s.outflow_side)) : "") << "\n";
  o << describe_bodies(s.bodies);
  o << "  boundary   wall vorticity by Thom's formula" << (adi ? " (under-relaxed by 1 / r when r = nu dt (1/dx^2 + 1/dy^2) > 1)" : "")
    << ", slip w = 0, outflow dw/dn = 0"
    << (c.heat.enabled ? "; T Dirichlet / second-order one-sided Neumann" : "") << "\n";
  return o.str();
}

}  // namespace flowlua::psi_omega
