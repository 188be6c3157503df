// The psi_omega model's reader (seed 000): fluid with heat transport and the
// nondimensional groups, boundaries at the grid nodes with temperature conditions,
// initial T, the stream-function solver and kernels of a
// flow.simulation{ model = "psi_omega" } table into a PsiOmegaConfig
// (engine/models/psi_omega/).
#include "psi_omega_reader.hpp"

#include <cmath>

#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "pressure_reader.hpp"

namespace flowlua::lua {

std::unique_ptr<Solver> PsiOmegaCase::build(const CaseCommon& common) const {
  PsiOmegaConfig c = config;
  static_cast<CaseCommon&>(c) = common;
  return make_psi_omega_solver(c);
}

std::string PsiOmegaCase::summary(const CaseSpec& spec) const {
  std::string fluid = "nu = " + fmt(config.nu);
  if (config.heat.enabled) fluid += ", kappa = " + fmt(config.heat.kappa) + ", beta = " + fmt(config.heat.beta);
  if (config.gx != 0 || config.gy != 0) fluid += ", gravity (" + fmt(config.gx) + ", " + fmt(config.gy) + ")";
  return flow_summary(spec, fluid, "stream function (pressure)", describe_pressure(config.pressure),
                      advection_name(config.psi_omega.advection));
}

// Forces and pressures are per unit density: rho = 1.
std::optional<double> PsiOmegaCase::constant(const std::string& name) const {
  if (name == "nu") return config.nu;
  if (name == "rho") return 1.0;
  return std::nullopt;
}
std::vector<std::string> PsiOmegaCase::constant_names() const { return {"nu", "rho"}; }

namespace {

// Viscosity: nu, or Re (nu = U L / Re), or with Ra: nu = Pr kappa.
// Diffusivity (heat transport on): kappa, or Pr (kappa = nu / Pr), or with Ra: kappa
// (default 1, so velocities come in units of kappa / L when L = 1).
// Buoyancy: beta with gravity, or Ra = beta |g| dT L^3 / (nu kappa) with
// reference_length L (default 1), reference_temperature_difference dT (default 1) and
// gravity (default { 0, -1 }): beta = Ra nu kappa / (|g| dT L^3).
void read_fluid(const TableReader& top, PsiOmegaConfig& c) {
  if (!top.has("fluid"))
    throw CaseError("fluid is missing: give fluid = { nu = ... } or fluid = { Re = ... }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("fluid");
  TableReader f(L, -1, "fluid",
                {"nu", "Re", "reference_velocity", "reference_length", "kappa", "beta", "Pr", "Ra",
                 "reference_temperature_difference", "gravity"},
                {{"rho", "does not apply to the psi_omega model (it has no pressure; density only enters "
                         "through beta)"}});
  auto nu = f.opt_number("nu"), re = f.opt_number("Re"), kappa = f.opt_number("kappa"), beta = f.opt_number("beta");
  auto pr = f.opt_number("Pr"), ra = f.opt_number("Ra");
  HeatConfig& h = c.heat;
  double gx = 0, gy = 0;
  const bool gravity = read_gravity(f, gx, gy);
  if (f.has("reference_temperature_difference") && !ra)
    throw CaseError("fluid.reference_temperature_difference goes with fluid.Ra");
  if (ra) {
    if (!pr) throw CaseError("fluid.Ra needs fluid.Pr (nu = Pr kappa)");
    if (nu || re) throw CaseError("fluid.Ra with Pr sets the viscosity (nu = Pr kappa): give neither nu nor Re");
    if (beta) throw CaseError("fluid.Ra sets beta: give one of them");
    if (f.has("reference_velocity")) throw CaseError("fluid.reference_velocity goes with fluid.Re, not Ra");
    check_positive("fluid.Ra", *ra);
    check_positive("fluid.Pr", *pr);
    h.kappa = kappa.value_or(1.0);
    check_positive("fluid.kappa", h.kappa);
    c.nu = *pr * h.kappa;
    if (!gravity) gy = -1;
    const double g = std::hypot(gx, gy);
    if (!(g > 0)) throw CaseError("fluid.Ra needs a nonzero fluid.gravity");
    const double len = f.number("reference_length", 1.0), dT = f.number("reference_temperature_difference", 1.0);
    check_positive("fluid.reference_length", len);
    check_positive("fluid.reference_temperature_difference", dT);
    h.beta = *ra * c.nu * h.kappa / (g * dT * len * len * len);
    h.enabled = true;
  } else {
    c.nu = read_viscosity(f,
                                 "fluid needs nu (the kinematic viscosity), Re (with reference_velocity and "
                                 "reference_length, default 1), or Ra and Pr",
                                 "fluid.Re (or Ra)");
    if (kappa && pr) throw CaseError("fluid has both kappa and Pr: give one of them (kappa = nu / Pr)");
    if (kappa) {
      check_positive("fluid.kappa", *kappa);
      h.kappa = *kappa;
    } else if (pr) {
      check_positive("fluid.Pr", *pr);
      h.kappa = c.nu / *pr;
    }
    h.enabled = kappa || pr;
    if (beta && !h.enabled)
      throw CaseError("fluid.beta (buoyancy) needs a temperature field: give fluid.kappa or fluid.Pr too");
    h.beta = beta.value_or(0.0);
  }
  c.gx = gx;
  c.gy = gy;
}

void read_initial(const TableReader& top, PsiOmegaConfig& c) {
  if (!top.has("initial")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("initial");
  // psi_omega starts at rest; T is given at the grid nodes (x = i dx, y = j dy).
  const std::string rest = "does not apply to the psi_omega model (it starts at rest); it takes initial.T";
  TableReader t(L, -1, "initial", {"T"}, {{"u", rest}, {"v", rest}, {"p", rest}});
  if (t.has("T") && !c.heat.enabled)
    throw CaseError("initial.T needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");
  const Grid& g = c.grid;
  Grid nodes = Grid::make(g.nx - 1, g.ny - 1, g.lx - 2 * g.dx, g.ly - 2 * g.dy);
  nodes.dx = g.dx;
  nodes.dy = g.dy;
  read_initial_field(L, t, "T", nodes, 0.0, 0.0, c.heat.T0);
}

void read_kernels(const TableReader& top, PsiOmegaConfig& c, CaseSpec& spec) {
  if (!top.has("kernels")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("kernels");
  TableReader t(L, -1, "kernels", {"advection", "diffusion", "wall_vorticity", "transport", "stream", "lines_x", "lines_y", "general"},
                {{"gamma", "is the projection model's donor-cell weight; psi_omega takes advection = "
                           "'upwind', 'central' or 'upwind2'"}});
  std::string a = t.string("advection", "central");
  if (a == "donor_cell")
    throw CaseError("kernels.advection = 'donor_cell' is the projection model's name; the psi_omega model "
                    "calls first-order upwind 'upwind' (allowed: 'upwind', 'central', 'upwind2')");
  a = t.choice("advection", "central", {"upwind", "central", "upwind2"});
  c.psi_omega.advection = a == "upwind" ? ScalarAdvection::Upwind
                               : a == "central" ? ScalarAdvection::Central : ScalarAdvection::Upwind2;
  c.psi_omega.wall =
      t.choice("wall_vorticity", "thom", {"thom", "jensen"}) == "jensen" ? WallVorticity::Jensen : WallVorticity::Thom;
  std::string d = t.string("diffusion", "explicit");
  if (d == "implicit")
    throw CaseError("kernels.diffusion = 'implicit' (the seed's IMEX scheme) is not yet available in the "
                    "psi_omega model; allowed: 'explicit'");
  t.choice("diffusion", "explicit", {"explicit"});
  read_forced_kernels(t, {"transport", "stream", "lines_x", "lines_y"}, spec);  // psi_omega_kernels.cpp
}

// obstacles = { shape, { shape, T = flow.dirichlet(value) | flow.neumann(gradient) }, ... }
// rasterised at the grid nodes (engine/models/psi_omega/body_setup.hpp).
void read_bodies(const TableReader& top, CaseSpec& spec, FnStore& store, PsiOmegaConfig& c) {
  if (!top.has("obstacles")) return;
  std::vector<BodyConfig::Thermal> thermal;
  ObstacleOptions options;
  options.at_nodes = true;
  options.entry_keys = {"T"};
  options.read_entry = [&](int k, const TableReader& entry) {
    if (!entry.has("T")) return;
    lua_State* L = entry.state();
    StackGuard guard(L);
    entry.push("T");
    auto* sc = test_udata<ScalarUD>(L, -1, kScalarMeta);
    if (!sc)
      throw CaseError(entry.name("T") + " must be flow.dirichlet(value) or flow.neumann(gradient) (got " +
                      describe_value(L, -1) + ")");
    if (sc->fn)
      throw CaseError(entry.name("T") + ": a body's temperature condition is a number (one value for the whole "
                      "body); functions of position and time are for the sides");
    if (!c.heat.enabled)
      throw CaseError(entry.name("T") + " needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");
    if (thermal.size() <= std::size_t(k)) thermal.resize(std::size_t(k) + 1);
    thermal[std::size_t(k)] = BodyConfig::Thermal{sc->kind, sc->value};
  };
  read_obstacles(top, spec, store, c.bodies.solid, c.bodies.obstacle_id, options);
  c.bodies.count = int(spec.obstacles.size());
  thermal.resize(spec.obstacles.size());
  c.bodies.T = thermal;
}

// Whether the case asks for time = { scheme = "adi" } (read_case reads the time table
// after the model's reader, and checks it).
bool adi_steps(const TableReader& top) {
  if (!top.has("time")) return false;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("time");
  if (!lua_istable(L, -1)) return false;
  lua_getfield(L, -1, "scheme");
  return lua_type(L, -1) == LUA_TSTRING && std::string(lua_tostring(L, -1)) == "adi";
}

std::shared_ptr<const ModelCase> read_psi_omega(const TableReader& top, CaseSpec& spec, FnStore& store) {
  auto m = std::make_shared<PsiOmegaCase>();
  PsiOmegaConfig& c = m->config;
  c.grid = spec.common.grid;
  read_fluid(top, c);
  SideOptions sides;
  sides.at_nodes = true;
  read_boundaries(top, spec, store, sides, c.boundaries);
  read_bodies(top, spec, store, c);
  read_initial(top, c);
  // With ADI steps the stream function moves more per step than CG's extrapolated
  // first guess follows: line relaxation is the default there (1-4 iterations a step
  // against CG's 15-60 on the Re 1000 cavity; 5x less CPU time, docs/performance.md).
  if (adi_steps(top)) c.pressure.solver = PressureSolverKind::LineAdi;
  // The boundary nodes carry Dirichlet values of the stream function, which
  // multigrid's coarse levels and the FFT's transforms do not represent.
  read_pressure(top, c.pressure,
                {{"cg", "rbsor", "adi"},
                 "is not yet available for the psi_omega model (its stream function has Dirichlet values on "
                 "the boundary nodes); use 'cg', 'rbsor' or 'adi'"});
  read_kernels(top, c, spec);
  return m;
}

const ModelRegistration registration{
    {"psi_omega", {"fluid", "boundaries", "obstacles", "initial", "pressure", "kernels"}, read_psi_omega}};

}  // namespace
}  // namespace flowlua::lua
