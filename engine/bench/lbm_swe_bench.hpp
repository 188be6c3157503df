// Times the lbm_swe model's fused step (models/lbm_swe/stream_collide.hpp) for the
// harness: a flat-bed basin (variant flat_open) and a bumpy bed with Manning friction
// (bed_open), in the precision asked for and, in float, also with 16-bit storage
// (precision column "fp16"). Stage "lbm_swe_step"; one row per variant.
//
// The solver comes from the model's own factory (make_lbm_swe_solver), as a case's
// does, so the harness times the one instantiation of the step that cases run (in
// models/lbm_swe/lbm_swe_cpu.cpp and lbm_swe_cuda.cu). A copy instantiated here was
// compiled with other inlining in this larger file, and the linker kept one copy of
// each inline function for the whole program: on the CPU the flowlua program then ran
// the harness's copy for cases too, with the equilibrium not inlined (about 1.8x the
// instructions a cell; docs/performance.md). tests/perf/lbm_swe_one_step_copy.sh
// holds the model's template to those two files.
//
// The bytes a step must move per cell: 9 distributions read and 9 written (S bytes
// each: 8 double, 4 float, 2 fp16), plus for the bed the depth and bed read and the
// depth written (3 R, R the arithmetic's size). The depth guard (one read of f every
// 16 steps) falls outside the median of single steps and is not counted.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/measure.hpp"
#include "models/lbm_swe/lbm_swe_config.hpp"
#include "models/lbm_swe/lbm_swe_kernels.hpp"
#include "sim/solver.hpp"

namespace flowlua::bench {

inline LbmSweConfig bench_basin(int n, bool bed, Precision p, bool fp16, BackendChoice backend) {
  LbmSweConfig c;
  c.backend = backend;
  c.grid = Grid::make(n, n, double(n), double(n));
  c.nu = 0.05;
  c.precision = p;
  c.storage = fp16 ? SweStorage::Fp16 : SweStorage::Same;
  c.time.cfl = 0.5;
  const std::size_t cells = std::size_t(n) * n;
  c.h0.assign(cells, 1.0);
  if (bed) {
    c.bed.resize(cells);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) c.bed[i + std::size_t(j) * n] = 0.1 * std::sin(0.05 * i) * std::cos(0.07 * j);
    for (std::size_t k = 0; k < cells; ++k) c.h0[k] = 1.0 - c.bed[k];
    c.friction = SweFriction::Manning;
    c.friction_coefficient = 0.02;
  }
  for (int j = 0; j < n; ++j)  // a gentle wave, so that the arithmetic is not all zeros
    for (int i = 0; i < n; ++i) c.h0[i + std::size_t(j) * n] += 0.01 * std::sin(6.283 * i / n);
  return c;
}

template <class Exec, class Real>
Row bench_lbm_swe_row(int n, bool bed, bool fp16, const Options& opt, int repeats, double copy_gbs) {
  const double store_bytes = fp16 ? 2.0 : double(sizeof(Real));
  const Precision p = std::is_same_v<Real, float> ? Precision::Float : Precision::Double;
  const BackendChoice backend = std::string(Exec::name) == "cuda" ? BackendChoice::Cuda : BackendChoice::Cpu;
  const LbmSweConfig config = bench_basin(n, bed, p, fp16, backend);
  const std::unique_ptr<Solver> s = make_lbm_swe_solver(config);
  for (int k = 0; k < 5; ++k) s->step();
  Exec::synchronize();
  const double cells = double(n) * n;
  const int per_batch = std::max(1, std::min(100, int(4e6 / cells)));
  const Timing t = time_median<Exec>([&] { s->step(); }, opt.warmup, repeats, per_batch);
  Row r;
  r.backend = Exec::name;
  r.precision = fp16 ? "fp16" : (p == Precision::Float ? "float" : "double");
  r.stage = "lbm_swe_step";
  // The variant the solver's plan picked (the same registry and key it uses).
  r.variant = lbm_swe::kernel_registry().plan(lbm_swe::kernel_key(config, bed, false, Exec::name), config.kernels)
                  .variant("stream_collide");
  r.n = n;
  r.median_ms = t.median_ms;
  r.min_ms = t.min_ms;
  r.max_ms = t.max_ms;
  r.repeats = t.repeats;
  r.per_batch = t.per_batch;
  r.cell_updates_per_s = cells / (t.median_ms * 1e-3);
  r.min_bytes = cells * (18.0 * store_bytes + (bed ? 3.0 * sizeof(Real) : 0.0));
  r.gbytes_per_s = r.min_bytes / (t.median_ms * 1e-3) / 1e9;
  r.fraction_of_copy = copy_gbs > 0 ? r.gbytes_per_s / copy_gbs : 0;
  return r;
}

template <class Exec, class Real>
std::vector<Row> bench_lbm_swe(int n, const Options& opt, int repeats, double copy_gbs) {
  std::vector<Row> rows;
  for (bool bed : {false, true}) rows.push_back(bench_lbm_swe_row<Exec, Real>(n, bed, false, opt, repeats, copy_gbs));
  if constexpr (std::is_same_v<Real, float>)
    for (bool bed : {false, true})
      rows.push_back(bench_lbm_swe_row<Exec, float>(n, bed, true, opt, repeats, copy_gbs));
  return rows;
}

}  // namespace flowlua::bench
