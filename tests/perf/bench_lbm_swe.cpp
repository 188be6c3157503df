// flowlua_bench_lbm_swe: the lbm_swe model's fused step (engine/models/lbm_swe/
// stream_collide.hpp) in million lattice-cell updates per second (MLUPS) and in
// memory bandwidth, for a list of square grids, on one backend.
//
// Two cases per size: "flat" (flat bed, no friction, walls: the flat_open variant,
// 9 distributions read and 9 written a cell) and "bed" (a bumpy bed with Manning
// friction: bed_open, which also reads the depth and the bed and writes the depth).
// Precisions: double, float, and float with 16-bit storage (fp16). The step count
// is a multiple of 16 and timing starts after a step that ends with the depth guard's
// reduction (it copies a scalar back, so the device is idle then): the host clock
// then measures only whole steps, guard included (one read of f every 16 steps, 1/32
// of a step's traffic, counted in the bytes below).
//
//   flowlua_bench_lbm_swe --backend cuda --sizes 256,512,1024,2048,4096,8192 --peak 3000
//   flowlua_bench_lbm_swe --backend cpu --sizes 256,512,1024
//   flowlua_bench_lbm_swe --state rest ...   (uniform depth at rest: tests/gpu/lbm_case_vs_harness.sh)
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/lbm_swe/lbm_swe_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

LbmSweConfig make_case(int n, bool bed, Precision p, bool fp16, BackendChoice backend, bool rest) {
  LbmSweConfig c;
  c.grid = Grid::make(n, n, double(n), double(n));
  c.nu = 0.05;
  c.precision = p;
  c.storage = fp16 ? SweStorage::Fp16 : SweStorage::Same;
  c.backend = backend;
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
  // a gentle wave so that the arithmetic is not all zeros; --state rest leaves it out
  // (a basin at rest, as cases/swe/throughput.lua by default: on the flat bed every
  // velocity stays exactly 0; over the bed, a lake at rest)
  for (int j = 0; j < n && !rest; ++j)
    for (int i = 0; i < n; ++i) c.h0[i + std::size_t(j) * n] += 0.01 * std::sin(6.283 * i / n);
  return c;
}

// Bytes a step moves per cell: 2 x 9 stored values, plus (bed) the depth read and
// written and the bed read, plus the guard's 9 loads every 16 steps.
double bytes_per_cell(bool bed, Precision p, bool fp16) {
  const double store = fp16 ? 2 : (p == Precision::Float ? 4 : 8), real = p == Precision::Float ? 4 : 8;
  return 18 * store + (bed ? 3 * real : 0) + 9 * store / 16;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lbm_swe fused-step benchmark"};
  std::string backend = "cuda", sizes_text = "256,512,1024,2048,4096", csv_path;
  double peak = 3000;  // GB/s the percentage is taken of
  double seconds = 0.5;
  std::string state = "wave";
  app.add_option("--backend", backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--sizes", sizes_text, "grid sizes n (n x n), comma-separated");
  app.add_option("--peak", peak, "bandwidth in GB/s for the % column (the measured copy bandwidth)");
  app.add_option("--seconds", seconds, "timed seconds per row (at least 32 steps)");
  app.add_option("--csv", csv_path, "also write the rows to this CSV file");
  app.add_option("--state", state, "initial state: wave (a gentle wave along x) or rest (uniform depth, at rest)")
      ->check(CLI::IsMember({"wave", "rest"}));
  CLI11_PARSE(app, argc, argv);
  std::vector<int> sizes;
  std::stringstream ss(sizes_text);
  for (std::string tok; std::getline(ss, tok, ',');) sizes.push_back(std::stoi(tok));
  const BackendChoice be = backend == "cuda" ? BackendChoice::Cuda : BackendChoice::Cpu;

  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    csv << "backend,case,storage,n,steps,seconds,mlups,bytes_per_cell,gb_per_s,percent_of_peak\n";
  }
  std::printf("| backend | case | storage | n | steps | MLUPS | bytes/cell | GB/s | %% of %g GB/s |\n", peak);
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  struct Variant { Precision p; bool fp16; const char* name; };
  const Variant variants[] = {{Precision::Double, false, "double"}, {Precision::Float, false, "float"},
                              {Precision::Float, true, "fp16"}};
  for (int n : sizes)
    for (bool bed : {false, true})
      for (const Variant& v : variants) {
        try {
          auto s = make_lbm_swe_solver(make_case(n, bed, v.p, v.fp16, be, state == "rest"));
          for (int k = 0; k < 16; ++k) s->step();  // warm-up, ends with the guard's sync
          // steps for about `seconds`: from a 16-step probe
          auto t0 = std::chrono::steady_clock::now();
          for (int k = 0; k < 16; ++k) s->step();
          double probe = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          long steps = std::max(32L, long(seconds / std::max(probe / 16, 1e-9)) / 16 * 16);
          t0 = std::chrono::steady_clock::now();
          for (long k = 0; k < steps; ++k) s->step();
          const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          const double cells = double(n) * n, mlups = cells * steps / sec / 1e6;
          const double bpc = bytes_per_cell(bed, v.p, v.fp16), gbs = mlups * 1e6 * bpc / 1e9;
          std::printf("| %s | %s | %s | %d | %ld | %.0f | %.1f | %.0f | %.1f |\n", backend.c_str(), bed ? "bed" : "flat",
                      v.name, n, steps, mlups, bpc, gbs, 100 * gbs / peak);
          std::fflush(stdout);
          if (csv) csv << backend << ',' << (bed ? "bed" : "flat") << ',' << v.name << ',' << n << ',' << steps << ','
                       << sec << ',' << mlups << ',' << bpc << ',' << gbs << ',' << 100 * gbs / peak << "\n";
        } catch (const std::exception& e) {
          std::printf("| %s | %s | %s | %d | failed: %s |\n", backend.c_str(), bed ? "bed" : "flat", v.name, n, e.what());
        }
      }
  return 0;
}
