// flowlua_bench_solvers: time to tolerance of each pressure solver on one backend and
// precision, for a list of grid sizes, on the problem the issue names: the unit
// square, walls on all sides (dp/dn = 0), no obstacle, a smooth random-looking right-
// hand side (a fixed-seed sum of low cosine modes, mean removed).
//
// Each solve starts from p = 0 (the reset, one write pass, is inside the timing, except
// for fft, which ignores the start); the time is bench::time_median's median after a
// warm-up (CUDA events on the GPU, the steady clock on the CPU). The table gives
// iterations, the relative residual reached, the median time per solve, and the time
// in units of "grid passes": one pass is the time to copy one n^2 array of Real at the
// copy bandwidth given with --bandwidth (GB/s, bytes read plus bytes written, measured
// separately), i.e. 2 n^2 sizeof(Real) / bandwidth.
//
//   flowlua_bench_solvers --backend cuda --precision float --bandwidth 3000 --csv solvers.csv
//   flowlua_bench_solvers --backend cpu --sizes 128,256,512,1024
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "linalg/poisson_run.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

struct SolverChoice {
  std::string name;
  PressureControl control;
  bool baseline = false;  // rbsor, cg: only up to --baseline-max
};

std::vector<SolverChoice> solver_choices(double tol, int n) {
  auto make = [&](std::string name, PressureSolverKind s, PreconditionerKind pre = PreconditionerKind::Multigrid,
                  MultigridCycle cy = MultigridCycle::V, double t = -1) {
    SolverChoice sc;
    sc.name = std::move(name);
    sc.control.solver = s;
    sc.control.preconditioner = pre;
    sc.control.cycle = cy;
    sc.control.tol = t > 0 ? t : tol;
    sc.control.max_iter = 100000;
    // SOR with the optimal omega of the model problem (Young): 2 / (1 + sin(pi / n)).
    sc.control.omega = 2 / (1 + std::sin(3.14159265358979323846 / n));
    sc.control.check_every = 10;
    sc.baseline = s == PressureSolverKind::RedBlackSOR || s == PressureSolverKind::ConjugateGradient ||
                  (s == PressureSolverKind::PreconditionedCG && pre == PreconditionerKind::Jacobi);
    // The baselines need O(n) iterations (about 10 n sweeps, 3.5 n CG iterations to
    // 1e-6 here); 50 n bounds a run that cannot reach the tolerance (float's floor).
    if (sc.baseline) sc.control.max_iter = 50 * n;
    return sc;
  };
  return {make("rbsor", PressureSolverKind::RedBlackSOR),
          make("cg", PressureSolverKind::ConjugateGradient),
          make("pcg-jacobi", PressureSolverKind::PreconditionedCG, PreconditionerKind::Jacobi),
          make("pcg-mg", PressureSolverKind::PreconditionedCG, PreconditionerKind::Multigrid),
          make("pcg-fft", PressureSolverKind::PreconditionedCG, PreconditionerKind::FFT),
          make("mg-v", PressureSolverKind::Multigrid),
          make("mg-f", PressureSolverKind::Multigrid, PreconditionerKind::Multigrid, MultigridCycle::F),
          make("mg-v@1e-8", PressureSolverKind::Multigrid, PreconditionerKind::Multigrid, MultigridCycle::V, 1e-8),
          make("mg-f@1e-8", PressureSolverKind::Multigrid, PreconditionerKind::Multigrid, MultigridCycle::F, 1e-8),
          make("fft", PressureSolverKind::FFT)};
}

PoissonProblem walls_problem(int n) {
  Grid g = Grid::make(n, n, 1.0, 1.0);
  Boundaries b;  // all Dirichlet-velocity walls: Neumann for p
  FlagReport fl = build_flags(g, b, {});
  return PoissonProblem{g, Neighbours{n, n, false, false}, fl.flags};
}

std::vector<double> smooth_rhs(const Grid& g) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(-1, 1);
  const double pi = 3.14159265358979323846;
  struct Mode { int a, b; double c; };
  std::vector<Mode> modes;
  for (int a = 0; a <= 6; ++a)
    for (int b = 0; b <= 6; ++b) modes.push_back({a, b, u(rng) / (1 + a * a + b * b)});
  std::vector<double> f(g.size(), 0.0);
  double mean = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      double s = 0;
      for (const Mode& m : modes) s += m.c * std::cos(m.a * pi * g.xc(i)) * std::cos(m.b * pi * g.yc(j));
      f[g.at(i, j)] = s;
      mean += s;
    }
  mean /= double(g.cells());
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) f[g.at(i, j)] -= mean;
  return f;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"time each flowlua pressure solver to tolerance"};
  std::string backend = "cpu", precision = "double", sizes_arg, solvers_arg, csv = "bench_solvers.csv";
  double tol = 1e-6, bandwidth = 0;
  int repeats = -1, warmup = 1, baseline_max = -1;
  app.add_option("--backend", backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--precision", precision, "float or double")->check(CLI::IsMember({"float", "double"}));
  app.add_option("--sizes", sizes_arg, "comma-separated n (grid n x n); default 128..4096 on cuda, 128..1024 on cpu");
  app.add_option("--solvers", solvers_arg,
                 "comma-separated subset of rbsor,cg,pcg-jacobi,pcg-mg,pcg-fft,mg-v,mg-f,mg-v@1e-8,mg-f@1e-8,fft");
  app.add_option("--tol", tol, "relative residual to reach (the @1e-8 rows use 1e-8)");
  app.add_option("--bandwidth", bandwidth, "copy bandwidth in GB/s (read + write) for the grid-pass column");
  app.add_option("--repeats", repeats, "timed solves per entry (default: about 2 s worth, 3..20)");
  app.add_option("--warmup", warmup, "untimed solves before timing");
  app.add_option("--baseline-max", baseline_max, "largest n for rbsor, cg and pcg-jacobi (default 1024 on cuda, 512 on cpu)");
  app.add_option("--csv", csv, "CSV output file");
  CLI11_PARSE(app, argc, argv);

  const bool cuda = backend == "cuda";
  if (cuda && !cuda_available()) {
    std::fprintf(stderr, "flowlua_bench_solvers: no CUDA device\n");
    return 77;
  }
  std::vector<int> sizes;
  for (const auto& s : split(sizes_arg)) sizes.push_back(std::stoi(s));
  if (sizes.empty()) sizes = cuda ? std::vector<int>{128, 256, 512, 1024, 2048, 4096} : std::vector<int>{128, 256, 512, 1024};
  if (baseline_max < 0) baseline_max = cuda ? 1024 : 512;
  const std::vector<std::string> wanted = split(solvers_arg);
  const Precision prec = precision == "float" ? Precision::Float : Precision::Double;
  const double real_bytes = prec == Precision::Float ? 4 : 8;

  std::ofstream out(csv);
  out << "backend,precision,n,solver,tol,iterations,residual,converged,median_ms,min_ms,max_ms,repeats,setup_ms,"
         "grid_passes,bandwidth_gbs,description\n";
  std::printf("backend %s, precision %s, walls on all sides, no obstacle, smooth rhs; tol %g%s\n", backend.c_str(),
              precision.c_str(), tol, bandwidth > 0 ? "" : " (no --bandwidth: no grid-pass column)");
  std::printf("%6s  %-10s %7s %10s %5s %11s %11s %10s %9s\n", "n", "solver", "iters", "residual", "conv", "median ms",
              "setup ms", "passes", "repeats");
  for (int n : sizes) {
    PoissonProblem pr = walls_problem(n);
    std::vector<double> rhs = smooth_rhs(pr.grid);
    const double pass_ms = bandwidth > 0 ? 2.0 * double(n) * n * real_bytes / (bandwidth * 1e9) * 1e3 : 0;
    for (const SolverChoice& sc : solver_choices(tol, n)) {
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), sc.name) == wanted.end()) continue;
      if (sc.baseline && n > baseline_max) continue;
      PoissonRun r = run_poisson(cuda ? BackendChoice::Cuda : BackendChoice::Cpu, prec, sc.control, pr, rhs, warmup,
                                 repeats);
      const double passes = pass_ms > 0 ? r.timing.median_ms / pass_ms : 0;
      std::printf("%6d  %-10s %7d %10.2e %5s %11.3f %11.1f %10s %9d\n", n, sc.name.c_str(), r.report.iterations,
                  r.report.residual, r.report.converged ? "yes" : "NO", r.timing.median_ms, r.setup_ms,
                  pass_ms > 0 ? std::to_string(int(std::lround(passes))).c_str() : "-", r.timing.repeats);
      std::fflush(stdout);
      out << backend << "," << precision << "," << n << "," << sc.name << "," << sc.control.tol << ","
          << r.report.iterations << "," << r.report.residual << "," << (r.report.converged ? 1 : 0) << ","
          << r.timing.median_ms << "," << r.timing.min_ms << "," << r.timing.max_ms << "," << r.timing.repeats << ","
          << r.setup_ms << "," << passes << "," << bandwidth << ",\"" << r.solver << "\"\n";
    }
  }
  std::printf("CSV written to %s\n", csv.c_str());
  return 0;
}
