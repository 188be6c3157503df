#include "lua_boundary.hpp"

#include <cmath>
#include <new>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

const char* BoundarySpec::type_name() const {
  switch (type) {
    case Type::Wall: return "wall";
    case Type::Slip: return "slip";
    case Type::Inflow: return "inflow";
    case Type::Outflow: return "outflow";
    case Type::Periodic: return "periodic";
    case Type::Custom: return "custom";
  }
  return "?";
}

std::string BoundarySpec::label() const {
  if (depth_key) return std::string(type_name()) + " (" + depth_key + ")";
  if (type == Type::Wall) return (u != 0 || v != 0) ? "moving wall" : "wall";
  return type_name();
}

static std::string describe_T(const BoundarySpec& b) {
  if (b.T_kind == ScalarCondition::Kind::None) return "";
  std::string v = b.T_fn ? std::string("function") : fmt(b.T_value);
  return b.T_kind == ScalarCondition::Kind::Dirichlet ? ", T = " + v : ", dT/dn = " + v;
}

std::string BoundarySpec::describe() const {
  std::string text = describe_without_T();
  if (T_kind == ScalarCondition::Kind::None) return text;
  if (!text.empty() && text.back() == ')') return text.substr(0, text.size() - 1) + describe_T(*this) + ")";
  return text + " (" + describe_T(*this).substr(2) + ")";
}

std::string BoundarySpec::describe_without_T() const {
  auto val = [&](bool fn, double x) { return fn ? std::string("function") : fmt(x); };
  std::string every_text = dynamic() ? ", every " + std::to_string(every) + " step" +
                                           (every == 1 ? "" : "s")
                                     : "";
  if (depth_key)
    return std::string(type_name()) + " (" + depth_key + " = " + val(u_fn, u) + every_text + ")";
  switch (type) {
    case Type::Wall:
      if (u == 0 && v == 0 && w == 0) return "wall (no slip)";
      return "moving wall (u = " + fmt(u) + ", v = " + fmt(v) + (w != 0 ? ", w = " + fmt(w) : "") + ")";
    case Type::Inflow:
      return "inflow (u = " + val(u_fn, u) + ", v = " + val(v_fn, v) +
             (w_fn || w != 0 ? ", w = " + val(w_fn, w) : "") + every_text + ")";
    case Type::Custom: return "custom (function(side, s, t)" + every_text + ")";
    default: return type_name();
  }
}

void physical_to_side(Side side, double u, double v, double& normal, double& tangential) {
  switch (side) {
    case Side::Left: normal = u; tangential = v; break;
    case Side::Right: normal = -u; tangential = v; break;
    case Side::Bottom: normal = v; tangential = u; break;
    case Side::Top: normal = -v; tangential = u; break;
    default: normal = tangential = 0; break;  // back, front: 3D sides (evaluate_side3)
  }
}

int side_cells(Side side, const Grid& grid) {
  return (side == Side::Left || side == Side::Right) ? grid.ny : grid.nx;
}

double side_coordinate(Side side, const Grid& grid, int k) {
  return (side == Side::Left || side == Side::Right) ? grid.yc(k) : grid.xc(k);
}

const char* side_axis(Side side) {
  return (side == Side::Left || side == Side::Right) ? "y" : "x";
}

// The result at idx as a finite number, or "" and a description of what it was.
static bool finite_result(lua_State* L, int idx, double& out, std::string& got) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    out = lua_tonumber(L, idx);
    if (std::isfinite(out)) return true;
    got = fmt(out);
    return false;
  }
  got = describe_value(L, idx);
  return false;
}

// The temperature values of a side (one per position), from a number or function(s, t).
static void evaluate_T(lua_State* L, Side side, const Grid& grid, const BoundarySpec& spec, double t,
                       const std::function<void(int)>& push_fn, bool at_nodes, ScalarCondition& out) {
  out.kind = spec.T_kind;
  if (spec.T_kind == ScalarCondition::Kind::None) return;
  const int n = side_cells(side, grid) + (at_nodes ? 1 : 0);
  out.values.assign(n, spec.T_value);
  if (!spec.T_fn) return;
  const bool lr = side == Side::Left || side == Side::Right;
  const std::string what = std::string(spec.T_kind == ScalarCondition::Kind::Dirichlet ? "flow.dirichlet"
                                                                                        : "flow.neumann") +
                           " function (T) on the " + side_name(side) + " side";
  std::string err, got;
  for (int k = 1; k <= n; ++k) {
    double s = at_nodes ? (k - 1) * (lr ? grid.dy : grid.dx) : side_coordinate(side, grid, k);
    push_fn(2);
    lua_pushnumber(L, s);
    lua_pushnumber(L, t);
    if (!call_checked(L, 2, 1, false, &err))
      throw CaseError(what + " failed at " + side_axis(side) + " = " + fmt(s) + ", t = " + fmt(t) + ": " + err);
    bool ok = finite_result(L, -1, out.values[k - 1], got);
    lua_pop(L, 1);
    if (!ok)
      throw CaseError(what + " returned " + got + " at " + side_axis(side) + " = " + fmt(s) + ", t = " + fmt(t) +
                      "; it must return a finite number");
  }
}

// flow.inflow{ q = ... } and flow.outflow{ h = ... } (model = 'lbm_swe'): the value
// per boundary cell in `normal`, as given (q into the domain, h the depth).
static SideCondition evaluate_depth_side(lua_State* L, Side side, const Grid& grid, const BoundarySpec& spec,
                                         double t, const std::function<void(int)>& push_fn, SideCondition c) {
  c.kind = spec.type == BoundarySpec::Type::Outflow ? BoundaryKind::Outflow : BoundaryKind::Dirichlet;
  const bool q = spec.depth_key == 'q';
  std::string err, got;
  double value = spec.u;
  for (std::size_t k = 1; k <= c.normal.size(); ++k) {
    const double s = side_coordinate(side, grid, int(k));
    if (spec.u_fn && (q || k == 1)) {  // h(t) is the same along the side
      push_fn(0);
      if (q) lua_pushnumber(L, s);
      lua_pushnumber(L, t);
      const std::string what = std::string(q ? "inflow q" : "outflow h") + " function on the " + side_name(side) + " side";
      if (!call_checked(L, q ? 2 : 1, 1, false, &err))
        throw CaseError(what + " failed at " + (q ? std::string(side_axis(side)) + " = " + fmt(s) + ", " : "") +
                        "t = " + fmt(t) + ": " + err);
      const bool ok = finite_result(L, -1, value, got);
      lua_pop(L, 1);
      if (!ok) throw CaseError(what + " returned " + got + " at t = " + fmt(t) + "; it must return a finite number");
    }
    c.normal[k - 1] = value;
  }
  return c;
}

SideCondition evaluate_side(lua_State* L, Side side, const Grid& grid, const BoundarySpec& spec,
                            double t, const std::function<void(int)>& push_fn, bool at_nodes) {
  SideCondition c;
  c.label = spec.label();
  int n = side_cells(side, grid) + (at_nodes ? 1 : 0);
  c.normal.assign(n, 0.0);
  c.tangential.assign(n, 0.0);
  evaluate_T(L, side, grid, spec, t, push_fn, at_nodes, c.T);
  const std::string sname = side_name(side);
  if (spec.depth_key) return evaluate_depth_side(L, side, grid, spec, t, push_fn, c);
  switch (spec.type) {
    case BoundarySpec::Type::Slip: c.kind = BoundaryKind::Slip; return c;
    case BoundarySpec::Type::Outflow: c.kind = BoundaryKind::Outflow; return c;
    case BoundarySpec::Type::Periodic: c.kind = BoundaryKind::Periodic; return c;
    default: c.kind = BoundaryKind::Dirichlet; break;
  }
  lua_checkstack(L, 8);
  // Messages are built only when something goes wrong: this runs every step.
  auto what = [&](int comp) {
    if (spec.type == BoundarySpec::Type::Custom) return "flow.custom function on the " + sname + " side";
    return std::string("inflow ") + (comp == 0 ? "u" : "v") + " function on the " + sname + " side";
  };
  auto at = [&](double s) {
    return std::string(side_axis(side)) + " = " + fmt(s) + ", t = " + fmt(t);
  };
  std::string err, got;
  const double h_along = (side == Side::Left || side == Side::Right) ? grid.dy : grid.dx;
  for (int k = 1; k <= n; ++k) {
    double s = at_nodes ? (k - 1) * h_along : side_coordinate(side, grid, k);
    double u = spec.u, v = spec.v;
    if (spec.type == BoundarySpec::Type::Custom) {
      push_fn(0);
      lua_pushstring(L, sname.c_str());
      lua_pushnumber(L, s);
      lua_pushnumber(L, t);
      if (!call_checked(L, 3, 2, false, &err))
        throw CaseError(what(0) + " failed at " + at(s) + ": " + err);
      bool ok = finite_result(L, -2, u, got) && finite_result(L, -1, v, got);
      lua_pop(L, 2);
      if (!ok)
        throw CaseError(what(0) + " returned " + got + " at " + at(s) +
                        "; it must return two finite numbers u, v");
    } else {
      for (int comp = 0; comp < 2; ++comp) {
        bool fn = comp == 0 ? spec.u_fn : spec.v_fn;
        if (!fn) continue;
        push_fn(comp);
        lua_pushnumber(L, s);
        lua_pushnumber(L, t);
        if (!call_checked(L, 2, 1, false, &err))
          throw CaseError(what(comp) + " failed at " + at(s) + ": " + err);
        bool ok = finite_result(L, -1, comp == 0 ? u : v, got);
        lua_pop(L, 1);
        if (!ok)
          throw CaseError(what(comp) + " returned " + got + " at " + at(s) +
                          "; it must return a finite number");
      }
    }
    double normal = 0, tangential = 0;
    physical_to_side(side, u, v, normal, tangential);
    if (spec.type == BoundarySpec::Type::Wall && normal != 0) {
      bool lr = side == Side::Left || side == Side::Right;
      const char* comp = lr ? "u" : "v";
      throw CaseError("a wall on the " + sname + " side cannot have a velocity through it (" + comp +
                      " = " + fmt(lr ? u : v) +
                      "); walls move along themselves only. For flow through a side use "
                      "flow.inflow{ " + comp + " = ... }");
    }
    c.normal[k - 1] = normal;
    c.tangential[k - 1] = tangential;
  }
  return c;
}

// ---- the Lua constructors -----------------------------------------------------------

static BoundaryUD* new_boundary(lua_State* L, BoundarySpec::Type type) {
  void* mem = lua_newuserdatauv(L, sizeof(BoundaryUD), 4);
  auto* b = new (mem) BoundaryUD();
  b->spec.type = type;
  luaL_setmetatable(L, kBoundaryMeta);
  return b;
}

static void no_arguments(lua_State* L, const char* fname) {
  int n = lua_gettop(L);
  if (n == 0) return;
  if (n == 1 && lua_type(L, 1) == LUA_TTABLE) {
    TableReader t(L, 1, fname, {});
    return;
  }
  throw CaseError(std::string(fname) + " takes no arguments (got " + describe_value(L, 1) + ")");
}

// The optional T = flow.dirichlet(...) / flow.neumann(...) of a side's table: copies
// the condition into `spec` and returns the stack index of its function (0: none).
static int read_T(lua_State* L, const TableReader& t, BoundarySpec& spec) {
  if (!t.has("T")) return 0;
  t.push("T");
  int idx = lua_gettop(L);
  auto* s = test_udata<ScalarUD>(L, idx, kScalarMeta);
  if (!s) {
    std::string d = describe_value(L, idx);
    lua_pop(L, 1);
    throw CaseError(t.name("T") + " must be flow.dirichlet(value or function(s, t)) or "
                    "flow.neumann(gradient or function(s, t)) (got " + d + ")");
  }
  spec.T_kind = s->kind;
  spec.T_value = s->value;
  spec.T_fn = s->fn;
  if (!s->fn) { lua_pop(L, 1); return 0; }
  lua_getiuservalue(L, idx, 1);
  lua_remove(L, idx);
  return lua_gettop(L);
}

// Attaches the T function (at stack index fn, 0: none) to the boundary on top of the stack.
static void attach_T(lua_State* L, int fn) {
  if (!fn) return;
  int ud = lua_gettop(L);
  lua_pushvalue(L, fn);
  lua_setiuservalue(L, ud, 3);
}

static int l_wall(lua_State* L) {
  BoundarySpec spec;
  int fn = 0;
  if (lua_gettop(L) >= 1 && !lua_isnil(L, 1)) {
    TableReader t(L, 1, "flow.wall", {"u", "v", "w", "T"});
    spec.w = t.number("w", 0);
    spec.u = t.number("u", 0);
    spec.v = t.number("v", 0);
    fn = read_T(L, t, spec);
  }
  auto* b = new_boundary(L, BoundarySpec::Type::Wall);
  spec.type = BoundarySpec::Type::Wall;
  b->spec = spec;
  attach_T(L, fn);
  return 1;
}

static int l_slip(lua_State* L) {
  BoundarySpec spec;
  int fn = 0;
  if (lua_gettop(L) == 1 && lua_type(L, 1) == LUA_TTABLE) {
    TableReader t(L, 1, "flow.slip", {"T"});
    fn = read_T(L, t, spec);
  } else {
    no_arguments(L, "flow.slip");
  }
  auto* b = new_boundary(L, BoundarySpec::Type::Slip);
  spec.type = BoundarySpec::Type::Slip;
  b->spec = spec;
  attach_T(L, fn);
  return 1;
}

static int l_outflow(lua_State* L) {
  BoundarySpec spec;
  spec.type = BoundarySpec::Type::Outflow;
  bool h_fn = false;
  if (lua_gettop(L) == 1 && lua_type(L, 1) == LUA_TTABLE) {
    TableReader t(L, 1, "flow.outflow", {"h"},
                  {{"T", "an outflow carries T out with zero normal gradient; it takes no T condition"}});
    if (t.has("h")) {  // a given depth (model = 'lbm_swe'): a number or function(t)
      spec.depth_key = 'h';
      h_fn = t.type("h") == LUA_TFUNCTION;
      if (h_fn) spec.u_fn = true;
      else spec.u = t.number("h", 0);
    }
  } else {
    no_arguments(L, "flow.outflow");
  }
  auto* b = new_boundary(L, BoundarySpec::Type::Outflow);
  b->spec = spec;
  if (h_fn) {
    lua_getfield(L, 1, "h");
    lua_setiuservalue(L, -2, 1);
  }
  return 1;
}

static int l_periodic(lua_State* L) {
  no_arguments(L, "flow.periodic");
  new_boundary(L, BoundarySpec::Type::Periodic);
  return 1;
}

static long read_every(const TableReader& t) {
  long long every = t.integer("every", 1);
  check_int_range(t.name("every"), every, 1, 1000000000);
  return long(every);
}

static int l_inflow(lua_State* L) {
  arg_table(L, 1, "flow.inflow");
  TableReader t(L, 1, "flow.inflow", {"u", "v", "w", "every", "T", "q"});
  BoundarySpec spec;
  spec.type = BoundarySpec::Type::Inflow;
  spec.every = read_every(t);
  if (t.has("q")) {  // discharge per unit width into the domain (model = 'lbm_swe')
    if (t.has("u") || t.has("v") || t.has("w") || t.has("T"))
      throw CaseError("flow.inflow takes q (a discharge) or u, v (a velocity), not both");
    spec.depth_key = 'q';
    const bool fn = t.type("q") == LUA_TFUNCTION;
    if (fn) spec.u_fn = true;
    else spec.u = t.number("q", 0);
    auto* b = new_boundary(L, BoundarySpec::Type::Inflow);
    b->spec = spec;
    if (fn) {
      t.push("q");
      lua_setiuservalue(L, -2, 1);
    }
    return 1;
  }
  if (!t.has("u") && !t.has("v") && !t.has("w"))
    throw CaseError("flow.inflow needs u or v (and in 3D w): a number or a function(s, t)");
  for (int comp = 0; comp < 3; ++comp) {
    const char* key = comp == 0 ? "u" : comp == 1 ? "v" : "w";
    int ty = t.type(key);
    if (ty == LUA_TFUNCTION) {
      (comp == 0 ? spec.u_fn : comp == 1 ? spec.v_fn : spec.w_fn) = true;
    } else if (ty != LUA_TNIL && ty != LUA_TNUMBER) {
      t.push(key);
      std::string d = describe_value(L, -1);
      lua_pop(L, 1);
      throw CaseError(t.name(key) + " must be a number or a function(s, t) (got " + d + ")");
    } else {
      (comp == 0 ? spec.u : comp == 1 ? spec.v : spec.w) = t.number(key, 0);
    }
  }
  int tfn = read_T(L, t, spec);
  auto* b = new_boundary(L, BoundarySpec::Type::Inflow);
  b->spec = spec;
  int ud = lua_gettop(L);
  if (spec.u_fn) { t.push("u"); lua_setiuservalue(L, ud, 1); }
  if (spec.v_fn) { t.push("v"); lua_setiuservalue(L, ud, 2); }
  if (spec.w_fn) { t.push("w"); lua_setiuservalue(L, ud, 4); }
  attach_T(L, tfn);
  return 1;
}

static int l_custom(lua_State* L) {
  long every = 1;
  int fn = 1;
  if (lua_type(L, 1) == LUA_TTABLE) {
    TableReader t(L, 1, "flow.custom", {"every", "fn"}, {}, true);
    every = read_every(t);
    lua_rawgeti(L, 1, 1);
    if (lua_isnil(L, -1)) { lua_pop(L, 1); t.push("fn"); }
    if (lua_type(L, -1) != LUA_TFUNCTION) {
      std::string d = describe_value(L, -1);
      lua_pop(L, 1);
      throw CaseError("flow.custom{ fn, every = N } needs a function(side, s, t) first (got " + d + ")");
    }
    fn = lua_gettop(L);
  } else if (lua_type(L, 1) != LUA_TFUNCTION) {
    throw CaseError("flow.custom takes a function(side, s, t) returning u, v, or { fn, every = N } (got " +
                    describe_value(L, 1) + ")");
  }
  auto* b = new_boundary(L, BoundarySpec::Type::Custom);
  b->spec.custom_fn = true;
  b->spec.every = every;
  int ud = lua_gettop(L);
  lua_pushvalue(L, fn);
  lua_setiuservalue(L, ud, 1);
  return 1;
}

// flow.dirichlet(value or function(s, t)) and flow.neumann(gradient or function(s, t)).
static int new_scalar(lua_State* L, ScalarCondition::Kind kind, const char* fname) {
  const char* what = kind == ScalarCondition::Kind::Dirichlet ? "a value" : "an outward normal gradient";
  int ty = lua_type(L, 1);
  if (lua_gettop(L) != 1 || (ty != LUA_TNUMBER && ty != LUA_TFUNCTION))
    throw CaseError(std::string(fname) + " takes " + what + ": a number or a function(s, t) (got " +
                    (lua_gettop(L) == 0 ? std::string("nothing") : describe_value(L, 1)) + ")");
  ScalarUD sc;
  sc.kind = kind;
  sc.fn = ty == LUA_TFUNCTION;
  if (!sc.fn) sc.value = to_finite(L, 1, std::string(fname) + "'s argument");
  void* mem = lua_newuserdatauv(L, sizeof(ScalarUD), 1);
  new (mem) ScalarUD(sc);
  luaL_setmetatable(L, kScalarMeta);
  if (sc.fn) {
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
  }
  return 1;
}

static int l_dirichlet(lua_State* L) { return new_scalar(L, ScalarCondition::Kind::Dirichlet, "flow.dirichlet"); }
static int l_neumann(lua_State* L) { return new_scalar(L, ScalarCondition::Kind::Neumann, "flow.neumann"); }

static int l_scalar_tostring(lua_State* L) {
  auto* s = test_udata<ScalarUD>(L, 1, kScalarMeta);
  std::string v = !s ? "?" : s->fn ? "function" : fmt(s->value);
  std::string text = std::string("flow ") + (s && s->kind == ScalarCondition::Kind::Neumann ? "neumann(" : "dirichlet(") +
                     v + ")";
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

static int l_boundary_tostring(lua_State* L) {
  auto* b = test_udata<BoundaryUD>(L, 1, kBoundaryMeta);
  std::string s = b ? "flow boundary: " + b->spec.describe() : "flow boundary";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

void register_boundaries(lua_State* L, int flow) {
  luaL_newmetatable(L, kBoundaryMeta);
  lua_pushcfunction(L, protect<l_boundary_tostring>);
  lua_setfield(L, -2, "__tostring");
  lua_pushstring(L, "flow boundary");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  luaL_newmetatable(L, kScalarMeta);
  lua_pushcfunction(L, protect<l_scalar_tostring>);
  lua_setfield(L, -2, "__tostring");
  lua_pushstring(L, "flow scalar condition");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  const luaL_Reg fns[] = {{"wall", protect<l_wall>},       {"slip", protect<l_slip>},
                          {"dirichlet", protect<l_dirichlet>}, {"neumann", protect<l_neumann>},
                          {"inflow", protect<l_inflow>},   {"outflow", protect<l_outflow>},
                          {"periodic", protect<l_periodic>}, {"custom", protect<l_custom>},
                          {nullptr, nullptr}};
  for (const luaL_Reg* r = fns; r->name; ++r) {
    lua_pushcfunction(L, r->func);
    lua_setfield(L, flow, r->name);
  }
}

}  // namespace flowlua::lua
