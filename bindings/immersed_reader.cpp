#include "immersed_reader.hpp"

#include <cmath>
#include <limits>

#include "flow_readers.hpp"
#include "host.hpp"
#include "lua_shapes.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

namespace {

// Whether x is a multiple of h (to round-off).
bool on_line(double x, double h) { return std::abs(x / h - std::round(x / h)) < 1e-9; }

// A rectangle whose four sides lie on grid lines.
bool on_grid_lines(const Shape& r, const Grid& g) {
  return on_line(r.x0, g.dx) && on_line(r.x1, g.dx) && on_line(r.y0, g.dy) && on_line(r.y1, g.dy);
}

}  // namespace

ImmersedGeometry read_immersed(const CaseSpec& spec, const FnStore& store, std::vector<double>& xc,
                               std::vector<double>& yc) {
  lua_State* L = store.L;
  StackGuard guard(L);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ImmersedBody> bodies;
  const int n = int(spec.obstacles.size());
  xc.assign(std::size_t(n), nan);
  yc.assign(std::size_t(n), nan);
  // The values stay on the stack until the build is done (level-set functions are
  // called from it by their stack index).
  for (int k = 0; k < n; ++k) {
    luaL_checkstack(L, 4, "obstacles");
    store.push(spec.obstacles[std::size_t(k)].slot);
    const int idx = lua_gettop(L);
    auto* ud = test_udata<ShapeUD>(L, idx, kShapeMeta);
    if (!ud) continue;  // a predicate function(x, y): cells only
    const Shape shape = ud->shape;
    const std::string what = "obstacles[" + std::to_string(k + 1) + "]";
    ImmersedBody b;
    b.obstacle = k;
    if (shape.kind == Shape::Kind::Rect) b.on_grid_lines = on_grid_lines(shape, spec.common.grid);
    if (shape.kind == Shape::Kind::Circle) {
      xc[std::size_t(k)] = shape.cx;
      yc[std::size_t(k)] = shape.cy;
      b.motion = RigidMotion{shape.cx, shape.cy, shape.omega};
    }
    if (shape.has_distance()) {
      b.phi = [shape](double x, double y) { return shape.distance(x, y); };
    } else if (shape.kind == Shape::Kind::LevelSet) {
      lua_getiuservalue(L, idx, 1);
      const int fn = lua_gettop(L);
      b.phi = [L, fn, what](double x, double y) { return level_set_value(L, fn, what, x, y); };
    } else {
      continue;  // a mask: cells only
    }
    bodies.push_back(std::move(b));
  }
  return build_immersed_geometry(spec.common.grid, bodies);
}

}  // namespace flowlua::lua
