// The fractional-step model's reader (seed 004): fluid, boundaries (periodic, walls,
// inflow, outflow; 2D and 3D), obstacles, initial u, v[, w], p, advection, pressure
// and kernels of a flow.simulation{ model = "fractional_step" } table into a
// FractionalStepConfig (engine/models/fractional_step/).
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "lua_shapes.hpp"
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
                        std::string(fs_advection_name(config.advection)) + " (AB2, forward Euler first step), " +
                            fs_diffusion_name(config.diffusion) + " diffusion");
  }
  std::optional<double> constant(const std::string& name) const override {
    if (name == "nu") return config.nu;
    if (name == "rho") return config.rho;
    return std::nullopt;
  }
  std::vector<std::string> constant_names() const override { return {"nu", "rho"}; }
};

// fluid.force = { fx, fy[, fz] } or { x = , y = [, z = ] }: a uniform body force per
// unit mass; fz (z) only in 3D.
void read_force(const TableReader& f, FractionalStepConfig& c) {
  if (f.type("force") == LUA_TNIL) return;
  lua_State* L = f.state();
  StackGuard guard(L);
  f.push("force");
  const bool three_d = c.dims == 3;
  if (!lua_istable(L, -1))
    throw CaseError(std::string("fluid.force must be a table ") + (three_d ? "{ fx, fy, fz }" : "{ fx, fy }") +
                    " (got " + describe_value(L, -1) + ")");
  const int n = int(lua_rawlen(L, -1));
  if (n > 0) {
    if (n > (three_d ? 3 : 2))
      throw CaseError(three_d ? "fluid.force has more than three components { fx, fy, fz }"
                              : "fluid.force has a third component, but this grid is 2D: give { fx, fy } (a z "
                                "component needs a 3D grid, grid.nz > 1)");
    for (int a = 0; a < n; ++a) {
      lua_rawgeti(L, -1, a + 1);
      c.force[a] = to_finite(L, -1, ("fluid.force[" + std::to_string(a + 1) + "]").c_str());
      lua_pop(L, 1);
    }
    return;
  }
  TableReader t(L, -1, "fluid.force", three_d ? std::vector<std::string>{"x", "y", "z"}
                                              : std::vector<std::string>{"x", "y"},
                three_d ? std::map<std::string, std::string>{}
                        : std::map<std::string, std::string>{
                              {"z", "is the z component, and this grid is 2D (a 3D grid has grid.nz > 1)"}});
  c.force[0] = t.number("x", 0);
  c.force[1] = t.number("y", 0);
  if (three_d) c.force[2] = t.number("z", 0);
}

void read_fluid(const TableReader& top, FractionalStepConfig& c) {
  if (!top.has("fluid"))
    throw CaseError("fluid is missing: give fluid = { nu = ... } or fluid = { Re = ... }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("fluid");
  const std::string no = "is not available in the fractional_step model";
  TableReader f(L, -1, "fluid", {"nu", "rho", "Re", "reference_velocity", "reference_length", "force"},
                {{"gravity", "gravity " + no}, {"kappa", "heat transport " + no}, {"beta", "buoyancy " + no},
                 {"Pr", "heat transport " + no}, {"Ra", "heat transport " + no}});
  c.nu = read_viscosity(f,
                        "fluid needs nu (the kinematic viscosity) or Re (with reference_velocity "
                        "and reference_length, default 1)",
                        "fluid.Re");
  c.rho = f.number("rho", 1.0);
  check_positive("fluid.rho", c.rho);
  read_force(f, c);
}

// The four sides (left out: periodic on all four, the seed's box): the core's
// conditions, inflow functions of (s, t) and flow.custom re-evaluated between steps.
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
}

// 3D: the six sides (left out: all periodic); inflow functions of the side's two
// coordinates and t re-evaluated between steps.
void read_sides3(const TableReader& top, CaseSpec& spec, FnStore& store, FractionalStepConfig& c) {
  if (!top.has("boundaries")) {
    for (Side s : kSides3) {
      c.boundaries3[int(s)].kind = BoundaryKind::Periodic;
      c.boundaries3[int(s)].label = "periodic";
      spec.side_text[int(s)] = "periodic";
    }
    return;
  }
  read_boundaries3(top, spec, store, c.boundaries3);
}

// The obstacles are at rest: a turning circle (flow.circle{ omega = ... }) would be
// taken as one at rest without a word.
void refuse_turning_bodies(const CaseSpec& spec, const FnStore& store) {
  lua_State* L = store.L;
  StackGuard guard(L);
  for (std::size_t k = 0; k < spec.obstacles.size(); ++k) {
    store.push(spec.obstacles[k].slot);
    const auto* ud = test_udata<ShapeUD>(L, -1, kShapeMeta);
    if (ud && ud->shape.omega != 0)
      throw CaseError("obstacles[" + std::to_string(k + 1) + "] (" + spec.obstacles[k].description +
                      "): a turning circle (omega) is not available in the fractional_step model, whose obstacles "
                      "are at rest; model = 'projection' has them in 2D");
    lua_pop(L, 1);
  }
}

// The pressure solver when pressure.solver is not given: the direct FFT solve where
// it applies (no obstacles, one pressure condition per axis), pcg with the FFT
// preconditioner (seed 004's method) where only obstacles break the box, multigrid
// where an axis has inflow on one side and outflow on the other (and then pcg's
// preconditioner defaults to multigrid too).
void default_pressure(const FractionalStepConfig& c, PressureControl& p) {
  bool obstacles = false;
  for (std::uint8_t x : c.solid) obstacles = obstacles || x != 0;
  bool transformable = true;
  const int D = c.dims == 3 ? 3 : 2;
  for (int a = 0; a < D; ++a) {
    const SideCondition &lo = D == 3 ? c.boundaries3[2 * a] : c.boundaries[2 * a],
                        &hi = D == 3 ? c.boundaries3[2 * a + 1] : c.boundaries[2 * a + 1];
    transformable = transformable && (lo.kind == BoundaryKind::Outflow) == (hi.kind == BoundaryKind::Outflow);
  }
  if (!transformable) {
    p.solver = PressureSolverKind::Multigrid;
    p.preconditioner = PreconditionerKind::Multigrid;  // for solver = 'pcg' without one
  } else if (obstacles) {
    p.solver = PressureSolverKind::PreconditionedCG;
    p.preconditioner = PreconditionerKind::FFT;
  }
}

void read_initial(const TableReader& top, FractionalStepConfig& c) {
  if (!top.has("initial")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("initial");
  if (c.dims == 3) {
    TableReader t(L, -1, "initial", {"u", "v", "w", "p"},
                  {{"T", "temperature is not available in the fractional_step model"}});
    const Grid3& g = c.grid3;
    read_initial_field3(L, t, "u", g, 0.0, -0.5, -0.5, c.u0);   // u(i, j, k) at (i dx, (j - 1/2) dy, (k - 1/2) dz)
    read_initial_field3(L, t, "v", g, -0.5, 0.0, -0.5, c.v0);   // v on the north face
    read_initial_field3(L, t, "w", g, -0.5, -0.5, 0.0, c.w0);   // w on the front face
    read_initial_field3(L, t, "p", g, -0.5, -0.5, -0.5, c.p0);  // p at cell centres
    return;
  }
  TableReader t(L, -1, "initial", {"u", "v", "p"},
                {{"T", "temperature is not available in the fractional_step model"},
                 {"w", "is the z velocity of a 3D case, and this grid is 2D (a 3D grid has grid.nz > 1)"}});
  const Grid& g = c.grid;
  read_initial_field(L, t, "u", g, 0.0, -0.5, c.u0);   // u(i, j) at (i dx, (j - 1/2) dy)
  read_initial_field(L, t, "v", g, -0.5, 0.0, c.v0);   // v(i, j) at ((i - 1/2) dx, j dy)
  read_initial_field(L, t, "p", g, -0.5, -0.5, c.p0);  // p at cell centres
}

std::shared_ptr<const ModelCase> read_fractional_step(const TableReader& top, CaseSpec& spec, FnStore& store) {
  auto m = std::make_shared<FractionalStepCase>();
  FractionalStepConfig& c = m->config;
  c.grid = spec.common.grid;
  c.dims = spec.common.dims;
  c.grid3 = spec.common.grid3;
  read_fluid(top, c);
  if (c.dims == 3) read_sides3(top, spec, store, c);
  else read_sides(top, spec, store, c);
  std::vector<int> obstacle_id;
  read_obstacles(top, spec, store, c.solid, obstacle_id);
  refuse_turning_bodies(spec, store);
  read_initial(top, c);
  const std::string a = top.choice("advection", "quick", {"quick", "central"});
  c.advection = a == "central" ? FsAdvection::Central : FsAdvection::Quick;
  const std::string d = top.choice("diffusion", "explicit", {"explicit", "crank_nicolson"});
  c.diffusion = d == "crank_nicolson" ? FsDiffusion::CrankNicolson : FsDiffusion::Explicit;
  default_pressure(c, c.pressure);
  read_pressure(top, c.pressure,
                {{"fft", "pcg", "cg", "multigrid"},
                 "is not offered by the fractional_step model (it takes 'fft', 'pcg' (with preconditioner = "
                 "'fft': seed 004's method), 'cg' or 'multigrid')"});
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
                                      {"fluid", "boundaries", "obstacles", "initial", "advection", "diffusion",
                                       "pressure", "kernels"},
                                      read_fractional_step, true}};

}  // namespace
}  // namespace flowlua::lua
