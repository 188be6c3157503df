#include "case_reader.hpp"
#include "lua_output.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "parallel/ranks.hpp"
#include "sim/memory_check.hpp"
#include "host.hpp"
#include "lua_table.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

int FnStore::store(int idx) {
  idx = lua_absindex(L, idx);
  lua_pushvalue(L, idx);
  lua_rawseti(L, table, next);
  return next++;
}

void FnStore::push(int slot) const { lua_rawgeti(L, table, slot); }

// ---- the model registry -----------------------------------------------------------

namespace {
std::vector<ModelReader>& registry() {
  static std::vector<ModelReader> readers;  // filled before main() by ModelRegistration
  return readers;
}
}  // namespace

ModelRegistration::ModelRegistration(ModelReader reader) {
  auto& all = registry();
  all.push_back(std::move(reader));
  // Listed by name, so messages do not depend on the link order.
  std::sort(all.begin(), all.end(), [](const ModelReader& a, const ModelReader& b) { return a.name < b.name; });
}

const std::vector<ModelReader>& model_readers() { return registry(); }

// kernels = { <stage> = "<variant>", general = true }: forced kernel variants, checked
// against the model's registry when the simulation is built (the backend decides
// which apply).
void read_forced_kernels(const TableReader& t, std::initializer_list<const char*> stages, CaseSpec& c) {
  for (const char* stage : stages)
    if (t.has(stage)) c.common.kernels[stage] = t.string(stage, "");
  if (!t.has("general")) return;
  if (t.type("general") != LUA_TBOOLEAN)
    throw CaseError("kernels.general must be true or false (true: the general variant of every stage)");
  t.push("general");
  const bool general = lua_toboolean(t.state(), -1);
  lua_pop(t.state(), 1);
  if (general) c.common.kernels["general"] = "true";
}

// decomposition = { px = 2, py = 2 }: how mpirun's ranks split the grid (checked
// against the number of ranks when the model builds its block).
void read_decomposition(const TableReader& top, CaseSpec& c) {
  if (!top.has("decomposition")) return;
  top.push("decomposition");
  TableReader d(top.state(), -1, "decomposition", {"px", "py"});
  auto px = d.opt_integer("px"), py = d.opt_integer("py");
  if (!px || !py)
    throw CaseError("decomposition needs both px and py (blocks across x and y, px * py = the number of MPI ranks)");
  check_int_range("decomposition.px", *px, 1, 65536);
  check_int_range("decomposition.py", *py, 1, 65536);
  lua_pop(top.state(), 1);
  c.common.decomposition_px = int(*px);
  c.common.decomposition_py = int(*py);
}

namespace {

// The keys every model shares; each model adds its own (ModelReader::keys).
const std::vector<std::string> kCommonKeys = {"model",  "grid",       "time",      "precision", "backend",
                                              "output", "checkpoint", "decomposition"};
// Models on the roadmap that no reader provides yet.
const std::vector<std::string> kPlannedModels = {"lbm"};

std::string available_models() {
  std::string s;
  for (const auto& r : model_readers()) s += (s.empty() ? "'" : ", '") + r.name + "'";
  return s;
}

const ModelReader& read_model(lua_State* L, int idx) {
  lua_pushliteral(L, "model");
  lua_rawget(L, idx);
  std::string m = "projection";
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) {
      std::string d = describe_value(L, -1);
      lua_pop(L, 1);
      throw CaseError("flow.simulation.model must be a string (got " + d + ")");
    }
    m = lua_tostring(L, -1);
  }
  lua_pop(L, 1);
  std::vector<std::string> all;
  for (const auto& r : model_readers()) {
    if (r.name == m) return r;
    all.push_back(r.name);
  }
  for (const auto& p : kPlannedModels)
    if (m == p) throw CaseError("model = '" + clip(m) + "' is not yet available; available: " + available_models());
  all.insert(all.end(), kPlannedModels.begin(), kPlannedModels.end());
  std::string best = closest_match(m, all);
  throw CaseError("unknown model '" + clip(m) + "'" + (best.empty() ? "" : "; did you mean '" + best + "'?") +
                  " (available: " + available_models() + ")");
}

// Keys another model reads but this one does not: named as such, not as unknown.
std::map<std::string, std::string> other_models_keys(const ModelReader& model, const std::vector<std::string>& keys) {
  std::map<std::string, std::string> out;
  for (const auto& r : model_readers())
    for (const auto& k : r.keys)
      if (std::find(keys.begin(), keys.end(), k) == keys.end() && !out.count(k))
        out[k] = "does not apply to model = '" + model.name + "' (model = '" + r.name + "' reads it)";
  return out;
}

}  // namespace

void read_grid(const TableReader& top, CaseSpec& c) {
  if (!top.has("grid"))
    throw CaseError("grid is missing: give grid = { nx = ..., ny = ..., lx = ..., ly = ... }");
  top.push("grid");
  TableReader g(top.state(), -1, "grid", {"nx", "ny", "nz", "lx", "ly", "lz"});
  auto nx = g.opt_integer("nx"), ny = g.opt_integer("ny"), nz = g.opt_integer("nz");
  if (!nx) throw CaseError("grid.nx is missing (the number of cells in x, an integer >= 2)");
  if (!ny) throw CaseError("grid.ny is missing (the number of cells in y, an integer >= 2)");
  check_int_range("grid.nx", *nx, 2, kMaxCellsPerSide);
  check_int_range("grid.ny", *ny, 2, kMaxCellsPerSide);
  // nz absent (or 1): a 2D grid; nz >= 2: a 3D one.
  if (nz) check_int_range("grid.nz", *nz, 1, kMaxCellsPerSide);
  const bool three_d = nz && *nz > 1;
  if (!three_d && g.has("lz"))
    throw CaseError("grid.lz is the depth of a 3D grid; give grid.nz (> 1) with it, or leave lz out for 2D");
  const long long cells = *nx * *ny * (three_d ? *nz : 1);
  if (cells > kMaxCells)
    throw CaseError(std::string(three_d ? "grid.nx * grid.ny * grid.nz = " : "grid.nx * grid.ny = ") +
                    std::to_string(cells) + " cells is more than the limit of 2^31");
  double lx = g.number("lx", 1.0);
  check_positive("grid.lx", lx);
  double ly = g.number("ly", lx * double(*ny) / double(*nx));  // square cells by default
  check_positive("grid.ly", ly);
  double lz = three_d ? g.number("lz", lx * double(*nz) / double(*nx)) : 0;  // cubic cells by default
  if (three_d) check_positive("grid.lz", lz);
  lua_pop(top.state(), 1);
  c.common.grid = Grid::make(int(*nx), int(*ny), lx, ly);
  c.common.dims = three_d ? 3 : 2;
  if (three_d) c.common.grid3 = Grid3::make(int(*nx), int(*ny), int(*nz), lx, ly, lz);
}

namespace {

void read_time(const TableReader& top, CaseSpec& c) {
  TimeControl& tc = c.common.time;
  tc.t_end = c.t_end;  // infinite unless given: the run loop stops, not the engine
  if (!top.has("time")) return;  // sim:step(n) needs none; sim:run() checks
  lua_State* L = top.state();
  top.push("time");
  TableReader t(L, -1, "time", {"t_end", "steps", "dt", "cfl", "steady", "steady_interval", "scheme"});
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
  if (auto sv = t.opt_string("scheme")) {
    const std::string& s = *sv;
    if (s == "adi") tc.scheme = TimeScheme::Adi;
    else if (s != "explicit")
      throw CaseError("time.scheme = '" + s + "': expected 'explicit' or 'adi'");
  }
  if (auto v = t.opt_number("steady")) {
    check_positive("time.steady", *v);
    c.steady = *v;
    tc.steady = *v;
  }
  if (auto v = t.opt_number("steady_interval")) {
    if (!t.has("steady")) throw CaseError("time.steady_interval is the interval of the steady test: give time.steady too");
    check_positive("time.steady_interval", *v);
    c.steady_interval = *v;
    tc.steady_interval = *v;
  }
  lua_pop(L, 1);
}

// The command line's --backend and --precision, then whether the grid fits: the run's
// cell limit (fuzzing) and the memory of the backend it will run on.
void check_size(lua_State* L, CaseSpec& c) {
  const HostOptions& o = host_of(L).options();
  if (o.backend) c.common.backend = *o.backend;
  if (o.precision) c.common.precision = *o.precision;
  if (o.max_cells > 0 && c.common.grid.cells() > o.max_cells)
    throw CaseError("the grid has " + std::to_string(c.common.grid.cells()) + " cells, more than this run allows (" +
                    std::to_string(o.max_cells) + ")");
  check_memory(c.common);
}

void read_checkpoint_key(const TableReader& top, CaseSpec& c) {
  if (!top.has("checkpoint")) return;
  lua_State* L = top.state();
  top.push("checkpoint");
  TableReader t(L, -1, "checkpoint", {"every", "every_time", "keep", "file"});
  CheckpointSpec& k = c.checkpoint;
  k.enabled = true;
  if (t.has("every") == t.has("every_time"))
    throw CaseError("checkpoint: give one of every = N (steps) or every_time = T (simulated time)");
  if (auto v = t.opt_integer("every")) {
    check_int_range("checkpoint.every", *v, 1, 1000000000000LL);
    k.every_steps = long(*v);
  }
  if (auto v = t.opt_number("every_time")) {
    check_positive("checkpoint.every_time", *v);
    k.every_time = *v;
  }
  if (auto v = t.opt_integer("keep")) {
    check_int_range("checkpoint.keep", *v, 1, 1000000);
    k.keep = int(*v);
  }
  k.file = t.string("file", k.file);
  format_step_pattern(k.file, 0);  // checks the pattern now
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
    const ModelReader& model = read_model(L, idx);
    std::vector<std::string> keys = kCommonKeys;
    keys.insert(keys.end(), model.keys.begin(), model.keys.end());
    TableReader top(L, idx, "flow.simulation", keys, other_models_keys(model, keys));
    c.model = model.name;
    if (ranks::several() && !model.several_ranks)
      throw CaseError("model = '" + model.name + "' runs on one rank only, and this run has " +
                      std::to_string(ranks::size()) + " (mpirun -np " + std::to_string(ranks::size()) +
                      "); run it without mpirun (models on several ranks: docs/mpi.md)");
    read_grid(top, c);
    read_decomposition(top, c);
    if (c.common.dims == 3 && !model.three_d)
      throw CaseError("model = '" + model.name + "' is 2D, and grid.nz = " + std::to_string(c.common.grid3.nz) +
                      " makes a 3D grid; leave grid.nz and grid.lz out for this model (3D grids are for 3D "
                      "models)");
    std::string prec = top.choice("precision", "double", {"double", "float"});
    c.common.precision = prec == "float" ? Precision::Float : Precision::Double;
    std::string be = top.choice("backend", "auto", {"auto", "cpu", "cuda"});
    c.common.backend = be == "cpu" ? BackendChoice::Cpu : be == "cuda" ? BackendChoice::Cuda : BackendChoice::Auto;
    check_size(L, c);  // before the model's reader fills per-cell initial fields
    c.model_case = model.read(top, c, store);
    read_time(top, c);
    c.output = top.string("output", "");
    read_checkpoint_key(top, c);
  } catch (...) {
    lua_settop(L, top_before);
    throw;
  }
  lua_settop(L, top_before);
  return c;
}

std::string summary_head(const CaseSpec& spec) {
  const Grid& g = spec.common.grid;
  std::ostringstream o;
  o << "case: model " << spec.model << ", " << precision_name(spec.common.precision) << " precision\n";
  if (spec.common.dims == 3) {
    const Grid3& g3 = spec.common.grid3;
    o << "  grid: " << g3.nx << " x " << g3.ny << " x " << g3.nz << " cells on " << fmt(g3.lx) << " x "
      << fmt(g3.ly) << " x " << fmt(g3.lz) << " (dx = " << fmt(g3.dx) << ", dy = " << fmt(g3.dy)
      << ", dz = " << fmt(g3.dz) << ")\n";
    return o.str();
  }
  o << "  grid: " << g.nx << " x " << g.ny << " cells on " << fmt(g.lx) << " x " << fmt(g.ly)
    << " (dx = " << fmt(g.dx) << ", dy = " << fmt(g.dy) << ")\n";
  return o.str();
}

std::string summary_time(const CaseSpec& spec) {
  const TimeControl& tc = spec.common.time;
  std::ostringstream o;
  o << "  time:";
  if (std::isfinite(spec.t_end)) o << " t_end = " << fmt(spec.t_end) << ",";
  if (spec.max_steps >= 0) o << " at most " << spec.max_steps << " steps,";
  if (spec.steady > 0) {
    o << " steady when the velocity changes by less than " << fmt(spec.steady)
      << " of its scale per time unit over ";
    if (spec.steady_interval > 0) o << fmt(spec.steady_interval) << ",";
    else o << "500 steps,";
  }
  if (tc.dt > 0) o << " fixed dt = " << fmt(tc.dt) << "\n";
  else o << " adaptive dt with cfl = " << fmt(tc.cfl) << "\n";
  return o.str();
}

std::string summary_kernels(const CaseSpec& spec) {
  if (spec.common.kernels.empty()) return "";
  std::string s = "  kernels forced:";
  for (const auto& [stage, variant] : spec.common.kernels)
    s += " " + stage + (stage == "general" ? "" : " = " + variant) + ";";
  return s + "\n";
}

}  // namespace flowlua::lua
