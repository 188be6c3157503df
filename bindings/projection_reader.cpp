// The projection model's reader: fluid, boundaries, obstacles, initial u, v, p,
// pressure and kernels of a flow.simulation{ model = "projection" } table (the default
// model) into a ProjectionConfig (engine/models/projection/).
#include "projection_reader.hpp"

#include <sstream>

#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "immersed_reader.hpp"
#include "pressure_reader.hpp"

namespace flowlua::lua {

std::unique_ptr<Solver> ProjectionCase::build(const CaseCommon& common) const {
  ProjectionConfig c = config;
  static_cast<CaseCommon&>(c) = common;
  return make_projection_solver(c);
}

std::string ProjectionCase::summary(const CaseSpec& spec) const {
  std::string fluid = "nu = " + fmt(config.nu) + ", rho = " + fmt(config.rho);
  if (config.gx != 0 || config.gy != 0) fluid += ", gravity (" + fmt(config.gx) + ", " + fmt(config.gy) + ")";
  std::string adv = advection;
  if (advection == "hybrid")
    adv += config.advection.gamma < 0 ? " (gamma automatic)" : " (gamma = " + fmt(config.advection.gamma) + ")";
  return flow_summary(spec, fluid, "pressure", describe_pressure(config.pressure), adv);
}

std::optional<double> ProjectionCase::constant(const std::string& name) const {
  if (name == "nu") return config.nu;
  if (name == "rho") return config.rho;
  return std::nullopt;
}
std::vector<std::string> ProjectionCase::constant_names() const { return {"nu", "rho"}; }

namespace {

void read_fluid(const TableReader& top, ProjectionConfig& c) {
  if (!top.has("fluid"))
    throw CaseError("fluid is missing: give fluid = { nu = ... } or fluid = { Re = ... }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("fluid");
  const std::string heat = "heat transport and buoyancy are not yet available in the projection "
                           "model (it has no temperature field); model = 'psi_omega' has them";
  TableReader f(L, -1, "fluid", {"nu", "rho", "Re", "reference_velocity", "reference_length", "gravity"},
                {{"kappa", heat}, {"beta", heat}, {"Pr", heat}, {"Ra", heat}});
  c.nu = read_viscosity(f,
                        "fluid needs nu (the kinematic viscosity) or Re (with reference_velocity "
                        "and reference_length, default 1)",
                        "fluid.Re");
  c.rho = f.number("rho", 1.0);
  check_positive("fluid.rho", c.rho);
  read_gravity(f, c.gx, c.gy);
}

void read_initial(const TableReader& top, ProjectionConfig& c) {
  if (!top.has("initial")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("initial");
  TableReader t(L, -1, "initial", {"u", "v", "p"},
                {{"T", "temperature is not yet available in the projection model; model = 'psi_omega' has it"}});
  const Grid& g = c.grid;
  read_initial_field(L, t, "u", g, 0.0, -0.5, c.u0);   // u(i, j) at (i dx, (j - 1/2) dy)
  read_initial_field(L, t, "v", g, -0.5, 0.0, c.v0);   // v(i, j) at ((i - 1/2) dx, j dy)
  read_initial_field(L, t, "p", g, -0.5, -0.5, c.p0);  // p at cell centres
}

// kernels = { advection = ..., gamma = ..., <stage> = "<variant>", general = true }
void read_kernels(const TableReader& top, ProjectionCase& m, CaseSpec& spec) {
  if (!top.has("kernels")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("kernels");
  TableReader t(L, -1, "kernels",
                {"advection", "gamma", "general", "bodies", "boundaries", "dt", "momentum", "rhs", "pressure",
                 "pressure_stop", "correction", "launch", "pdl"});
  read_forced_kernels(t, {"bodies", "boundaries", "dt", "momentum", "rhs", "pressure", "pressure_stop", "correction",
                          "launch", "pdl"},
                      spec);
  // A gamma on its own asks for the hybrid blend.
  const char* fallback = t.has("gamma") ? "hybrid" : "central";
  std::string a = t.string("advection", fallback);
  if (a == "quick")
    throw CaseError("kernels.advection = 'quick' is not yet available in the projection model; "
                    "allowed: 'donor_cell', 'central', 'hybrid'");
  a = t.choice("advection", fallback, {"donor_cell", "central", "hybrid"});
  m.advection = a;
  double& gamma = m.config.advection.gamma;
  if (a != "hybrid" && t.has("gamma"))
    throw CaseError("kernels.gamma applies to advection = 'hybrid' only ('" + a +
                    "' fixes gamma = " + (a == "central" ? "0" : "1") + ")");
  if (a == "donor_cell") gamma = 1.0;
  else if (a == "central") gamma = 0.0;
  else if (t.type("gamma") == LUA_TSTRING) {
    std::string g = t.string("gamma", "auto");
    if (g != "auto") throw CaseError("kernels.gamma must be a number in [0, 1] or 'auto' (got '" + g + "')");
    gamma = -1;
  } else if (t.has("gamma")) {
    gamma = t.number("gamma", -1);
    check_closed("kernels.gamma", gamma, 0.0, 1.0);
  } else {
    gamma = -1;  // hybrid without a gamma: Griebel's automatic rule
  }
}

std::shared_ptr<const ModelCase> read_projection(const TableReader& top, CaseSpec& spec, FnStore& store) {
  auto m = std::make_shared<ProjectionCase>();
  ProjectionConfig& c = m->config;
  c.grid = spec.common.grid;
  read_fluid(top, c);
  SideOptions sides;
  sides.no_T = "T (temperature) is not yet available in the projection model; model = 'psi_omega' has heat transport";
  read_boundaries(top, spec, store, sides, c.boundaries);
  read_obstacles(top, spec, store, c.solid, c.obstacle_id);
  if (!spec.obstacles.empty()) c.immersed = read_immersed(spec, store, c.obstacle_xc, c.obstacle_yc);
  read_initial(top, c);
  PoissonChoices choices{{"rbsor", "cg", "pcg", "multigrid", "fft"},
                         "is the psi_omega model's line relaxation of the stream function; the projection model "
                         "takes 'rbsor', 'cg', 'pcg', 'multigrid' or 'fft'"};
  choices.mixed = &c.pressure_mixed;
  read_pressure(top, c.pressure, choices);
  read_kernels(top, *m, spec);
  return m;
}

const ModelRegistration registration{
    {"projection", {"fluid", "boundaries", "obstacles", "initial", "pressure", "kernels"}, read_projection, false, true}};

}  // namespace
}  // namespace flowlua::lua
