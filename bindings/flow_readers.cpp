#include "flow_readers.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_shapes.hpp"
#include "pressure_reader.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

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

void read_boundaries(const TableReader& top, CaseSpec& c, FnStore& store, const SideOptions& options,
                     Boundaries& out) {
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
    if (spec.depth_key && !options.depth_sides) {
      lua_pop(L, 1);
      throw CaseError("boundaries." + std::string(name) + ": " +
                      (spec.depth_key == 'q' ? "flow.inflow{ q = ... } (a discharge)" : "flow.outflow{ h = ... } (a depth)") +
                      " applies to model = 'lbm_swe' only");
    }
    if (spec.w != 0 || spec.w_fn) {
      lua_pop(L, 1);
      throw CaseError("boundaries." + std::string(name) + ": w (the z velocity) is for 3D grids; this grid is 2D");
    }
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
    if (spec.T_kind != ScalarCondition::Kind::None && !options.no_T.empty())
      throw CaseError("boundaries." + std::string(name) + ": " + options.no_T);
    dyn.at_nodes = options.at_nodes;
    out[int(side)] = evaluate_side(
        L, side, c.common.grid, spec, 0.0,
        [&](int which) { store.push(which == 0 ? dyn.slot_a : which == 1 ? dyn.slot_b : dyn.slot_T); },
        dyn.at_nodes);
    if (spec.dynamic()) c.dynamic.push_back(dyn);
  }
  lua_pop(L, 1);

  using T = BoundarySpec::Type;
  auto periodic = [&](Side s) { return specs[int(s)].type == T::Periodic; };
  for (auto [a, z, n, axis, count] :
       {std::tuple{Side::Left, Side::Right, c.common.grid.nx, "x", "nx"},
        std::tuple{Side::Bottom, Side::Top, c.common.grid.ny, "y", "ny"}}) {
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

double level_set_value(lua_State* L, int fn, const std::string& what, double x, double y) {
  std::string err;
  lua_pushvalue(L, fn);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  if (!call_checked(L, 2, 1, false, &err))
    throw CaseError(what + " (flow.level_set) failed at x = " + fmt(x) + ", y = " + fmt(y) + ": " + err);
  int ok = 0;
  const double d = lua_tonumberx(L, -1, &ok);
  lua_pop(L, 1);
  if (!ok || !std::isfinite(d))
    throw CaseError(what + " (flow.level_set) must return a finite number (the signed distance, negative "
                    "inside) at x = " + fmt(x) + ", y = " + fmt(y));
  return d;
}

void read_obstacles(const TableReader& top, CaseSpec& c, FnStore& store, std::vector<std::uint8_t>& solid,
                    std::vector<int>& obstacle_id, const ObstacleOptions& options) {
  lua_State* L = top.state();
  if (!top.has("obstacles")) return;
  top.push("obstacles");
  int list = lua_gettop(L);
  // A single shape is accepted as a list of one.
  bool single = lua_type(L, list) != LUA_TTABLE;
  if (!single) {
    for (const auto& key : options.entry_keys) {
      lua_getfield(L, list, key.c_str());
      const bool misplaced = !lua_isnil(L, -1);
      lua_pop(L, 2 * int(misplaced) + int(!misplaced));
      if (misplaced)
        throw CaseError("obstacles." + key + ": a key of one obstacle goes into that obstacle's own table: "
                        "obstacles = { { flow.rect{ ... }, " + key + " = ... } }");
    }
    TableReader check(L, list, "obstacles", {}, {}, true);
  }
  lua_Integer n = single ? 1 : lua_Integer(lua_rawlen(L, list));
  const Grid& g = c.common.grid;
  const bool d3 = c.common.dims == 3;
  const Grid3& g3 = c.common.grid3;
  // Onto the nodes: the raster's "cell centres" ((i - 1/2) dx, (j - 1/2) dy) of a grid
  // one node larger are moved back by half a cell onto the nodes ((i - 1) dx, (j - 1) dy).
  Grid raster = g;
  double shift_x = 0, shift_y = 0;
  if (options.at_nodes) {
    raster = Grid::make(g.nx + 1, g.ny + 1, g.lx + g.dx, g.ly + g.dy);
    raster.dx = g.dx;
    raster.dy = g.dy;
    shift_x = 0.5 * g.dx;
    shift_y = 0.5 * g.dy;
  }
  const double edge_tol = 1e-9 * std::min(g.dx, g.dy);  // a node on a shape's edge is inside
  const char* unit = options.at_nodes ? "grid node" : "cell";
  for (lua_Integer k = 1; k <= n; ++k) {
    if (single) lua_pushvalue(L, list);
    else lua_rawgeti(L, list, k);
    int idx = lua_gettop(L);
    std::string what = "obstacles[" + std::to_string(k) + "]";
    if (lua_type(L, idx) == LUA_TTABLE && !options.entry_keys.empty()) {
      // { shape, key = ... }: the keys for the model, the shape at [1].
      {
        TableReader entry(L, idx, what, options.entry_keys, {}, true);
        if (lua_rawlen(L, idx) != 1) {
          lua_pop(L, 2);
          throw CaseError(what + " must hold one shape (or function) at [1] and its keys: { flow.rect{ ... }, " +
                          options.entry_keys.front() + " = ... }");
        }
        if (options.read_entry) options.read_entry(int(k - 1), entry);
      }
      lua_rawgeti(L, idx, 1);
      lua_replace(L, idx);
    }
    ObstacleInfo info;
    long cells = 0;
    int id = int(k - 1);
    auto* level = test_udata<ShapeUD>(L, idx, kShapeMeta);
    if (level && level->shape.kind == Shape::Kind::LevelSet) {
      info.description = level->shape.describe();
      if (d3) {
        lua_pop(L, 2);
        throw CaseError(what + " (flow.level_set) is 2D only; in a 3D case give a function(x, y, z)");
      }
      lua_getiuservalue(L, idx, 1);
      const int fn = lua_gettop(L);
      cells = rasterise(
          raster,
          [&](double x, double y) {
            const double d = level_set_value(L, fn, what, x - shift_x, y - shift_y);
            return options.at_nodes ? d <= edge_tol : d < 0;
          },
          id, solid, obstacle_id);
      lua_pop(L, 1);
    } else if (auto* s = test_udata<ShapeUD>(L, idx, kShapeMeta)) {
      info.description = s->shape.describe();
      const Shape& shape = s->shape;
      if (d3 && shape.omega != 0) {
        lua_pop(L, 2);
        throw CaseError(what + ": a turning circle (omega) is 2D only");
      }
      if (d3) {
        cells = rasterise3(
            g3, [&](double x, double y, double z) { return shape.contains3(x, y, z, g3.lx, g3.ly); }, id, solid,
            obstacle_id);
      } else {
        if (shape.is_3d()) {
          lua_pop(L, 2);
          throw CaseError(what + " (" + info.description + ") is a 3D shape, and this grid is 2D; give grid.nz "
                          "(> 1) for a 3D case, or use flow.rect, flow.circle, flow.polygon or flow.mask");
        }
        if (options.at_nodes && shape.omega != 0) {
          lua_pop(L, 2);
          throw CaseError(what + ": a turning circle (omega) is the projection model's; the psi_omega model's "
                          "bodies are at rest");
        }
        cells = rasterise(
            raster,
            [&](double x, double y) {
              x -= shift_x;
              y -= shift_y;
              if (options.at_nodes && shape.has_distance()) return shape.distance(x, y) <= edge_tol;
              return shape.contains(x, y, g.lx, g.ly);
            },
            id, solid, obstacle_id);
      }
    } else if (lua_type(L, idx) == LUA_TFUNCTION && d3) {
      info.description = "function(x, y, z)";
      std::string err;
      cells = rasterise3(
          g3,
          [&](double x, double y, double z) {
            lua_pushvalue(L, idx);
            lua_pushnumber(L, x);
            lua_pushnumber(L, y);
            lua_pushnumber(L, z);
            if (!call_checked(L, 3, 1, false, &err))
              throw CaseError(what + " (a function(x, y, z)) failed at x = " + fmt(x) + ", y = " + fmt(y) +
                              ", z = " + fmt(z) + ": " + err);
            bool in = lua_toboolean(L, -1);
            lua_pop(L, 1);
            return in;
          },
          id, solid, obstacle_id);
    } else if (lua_type(L, idx) == LUA_TFUNCTION) {
      info.description = "function(x, y)";
      std::string err;
      cells = rasterise(
          raster,
          [&](double x, double y) {
            x -= shift_x;
            y -= shift_y;
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
          id, solid, obstacle_id);
    } else {
      std::string d = describe_value(L, idx);
      lua_pop(L, 2);
      if (d3)
        throw CaseError(what + " must be a shape (flow.box{...}, flow.sphere{...}, flow.cylinder{...}, or a 2D "
                        "shape extruded through z) or a function(x, y, z) (got " + d + ")");
      throw CaseError(what + " must be a shape (flow.rect{...}, flow.circle{...}, "
                      "flow.polygon{...}, flow.mask(file)) or a function(x, y) (got " + d + ")");
    }
    info.cells = cells;
    if (options.at_nodes) info.unit = "nodes";
    info.slot = store.store(idx);
    lua_pop(L, 1);
    if (cells == 0) {
      lua_pop(L, 1);
      throw CaseError(what + " (" + info.description + ") covers no " + unit + ": " +
                      (options.at_nodes ? "a node is inside when it lies in the shape (or on its edge)"
                                        : "a cell is solid when its centre is inside") +
                      "; make it larger than a cell (dx = " + fmt(g.dx) + ", dy = " + fmt(g.dy) +
                      (d3 ? ", dz = " + fmt(g3.dz) : std::string()) + ") or refine the grid");
    }
    c.obstacles.push_back(info);
  }
  lua_pop(L, 1);
  if (!c.obstacles.empty()) {
    // Later obstacles take cells over from earlier ones: one may end up with none.
    std::vector<long> owned(c.obstacles.size(), 0);
    for (int id : obstacle_id)
      if (id >= 0 && id < int(owned.size())) ++owned[id];
    for (std::size_t k = 0; k < owned.size(); ++k)
      if (owned[k] == 0)
        throw CaseError("obstacles[" + std::to_string(k + 1) + "] (" + c.obstacles[k].description +
                        ") is covered entirely by later obstacles; cells belong to the last "
                        "obstacle that covers them");
    for (std::size_t k = 0; k < owned.size(); ++k) c.obstacles[k].cells = owned[k];
  }
  if (!solid.empty()) {
    bool any_fluid = false;
    for (auto s : solid) any_fluid |= (s == 0);
    if (!any_fluid) throw CaseError(std::string("the obstacles cover every ") + unit + ": no fluid is left");
  }
}

namespace {

// t[key] as a number or a Lua function of the coordinates: fills `out` (size n) with the
// number and returns 0, or pushes the function and returns its stack index.
int initial_source(lua_State* L, const TableReader& t, const char* key, std::size_t n, const char* signature,
                   std::vector<double>& out) {
  const int ty = t.type(key);
  if (ty == LUA_TNIL) return -1;
  out.assign(n, 0.0);
  if (ty == LUA_TNUMBER) {
    const double v = t.number(key, 0);
    for (auto& x : out) x = v;
    return 0;
  }
  if (ty != LUA_TFUNCTION) {
    t.push(key);
    std::string d = describe_value(L, -1);
    lua_pop(L, 1);
    throw CaseError(t.name(key) + " must be a number or a " + signature + " (got " + d + ")");
  }
  t.push(key);
  return lua_gettop(L);
}

// The function at stack index fn called at the point xs[0..dims): a finite number, or a
// CaseError naming the point.
double initial_value(lua_State* L, const TableReader& t, const char* key, int fn, const double* xs, int dims) {
  static const char* names[] = {"x", "y", "z"};
  auto at = [&] {
    std::string s = " at ";
    for (int d = 0; d < dims; ++d) s += std::string(d ? ", " : "") + names[d] + " = " + fmt(xs[d]);
    return s;
  };
  std::string err;
  lua_pushvalue(L, fn);
  for (int d = 0; d < dims; ++d) lua_pushnumber(L, xs[d]);
  if (!call_checked(L, dims, 1, false, &err)) {
    lua_pop(L, 1);
    throw CaseError(t.name(key) + " failed" + at() + ": " + err);
  }
  const double v = lua_tonumber(L, -1);
  if (lua_type(L, -1) != LUA_TNUMBER || !std::isfinite(v)) {
    const std::string got = lua_type(L, -1) == LUA_TNUMBER ? fmt(v) : describe_value(L, -1);
    lua_pop(L, 2);
    throw CaseError(t.name(key) + " returned " + got + at() + "; it must return a finite number");
  }
  lua_pop(L, 1);
  return v;
}

}  // namespace

void read_initial_field(lua_State* L, const TableReader& t, const char* key, const Grid& g,
                        double ox, double oy, std::vector<double>& out) {
  const int fn = initial_source(L, t, key, g.size(), "function(x, y)", out);
  if (fn <= 0) return;
  for (int j = 0; j <= g.ny + 1; ++j)
    for (int i = 0; i <= g.nx + 1; ++i) {
      const double xs[2] = {(i + ox) * g.dx, (j + oy) * g.dy};
      out[g.at(i, j)] = initial_value(L, t, key, fn, xs, 2);
    }
  lua_pop(L, 1);
}

void read_initial_field3(lua_State* L, const TableReader& t, const char* key, const Grid3& g, double ox,
                         double oy, double oz, std::vector<double>& out) {
  const int fn = initial_source(L, t, key, g.size(), "function(x, y, z)", out);
  if (fn <= 0) return;
  for (int k = 0; k <= g.nz + 1; ++k)
    for (int j = 0; j <= g.ny + 1; ++j)
      for (int i = 0; i <= g.nx + 1; ++i) {
        const double xs[3] = {(i + ox) * g.dx, (j + oy) * g.dy, (k + oz) * g.dz};
        out[g.at(i, j, k)] = initial_value(L, t, key, fn, xs, 3);
      }
  lua_pop(L, 1);
}

std::string flow_summary(const CaseSpec& spec, const std::string& fluid, const std::string& poisson_label,
                         const std::string& poisson, const std::string& advection) {
  std::ostringstream o;
  o << summary_head(spec);
  o << "  fluid: " << fluid << "\n  boundaries:\n";
  for (Side s : kSides) o << "    " << side_name(s) << ": " << spec.side_text[int(s)] << "\n";
  if (spec.obstacles.empty()) {
    o << "  obstacles: none\n";
  } else {
    long solid = 0;
    for (const auto& ob : spec.obstacles) solid += ob.cells;
    const std::string unit = spec.obstacles[0].unit;
    o << "  obstacles: " << spec.obstacles.size() << " (" << solid << " solid " << unit << ")\n";
    for (std::size_t k = 0; k < spec.obstacles.size(); ++k)
      o << "    " << k + 1 << ": " << spec.obstacles[k].description << ", " << spec.obstacles[k].cells << " "
        << unit << "\n";
  }
  o << summary_time(spec);
  o << "  " << poisson_label << ": " << poisson << "\n";
  o << summary_kernels(spec);
  o << "  advection: " << advection << "\n";
  for (const auto& d : spec.dynamic)
    o << "  " << side_name(d.side) << " side re-evaluated every " << d.spec.every << " step"
      << (d.spec.every == 1 ? "" : "s") << "\n";
  return o.str();
}

}  // namespace flowlua::lua
