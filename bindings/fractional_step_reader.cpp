// The fractional-step model's reader (seed 004): fluid, boundaries (periodic),
// initial u, v, p, advection, pressure and kernels of a
// flow.simulation{ model = "fractional_step" } table into a FractionalStepConfig
// (engine/models/fractional_step/).
#include <sstream>

#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "models/fractional_step/fractional_step_config.hpp"
#include "pressure_reader.hpp"

namespace flowlua::lua {

namespace {

class FractionalStepCase final : public ModelCase {
 public:
  FractionalStepConfig config;

  std::unique_ptr<Solver> build(const CaseCommon& common) const override {
    FractionalStepConfig c = config;
    static_cast<CaseCommon&>(c) = common;
    return make_fractional_step_solver(c);
  }
  std::string summary(const CaseSpec& spec) const override {
    const std::string fluid = "nu = " + fmt(config.nu) + ", rho = " + fmt(config.rho);
    return flow_summary(spec, fluid, "pressure", describe_pressure(config.pressure),
                        std::string(fs_advection_name(config.advection)) + " (AB2, forward Euler first step)");
  }
  std::optional<double> constant(const std::string& name) const override {
    if (name == "nu") return config.nu;
    if (name == "rho") return config.rho;
    return std::nullopt;
  }
  std::vector<std::string> constant_names() const override { return {"nu", "rho"}; }
};

void read_fluid(const TableReader& top, FractionalStepConfig& c) {
  if (!top.has("fluid"))
    throw CaseError("fluid is missing: give fluid = { nu = ... } or fluid = { Re = ... }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("fluid");
  const std::string no = "is not available in the fractional_step model";
  TableReader f(L, -1, "fluid", {"nu", "rho", "Re", "reference_velocity", "reference_length"},
                {{"gravity", "gravity " + no}, {"kappa", "heat transport " + no}, {"beta", "buoyancy " + no},
                 {"Pr", "heat transport " + no}, {"Ra", "heat transport " + no}});
  c.nu = read_viscosity(f,
                        "fluid needs nu (the kinematic viscosity) or Re (with reference_velocity "
                        "and reference_length, default 1)",
                        "fluid.Re");
  c.rho = f.number("rho", 1.0);
  check_positive("fluid.rho", c.rho);
}

// Periodic on every side, the seed's box; `boundaries` may say so or be left out.
void read_sides(const TableReader& top, CaseSpec& spec, FnStore& store, FractionalStepConfig& c) {
  for (Side s : kSides) {
    c.boundaries[int(s)].kind = BoundaryKind::Periodic;
    c.boundaries[int(s)].label = "periodic";
    spec.side_text[int(s)] = "periodic";
  }
  if (!top.has("boundaries")) return;
  SideOptions sides;
  sides.no_T = "T (temperature) is not available in the fractional_step model";
  read_boundaries(top, spec, store, sides, c.boundaries);
  for (Side s : kSides)
    if (c.boundaries[int(s)].kind != BoundaryKind::Periodic)
      throw CaseError(std::string("boundaries.") + side_name(s) + " = " + spec.side_text[int(s)] +
                      ": the fractional_step model has periodic sides only so far (seed 004's box); "
                      "use flow.periodic() on all four sides, or leave boundaries out");
}

void read_initial(const TableReader& top, FractionalStepConfig& c) {
  if (!top.has("initial")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("initial");
  TableReader t(L, -1, "initial", {"u", "v", "p"},
                {{"T", "temperature is not available in the fractional_step model"}});
  const Grid& g = c.grid;
  read_initial_field(L, t, "u", g, 0.0, -0.5, c.u0);   // u(i, j) at (i dx, (j - 1/2) dy)
  read_initial_field(L, t, "v", g, -0.5, 0.0, c.v0);   // v(i, j) at ((i - 1/2) dx, j dy)
  read_initial_field(L, t, "p", g, -0.5, -0.5, c.p0);  // p at cell centres
}

std::shared_ptr<const ModelCase> read_fractional_step(const TableReader& top, CaseSpec& spec, FnStore& store) {
  auto m = std::make_shared<FractionalStepCase>();
  FractionalStepConfig& c = m->config;
  c.grid = spec.common.grid;
  read_fluid(top, c);
  read_sides(top, spec, store, c);
  read_initial(top, c);
  const std::string a = top.choice("advection", "quick", {"quick", "central"});
  c.advection = a == "central" ? FsAdvection::Central : FsAdvection::Quick;
  read_pressure(top, c.pressure,
                {{"fft", "pcg", "cg", "multigrid"},
                 "is not offered by the fractional_step model (its periodic box takes 'fft', the default, "
                 "'pcg' (with preconditioner = 'fft': seed 004's method), 'cg' or 'multigrid')"});
  if (top.has("kernels")) {
    lua_State* L = top.state();
    StackGuard guard(L);
    top.push("kernels");
    TableReader k(L, -1, "kernels", {"general", "momentum", "rhs", "pressure", "correction"},
                  {{"advection", "the fractional_step model takes advection = 'quick' | 'central' at the top level"}});
    read_forced_kernels(k, {"momentum", "rhs", "pressure", "correction"}, spec);
  }
  return m;
}

const ModelRegistration registration{{"fractional_step",
                                      {"fluid", "boundaries", "initial", "advection", "pressure", "kernels"},
                                      read_fractional_step}};

}  // namespace
}  // namespace flowlua::lua
