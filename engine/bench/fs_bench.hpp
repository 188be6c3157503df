// Times the stages of the fractional-step model (seed 004) on one backend and
// precision, on a 2D Taylor-Green vortex in the periodic box that has taken a few
// steps, through FractionalStepSolver::run_stage (the kernels the plan chose).
//
// The bytes a stage must move at least, with A = one field of (nx+2)(ny+2) values,
// in 2D (D = 2 components):
//   dt          read u, v                                     2A
//   momentum    read u, v, R^{n-1}(u, v); write u*, v*, R^n(u, v)  8A  (seed 004
//               counts 6 N^3 B in 3D for its momentum kernel: u in, u* out, no history)
//   rhs         read u*, v*; write rhs                        3A
//   pressure    FFT solve: at least read rhs, write p          2A  (the transforms'
//               own passes not counted: this is a floor, not the traffic)
//   correction  read u*, v*, p; write u, v                     5A
//   step        8 + 3 + 2 + 5 (+ 2 when dt is adaptive)        18A with fixed dt
//
// 3D (--bench-model fractional_step_3d; the 3D Taylor-Green vortex in the periodic
// box, seed 004's setting), with A = one field of (n+2)^3 values and 3 components:
//   dt          read u, v, w                                      3A
//   momentum    read u, v, w, R^{n-1}(3); write u*(3), R^n(3)      12A
//   rhs         read u*(3); write rhs                              4A
//   pressure    FFT solve, the floor: read rhs, write p            2A
//   correction  read u*(3), p; write u(3)                          7A
//   step        12 + 4 + 2 + 7                                     25A with fixed dt
// so a float step at 256^3 moves at least 25 * 4 B * 258^3 = 1.72 GB.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/measure.hpp"
#include "models/fractional_step/fs_solver.hpp"

namespace flowlua::bench {

inline FractionalStepConfig bench_taylor_green(int n, Precision precision) {
  const double pi = 3.14159265358979323846;
  FractionalStepConfig c;
  c.grid = Grid::make(n, n, 2 * pi, 2 * pi);
  c.nu = 1e-3;
  for (Side s : kSides) c.boundaries[int(s)].kind = BoundaryKind::Periodic;
  c.time.dt = 0.2 * c.grid.dx;  // fixed: the step the seed times
  c.precision = precision;
  const Grid& g = c.grid;
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) {
      c.u0[g.at(i, j)] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy);
      c.v0[g.at(i, j)] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy);
    }
  return c;
}

template <class Exec, class Real>
std::vector<Row> bench_fractional_step(int n, const Options& opt, int repeats, double copy_gbs) {
  const FractionalStepConfig c =
      bench_taylor_green(n, std::is_same_v<Real, float> ? Precision::Float : Precision::Double);
  fractional_step::FractionalStepSolver<Exec, Real> s(c);
  for (int k = 0; k < 3; ++k) s.step();
  Exec::synchronize();
  const double cells = double(n) * n, A = double(c.grid.size()) * sizeof(Real);
  const int per_batch = std::max(1, std::min(100, int(4e6 / cells)));
  struct Stage {
    const char* name;
    const char* plan_stage;
    double arrays;
  };
  const Stage stages[] = {{"dt", "", 2},         {"momentum", "momentum", 8},     {"rhs", "rhs", 3},
                          {"pressure", "pressure", 2}, {"correction", "correction", 5}, {"step", "", 18}};
  std::vector<Row> rows;
  for (const Stage& st : stages) {
    const std::string name = st.name;
    Timing t = name == "step" ? time_median<Exec>([&] { s.step(); }, opt.warmup, repeats, per_batch)
                              : time_median<Exec>([&] { s.run_stage(name); }, opt.warmup, repeats, per_batch);
    Row r;
    r.backend = Exec::name;
    r.precision = std::is_same_v<Real, float> ? "float" : "double";
    r.stage = name;
    r.variant = *st.plan_stage ? s.kernel_plan().variant(st.plan_stage) : "";
    r.n = n;
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.repeats = t.repeats;
    r.per_batch = t.per_batch;
    r.cell_updates_per_s = cells / (t.median_ms * 1e-3);
    r.min_bytes = st.arrays * A;
    r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
    r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
    rows.push_back(r);
  }
  return rows;
}

inline SideCondition fs_side_of(BoundaryKind kind, const char* label) {
  SideCondition s;
  s.kind = kind;
  s.label = label;
  return s;
}
inline SideCondition fs_periodic_side() { return fs_side_of(BoundaryKind::Periodic, "periodic"); }

inline FractionalStepConfig bench_taylor_green3(int n, Precision precision) {
  const double pi = 3.14159265358979323846;
  FractionalStepConfig c;
  c.dims = 3;
  c.grid3 = Grid3::make(n, n, n, 2 * pi, 2 * pi, 2 * pi);
  c.grid = c.grid3.xy();
  c.nu = 1.0 / 1600;
  for (Side s : kSides3) c.boundaries3[int(s)] = fs_periodic_side();
  c.time.dt = 0.2 * c.grid3.dx;  // fixed, as the 2D harness
  c.precision = precision;
  const Grid3& g = c.grid3;
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        const double cz = std::cos((k - 0.5) * g.dz);
        c.u0[g.at(i, j, k)] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy) * cz;
        c.v0[g.at(i, j, k)] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy) * cz;
      }
  return c;
}

template <class Exec, class Real>
std::vector<Row> bench_fractional_step3(int n, const Options& opt, int repeats, double copy_gbs) {
  FractionalStepConfig c = bench_taylor_green3(n, std::is_same_v<Real, float> ? Precision::Float : Precision::Double);
  auto s = std::make_unique<fractional_step::FractionalStepSolver<Exec, Real, 3>>(c);
  c.u0.clear();  // the host copies are not needed any more (512^3: 2 GB each)
  c.v0.clear();
  for (int k = 0; k < 3; ++k) s->step();
  Exec::synchronize();
  const double cells = double(n) * n * n, A = double(c.grid3.size()) * sizeof(Real);
  const int per_batch = std::max(1, std::min(100, int(4e6 / cells)));
  struct Stage {
    const char* name;
    const char* plan_stage;
    double arrays;
  };
  const Stage stages[] = {{"dt", "", 3},         {"momentum", "momentum", 12},    {"rhs", "rhs", 4},
                          {"pressure", "pressure", 2}, {"correction", "correction", 7}, {"step", "", 25}};
  std::vector<Row> rows;
  for (const Stage& st : stages) {
    const std::string name = st.name;
    Timing t = name == "step" ? time_median<Exec>([&] { s->step(); }, opt.warmup, repeats, per_batch)
                              : time_median<Exec>([&] { s->run_stage(name); }, opt.warmup, repeats, per_batch);
    Row r;
    r.backend = Exec::name;
    r.precision = std::is_same_v<Real, float> ? "float" : "double";
    r.stage = name;
    r.variant = *st.plan_stage ? s->kernel_plan().variant(st.plan_stage) : "";
    r.n = n;
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.repeats = t.repeats;
    r.per_batch = t.per_batch;
    r.cell_updates_per_s = cells / (t.median_ms * 1e-3);
    r.min_bytes = st.arrays * A;
    r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
    r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace flowlua::bench
