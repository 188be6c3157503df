// The lattice-Boltzmann shallow-water model's reader: fluid, bed, friction, initial
// depth or surface and velocity, boundaries, obstacles and the model's numerics
// (collision, smagorinsky, storage, kernels) of a flow.simulation{ model = "lbm_swe" }
// table into an LbmSweConfig (engine/models/lbm_swe/).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "case_reader.hpp"
#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "lua_heightmap.hpp"
#include "lua_table.hpp"
#include "models/lbm_swe/lbm_swe_config.hpp"
#include "sim/solver.hpp"

namespace flowlua::lua {

namespace {

class LbmSweCase final : public ModelCase {
 public:
  LbmSweConfig config;
  std::string bed_text = "flat (z = 0)";
  bool quiet = false;

  std::unique_ptr<Solver> build(const CaseCommon& common) const override {
    LbmSweConfig c = config;
    static_cast<CaseCommon&>(c) = common;
    auto solver = make_lbm_swe_solver(c);
    if (!quiet && !(c.time.dt > 0)) {  // the issue: say what dt was chosen
      const Diagnostics d = solver->diagnostics();
      std::printf("lbm_swe: dt = %.6g s chosen from time.cfl = %g (lattice speed e = dx/dt = %.6g m/s, tau = %.6g)\n",
                  solver->dt(), c.time.cfl, d.get("lattice_speed"), d.get("tau"));
      std::fflush(stdout);
    }
    return solver;
  }
  std::string summary(const CaseSpec& spec) const override {
    std::ostringstream o;
    o << summary_head(spec);
    o << "  fluid: g = " << fmt(config.gravity) << ", nu = " << fmt(config.nu) << "\n";
    o << "  bed: " << bed_text << "\n";
    for (Side s : kSides) o << "  " << side_name(s) << ": " << spec.side_text[int(s)] << "\n";
    for (const auto& ob : spec.obstacles) o << "  obstacle: " << ob.description << " (" << ob.cells << " cells)\n";
    // The shared time line says "adaptive dt"; here dt is fixed for the run (e = dx / dt).
    std::string t = summary_time(spec);
    const std::string adaptive = " adaptive dt with cfl = ";
    if (auto k = t.find(adaptive); k != std::string::npos)
      t.replace(k, adaptive.size(), " dt fixed for the run, chosen at the start with cfl = ");
    o << t << summary_kernels(spec);
    return o.str();
  }
  std::optional<double> constant(const std::string& name) const override {
    if (name == "nu") return config.nu;
    if (name == "gravity") return config.gravity;
    return std::nullopt;
  }
  std::vector<std::string> constant_names() const override { return {"nu", "gravity"}; }
};

// A field at the cell centres, 0-based i + j nx, from a number or function(x, y).
bool read_cell_field(lua_State* L, const TableReader& t, const char* key, const Grid& g, std::vector<double>& out) {
  std::vector<double> ring;
  read_initial_field(L, t, key, g, -0.5, -0.5, ring);
  if (ring.empty()) return false;
  out.assign(std::size_t(g.nx) * g.ny, 0.0);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) out[i + std::size_t(j) * g.nx] = ring[(i + 1) + std::size_t(j + 1) * (g.nx + 2)];
  return true;
}

void read_fluid(const TableReader& top, LbmSweConfig& c) {
  if (!top.has("fluid")) throw CaseError("fluid is missing: give fluid = { nu = ..., gravity = 9.81 }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("fluid");
  TableReader f(L, -1, "fluid", {"nu", "gravity"});
  auto nu = f.opt_number("nu");
  if (!nu) throw CaseError("fluid.nu is missing: the kinematic viscosity in m^2/s (it fixes the relaxation time)");
  check_positive("fluid.nu", *nu);
  c.nu = *nu;
  c.gravity = f.number("gravity", 9.81);
  check_positive("fluid.gravity", c.gravity);
}

void read_friction(const TableReader& top, LbmSweConfig& c) {
  if (!top.has("friction")) return;
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("friction");
  TableReader f(L, -1, "friction", {"manning", "chezy"});
  if (f.has("manning") && f.has("chezy")) throw CaseError("friction takes manning = n or chezy = C, not both");
  if (auto n = f.opt_number("manning")) {
    check_positive("friction.manning", *n);
    c.friction = SweFriction::Manning;
    c.friction_coefficient = *n;
  } else if (auto C = f.opt_number("chezy")) {
    check_positive("friction.chezy", *C);
    c.friction = SweFriction::Chezy;
    c.friction_coefficient = *C;
  } else {
    throw CaseError("friction needs manning = n (s/m^(1/3)) or chezy = C (m^(1/2)/s)");
  }
}

void read_initial(const TableReader& top, LbmSweConfig& c) {
  if (!top.has("initial")) throw CaseError("initial is missing: give initial = { h = ... } or { eta = ... }");
  lua_State* L = top.state();
  StackGuard guard(L);
  top.push("initial");
  TableReader t(L, -1, "initial", {"h", "eta", "u", "v"});
  const Grid& g = c.grid;
  if (t.has("h") && t.has("eta")) throw CaseError("initial takes h (depth) or eta (surface = h + bed), not both");
  if (read_cell_field(L, t, "h", g, c.h0)) {
  } else if (read_cell_field(L, t, "eta", g, c.h0)) {
    for (std::size_t k = 0; k < c.h0.size(); ++k) c.h0[k] -= c.bed.empty() ? 0.0 : c.bed[k];
  } else {
    throw CaseError("initial needs h (the depth) or eta (the surface elevation h + z)");
  }
  read_cell_field(L, t, "u", g, c.u0);
  read_cell_field(L, t, "v", g, c.v0);
}

SweSideCondition to_swe_side(Side side, const SideCondition& sc) {
  const std::string where = "boundaries." + std::string(side_name(side)) + ": ";
  SweSideCondition s;
  switch (sc.kind) {
    case BoundaryKind::Periodic: s.kind = SweSide::Periodic; return s;
    case BoundaryKind::Slip: s.kind = SweSide::Slip; return s;
    case BoundaryKind::Outflow:
      s.kind = sc.label == "outflow (h)" ? SweSide::OutflowH : SweSide::OutflowFree;
      if (s.kind == SweSide::OutflowH) s.values = sc.normal;
      return s;
    case BoundaryKind::Dirichlet: break;
  }
  if (sc.label == "wall") return s;
  if (sc.label == "inflow (q)") {
    s.kind = SweSide::InflowQ;
    s.values = sc.normal;
    return s;
  }
  if (sc.label == "inflow") {
    for (double t : sc.tangential)
      if (t != 0) throw CaseError(where + "an lbm_swe inflow is normal to the side (the tangential velocity is 0)");
    s.kind = SweSide::InflowU;
    s.values = sc.normal;
    return s;
  }
  throw CaseError(where + "model = 'lbm_swe' has no '" + sc.label +
                  "' condition; it has flow.wall(), flow.slip(), flow.periodic(), flow.inflow{ q = ... } or "
                  "{ u = ... }, flow.outflow{ h = ... } or flow.outflow()");
}

std::shared_ptr<const ModelCase> read_lbm_swe(const TableReader& top, CaseSpec& spec, FnStore& store) {
  auto m = std::make_shared<LbmSweCase>();
  LbmSweConfig& c = m->config;
  c.grid = spec.common.grid;
  lua_State* L = top.state();
  m->quiet = host_of(L).options().quiet;
  read_fluid(top, c);
  if (top.has("bed")) {
    StackGuard guard(L);
    top.push("bed");
    if (auto* hm = test_udata<HeightmapUD>(L, -1, kHeightmapMeta)) {
      const Grid& g = c.grid;
      c.bed.resize(std::size_t(g.nx) * g.ny);
      for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
          c.bed[i + std::size_t(j) * g.nx] = hm->image.sample((i + 0.5) * g.dx, (j + 0.5) * g.dy, g.lx, g.ly);
      m->bed_text = "flow.heightmap('" + hm->image.path + "', " + std::to_string(hm->image.width) + " x " +
                    std::to_string(hm->image.height) + " pixels)";
    } else if (top.type("bed") == LUA_TNUMBER || top.type("bed") == LUA_TFUNCTION) {
      read_cell_field(L, top, "bed", c.grid, c.bed);
      m->bed_text = top.type("bed") == LUA_TNUMBER ? "z = " + fmt(c.bed[0]) : "z = function(x, y)";
    } else {
      throw CaseError("bed must be a number, a function(x, y) or flow.heightmap(\"file.png\", { low, high }) "
                      "(the bed elevation z in m)");
    }
  }
  read_friction(top, c);
  read_initial(top, c);
  SideOptions sides;
  sides.no_T = "model = 'lbm_swe' has no temperature";
  sides.depth_sides = true;
  Boundaries b;
  read_boundaries(top, spec, store, sides, b);
  for (Side s : kSides) c.sides[int(s)] = to_swe_side(s, b[int(s)]);
  std::vector<int> obstacle_id;
  read_obstacles(top, spec, store, c.solid, obstacle_id);
  c.collision = top.choice("collision", "bgk", {"bgk", "trt"}) == "trt" ? SweCollision::Trt : SweCollision::Bgk;
  c.smagorinsky = top.number("smagorinsky", 0);
  if (c.smagorinsky < 0) throw CaseError("smagorinsky must be >= 0 (the constant C_s, about 0.1 to 0.2)");
  c.storage = top.choice("storage", "same", {"same", "fp16"}) == "fp16" ? SweStorage::Fp16 : SweStorage::Same;
  if (top.has("kernels")) {
    StackGuard guard(L);
    top.push("kernels");
    TableReader t(L, -1, "kernels", {"stream_collide", "general"});
    read_forced_kernels(t, {"stream_collide"}, spec);
  }
  return m;
}

const ModelRegistration registration{{"lbm_swe",
                                      {"fluid", "bed", "friction", "initial", "boundaries", "obstacles", "collision",
                                       "smagorinsky", "storage", "kernels"},
                                      read_lbm_swe, false, true}};

}  // namespace
}  // namespace flowlua::lua
