#include "lua_shapes.hpp"

#include <limits>
#include <new>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

static int push_shape(lua_State* L, Shape shape) {
  void* mem = lua_newuserdatauv(L, sizeof(ShapeUD), 0);
  new (mem) ShapeUD{std::move(shape)};
  luaL_setmetatable(L, kShapeMeta);
  return 1;
}

static int l_rect(lua_State* L) {
  arg_table(L, 1, "flow.rect");
  TableReader t(L, 1, "flow.rect", {"x0", "y0", "x1", "y1"});
  Shape s = make_rect(t.required_number("x0"), t.required_number("y0"), t.required_number("x1"),
                      t.required_number("y1"));
  return push_shape(L, std::move(s));
}

static int l_circle(lua_State* L) {
  arg_table(L, 1, "flow.circle");
  TableReader t(L, 1, "flow.circle", {"x", "y", "r", "omega"});
  Shape s = make_circle(t.required_number("x"), t.required_number("y"), t.required_number("r"));
  s.omega = t.number("omega", 0.0);
  return push_shape(L, std::move(s));
}

// flow.level_set(function(x, y) return d end): a body whose boundary is the zero level
// of d, negative inside (a signed distance is best: the surface and its normals are
// taken from d). The function is kept as the shape's user value.
static int l_level_set(lua_State* L) {
  if (lua_type(L, 1) != LUA_TFUNCTION)
    throw CaseError("flow.level_set needs a function(x, y) returning the signed distance to the body's "
                    "boundary, negative inside (got " + describe_value(L, 1) + ")");
  if (lua_gettop(L) > 1) throw CaseError("flow.level_set takes one argument, the function(x, y)");
  void* mem = lua_newuserdatauv(L, sizeof(ShapeUD), 1);
  Shape shape;
  shape.kind = Shape::Kind::LevelSet;
  new (mem) ShapeUD{std::move(shape)};
  luaL_setmetatable(L, kShapeMeta);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  return 1;
}

static int l_polygon(lua_State* L) {
  arg_table(L, 1, "flow.polygon");
  std::vector<std::pair<double, double>> pts;
  lua_Unsigned n = lua_rawlen(L, 1);
  if (n > 1000000) throw CaseError("flow.polygon: too many points");
  // Only an array of points: other keys are mistakes.
  TableReader check(L, 1, "flow.polygon", {}, {}, true);
  for (lua_Unsigned k = 1; k <= n; ++k) {
    lua_rawgeti(L, 1, lua_Integer(k));
    std::string what = "flow.polygon point " + std::to_string(k);
    if (lua_type(L, -1) != LUA_TTABLE) {
      std::string d = describe_value(L, -1);
      lua_pop(L, 1);
      throw CaseError(what + " must be a table {x, y} (got " + d + ")");
    }
    int p = lua_gettop(L);
    lua_rawgeti(L, p, 1);
    lua_rawgeti(L, p, 2);
    double x, y;
    try {
      x = to_finite(L, -2, what + " x");
      y = to_finite(L, -1, what + " y");
    } catch (...) {
      lua_pop(L, 3);
      throw;
    }
    lua_pop(L, 3);
    pts.emplace_back(x, y);
  }
  return push_shape(L, make_polygon(std::move(pts)));
}

static int l_box(lua_State* L) {
  arg_table(L, 1, "flow.box");
  TableReader t(L, 1, "flow.box", {"x0", "y0", "z0", "x1", "y1", "z1"});
  Shape s = make_box(t.required_number("x0"), t.required_number("y0"), t.required_number("z0"),
                     t.required_number("x1"), t.required_number("y1"), t.required_number("z1"));
  return push_shape(L, std::move(s));
}

static int l_sphere(lua_State* L) {
  arg_table(L, 1, "flow.sphere");
  TableReader t(L, 1, "flow.sphere", {"x", "y", "z", "r"});
  Shape s = make_sphere(t.required_number("x"), t.required_number("y"), t.required_number("z"),
                        t.required_number("r"));
  return push_shape(L, std::move(s));
}

// flow.cylinder{ axis = "z", x = 0.5, y = 0.5, r = 0.1 [, z0 = 0.2, z1 = 0.8] }: the
// centre in the two coordinates across the axis; the extent along it defaults to
// the whole domain.
static int l_cylinder(lua_State* L) {
  arg_table(L, 1, "flow.cylinder");
  static const char* axes[3] = {"x", "y", "z"};
  TableReader probe(L, 1, "flow.cylinder", {"axis", "x", "y", "z", "r", "x0", "x1", "y0", "y1", "z0", "z1"});
  const std::string ax = probe.choice("axis", "z", {"x", "y", "z"});
  const int a = ax == "x" ? 0 : ax == "y" ? 1 : 2;
  const int t1 = a == 0 ? 1 : 0, t2 = a == 2 ? 1 : 2;
  std::vector<std::string> keys = {"axis", "r", axes[t1], axes[t2], std::string(axes[a]) + "0",
                                   std::string(axes[a]) + "1"};
  TableReader t(L, 1, "flow.cylinder (axis = '" + ax + "')", keys);
  const double lo = t.number(keys[4].c_str(), -std::numeric_limits<double>::infinity());
  const double hi = t.number(keys[5].c_str(), std::numeric_limits<double>::infinity());
  Shape s = make_cylinder(a, t.required_number(axes[t1]), t.required_number(axes[t2]), t.required_number("r"), lo, hi);
  return push_shape(L, std::move(s));
}

static int l_mask(lua_State* L) {
  std::string path = arg_string(L, 1, "flow.mask", "the image file");
  if (lua_gettop(L) > 1) throw CaseError("flow.mask takes one argument, the image file name");
  Host& h = host_of(L);
  return push_shape(L, load_mask(h.input_path(path)));
}

static int l_shape_gc(lua_State* L) {
  auto* s = test_udata<ShapeUD>(L, 1, kShapeMeta);
  if (s) s->~ShapeUD();
  return 0;
}

static int l_shape_tostring(lua_State* L) {
  auto* s = test_udata<ShapeUD>(L, 1, kShapeMeta);
  std::string text = s ? "flow shape: " + s->shape.describe() : "flow shape";
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

void register_shapes(lua_State* L, int flow) {
  luaL_newmetatable(L, kShapeMeta);
  lua_pushcfunction(L, l_shape_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, protect<l_shape_tostring>);
  lua_setfield(L, -2, "__tostring");
  lua_pushstring(L, "flow shape");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  const luaL_Reg fns[] = {{"rect", protect<l_rect>},
                          {"circle", protect<l_circle>},
                          {"polygon", protect<l_polygon>},
                          {"level_set", protect<l_level_set>},
                          {"mask", protect<l_mask>},
                          {"box", protect<l_box>},
                          {"sphere", protect<l_sphere>},
                          {"cylinder", protect<l_cylinder>},
                          {nullptr, nullptr}};
  for (const luaL_Reg* r = fns; r->name; ++r) {
    lua_pushcfunction(L, r->func);
    lua_setfield(L, flow, r->name);
  }
}

}  // namespace flowlua::lua
