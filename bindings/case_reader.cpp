#include "case_reader.hpp"

#include <cmath>
#include <sstream>
#include <tuple>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_shapes.hpp"
#include "lua_table.hpp"
#include "pressure_reader.hpp"
#include "psi_omega_reader.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

int FnStore::store(int idx) {
  idx = lua_absindex(L, idx);
  lua_pushvalue(L, idx);
  lua_rawseti(L, table, next);
  return next++;
}

void FnStore::push(int slot) const { lua_rawgeti(L, table, slot); }

// kernels = { <stage> = "<variant>", general = true }: forced kernel variants, checked
// against the model's registry when the simulation is built (the backend decides
// which apply).
void read_forced_kernels(const TableReader& t, std::initializer_list<const char*> stages, CaseSpec& c) {
  for (const char* stage : stages)
    if (t.has(stage)) c.config.kernels[stage] = t.string(stage, "");
  if (!t.has("general")) return;
  if (t.type("general") != LUA_TBOOLEAN)
    throw CaseError("kernels.general must be true or false (true: the general variant of every stage)");
  t.push("general");
  const bool general = lua_toboolean(t.state(), -1);
  lua_pop(t.state(), 1);
  if (general) c.config.kernels["general"] = "true";
}

double read_viscosity(const TableReader& f, const std::string& missing, const std::string& re_name) {
  auto nu = f.opt_number("nu");
  auto re = f.opt_number("Re");
  if (nu && re) throw CaseError("fluid has both nu and Re: give one of them");
  if (!nu && !re) throw CaseError(missing);
  if ((f.has("reference_velocity") || f.has("reference_length")) && !re)
    throw CaseError("fluid.reference_velocity and fluid.reference_length go with " + re_name);
  if (nu) {
    check_positive("fluid.nu", *nu);
    return *nu;
  }
  check_positive("fluid.Re", *re);
  double u = f.number("reference_velocity", 1.0), l = f.number("reference_length", 1.0);
  check_positive("fluid.reference_velocity", u);
  check_positive("fluid.reference_length", l);
  return u * l / *re;
}

bool read_gravity(const TableReader& f, double& gx, double& gy) {
  lua_State* L = f.state();
  int gt = f.type("gravity");
  if (gt == LUA_TNIL) return false;
  StackGuard guard(L);  // pops the gravity table and what is read from it
  f.push("gravity");
  if (gt != LUA_TTABLE)
    throw CaseError("fluid.gravity must be a table { gx, gy } (got " + describe_value(L, -1) + ")");
  TableReader g(L, -1, "fluid.gravity", {"gx", "gy"}, {}, true);
  lua_rawgeti(L, -1, 1);
  lua_rawgeti(L, -2, 2);
  if (!lua_isnil(L, -2) || !lua_isnil(L, -1)) {
    gx = to_finite(L, -2, "fluid.gravity[1] (gx)");
    gy = to_finite(L, -1, "fluid.gravity[2] (gy)");
  } else {
    gx = g.number("gx", 0);
    gy = g.number("gy", 0);
  }
  return true;
}

namespace {

const std::vector<std::string> kTopKeys = {"model",    "grid",     "fluid",   "boundaries",
                                           "obstacles", "initial", "time",    "pressure",
                                           "kernels",  "precision", "backend", "output"};

void read_model(const TableReader& top, CaseSpec& c) {
  static const std::vector<std::string> later = {"adi", "fractional_step", "lbm"};
  std::string m = top.string("model", "projection");
  if (m == "projection" || m == "psi_omega") {
    c.model = m;
    c.config.model = m == "psi_omega" ? Model::PsiOmega : Model::Projection;
    return;
  }
  for (const auto& l : later)
    if (m == l)
      throw CaseError("model = '" + clip(m) + "' is not yet available; available: 'projection', 'psi_omega'");
  std::vector<std::string> all = {"projection", "psi_omega"};
  all.insert(all.end(), later.begin(), later.end());
  std::string best = closest_match(m, all);
  throw CaseError("unknown model '" + clip(m) + "'" +
                  (best.empty() ? "" : "; did you mean '" + best + "'?") +
                  " (available: 'projection', 'psi_omega')");
}

void read_grid(const TableReader& top, CaseSpec& c) {
  if (!top.has("grid"))
    throw CaseError("grid is missing: give grid = { nx = ..., ny = ..., lx = ..., ly = ... }");
  top.push("grid");
  TableReader g(top.state(), -1, "grid", {"nx", "ny", "lx", "ly"});
  auto nx = g.opt_integer("nx"), ny = g.opt_integer("ny");
  if (!nx) throw CaseError("grid.nx is missing (the number of cells in x, an integer >= 2)");
  if (!ny) throw CaseError("grid.ny is missing (the number of cells in y, an integer >= 2)");
  check_int_range("grid.nx", *nx, 2, kMaxCellsPerSide);
  check_int_range("grid.ny", *ny, 2, kMaxCellsPerSide);
  if (*nx * *ny > kMaxCells)
    throw CaseError("grid.nx * grid.ny = " + std::to_string(*nx * *ny) +
                    " cells is more than the limit of 2^31");
  double lx = g.number("lx", 1.0);
  check_positive("grid.lx", lx);
  double ly = g.number("ly", lx * double(*ny) / double(*nx));  // square cells by default
  check_positive("grid.ly", ly);
  lua_pop(top.state(), 1);
  c.config.grid = Grid::make(int(*nx), int(*ny), lx, ly);
}

void read_fluid(const TableReader& top, CaseSpec& c) {
  if (!top.has("fluid"))
    throw CaseError("fluid is missing: give fluid = { nu = ... } or fluid = { Re = ... }");
  lua_State* L = top.state();
  if (c.config.model == Model::PsiOmega) {
    read_fluid_psi_omega(top, c);
    return;
  }
  top.push("fluid");
  const std::string heat = "heat transport and buoyancy are not yet available in the projection "
                           "model (it has no temperature field); model = 'psi_omega' has them";
  TableReader f(L, -1, "fluid",
                {"nu", "rho", "Re", "reference_velocity", "reference_length", "gravity"},
                {{"kappa", heat}, {"beta", heat}, {"Pr", heat}, {"Ra", heat}});
  c.config.nu = read_viscosity(f,
                               "fluid needs nu (the kinematic viscosity) or Re (with reference_velocity "
                               "and reference_length, default 1)",
                               "fluid.Re");
  c.config.rho = f.number("rho", 1.0);
  check_positive("fluid.rho", c.config.rho);
  read_gravity(f, c.config.gx, c.config.gy);
  lua_pop(L, 1);
}

void read_boundaries(const TableReader& top, CaseSpec& c, FnStore& store) {
  lua_State* L = top.state();
  if (!top.has("boundaries"))
    throw CaseError("boundaries is missing: give boundaries = { left = ..., right = ..., "
                    "bottom = ..., top = ... }");
  top.push("boundaries");
  TableReader b(L, -1, "boundaries", {"left", "right", "bottom", "top"},
                {{"front", "3D sides are not available in 2D"},
                 {"back", "3D sides are not available in 2D"}});
  std::array<BoundarySpec, 4> specs;
  for (Side side : kSides) {
    const char* name = side_name(side);
    b.push(name);
    int idx = lua_gettop(L);
    auto* ud = test_udata<BoundaryUD>(L, idx, kBoundaryMeta);
    if (!ud) {
      std::string d = describe_value(L, idx);
      bool missing = lua_isnil(L, idx);
      bool fn = lua_type(L, idx) == LUA_TFUNCTION;
      lua_pop(L, 1);
      if (missing)
        throw CaseError("boundaries." + std::string(name) + " is missing: every side needs a "
                        "condition: flow.wall{...}, flow.slip(), flow.inflow{...}, "
                        "flow.outflow(), flow.periodic() or flow.custom(fn)");
      throw CaseError("boundaries." + std::string(name) + " must be a boundary such as "
                      "flow.wall() or flow.inflow{...} (got " + d + ")" +
                      (fn ? "; call the function (flow.wall() with parentheses), or wrap a "
                            "callback in flow.custom(fn)"
                          : ""));
    }
    BoundarySpec spec = ud->spec;
    specs[int(side)] = spec;
    c.side_text[int(side)] = spec.describe();
    DynamicSide dyn;
    dyn.side = side;
    dyn.spec = spec;
    if (spec.u_fn || spec.custom_fn) {
      lua_getiuservalue(L, idx, 1);
      dyn.slot_a = store.store(-1);
      lua_pop(L, 1);
    }
    if (spec.v_fn) {
      lua_getiuservalue(L, idx, 2);
      dyn.slot_b = store.store(-1);
      lua_pop(L, 1);
    }
    if (spec.T_fn) {
      lua_getiuservalue(L, idx, 3);
      dyn.slot_T = store.store(-1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    // Values at t = 0 (functions are evaluated now, with errors naming the side).
    if (spec.T_kind != ScalarCondition::Kind::None && c.config.model != Model::PsiOmega)
      throw CaseError("boundaries." + std::string(name) + ": T (temperature) is not yet available in the "
                      "projection model; model = 'psi_omega' has heat transport");
    dyn.at_nodes = c.config.model == Model::PsiOmega;
    c.config.boundaries[int(side)] = evaluate_side(
        L, side, c.config.grid, spec, 0.0,
        [&](int which) { store.push(which == 0 ? dyn.slot_a : which == 1 ? dyn.slot_b : dyn.slot_T); },
        dyn.at_nodes);
    if (spec.dynamic()) c.dynamic.push_back(dyn);
  }
  lua_pop(L, 1);

  using T = BoundarySpec::Type;
  auto periodic = [&](Side s) { return specs[int(s)].type == T::Periodic; };
  for (auto [a, z, n, axis, count] :
       {std::tuple{Side::Left, Side::Right, c.config.grid.nx, "x", "nx"},
        std::tuple{Side::Bottom, Side::Top, c.config.grid.ny, "y", "ny"}}) {
    if (periodic(a) != periodic(z)) {
      Side p = periodic(a) ? a : z, o = periodic(a) ? z : a;
      throw CaseError("boundaries." + std::string(side_name(p)) + " is periodic but boundaries." +
                      side_name(o) + " is " + specs[int(o)].type_name() +
                      ": periodic must be on both the " + side_name(a) + " and the " +
                      side_name(z) + " side");
    }
    if (periodic(a) && n % 2 != 0)
      throw CaseError(std::string("periodic in ") + axis + " needs an even grid." + count +
                      " (red-black ordering wraps around); got " + count + " = " +
                      std::to_string(n));
  }
}

void read_obstacles(const TableReader& top, CaseSpec& c, FnStore& store) {
  lua_State* L = top.state();
  if (!top.has("obstacles")) return;
  top.push("obstacles");
  int list = lua_gettop(L);
  // A single shape is accepted as a list of one.
  bool single = lua_type(L, list) != LUA_TTABLE;
  if (!single) TableReader check(L, list, "obstacles", {}, {}, true);
  lua_Integer n = single ? 1 : lua_Integer(lua_rawlen(L, list));
  const Grid& g = c.config.grid;
  for (lua_Integer k = 1; k <= n; ++k) {
    if (single) lua_pushvalue(L, list);
    else lua_rawgeti(L, list, k);
    int idx = lua_gettop(L);
    std::string what = "obstacles[" + std::to_string(k) + "]";
    ObstacleInfo info;
    long cells = 0;
    int id = int(k - 1);
    if (auto* s = test_udata<ShapeUD>(L, idx, kShapeMeta)) {
      info.description = s->shape.describe();
      const Shape& shape = s->shape;
      cells = rasterise(g, [&](double x, double y) { return shape.contains(x, y, g.lx, g.ly); },
                        id, c.config.solid, c.config.obstacle_id);
    } else if (lua_type(L, idx) == LUA_TFUNCTION) {
      info.description = "function(x, y)";
      std::string err;
      cells = rasterise(
          g,
          [&](double x, double y) {
            lua_pushvalue(L, idx);
            lua_pushnumber(L, x);
            lua_pushnumber(L, y);
            if (!call_checked(L, 2, 1, false, &err))
              throw CaseError(what + " (a function(x, y)) failed at x = " + fmt(x) + ", y = " +
                              fmt(y) + ": " + err);
            bool in = lua_toboolean(L, -1);
            lua_pop(L, 1);
            return in;
          },
          id, c.config.solid, c.config.obstacle_id);
    } else {
      std::string d = describe_value(L, idx);
      lua_pop(L, 2);
      throw CaseError(what + " must be a shape (flow.rect{...}, flow.circle{...}, "
                      "flow.polygon{...}, flow.mask(file)) or a function(x, y) (got " + d + ")");
    }
    info.cells = cells;
    info.slot = store.store(idx);
    lua_pop(L, 1);
    if (cells == 0) {
      lua_pop(L, 1);
      throw CaseError(what + " (" + info.description +
                      ") covers no cell: a cell is solid when its centre is inside; make it "
                      "larger than a cell (dx = " + fmt(g.dx) + ", dy = " + fmt(g.dy) +
                      ") or refine the grid");
    }
    c.obstacles.push_back(info);
  }
  lua_pop(L, 1);
  if (!c.obstacles.empty()) {
    // Later obstacles take cells over from earlier ones: one may end up with none.
    std::vector<long> owned(c.obstacles.size(), 0);
    for (int id : c.config.obstacle_id)
      if (id >= 0 && id < int(owned.size())) ++owned[id];
    for (std::size_t k = 0; k < owned.size(); ++k)
      if (owned[k] == 0)
        throw CaseError("obstacles[" + std::to_string(k + 1) + "] (" + c.obstacles[k].description +
                        ") is covered entirely by later obstacles; cells belong to the last "
                        "obstacle that covers them");
    for (std::size_t k = 0; k < owned.size(); ++k) c.obstacles[k].cells = owned[k];
  }
  if (!c.config.solid.empty()) {
    bool any_fluid = false;
    for (auto s : c.config.solid) any_fluid |= (s == 0);
    if (!any_fluid) throw CaseError("the obstacles cover every cell: no fluid is left");
  }
}

// Fills `out` (grid.size()) from a number or a function(x, y) at the staggered position.
void read_initial_field(lua_State* L, const TableReader& t, const char* key, const Grid& g,
                        double ox, double oy, std::vector<double>& out) {
  int ty = t.type(key);
  if (ty == LUA_TNIL) return;
  out.assign(g.size(), 0.0);
  if (ty == LUA_TNUMBER) {
    double v = t.number(key, 0);
    for (auto& x : out) x = v;
    return;
  }
  if (ty != LUA_TFUNCTION) {
    t.push(key);
    std::string d = describe_value(L, -1);
    lua_pop(L, 1);
    throw CaseError(t.name(key) + " must be a number or a function(x, y) (got " + d + ")");
  }
  t.push(key);
  int fn = lua_gettop(L);
  std::string err, got;
  for (int j = 0; j <= g.ny + 1; ++j) {
    for (int i = 0; i <= g.nx + 1; ++i) {
      double x = (i + ox) * g.dx, y = (j + oy) * g.dy;
      lua_pushvalue(L, fn);
      lua_pushnumber(L, x);
      lua_pushnumber(L, y);
      if (!call_checked(L, 2, 1, false, &err)) {
        lua_pop(L, 1);
        throw CaseError(t.name(key) + " failed at x = " + fmt(x) + ", y = " + fmt(y) + ": " + err);
      }
      double v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || !std::isfinite(v)) {
        got = lua_type(L, -1) == LUA_TNUMBER ? fmt(v) : describe_value(L, -1);
        lua_pop(L, 2);
        throw CaseError(t.name(key) + " returned " + got + " at x = " + fmt(x) + ", y = " +
                        fmt(y) + "; it must return a finite number");
      }
      lua_pop(L, 1);
      out[g.at(i, j)] = v;
    }
  }
  lua_pop(L, 1);
}

void read_initial(const TableReader& top, CaseSpec& c) {
  if (!top.has("initial")) return;
  lua_State* L = top.state();
  top.push("initial");
  if (c.config.model == Model::PsiOmega) {
    // psi_omega starts at rest; T is given at the grid nodes (x = i dx, y = j dy).
    const std::string rest = "does not apply to the psi_omega model (it starts at rest); it takes initial.T";
    TableReader t(L, -1, "initial", {"T"}, {{"u", rest}, {"v", rest}, {"p", rest}});
    if (t.has("T") && !c.config.heat.enabled)
      throw CaseError("initial.T needs heat transport: give fluid.kappa (or Pr, or Ra and Pr)");
    const Grid& g = c.config.grid;
    Grid nodes = Grid::make(g.nx - 1, g.ny - 1, g.lx - 2 * g.dx, g.ly - 2 * g.dy);
    nodes.dx = g.dx;
    nodes.dy = g.dy;
    read_initial_field(L, t, "T", nodes, 0.0, 0.0, c.config.heat.T0);
    lua_pop(L, 1);
    return;
  }
  TableReader t(L, -1, "initial", {"u", "v", "p"},
                {{"T", "temperature is not yet available in the projection model; model = 'psi_omega' has it"}});
  const Grid& g = c.config.grid;
  read_initial_field(L, t, "u", g, 0.0, -0.5, c.config.u0);   // u(i, j) at (i dx, (j - 1/2) dy)
  read_initial_field(L, t, "v", g, -0.5, 0.0, c.config.v0);   // v(i, j) at ((i - 1/2) dx, j dy)
  read_initial_field(L, t, "p", g, -0.5, -0.5, c.config.p0);  // p at cell centres
  lua_pop(L, 1);
}

void read_time(const TableReader& top, CaseSpec& c) {
  TimeControl& tc = c.config.time;
  tc.t_end = c.t_end;  // infinite unless given: the run loop stops, not the engine
  if (!top.has("time")) return;  // sim:step(n) needs none; sim:run() checks
  lua_State* L = top.state();
  top.push("time");
  TableReader t(L, -1, "time", {"t_end", "steps", "dt", "cfl", "steady"});
  if (auto v = t.opt_number("t_end")) {
    check_positive("time.t_end", *v);
    c.t_end = *v;
    tc.t_end = *v;
  }
  if (auto v = t.opt_integer("steps")) {
    check_int_range("time.steps", *v, 0, 1000000000000LL);
    c.max_steps = long(*v);
    tc.max_steps = long(*v);
  }
  if (t.has("dt") && t.has("cfl"))
    throw CaseError("time.dt fixes the step and time.cfl sets an adaptive one: give only one");
  if (auto v = t.opt_number("dt")) {
    check_positive("time.dt", *v);
    tc.dt = *v;
  }
  if (auto v = t.opt_number("cfl")) {
    check_left_open("time.cfl", *v, 0.0, 1.0);
    tc.cfl = *v;
  }
  if (auto v = t.opt_number("steady")) {
    check_positive("time.steady", *v);
    c.steady = *v;
    tc.steady = *v;
  }
  lua_pop(L, 1);
}

void read_kernels(const TableReader& top, CaseSpec& c) {
  if (c.config.model == Model::PsiOmega) {
    read_kernels_psi_omega(top, c);
    return;
  }
  if (!top.has("kernels")) return;
  lua_State* L = top.state();
  top.push("kernels");
  TableReader t(L, -1, "kernels",
                {"advection", "gamma", "general", "boundaries", "momentum", "rhs", "pressure", "correction"});
  read_forced_kernels(t, {"boundaries", "momentum", "rhs", "pressure", "correction"}, c);
  // A gamma on its own asks for the hybrid blend.
  const char* fallback = t.has("gamma") ? "hybrid" : "central";
  std::string a = t.string("advection", fallback);
  if (a == "quick")
    throw CaseError("kernels.advection = 'quick' is not yet available in the projection model; "
                    "allowed: 'donor_cell', 'central', 'hybrid'");
  a = t.choice("advection", fallback, {"donor_cell", "central", "hybrid"});
  c.advection = a;
  if (a != "hybrid" && t.has("gamma"))
    throw CaseError("kernels.gamma applies to advection = 'hybrid' only ('" + a +
                    "' fixes gamma = " + (a == "central" ? "0" : "1") + ")");
  if (a == "donor_cell") c.config.advection.gamma = 1.0;
  else if (a == "central") c.config.advection.gamma = 0.0;
  else if (t.type("gamma") == LUA_TSTRING) {
    std::string g = t.string("gamma", "auto");
    if (g != "auto")
      throw CaseError("kernels.gamma must be a number in [0, 1] or 'auto' (got '" + g + "')");
    c.config.advection.gamma = -1;
  } else if (t.has("gamma")) {
    double g = t.number("gamma", -1);
    check_closed("kernels.gamma", g, 0.0, 1.0);
    c.config.advection.gamma = g;
  } else {
    c.config.advection.gamma = -1;  // hybrid without a gamma: Griebel's automatic rule
  }
  lua_pop(L, 1);
}

}  // namespace

CaseSpec read_case(lua_State* L, int idx, FnStore& store) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE)
    throw CaseError("flow.simulation takes a table: flow.simulation{ grid = ..., ... } (got " +
                    describe_value(L, idx) + ")");
  lua_checkstack(L, 32);
  int top_before = lua_gettop(L);
  CaseSpec c;
  try {
    TableReader top(L, idx, "flow.simulation", kTopKeys);
    read_model(top, c);
    if (c.config.model == Model::PsiOmega) c.advection = "central";
    read_grid(top, c);
    read_fluid(top, c);
    read_boundaries(top, c, store);
    read_obstacles(top, c, store);
    read_initial(top, c);
    read_time(top, c);
    read_pressure(top, c);
    read_kernels(top, c);
    std::string prec = top.choice("precision", "double", {"double", "float"});
    c.config.precision = prec == "float" ? Precision::Float : Precision::Double;
    std::string be = top.choice("backend", "auto", {"auto", "cpu", "cuda"});
    c.config.backend = be == "cpu" ? BackendChoice::Cpu
                     : be == "cuda" ? BackendChoice::Cuda : BackendChoice::Auto;
    c.output = top.string("output", "");
  } catch (...) {
    lua_settop(L, top_before);
    throw;
  }
  lua_settop(L, top_before);
  return c;
}

std::string CaseSpec::summary() const {
  const ProjectionConfig& cf = config;
  const Grid& g = cf.grid;
  std::ostringstream o;
  o << "case: model " << model << ", " << precision_name(cf.precision) << " precision\n";
  o << "  grid: " << g.nx << " x " << g.ny << " cells on " << fmt(g.lx) << " x " << fmt(g.ly)
    << " (dx = " << fmt(g.dx) << ", dy = " << fmt(g.dy) << ")\n";
  o << "  fluid: nu = " << fmt(cf.nu);
  if (cf.model == Model::Projection) o << ", rho = " << fmt(cf.rho);
  else if (cf.heat.enabled) o << ", kappa = " << fmt(cf.heat.kappa) << ", beta = " << fmt(cf.heat.beta);
  if (cf.gx != 0 || cf.gy != 0) o << ", gravity (" << fmt(cf.gx) << ", " << fmt(cf.gy) << ")";
  o << "\n  boundaries:\n";
  for (Side s : kSides) o << "    " << side_name(s) << ": " << side_text[int(s)] << "\n";
  if (obstacles.empty()) {
    o << "  obstacles: none\n";
  } else {
    long solid = 0;
    for (auto v : cf.solid) solid += v;
    o << "  obstacles: " << obstacles.size() << " (" << solid << " solid cells)\n";
    for (std::size_t k = 0; k < obstacles.size(); ++k)
      o << "    " << k + 1 << ": " << obstacles[k].description << ", " << obstacles[k].cells
        << " cells\n";
  }
  o << "  time:";
  if (std::isfinite(t_end)) o << " t_end = " << fmt(t_end) << ",";
  if (max_steps >= 0) o << " at most " << max_steps << " steps,";
  if (steady > 0) o << " steady when max change < " << fmt(steady) << ",";
  if (cf.time.dt > 0) o << " fixed dt = " << fmt(cf.time.dt) << "\n";
  else o << " adaptive dt with cfl = " << fmt(cf.time.cfl) << "\n";
  const PressureControl& p = cf.pressure;
  o << (cf.model == Model::PsiOmega ? "  stream function (pressure): " : "  pressure: ") << describe_pressure(p)
    << "\n";
  if (!cf.kernels.empty()) {
    o << "  kernels forced:";
    for (const auto& [stage, variant] : cf.kernels)
      o << " " << stage << (stage == "general" ? "" : " = " + variant) << ";";
    o << "\n";
  }
  o << "  advection: " << (cf.model == Model::PsiOmega ? advection_name(cf.psi_omega.advection) : advection);
  if (cf.model == Model::Projection && advection == "hybrid")
    o << (cf.advection.gamma < 0 ? " (gamma automatic)" : " (gamma = " + fmt(cf.advection.gamma) + ")");
  o << "\n";
  for (const auto& d : dynamic)
    o << "  " << side_name(d.side) << " side re-evaluated every " << d.spec.every << " step"
      << (d.spec.every == 1 ? "" : "s") << "\n";
  return o.str();
}

}  // namespace flowlua::lua
