// The Lua host's case reading: key checking and suggestions, value ranges, boundary
// conversion, shape rasterisation, param()/--set parsing, file-name patterns.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>

#include "case_reader.hpp"
#include "core/error.hpp"
#include "host.hpp"
#include "lua_boundary.hpp"
#include "lua_output.hpp"
#include "param.hpp"
#include "projection_reader.hpp"
#include "psi_omega_reader.hpp"
#include "shapes.hpp"
#include "sim/run_loop.hpp"
#include "suggest.hpp"

using namespace flowlua;
using namespace flowlua::lua;

namespace {

HostOptions quiet_options() {
  HostOptions o;
  o.print_errors = false;
  o.quiet = true;
  o.output_dir = (std::filesystem::temp_directory_path() / "flowlua_unit_out").string();
  return o;
}

// Runs `code` (which must return a case table) through read_case.
CaseSpec read(Host& h, const std::string& code) {
  lua_State* L = h.state();
  lua_settop(L, 0);
  if (luaL_dostring(L, code.c_str()) != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_settop(L, 0);
    throw std::runtime_error("Lua error in test code: " + msg);
  }
  lua_newtable(L);
  FnStore store{L, lua_gettop(L), 1};
  CaseSpec c = read_case(L, 1, store);
  lua_settop(L, 0);
  return c;
}

std::string error_of(Host& h, const std::string& code) {
  try {
    read(h, code);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kWalls =
    "boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), "
    "top = flow.wall { u = 1 } }";

std::string cavity(const std::string& extra, const std::string& grid = "nx = 8, ny = 8",
                   const std::string& fluid = "nu = 0.1") {
  return "return { grid = { " + grid + " }, fluid = { " + fluid + " }, " + kWalls +
         (extra.empty() ? "" : ", " + extra) + " }";
}

// The projection model's case and config as its reader made them.
const ProjectionCase& PC(const CaseSpec& c) { return dynamic_cast<const ProjectionCase&>(*c.model_case); }
const ProjectionConfig& P(const CaseSpec& c) { return PC(c).config; }

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

// ---- suggestions ------------------------------------------------------------------------

TEST(Suggest, EditDistance) {
  EXPECT_EQ(edit_distance("nu", "nu"), 0);
  EXPECT_EQ(edit_distance("nuu", "nu"), 1);
  EXPECT_EQ(edit_distance("tpo", "top"), 1);  // a transposition counts once
  EXPECT_EQ(edit_distance("", "abc"), 3);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
}

TEST(Suggest, ClosestMatch) {
  std::vector<std::string> sides = {"left", "right", "bottom", "top"};
  EXPECT_EQ(closest_match("tpo", sides), "top");
  EXPECT_EQ(closest_match("Left", sides), "left");
  EXPECT_EQ(closest_match("botom", sides), "bottom");
  EXPECT_EQ(closest_match("zzzzzz", sides), "");
  EXPECT_EQ(closest_match("omgea", {"solver", "omega", "tol"}), "omega");
  EXPECT_EQ(closest_match("nope", {"n", "Re"}), "");  // a one-letter name is no prefix hint
  EXPECT_EQ(suggestion("nuu", {"nu", "rho"}), "; did you mean 'nu'?");
  EXPECT_EQ(suggestion("qqqq", {"nu", "rho"}), "; allowed: nu, rho");
}

// ---- key checking ------------------------------------------------------------------------

TEST(CaseReader, ReadsACavity) {
  Host h(quiet_options());
  CaseSpec c = read(h, cavity("time = { t_end = 2, cfl = 0.4 }, pressure = { omega = 1.5 }"));
  EXPECT_EQ(c.common.grid.nx, 8);
  EXPECT_DOUBLE_EQ(c.common.grid.lx, 1.0);
  EXPECT_DOUBLE_EQ(c.common.grid.ly, 1.0);
  EXPECT_DOUBLE_EQ(P(c).nu, 0.1);
  EXPECT_DOUBLE_EQ(c.t_end, 2.0);
  EXPECT_DOUBLE_EQ(c.common.time.cfl, 0.4);
  EXPECT_DOUBLE_EQ(P(c).pressure.omega, 1.5);
  EXPECT_EQ(P(c).boundaries[int(Side::Top)].label, "moving wall");
  EXPECT_EQ(P(c).boundaries[int(Side::Left)].label, "wall");
  EXPECT_TRUE(c.dynamic.empty());
  EXPECT_TRUE(P(c).solid.empty());
}

TEST(CaseReader, UnknownKeysGetSuggestions) {
  Host h(quiet_options());
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8", "nuu = 0.1")),
                       "unknown key 'nuu' in fluid; did you mean 'nu'?"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8, lyy = 2")),
                       "unknown key 'lyy' in grid; did you mean 'ly'?"));
  // lz is a key of 3D grids now: without nz it is refused as such
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8, lz = 2")), "grid.lz is the depth of a 3D grid"));
  EXPECT_TRUE(contains(error_of(h, cavity("pressure = { omgea = 1.2 }")),
                       "unknown key 'omgea' in pressure; did you mean 'omega'?"));
  EXPECT_TRUE(contains(error_of(h, cavity("tiem = { t_end = 1 }")),
                       "unknown key 'tiem' in flow.simulation; did you mean 'time'?"));
  EXPECT_TRUE(contains(error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, "
                                   "boundaries = { left = flow.wall(), right = flow.wall(), "
                                   "bottom = flow.wall(), tpo = flow.wall() } }"),
                       "unknown key 'tpo' in boundaries; did you mean 'top'?"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8", "nu = 0.1, kappa = 1")),
                       "not yet available"));
  EXPECT_TRUE(contains(error_of(h, cavity("model = 'lbm'")), "not yet available"));
  EXPECT_TRUE(contains(error_of(h, cavity("model = 'projektion'")), "did you mean 'projection'?"));
}

TEST(CaseReader, ValueRanges) {
  Host h(quiet_options());
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 0, ny = 8")),
                       "grid.nx must be an integer between 2 and 65536 (got 0)"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 1.5, ny = 8")),
                       "grid.nx must be an integer (got 1.5)"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = '8', ny = 8")),
                       "grid.nx must be an integer (got string '8')"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 65536, ny = 65536")),
                       "more than the limit of 2^31"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8, lx = -1")), "grid.lx must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8", "nu = 0")), "fluid.nu must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8", "nu = 0/0")),
                       "fluid.nu must be a finite number"));
  EXPECT_TRUE(contains(error_of(h, cavity("pressure = { omega = 2.5 }")),
                       "pressure.omega must be between 0 and 2"));
  EXPECT_TRUE(contains(error_of(h, cavity("pressure = { tol = 0 }")), "pressure.tol must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("pressure = { max_iter = 0 }")), "pressure.max_iter"));
  EXPECT_TRUE(contains(error_of(h, cavity("pressure = { solver = 'sor' }")), "allowed: 'rbsor', 'cg'"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { cfl = 1.5 }")), "time.cfl must be > 0 and <= 1"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { dt = -1 }")), "time.dt must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { t_end = 0 }")), "time.t_end must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { t_end = 1, steady_interval = 1 }")), "give time.steady too"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { t_end = 1, steady = 1e-4, steady_interval = -1 }")),
                       "time.steady_interval must be > 0"));
  EXPECT_TRUE(contains(error_of(h, cavity("time = { dt = 0.1, cfl = 0.5 }")), "give only one"));
  EXPECT_TRUE(contains(error_of(h, cavity("precision = 'half'")), "allowed: 'double', 'float'"));
  EXPECT_TRUE(contains(error_of(h, cavity("backend = 'gpu'")), "allowed: 'auto', 'cpu', 'cuda'"));
  EXPECT_TRUE(contains(error_of(h, cavity("kernels = { advection = 'central', gamma = 0.5 }")),
                       "applies to advection = 'hybrid' only"));
  EXPECT_TRUE(contains(error_of(h, cavity("", "nx = 8, ny = 8", "nu = 1, Re = 100")),
                       "both nu and Re"));
  EXPECT_TRUE(contains(error_of(h, "return 5"), "flow.simulation takes a table"));
}

TEST(CaseReader, Defaults) {
  Host h(quiet_options());
  CaseSpec c = read(h, cavity("", "nx = 32, ny = 16, lx = 2"));
  EXPECT_DOUBLE_EQ(c.common.grid.ly, 1.0);  // square cells unless ly is given
  EXPECT_DOUBLE_EQ(c.common.grid.dx, c.common.grid.dy);
  EXPECT_FALSE(std::isfinite(c.t_end));
  EXPECT_EQ(c.max_steps, -1);
  EXPECT_EQ(P(c).advection.gamma, 0.0);  // central differences
  EXPECT_EQ(PC(c).advection, "central");
  CaseSpec au = read(h, cavity("kernels = { advection = 'hybrid' }"));
  EXPECT_LT(P(au).advection.gamma, 0);  // hybrid with automatic gamma

  CaseSpec re = read(h, cavity("", "nx = 8, ny = 8", "Re = 200, reference_velocity = 2, reference_length = 0.5"));
  EXPECT_DOUBLE_EQ(P(re).nu, 2 * 0.5 / 200);

  CaseSpec dc = read(h, cavity("kernels = { advection = 'donor_cell' }"));
  EXPECT_DOUBLE_EQ(P(dc).advection.gamma, 1.0);
  CaseSpec ce = read(h, cavity("kernels = { advection = 'central' }"));
  EXPECT_DOUBLE_EQ(P(ce).advection.gamma, 0.0);
  CaseSpec hy = read(h, cavity("kernels = { gamma = 0.3 }"));
  EXPECT_DOUBLE_EQ(P(hy).advection.gamma, 0.3);

  CaseSpec g = read(h, cavity("", "nx = 8, ny = 8", "nu = 0.1, gravity = { 0, -9.81 }"));
  EXPECT_DOUBLE_EQ(P(g).gy, -9.81);
  CaseSpec g2 = read(h, cavity("", "nx = 8, ny = 8", "nu = 0.1, gravity = { gx = 1 }"));
  EXPECT_DOUBLE_EQ(P(g2).gx, 1.0);

  CaseSpec st = read(h, cavity("time = { steps = 10, steady = 1e-6 }"));
  EXPECT_EQ(st.max_steps, 10);
  EXPECT_DOUBLE_EQ(st.steady, 1e-6);
  EXPECT_DOUBLE_EQ(st.steady_interval, 0);  // the default: 500 steps
  CaseSpec si = read(h, cavity("time = { t_end = 1, steady = 1e-4, steady_interval = 0.5 }"));
  EXPECT_DOUBLE_EQ(si.steady_interval, 0.5);
  EXPECT_DOUBLE_EQ(si.common.time.steady_interval, 0.5);
}

// ---- boundaries ---------------------------------------------------------------------------

TEST(Boundaries, PhysicalToSide) {
  double n, t;
  physical_to_side(Side::Left, 2, 3, n, t);
  EXPECT_EQ(n, 2); EXPECT_EQ(t, 3);
  physical_to_side(Side::Right, 2, 3, n, t);
  EXPECT_EQ(n, -2); EXPECT_EQ(t, 3);
  physical_to_side(Side::Bottom, 2, 3, n, t);
  EXPECT_EQ(n, 3); EXPECT_EQ(t, 2);
  physical_to_side(Side::Top, 2, 3, n, t);
  EXPECT_EQ(n, -3); EXPECT_EQ(t, 2);
}

TEST(Boundaries, InflowProfilesAndChecks) {
  Host h(quiet_options());
  CaseSpec c = read(h,
      "return { grid = { nx = 8, ny = 4 }, fluid = { nu = 0.1 }, boundaries = {"
      " left = flow.inflow { u = function(y, t) return 4 * y * (1 - y) end, v = 0.5, every = 3 },"
      " right = flow.outflow(), bottom = flow.slip(), top = flow.wall { u = 2 } } }");
  const SideCondition& left = P(c).boundaries[int(Side::Left)];
  ASSERT_EQ(left.normal.size(), 4u);
  double dy = 0.5 / 4;  // ly defaults to lx * ny / nx = 0.5
  for (int k = 1; k <= 4; ++k) {
    double y = (k - 0.5) * dy;
    EXPECT_DOUBLE_EQ(left.normal[k - 1], 4 * y * (1 - y));
    EXPECT_DOUBLE_EQ(left.tangential[k - 1], 0.5);
  }
  EXPECT_EQ(left.kind, BoundaryKind::Dirichlet);
  EXPECT_EQ(left.label, "inflow");
  ASSERT_EQ(c.dynamic.size(), 1u);
  EXPECT_EQ(c.dynamic[0].side, Side::Left);
  EXPECT_EQ(c.dynamic[0].spec.every, 3);
  EXPECT_EQ(P(c).boundaries[int(Side::Right)].kind, BoundaryKind::Outflow);
  EXPECT_EQ(P(c).boundaries[int(Side::Bottom)].kind, BoundaryKind::Slip);
  const SideCondition& top = P(c).boundaries[int(Side::Top)];
  EXPECT_EQ(top.tangential.size(), 8u);
  EXPECT_DOUBLE_EQ(top.tangential[3], 2.0);
  EXPECT_DOUBLE_EQ(top.normal[3], 0.0);

  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.wall { u = 1 }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() } }"),
      "a wall on the left side cannot have a velocity through it (u = 1)"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.inflow { u = function(y) return 'x' end }, right = flow.outflow(),"
                  " bottom = flow.wall(), top = flow.wall() } }"),
      "inflow u function on the left side returned string 'x' at y = 0.0625, t = 0"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.custom(function(side, s, t) error('boom') end), right = flow.outflow(),"
                  " bottom = flow.wall(), top = flow.wall() } }"),
      "flow.custom function on the left side failed at y = 0.0625, t = 0"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.wall(), bottom = flow.wall(), top = flow.wall() } }"),
      "boundaries.right is missing"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.wall, right = flow.wall(), bottom = flow.wall(), top = flow.wall() } }"),
      "with parentheses"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 8 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.wall(), right = flow.wall(), bottom = flow.periodic(), top = flow.wall() } }"),
      "periodic must be on both the bottom and the top side"));
  EXPECT_TRUE(contains(
      error_of(h, "return { grid = { nx = 8, ny = 7 }, fluid = { nu = 1 }, boundaries = {"
                  " left = flow.wall(), right = flow.wall(), bottom = flow.periodic(), top = flow.periodic() } }"),
      "periodic in y needs an even grid.ny"));
}

TEST(Boundaries, CustomCallbackGetsSideAndCoordinate) {
  Host h(quiet_options());
  CaseSpec c = read(h,
      "return { grid = { nx = 4, ny = 4 }, fluid = { nu = 0.1 }, boundaries = {"
      " left = flow.wall(), right = flow.wall(), bottom = flow.wall(),"
      " top = flow.custom { function(side, x, t) assert(side == 'top'); return x, 0 end, every = 2 } } }");
  const SideCondition& top = P(c).boundaries[int(Side::Top)];
  EXPECT_EQ(top.label, "custom");
  for (int k = 1; k <= 4; ++k) EXPECT_DOUBLE_EQ(top.tangential[k - 1], (k - 0.5) * 0.25);
  ASSERT_EQ(c.dynamic.size(), 1u);
  EXPECT_EQ(c.dynamic[0].spec.every, 2);
}

// ---- obstacles and initial values ---------------------------------------------------------

TEST(Shapes, Contains) {
  Shape r = make_rect(0.2, 0.2, 0.4, 0.6);
  EXPECT_TRUE(r.contains(0.3, 0.5, 1, 1));
  EXPECT_FALSE(r.contains(0.5, 0.5, 1, 1));
  Shape c = make_circle(0.5, 0.5, 0.1);
  EXPECT_TRUE(c.contains(0.55, 0.5, 1, 1));
  EXPECT_FALSE(c.contains(0.65, 0.5, 1, 1));
  Shape p = make_polygon({{0, 0}, {1, 0}, {0, 1}});
  EXPECT_TRUE(p.contains(0.2, 0.2, 1, 1));
  EXPECT_FALSE(p.contains(0.8, 0.8, 1, 1));
  EXPECT_THROW(make_rect(0.5, 0, 0.4, 1), CaseError);
  EXPECT_THROW(make_circle(0, 0, 0), CaseError);
  EXPECT_THROW(make_polygon({{0, 0}, {1, 1}}), CaseError);
  EXPECT_THROW(load_mask("/nonexistent/shape.png"), CaseError);
}

TEST(Shapes, RasteriseCellCentres) {
  Grid g = Grid::make(16, 16, 1, 1);
  std::vector<std::uint8_t> solid;
  std::vector<int> id;
  Shape c = make_circle(0.5, 0.5, 0.25);
  long n = rasterise(g, [&](double x, double y) { return c.contains(x, y, 1, 1); }, 0, solid, id);
  EXPECT_NEAR(double(n), M_PI * 0.25 * 0.25 * 256, 8.0);
  // A rect exactly covering cells 5..8 in x (centres 0.28125 .. 0.46875) and 1..2 in y.
  Shape r = make_rect(0.25, 0.0, 0.5, 0.125);
  long m = rasterise(g, [&](double x, double y) { return r.contains(x, y, 1, 1); }, 1, solid, id);
  EXPECT_EQ(m, 8);
  EXPECT_EQ(id[(5 - 1) + (1 - 1) * 16], 1);
  EXPECT_EQ(solid[(5 - 1) + (1 - 1) * 16], 1);
  EXPECT_EQ(id[0], -1);
}

TEST(Shapes, MaskFromImage) {
  // A 4 x 2 PGM: the left half dark (solid), the right half white.
  auto path = std::filesystem::temp_directory_path() / "flowlua_unit_mask.pgm";
  {
    std::ofstream f(path, std::ios::binary);
    f << "P5\n4 2\n255\n";
    const unsigned char px[8] = {0, 0, 255, 255, 0, 0, 255, 255};
    f.write(reinterpret_cast<const char*>(px), 8);
  }
  Shape m = load_mask(path.string());
  EXPECT_TRUE(m.contains(0.1, 0.5, 1, 1));
  EXPECT_FALSE(m.contains(0.9, 0.5, 1, 1));
  EXPECT_TRUE(m.contains(0.2, 1.0, 2, 2) == m.contains(0.1, 0.5, 1, 1));  // stretched
  std::filesystem::remove(path);
}

TEST(CaseReader, ObstaclesAndInitialValues) {
  Host h(quiet_options());
  CaseSpec c = read(h, cavity(
      "obstacles = { flow.rect { x0 = 0.25, y0 = 0.25, x1 = 0.5, y1 = 0.5 },"
      " function(x, y) return x > 0.75 and y > 0.75 end },"
      " initial = { u = function(x, y) return x + 10 * y end, v = 2, p = function(x, y) return x * y end }"));
  ASSERT_EQ(c.obstacles.size(), 2u);
  EXPECT_EQ(c.obstacles[0].cells, 4);
  EXPECT_EQ(c.obstacles[1].cells, 4);
  const Grid& g = c.common.grid;
  EXPECT_EQ(P(c).obstacle_id[(3 - 1) + (3 - 1) * 8], 0);
  EXPECT_EQ(P(c).obstacle_id[(8 - 1) + (8 - 1) * 8], 1);
  ASSERT_EQ(P(c).u0.size(), g.size());
  // u(i, j) at (i dx, (j - 1/2) dy), v at ((i - 1/2) dx, j dy), p at centres.
  EXPECT_DOUBLE_EQ(P(c).u0[g.at(3, 2)], 3 * g.dx + 10 * 1.5 * g.dy);
  EXPECT_DOUBLE_EQ(P(c).u0[g.at(0, 0)], 10 * -0.5 * g.dy);
  EXPECT_DOUBLE_EQ(P(c).v0[g.at(4, 4)], 2.0);
  EXPECT_DOUBLE_EQ(P(c).p0[g.at(2, 3)], 1.5 * g.dx * 2.5 * g.dy);

  EXPECT_TRUE(contains(error_of(h, cavity("obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.01 } }")),
                       "obstacles[1] (circle at (0.5, 0.5) r = 0.01) covers no cell"));
  EXPECT_TRUE(contains(error_of(h, cavity("obstacles = { function() return true end }")),
                       "cover every cell"));
  EXPECT_TRUE(contains(error_of(h, cavity("obstacles = { 'circle' }")), "obstacles[1] must be a shape"));
  EXPECT_TRUE(contains(error_of(h, cavity("obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2 },"
                                         " flow.circle { x = 0.5, y = 0.5, r = 0.4 } }")),
                       "covered entirely by later obstacles"));
  EXPECT_TRUE(contains(error_of(h, cavity("initial = { u = function(x, y) return nil end }")),
                       "initial.u returned nil at x = 0, y = -0.0625"));
  EXPECT_TRUE(contains(error_of(h, cavity("initial = { T = 1 }")), "not yet available"));
}

// ---- param and --set ----------------------------------------------------------------------

TEST(Param, ParseSetArgument) {
  auto p = parse_set_argument("Re=1000");
  EXPECT_EQ(p.first, "Re");
  EXPECT_EQ(p.second, "1000");
  EXPECT_EQ(parse_set_argument("name=a=b").second, "a=b");
  EXPECT_EQ(parse_set_argument("empty=").second, "");
  EXPECT_THROW(parse_set_argument("Re"), UsageError);
  EXPECT_THROW(parse_set_argument("=3"), UsageError);
  EXPECT_THROW(parse_set_argument("1x=3"), UsageError);
}

TEST(Param, Convert) {
  EXPECT_EQ(convert_param("n", "128", ParamType::Integer).integer, 128);
  EXPECT_EQ(convert_param("n", "1e3", ParamType::Integer).integer, 1000);
  EXPECT_EQ(convert_param("n", "2.5", ParamType::Integer).type, ParamType::Number);
  EXPECT_DOUBLE_EQ(convert_param("Re", "1e3", ParamType::Number).number, 1000.0);
  EXPECT_TRUE(convert_param("f", "true", ParamType::Boolean).boolean);
  EXPECT_FALSE(convert_param("f", "0", ParamType::Boolean).boolean);
  EXPECT_EQ(convert_param("s", "abc", ParamType::String).text, "abc");
  EXPECT_EQ(convert_param("a", "12", ParamType::Auto).type, ParamType::Integer);
  EXPECT_EQ(convert_param("a", "0.5", ParamType::Auto).type, ParamType::Number);
  EXPECT_EQ(convert_param("a", "false", ParamType::Auto).type, ParamType::Boolean);
  EXPECT_EQ(convert_param("a", "x", ParamType::Auto).type, ParamType::String);
  EXPECT_THROW(convert_param("n", "abc", ParamType::Number), UsageError);
  EXPECT_THROW(convert_param("n", "", ParamType::Number), UsageError);
  EXPECT_THROW(convert_param("n", "inf", ParamType::Number), UsageError);
  EXPECT_THROW(convert_param("f", "maybe", ParamType::Boolean), UsageError);
  try {
    convert_param("n", "abc", ParamType::Integer, "8");
  } catch (const UsageError& e) {
    EXPECT_TRUE(contains(e.what(), "--set n=abc: 'n' takes a number (its default is 8)"));
  }
}

TEST(Param, FromTheCommandLine) {
  HostOptions o = quiet_options();
  o.sets = {{"n", "16"}, {"Re", "250.5"}, {"flag", "true"}, {"name", "abc"}};
  Host h(o);
  int rc = h.run_string(
      "assert(param('n', 8) == 16 and math.type(param('n', 8)) == 'integer')\n"
      "assert(param('Re', 100) == 250.5)\n"
      "assert(param('flag', false) == true)\n"
      "assert(param('name', 'x') == 'abc')\n"
      "assert(param('other', 3) == 3)\n");
  EXPECT_EQ(rc, kExitOk) << h.last_error();

  HostOptions bad = quiet_options();
  bad.sets = {{"n", "sixteen"}};
  Host hb(bad);
  EXPECT_EQ(hb.run_string("local n = param('n', 8)"), kExitUsage);
  EXPECT_TRUE(contains(hb.last_error(), "'n' takes a number")) << hb.last_error();

  HostOptions unknown = quiet_options();
  unknown.sets = {{"nn", "3"}};
  Host hu(unknown);
  EXPECT_EQ(hu.run_string("local n = param('n', 8)"), kExitUsage);
  EXPECT_TRUE(contains(hu.last_error(), "unknown --set name 'nn'; did you mean 'n'?")) << hu.last_error();
}

// ---- the host as a whole ------------------------------------------------------------------

TEST(Host, ErrorsCarryTheLuaLine) {
  Host h(quiet_options());
  int rc = h.run_string("local x = 1\nlocal sim = flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nuu = 1 } }",
                        "=mycase");
  EXPECT_EQ(rc, kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "mycase:2: unknown key 'nuu' in fluid; did you mean 'nu'?"))
      << h.last_error();
  EXPECT_EQ(h.run_string("local t = {} .. 1", "=mycase"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "mycase:1: attempt to concatenate")) << h.last_error();
  EXPECT_EQ(h.run_string("local t = (", "=mycase"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "mycase:1:")) << h.last_error();
  // Arguments of the wrong type never reach luaL_check* (which would longjmp over C++).
  EXPECT_EQ(h.run_string("flow.rect(5)"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "flow.rect takes a table")) << h.last_error();
  EXPECT_EQ(h.run_string("flow.inflow { }"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "flow.inflow needs u or v")) << h.last_error();
  EXPECT_EQ(h.run_string("flow.png { colormap = 'jet' }"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "unknown colormap 'jet'")) << h.last_error();
}

TEST(Host, BinaryChunksAreRefused) {
  Host h(quiet_options());
  EXPECT_EQ(h.run_string("assert(load(string.dump(function() end), 'x', 'b'))"), kExitCase);
  EXPECT_TRUE(contains(h.last_error(), "binary chunk")) << h.last_error();
  EXPECT_EQ(h.run_string("assert(debug.setmetatable == nil)"), kExitOk) << h.last_error();
}

TEST(Output, StepPattern) {
  EXPECT_EQ(format_step_pattern("cavity_%06d.png", 120), "cavity_000120.png");
  EXPECT_EQ(format_step_pattern("f%d.png", 7), "f7.png");
  EXPECT_EQ(format_step_pattern("f%4d.png", 7), "f   7.png");
  EXPECT_EQ(format_step_pattern("100%%_%d", 3), "100%_3");
  EXPECT_EQ(format_step_pattern("final.png", 3), "final.png");
  EXPECT_THROW(format_step_pattern("f%s.png", 1), CaseError);
  EXPECT_THROW(format_step_pattern("f%n.png", 1), CaseError);
  EXPECT_THROW(format_step_pattern("f%", 1), CaseError);
  EXPECT_THROW(format_step_pattern("f%.3f", 1), CaseError);
}

// ---- the run loop (with a stand-in solver) ------------------------------------------------

namespace {

class FakeSolver : public Solver {
 public:
  explicit FakeSolver(double dt) : dt_(dt) { cfg_.grid = Grid::make(10, 10, 1, 1); }
  void step() override {
    double dt = cap_ > 0 ? std::min(dt_, cap_) : dt_;
    last_dt_ = dt;
    time_ += dt;
    ++steps_;
    if (blow_at_ > 0 && steps_ == blow_at_) throw BlowUp("not finite", steps_, time_, 1, 2);
  }
  long steps() const override { return steps_; }
  double time() const override { return time_; }
  double dt() const override { return last_dt_; }
  void limit_next_dt(double max_dt) override { cap_ = max_dt; }
  // The "velocity" is 1 - 1/(1 + t) unless a test sets another: its change between
  // samples at a and b, per unit time, is 1 / ((1 + a)(1 + b)).
  std::function<double(double)> velocity_ = [](double t) { return 1 - 1 / (1 + t); };
  void steady_sample(SteadySample& out) override {
    out.groups.resize(1);
    out.groups[0].values.assign(1, velocity_(time_));
    out.groups[0].scale = 1;
  }
  const CaseCommon& common() const override { return cfg_; }
  void set_side(Side, const SideCondition&) override { ++sides_set; }
  std::vector<std::string> field_names() const override { return {"u"}; }
  FieldSnapshot field(const std::string&) override { return {}; }
  void set_field(const FieldSnapshot&) override {}
  Diagnostics diagnostics() override {
    Diagnostics d;
    return d;
  }
  Forces forces(int) override { return {}; }
  std::string plan() const override { return "fake"; }
  std::string backend_name() const override { return "fake"; }

  int sides_set = 0;
  long blow_at_ = 0;

 private:
  CaseCommon cfg_;
  double dt_, cap_ = 0, last_dt_ = 0, time_ = 0;
  long steps_ = 0;
};

}  // namespace

TEST(RunLoop, LandsOnTEndAndFiresCallbacks) {
  auto solver = std::make_unique<FakeSolver>(0.3);
  RunLoop loop(std::move(solver));
  StopConditions stop;
  stop.t_end = 1.0;
  loop.set_stop_conditions(stop);
  std::vector<long> every2, finish;
  std::vector<double> every_time;
  int before = 0, refresh = 0;
  loop.every_steps(2, [&] { every2.push_back(loop.solver().steps()); });
  loop.every_time(0.5, [&] { every_time.push_back(loop.solver().time()); });
  loop.on_finish([&] { finish.push_back(loop.solver().steps()); });
  loop.add_before_step([&] { ++before; });
  loop.add_boundary_refresher(2, [&] { ++refresh; });
  RunReport r = loop.run();
  EXPECT_EQ(r.reason, StopReason::TimeEnd);
  EXPECT_EQ(r.steps, 4);                      // 0.3, 0.6, 0.9, then 0.1 to land on 1.0
  EXPECT_DOUBLE_EQ(loop.solver().time(), 1.0);
  EXPECT_EQ(every2, (std::vector<long>{2, 4}));
  ASSERT_EQ(every_time.size(), 2u);           // after crossing 0.5 and at 1.0
  EXPECT_DOUBLE_EQ(every_time[0], 0.6);
  EXPECT_DOUBLE_EQ(every_time[1], 1.0);
  EXPECT_EQ(finish, (std::vector<long>{4}));
  EXPECT_EQ(before, 4);
  EXPECT_EQ(refresh, 2);                      // before steps 0 and 2
  // Already at t_end: run() does nothing more.
  EXPECT_EQ(loop.run().steps, 0);
  // step(n) ignores t_end and is not capped.
  RunReport s = loop.step(2);
  EXPECT_EQ(s.steps, 2);
  EXPECT_EQ(s.reason, StopReason::StepsDone);
  EXPECT_DOUBLE_EQ(loop.solver().time(), 1.6);
}

TEST(RunLoop, StopRequestStepLimitAndSteady) {
  RunLoop a(std::make_unique<FakeSolver>(0.1));
  StopConditions s;
  s.max_steps = 5;
  a.set_stop_conditions(s);
  EXPECT_EQ(a.run().reason, StopReason::MaxSteps);
  EXPECT_EQ(a.solver().steps(), 5);

  RunLoop b(std::make_unique<FakeSolver>(0.1));
  b.every_steps(3, [&] { b.request_stop(); });
  StopConditions inf;
  inf.max_steps = 100;
  b.set_stop_conditions(inf);
  RunReport r = b.run();
  EXPECT_EQ(r.reason, StopReason::Requested);
  EXPECT_EQ(b.solver().steps(), 3);

  // Spans alternate D = 0.5 and 1.618 D = 0.809 (the first step time at or after it):
  // samples at t = 0, 0.5, 1.4, 1.9, 2.8, 3.3 with changes 1/(1 * 1.5) = 0.67,
  // 1/(1.5 * 2.4) = 0.28, 1/(2.4 * 2.9) = 0.144, 1/(2.9 * 3.8) = 0.091, 1/(3.8 * 4.3) =
  // 0.061: the last two are both below 0.1 first at t = 3.3.
  RunLoop c(std::make_unique<FakeSolver>(0.1));
  StopConditions st;
  st.steady = 0.1;
  st.steady_interval = 0.5;
  c.set_stop_conditions(st);
  EXPECT_EQ(c.run().reason, StopReason::Steady);
  EXPECT_NEAR(c.solver().time(), 3.3, 1e-9);
  EXPECT_NEAR(c.steady_monitor().change(), 1 / (2.9 * 3.8), 1e-9);
  // The default interval: 500 times dt (0.1) = 50, from the first step on: samples at
  // 0.1, 50.1, 131.1, 181.1; changes 1/(1.1 * 51.1) = 0.018, 1/(51.1 * 132.1) = 1.5e-4,
  // 1/(132.1 * 182.1) = 4.2e-5.
  RunLoop d(std::make_unique<FakeSolver>(0.1));
  StopConditions sd;
  sd.steady = 1e-3;
  d.set_stop_conditions(sd);
  EXPECT_EQ(d.run().reason, StopReason::Steady);
  EXPECT_NEAR(d.steady_monitor().interval(d.solver()), 50.0, 1e-9);
  EXPECT_NEAR(d.solver().time(), 181.1, 1e-6);
  EXPECT_NEAR(d.steady_monitor().change(), 1 / (51.1 * 132.1), 1e-9);
}

// A periodic "flow" whose period is the steady interval itself compares equal to itself
// over D; the second span (1.618 D) sees it move, so it never counts as steady.
TEST(RunLoop, PeriodicFlowIsNotSteady) {
  auto solver = std::make_unique<FakeSolver>(0.01);
  solver->velocity_ = [](double t) { return std::sin(2 * std::acos(-1.0) * t); };  // period 1
  RunLoop loop(std::move(solver));
  StopConditions st;
  st.t_end = 20;
  st.steady = 1e-3;
  st.steady_interval = 1.0;
  loop.set_stop_conditions(st);
  EXPECT_EQ(loop.run().reason, StopReason::TimeEnd);
  EXPECT_GT(loop.steady_monitor().change(), 0.1);
}

TEST(RunLoop, ErrorsPassThroughAndTheLoopRecovers) {
  auto solver = std::make_unique<FakeSolver>(0.1);
  solver->blow_at_ = 3;
  RunLoop loop(std::move(solver));
  StopConditions s;
  s.max_steps = 10;
  loop.set_stop_conditions(s);
  EXPECT_THROW(loop.run(), BlowUp);
  EXPECT_FALSE(loop.running());
  loop.every_steps(1, [] { throw std::runtime_error("callback failed"); });
  EXPECT_THROW(loop.step(1), std::runtime_error);
  EXPECT_FALSE(loop.running());
  EXPECT_THROW(loop.every_steps(0, [] {}), std::invalid_argument);
  EXPECT_THROW(loop.every_time(-1, [] {}), std::invalid_argument);
  // Running from inside a callback is refused.
  RunLoop re(std::make_unique<FakeSolver>(0.1));
  re.every_steps(1, [&] { re.step(1); });
  EXPECT_THROW(re.step(1), std::logic_error);
}
