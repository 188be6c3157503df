// The Lua side of 3D: grid.nz and grid.lz, the 3D shapes and function(x, y, z)
// obstacles, initial fields of (x, y, z), and 3D field snapshots (get(i, j, k),
// sample(x, y, z), slice{...} into a 2D field that flow.write_png takes), with the
// bad cases refused with clear messages.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "case_reader.hpp"
#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "lua_simulation.hpp"
#include "lua_table.hpp"

using namespace flowlua;
using namespace flowlua::lua;

namespace {

HostOptions quiet_options() {
  HostOptions o;
  o.print_errors = false;
  o.quiet = true;
  o.output_dir = (std::filesystem::temp_directory_path() / "flowlua_unit_out3d").string();
  return o;
}

// Evaluates `code`, which returns a table, and hands it to `fn` as a TableReader
// allowing `keys`.
template <class F>
void with_table(Host& h, const std::string& code, std::vector<std::string> keys, F fn) {
  lua_State* L = h.state();
  lua_settop(L, 0);
  if (luaL_dostring(L, code.c_str()) != LUA_OK) {  // a constructor refused its arguments
    const std::string m = lua_tostring(L, -1);
    lua_settop(L, 0);
    throw CaseError(m);
  }
  lua_newtable(L);
  FnStore store{L, lua_gettop(L), 1};
  TableReader top(L, 1, "flow.simulation", std::move(keys));
  try {
    fn(top, store);
  } catch (...) {
    lua_settop(L, 0);
    throw;
  }
  lua_settop(L, 0);
}

CaseSpec grid_of(Host& h, const std::string& grid) {
  CaseSpec c;
  with_table(h, "return { grid = " + grid + " }", {"grid"}, [&](const TableReader& t, FnStore&) { read_grid(t, c); });
  return c;
}

std::string grid_error(Host& h, const std::string& grid) {
  try {
    grid_of(h, grid);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "(no error)";
}

// Obstacles on a 3D grid of 10^3 cells on the unit cube.
std::vector<std::uint8_t> obstacles3(Host& h, const std::string& list, CaseSpec* out = nullptr) {
  CaseSpec c = grid_of(h, "{ nx = 10, ny = 10, nz = 10 }");
  std::vector<std::uint8_t> solid;
  std::vector<int> id;
  with_table(h, "return { obstacles = " + list + " }", {"obstacles"},
             [&](const TableReader& t, FnStore& store) { read_obstacles(t, c, store, solid, id); });
  if (out) *out = c;
  return solid;
}

std::string obstacle_error(Host& h, const std::string& list, bool three_d = true) {
  try {
    if (three_d) {
      obstacles3(h, list);
    } else {
      CaseSpec c = grid_of(h, "{ nx = 10, ny = 10 }");
      std::vector<std::uint8_t> solid;
      std::vector<int> id;
      with_table(h, "return { obstacles = " + list + " }", {"obstacles"},
                 [&](const TableReader& t, FnStore& store) { read_obstacles(t, c, store, solid, id); });
    }
  } catch (const CaseError& e) {
    return e.what();
  }
  return "(no error)";
}

long count(const std::vector<std::uint8_t>& s) {
  long n = 0;
  for (auto v : s) n += v;
  return n;
}

}  // namespace

TEST(Lua3d, GridKeys) {
  Host h(quiet_options());
  CaseSpec c = grid_of(h, "{ nx = 8, ny = 4, nz = 6, lx = 2, ly = 1, lz = 3 }");
  EXPECT_EQ(c.common.dims, 3);
  EXPECT_EQ(c.common.grid3.nz, 6);
  EXPECT_DOUBLE_EQ(c.common.grid3.lz, 3.0);
  EXPECT_DOUBLE_EQ(c.common.grid3.dz, 0.5);
  EXPECT_EQ(c.common.grid.nx, 8);  // the x-y plane
  // lz defaults to cubic cells; nz = 1 (or absent) is 2D
  EXPECT_DOUBLE_EQ(grid_of(h, "{ nx = 8, ny = 8, nz = 4 }").common.grid3.lz, 0.5);
  EXPECT_EQ(grid_of(h, "{ nx = 8, ny = 8, nz = 1 }").common.dims, 2);
  EXPECT_EQ(grid_of(h, "{ nx = 8, ny = 8 }").common.dims, 2);
  EXPECT_NE(grid_error(h, "{ nx = 8, ny = 8, lz = 2 }").find("grid.lz is the depth of a 3D grid"), std::string::npos);
  EXPECT_NE(grid_error(h, "{ nx = 8, ny = 8, nz = 0 }").find("grid.nz"), std::string::npos);
  EXPECT_NE(grid_error(h, "{ nx = 8, ny = 8, nz = 4, lz = -1 }").find("grid.lz"), std::string::npos);
  EXPECT_NE(grid_error(h, "{ nx = 2048, ny = 2048, nz = 2048 }").find("limit of 2^31"), std::string::npos);
  EXPECT_NE(grid_error(h, "{ nx = 8, ny = 8, nzz = 4 }").find("nz"), std::string::npos);  // suggestion
}

TEST(Lua3d, ShapesAndPredicates) {
  Host h(quiet_options());
  // a box of 4 x 2 x 6 cells (centres 0.05, 0.15, ...)
  EXPECT_EQ(count(obstacles3(h, "{ flow.box{ x0 = 0.2, y0 = 0.4, z0 = 0.1, x1 = 0.6, y1 = 0.6, z1 = 0.7 } }")), 4 * 2 * 6);
  // a sphere: the cells whose centre is within r
  long sphere = 0;
  for (int k = 1; k <= 10; ++k)
    for (int j = 1; j <= 10; ++j)
      for (int i = 1; i <= 10; ++i) {
        const double x = (i - 0.5) / 10 - 0.5, y = (j - 0.5) / 10 - 0.5, z = (k - 0.5) / 10 - 0.5;
        sphere += x * x + y * y + z * z <= 0.3 * 0.3;
      }
  EXPECT_EQ(count(obstacles3(h, "{ flow.sphere{ x = 0.5, y = 0.5, z = 0.5, r = 0.3 } }")), sphere);
  // a cylinder along y through the whole depth, and one cut to 0.2 <= y <= 0.6
  const long disc = count(obstacles3(h, "{ flow.cylinder{ axis = 'y', x = 0.5, z = 0.5, r = 0.25 } }")) / 10;
  EXPECT_GT(disc, 0);
  EXPECT_EQ(count(obstacles3(h, "{ flow.cylinder{ axis = 'y', x = 0.5, z = 0.5, r = 0.25, y0 = 0.2, y1 = 0.6 } }")),
            disc * 4);
  // a predicate of (x, y, z) and a 2D shape extruded through z
  EXPECT_EQ(count(obstacles3(h, "{ function(x, y, z) return z < 0.3 and x > 0.8 end }")), 2 * 10 * 3);
  EXPECT_EQ(count(obstacles3(h, "{ flow.rect{ x0 = 0.2, y0 = 0.2, x1 = 0.4, y1 = 0.4 } }")), 2 * 2 * 10);
  CaseSpec c;
  obstacles3(h, "{ flow.sphere{ x = 0.5, y = 0.5, z = 0.5, r = 0.2 } }", &c);
  ASSERT_EQ(c.obstacles.size(), 1u);
  EXPECT_NE(c.obstacles[0].description.find("sphere at (0.5, 0.5, 0.5)"), std::string::npos);
  // refused clearly
  EXPECT_NE(obstacle_error(h, "{ flow.sphere{ x = 0.5, y = 0.5, z = 0.5, r = 0.2 } }", false).find("is a 3D shape"),
            std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ flow.box{ x0 = 0.6, y0 = 0, z0 = 0, x1 = 0.2, y1 = 1, z1 = 1 } }")
                .find("flow.box needs x0 < x1"),
            std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ flow.sphere{ x = 0.5, y = 0.5, r = 0.2 } }").find("z"), std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ flow.cylinder{ axis = 'z', x = 0.5, z = 0.5, r = 0.2 } }").find("'z'"),
            std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ flow.cylinder{ axis = 'w', x = 0.5, y = 0.5, r = 0.2 } }").find("axis"),
            std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ function(x, y, z) error('boom') end }").find("function(x, y, z)) failed at"),
            std::string::npos);
  EXPECT_NE(obstacle_error(h, "{ 42 }").find("function(x, y, z)"), std::string::npos);
}

TEST(Lua3d, InitialFieldOfXyz) {
  Host h(quiet_options());
  CaseSpec c = grid_of(h, "{ nx = 4, ny = 3, nz = 2, lx = 4, ly = 3, lz = 2 }");
  const Grid3& g = c.common.grid3;
  std::vector<double> out;
  with_table(h, "return { initial = { w = function(x, y, z) return x + 10 * y + 100 * z end } }", {"initial"},
             [&](const TableReader& t, FnStore&) {
               t.push("initial");
               TableReader init(h.state(), -1, "initial", {"w"});
               read_initial_field3(h.state(), init, "w", g, -0.5, -0.5, 0.0, out);  // w on front faces
             });
  ASSERT_EQ(out.size(), g.size());
  // w(2, 3, 1) at ((2 - 1/2) dx, (3 - 1/2) dy, 1 dz), dx = dy = dz = 1; ghosts too
  EXPECT_DOUBLE_EQ(out[g.at(2, 3, 1)], 1.5 + 10 * 2.5 + 100 * 1.0);
  EXPECT_DOUBLE_EQ(out[g.at(0, 0, 0)], -0.5 - 10 * 0.5);
  std::string err;
  try {
    with_table(h, "return { initial = { w = function(x, y) return 0 / 0 end } }", {"initial"},
               [&](const TableReader& t, FnStore&) {
                 t.push("initial");
                 TableReader init(h.state(), -1, "initial", {"w"});
                 read_initial_field3(h.state(), init, "w", g, -0.5, -0.5, 0.0, out);
               });
  } catch (const CaseError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("must return a finite number"), std::string::npos) << err;
  EXPECT_NE(err.find("z = "), std::string::npos) << err;
}

// A 3D snapshot as Lua sees it.
TEST(Lua3d, FieldMethods) {
  Host h(quiet_options());
  lua_State* L = h.state();
  auto d = std::make_shared<FieldData>();
  d->three_d = true;
  d->snap3.name = "p";
  d->snap3.grid = Grid3::make(4, 4, 4, 1, 1, 1);
  d->snap3.values.resize(64);
  for (int k = 1; k <= 4; ++k)
    for (int j = 1; j <= 4; ++j)
      for (int i = 1; i <= 4; ++i) d->snap3.set(i, j, k, i + 10 * j + 100 * k);
  push_field(L, d);
  lua_setglobal(L, "f");
  const std::string ok = R"lua(
    assert(f:get(2, 3, 4) == 432, "get")
    assert(math.abs(f:sample(0.375, 0.5, 0.5) - (2 + 25 + 250)) < 1e-12, "sample")
    local nx, ny, nz = f:size()
    assert(nx == 4 and ny == 4 and nz == 4 and f.nz == 4, "size")
    local s = f:slice{ z = 0.625 }
    assert(s.nx == 4 and s.ny == 4 and s.nz == 1, "slice size")
    assert(math.abs(s:get(1, 1) - (1 + 10 + 300)) < 1e-12, "slice value")
    assert(math.abs(s:sample(0.125, 0.125) - 311) < 1e-12, "slice sample")
    local line = s:line{ x = 0.125 }
    assert(#line == 4, "line of a slice")
    local x = f:slice{ x = 0.125 }
    assert(math.abs(x:get(2, 3) - (1 + 20 + 300)) < 1e-12, "x slice: (y, z)")
    local file = flow.write_png(s, "slice3d.png")
    assert(file:match("slice3d.png$"), "png of a slice")
    file_opt = flow.write_png(f, "slice3d_opt.png", { slice = { z = 0.625 } })
    file_slice = file
  )lua";
  ASSERT_EQ(luaL_dostring(L, ok.c_str()), LUA_OK) << lua_tostring(L, -1);
  // the slice option draws the same picture as the slice
  auto read_all = [](const char* path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  lua_getglobal(L, "file_slice");
  lua_getglobal(L, "file_opt");
  const std::string a = read_all(lua_tostring(L, -2)), b = read_all(lua_tostring(L, -1));
  lua_settop(L, 0);
  EXPECT_GT(a.size(), 8u);
  EXPECT_EQ(a, b);
  auto error_of = [&](const std::string& code) {
    lua_settop(L, 0);
    if (luaL_dostring(L, code.c_str()) == LUA_OK) return std::string("(no error)");
    std::string m = lua_tostring(L, -1);
    lua_settop(L, 0);
    return m;
  };
  EXPECT_NE(error_of("f:get(1, 2)").find("k"), std::string::npos);
  EXPECT_NE(error_of("f:get(1, 2, 5)").find("k in 1..4"), std::string::npos);
  EXPECT_NE(error_of("f:slice{ z = 2 }").find("outside the domain"), std::string::npos);
  EXPECT_NE(error_of("f:slice{ x = 0.1, z = 0.5 }").find("exactly one of x, y or z"), std::string::npos);
  EXPECT_NE(error_of("f:slice{ w = 0.5 }").find("w"), std::string::npos);
  EXPECT_NE(error_of("f:line{ x = 0.5 }").find("f:slice{ z = 0.5 }:line"), std::string::npos);
  EXPECT_NE(error_of("flow.write_png(f, 'x.png')").find("is 3D; give the plane to draw: slice = { z = 0.5 }"),
            std::string::npos);
  EXPECT_NE(error_of("flow.write_png(f, 'x.png', { slice = { z = 1.5 } })").find("outside the domain"),
            std::string::npos);
  EXPECT_NE(error_of("flow.write_png(f:slice{ z = 0.5 }, 'x.png', { slice = { z = 0.5 } })")
                .find("slice is for the fields of 3D simulations"),
            std::string::npos);
  EXPECT_NE(error_of("flow.png{ field = 'p', slice = { q = 0.5 } }").find("unknown key 'q' in flow.png.slice"),
            std::string::npos);
  EXPECT_NE(error_of("flow.png{ field = 'p', slice = 0.5 }").find("flow.png.slice takes a table"), std::string::npos);
  EXPECT_EQ(error_of("flow.png{ field = 'p', slice = { y = 0.5 } }"), "(no error)");
  // a 2D simulation's field: the slice option of flow.png is refused when it draws
  EXPECT_NE(error_of("local s = flow.simulation{ grid = { nx = 8, ny = 8 }, fluid = { nu = 0.01 }, "
                     "boundaries = { top = flow.wall{ u = 1 }, bottom = flow.wall(), left = flow.wall(), "
                     "right = flow.wall() }, time = { t_end = 0.01 } } "
                     "flow.png{ field = 'p', file = 'x2d.png', slice = { z = 0.5 } }(s)")
                .find("slice is for the fields of 3D simulations"),
            std::string::npos);
  EXPECT_NE(error_of("f:slice{ z = 0.5 }:set(1, 1, 0)").find("read-only"), std::string::npos);
  EXPECT_NE(error_of("f:slice{ z = 0.5 }:slice{ z = 0.5 }").find("already 2D"), std::string::npos);
}

TEST(Lua3d, SixSides) {
  Host h(quiet_options());
  CaseSpec c = grid_of(h, "{ nx = 4, ny = 3, nz = 2, lx = 4, ly = 3, lz = 2 }");
  Boundaries3 b;
  with_table(h,
             "return { boundaries = { left = flow.inflow{ u = function(y, z, t) return y * z end, w = 0.5 },"
             " right = flow.outflow(), bottom = flow.wall(), top = flow.wall{ u = 1, w = 2 },"
             " back = flow.periodic(), front = flow.periodic() } }",
             {"boundaries"}, [&](const TableReader& t, FnStore& store) { read_boundaries3(t, c, store, b); });
  EXPECT_EQ(b[0].kind, BoundaryKind::Dirichlet);
  ASSERT_EQ(b[0].normal.size(), 3u * 2u);                 // ny x nz, y fastest
  EXPECT_DOUBLE_EQ(b[0].normal[1 + 3 * 1], 1.5 * 1.5);   // y = 1.5, z = 1.5
  EXPECT_DOUBLE_EQ(b[0].tangential2[0], 0.5);            // w on the left side
  EXPECT_EQ(b[1].kind, BoundaryKind::Outflow);
  EXPECT_DOUBLE_EQ(b[3].tangential[0], 1.0);             // top: u, then w
  EXPECT_DOUBLE_EQ(b[3].tangential2[0], 2.0);
  EXPECT_EQ(b[4].kind, BoundaryKind::Periodic);
  ASSERT_EQ(c.dynamic.size(), 1u);
  EXPECT_TRUE(c.dynamic[0].three_d);
  EXPECT_NE(c.side_text[3].find("w = 2"), std::string::npos);
  auto error_of = [&](const std::string& sides) {
    try {
      with_table(h, "return { boundaries = " + sides + " }", {"boundaries"},
                 [&](const TableReader& t, FnStore& store) { read_boundaries3(t, c, store, b); });
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string five = "left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall()";
  EXPECT_NE(error_of("{ " + five + ", back = flow.wall() }").find("boundaries.front is missing"), std::string::npos);
  EXPECT_NE(error_of("{ " + five + ", back = flow.periodic(), front = flow.wall() }").find("periodic in z"),
            std::string::npos);
  EXPECT_NE(error_of("{ " + five + ", back = flow.wall{ w = 1 }, front = flow.wall() }").find("velocity through it"),
            std::string::npos);
  EXPECT_NE(error_of("{ " + five + ", back = flow.wall(), front = flow.wall(), up = flow.wall() }").find("up"),
            std::string::npos);
  EXPECT_NE(error_of("{ " + five + ", back = flow.inflow{ w = function(x, y, t) return nil end }, front = "
                     "flow.outflow() }")
                .find("inflow w function(x, y, t) on the back side returned"),
            std::string::npos);
}
