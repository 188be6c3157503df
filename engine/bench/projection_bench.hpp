// Times the stages of the projection model on one backend and precision. Each stage
// runs the kernels the plan chose, through ProjectionSolver::run_stage, on a
// lid-driven cavity that has taken a few steps (real data, not zeros).
//
// The bytes a stage must move at least, with A = one field of (nx+2)(ny+2) values:
//   dt          read u, v                              2A
//   momentum    read u, v; write F, G                  4A
//   rhs         read F, G; write rhs                   3A
//   sweep       read p, rhs; write p (both colours)    3A   (timed in pairs, halved:
//               the fused variant ping-pongs between two buffers, and a pair ends
//               where it began, as in a real solve)
//   residual    read p, rhs                            2A
//   correction  read F, G, p; write u, v               5A
//   boundaries  the ghost ring only                    (not counted)
//   step        dt + momentum + rhs + 5 sweeps + one residual + correction = 31A,
//               as the plan runs it (on CUDA: dt and the pressure stop on the device,
//               the step replayed from a CUDA graph; issue 12)
//   step_graph_nopdl  the same with kernels.pdl = "off" (the graph's kernels with
//               ordinary edges: each starts after the one before has ended)
//   step_direct the same with kernels.launch = "direct" (every kernel launched)
//   step_host   the path before issue 12: kernels dt = "host", pressure_stop =
//               "host", launch = "direct" (three host reads a step)
// Flags are not counted: the obstacle-free variants do not read them.
//
// Variants beside the plan's, measured in the same run (issue 12):
// FLOWLUA_BENCH_KERNELS="pressure=rbsor_tile_open,momentum=..." builds one more
// solver with those stages forced and adds its rows for them (pressure: the sweep)
// and its step, each named by the forced variant; FLOWLUA_BENCH_SOR_TILES="8,16,32"
// times its sweep once for each tile height (FLOWLUA_SOR_TILE, rbsor_tile.cuh).
#pragma once
#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "bench/bench.hpp"
#include "bench/measure.hpp"
#include "models/projection/projection_solver.hpp"

namespace flowlua::bench {

// The cavity every row runs: Re 1000, walls, a moving lid; the pressure solve is
// exactly five red-black sweeps and one residual (tol unreachable, max_iter 5), the
// step the performance targets name.
inline ProjectionConfig bench_cavity(int n, Precision precision) {
  ProjectionConfig c;
  c.grid = Grid::make(n, n, 1.0, 1.0);
  c.nu = 1e-3;
  for (Side s : kSides) {
    auto& b = c.boundaries[int(s)];
    b.kind = BoundaryKind::Dirichlet;
    b.label = s == Side::Top ? "moving wall" : "wall";
    b.normal.assign(n, 0.0);
    b.tangential.assign(n, s == Side::Top ? 1.0 : 0.0);
  }
  c.pressure.solver = PressureSolverKind::RedBlackSOR;
  c.pressure.omega = 1.8;
  c.pressure.tol = 1e-300;
  c.pressure.max_iter = 5;
  c.pressure.check_every = 5;
  c.precision = precision;
  return c;
}

// Device-to-device copy bandwidth in GB/s, counting bytes read plus written.
template <class Exec>
double copy_bandwidth(std::size_t bytes, int repeats) {
  const std::size_t n = bytes / sizeof(float);
  DeviceArray<Exec, float> a(n), b(n);
  a.fill(1.0f);
  b.fill(2.0f);
  Timing t = time_median<Exec>([&] { Exec::copy(b.data(), a.data(), n); }, 3, repeats);
  return 2.0 * double(n) * sizeof(float) / (t.median_ms * 1e-3) / 1e9;
}

// "a=b,c=d" -> {a: b, c: d}; entries without '=' are ignored.
inline std::map<std::string, std::string> env_pairs(const char* name) {
  std::map<std::string, std::string> out;
  const char* e = std::getenv(name);
  std::stringstream ss(e ? e : "");
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq != std::string::npos) out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

// The rows of FLOWLUA_BENCH_KERNELS / FLOWLUA_BENCH_SOR_TILES (see the top).
template <class Exec, class Real>
void extra_variant_rows(const ProjectionConfig& c, const Options& opt, int repeats, int per_batch, double copy_gbs,
                        std::vector<Row>& rows) {
  const std::map<std::string, std::string> forced = env_pairs("FLOWLUA_BENCH_KERNELS");
  if (forced.empty()) return;
  ProjectionConfig cv = c;
  std::string all;
  for (const auto& [stage, variant] : forced) {
    cv.kernels[stage] = variant;
    all += (all.empty() ? "" : " ") + stage + "=" + variant;
  }
  projection::ProjectionSolver<Exec, Real> s(cv);  // throws CaseError for a bad name
  for (int k = 0; k < 5; ++k) s.step();
  Exec::synchronize();
  const double cells = double(c.grid.nx) * c.grid.ny, A = double(c.grid.size()) * sizeof(Real);
  auto row = [&](const std::string& stage, const std::string& variant, double arrays, Timing t) {
    Row r;
    r.backend = Exec::name;
    r.precision = std::is_same_v<Real, float> ? "float" : "double";
    r.stage = stage;
    r.variant = variant;
    r.n = c.grid.nx;
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.repeats = t.repeats;
    r.per_batch = t.per_batch;
    r.cell_updates_per_s = cells / (t.median_ms * 1e-3);
    r.min_bytes = arrays * A;
    r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
    r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
    rows.push_back(r);
  };
  auto sweep = [&] {
    Timing t = time_median<Exec>([&] { s.run_stage("sweep_pair"); }, opt.warmup, repeats, per_batch);
    t.median_ms /= 2, t.min_ms /= 2, t.max_ms /= 2;
    return t;
  };
  const struct { const char* plan_stage; const char* stage; double arrays; } timed[] = {
      {"momentum", "momentum", 4}, {"rhs", "rhs", 3}, {"pressure", "sweep", 3}, {"correction", "correction", 5}};
  for (const auto& st : timed) {
    if (!forced.count(st.plan_stage)) continue;
    const std::string v = s.kernel_plan().variant(st.plan_stage);
    if (std::string(st.stage) == "sweep") {
      const char* tiles = std::getenv("FLOWLUA_BENCH_SOR_TILES");
      const char* before = std::getenv("FLOWLUA_SOR_TILE");
      const std::string keep = before ? before : "";
      std::stringstream ss(tiles ? tiles : "");
      std::string h;
      bool any = false;
      while (std::getline(ss, h, ',')) {
        setenv("FLOWLUA_SOR_TILE", h.c_str(), 1);  // read at every tiled launch
        row("sweep", v + " (FLOWLUA_SOR_TILE=" + h + ")", 3, sweep());
        any = true;
      }
      if (before) setenv("FLOWLUA_SOR_TILE", keep.c_str(), 1);
      else unsetenv("FLOWLUA_SOR_TILE");
      if (!any) row("sweep", v, 3, sweep());
    } else {
      row(st.stage, v, st.arrays,
          time_median<Exec>([&] { s.run_stage(st.stage); }, opt.warmup, repeats, per_batch));
    }
  }
  row("step", s.launch_used() + " with " + all, 31,
      time_median<Exec>([&] { s.step(); }, opt.warmup, repeats, per_batch));
}

template <class Exec, class Real>
std::vector<Row> bench_projection(int n, const Options& opt, int repeats, double copy_gbs) {
  ProjectionConfig c = bench_cavity(n, std::is_same_v<Real, float> ? Precision::Float : Precision::Double);
  // FLOWLUA_BENCH_PRESSURE=<variant> forces the pressure sweep (kernels.pressure), to
  // compare variants in the same build (e.g. rbsor_fused_open against the default
  // rbsor_block_open where the grid fits one block).
  if (const char* e = std::getenv("FLOWLUA_BENCH_PRESSURE"); e && *e) c.kernels["pressure"] = e;
  projection::ProjectionSolver<Exec, Real> s(c);
  for (int k = 0; k < 5; ++k) s.step();  // a flow, not zeros
  // The step on the other launch paths, for comparison in the same run.
  ProjectionConfig cd = c, ch = c, cn = c;
  cn.kernels["pdl"] = "off";
  cd.kernels["launch"] = "direct";
  ch.kernels["dt"] = "host";
  ch.kernels["pressure_stop"] = "host";
  ch.kernels["launch"] = "direct";
  projection::ProjectionSolver<Exec, Real> sd(cd), sh(ch), sn(cn);
  for (int k = 0; k < 5; ++k) {
    sn.step();
    sd.step();
    sh.step();
  }
  Exec::synchronize();

  const double cells = double(n) * n, A = double(c.grid.size()) * sizeof(Real);
  // Short stages are timed in batches so one timed repeat is long against the clock.
  const int per_batch = std::max(1, std::min(100, int(4e6 / cells)));
  struct Stage {
    const char* name;
    const char* plan_stage;  // whose variant it runs ("" when several)
    double arrays;           // must-move bytes in units of A (0: not counted)
  };
  const Stage stages[] = {{"dt", "dt", 2},         {"momentum", "momentum", 4}, {"rhs", "rhs", 3},
                          {"sweep", "pressure", 3}, {"residual", "", 2},       {"correction", "correction", 5},
                          {"boundaries", "boundaries", 0}, {"step", "launch", 31}, {"step_graph_nopdl", "pdl", 31},
                          {"step_direct", "launch", 31},
                          {"step_host", "dt", 31}};
  std::vector<Row> rows;
  for (const Stage& st : stages) {
    const std::string name = st.name;
    Timing t;
    if (name == "step") t = time_median<Exec>([&] { s.step(); }, opt.warmup, repeats, per_batch);
    else if (name == "step_graph_nopdl") t = time_median<Exec>([&] { sn.step(); }, opt.warmup, repeats, per_batch);
    else if (name == "step_direct") t = time_median<Exec>([&] { sd.step(); }, opt.warmup, repeats, per_batch);
    else if (name == "step_host") t = time_median<Exec>([&] { sh.step(); }, opt.warmup, repeats, per_batch);
    else if (name == "sweep") {
      t = time_median<Exec>([&] { s.run_stage("sweep_pair"); }, opt.warmup, repeats, per_batch);
      t.median_ms /= 2, t.min_ms /= 2, t.max_ms /= 2;
    } else t = time_median<Exec>([&] { s.run_stage(name); }, opt.warmup, repeats, per_batch);
    Row r;
    r.backend = Exec::name;
    r.precision = std::is_same_v<Real, float> ? "float" : "double";
    r.stage = name;
    const auto& solver = name == "step_direct" ? sd : name == "step_host" ? sh : name == "step_graph_nopdl" ? sn : s;
    r.variant = *st.plan_stage ? solver.kernel_plan().variant(st.plan_stage) : "";
    // What ran: a refused recording shows here.
    if (name == "step") r.variant = s.launch_used();
    if (name == "step_graph_nopdl") r.variant = sn.launch_used();
    r.n = n;
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.repeats = t.repeats;
    r.per_batch = t.per_batch;
    r.cell_updates_per_s = cells / (t.median_ms * 1e-3);
    r.min_bytes = st.arrays * A;
    if (r.min_bytes > 0) {
      r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
      r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
    }
    rows.push_back(r);
  }
  extra_variant_rows<Exec, Real>(c, opt, repeats, per_batch, copy_gbs, rows);
  return rows;
}

}  // namespace flowlua::bench
