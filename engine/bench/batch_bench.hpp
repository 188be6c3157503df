// The harness's rows for flow.batch (--bench-model projection_batch): B cavities of
// n x n (the bench cavity of projection_bench.hpp: five red-black sweeps a step, each
// member its own viscosity) stepped as one batch, against one of them stepped alone.
// B is FLOWLUA_BENCH_MEMBERS (default 256). Rows:
//   batch_step   one step of all B members; cell_updates_per_s = B n^2 / time, so
//                case steps per second = cell_updates_per_s / n^2; bytes 31A per member
//   lone_step    one step of one member alone (the projection model's "step" row)
#pragma once
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "bench/projection_bench.hpp"

namespace flowlua::bench {

inline int bench_batch_members() {
  const char* e = std::getenv("FLOWLUA_BENCH_MEMBERS");
  const int b = e ? std::atoi(e) : 0;
  return b >= 1 && b <= 65535 ? b : 256;
}

template <class Exec, class Real>
std::vector<Row> bench_projection_batch(int n, const Options& opt, int repeats, double copy_gbs) {
  using Solver_ = projection::ProjectionSolver<Exec, Real>;
  const int members = bench_batch_members();
  const Precision prec = std::is_same_v<Real, float> ? Precision::Float : Precision::Double;
  std::vector<std::unique_ptr<Solver_>> s;
  std::vector<Solver*> ptrs;
  for (int k = 0; k < members; ++k) {
    ProjectionConfig c = bench_cavity(n, prec);
    c.nu *= 1 + 0.01 * k;
    s.push_back(std::make_unique<Solver_>(c));
    for (int q = 0; q < 5; ++q) s.back()->step();  // a flow, not zeros
    ptrs.push_back(s.back().get());
  }
  std::unique_ptr<BatchStepper> stepper = s[0]->make_batch_stepper(ptrs, false);
  std::vector<int> all(members);
  std::iota(all.begin(), all.end(), 0);
  std::vector<std::string> failed(members);
  Exec::synchronize();

  const double cells = double(n) * n, A = double(s[0]->config().grid.size()) * sizeof(Real);
  auto row = [&](const char* stage, const Timing& t, double count) {
    Row r;
    r.backend = Exec::name;
    r.precision = std::is_same_v<Real, float> ? "float" : "double";
    r.stage = stage;
    r.variant = std::to_string(int(count)) + (count > 1 ? " members" : " member");
    r.n = n;
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.repeats = t.repeats;
    r.per_batch = t.per_batch;
    r.cell_updates_per_s = count * cells / (t.median_ms * 1e-3);
    r.min_bytes = count * 31 * A;
    r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
    r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
    return r;
  };
  std::vector<Row> rows;
  const int per_batch = std::max(1, std::min(20, int(4e6 / (cells * members))));
  Timing tb = time_median<Exec>([&] { stepper->step(all, failed); }, opt.warmup, repeats, per_batch);
  for (const std::string& f : failed)
    if (!f.empty()) throw BackendError("bench: a batch member failed: " + f);
  stepper->release();
  rows.push_back(row("batch_step", tb, members));
  const int lone_batch = std::max(1, std::min(100, int(4e6 / cells)));
  Timing tl = time_median<Exec>([&] { s[0]->step(); }, opt.warmup, repeats, lone_batch);
  rows.push_back(row("lone_step", tl, 1));
  return rows;
}

}  // namespace flowlua::bench
