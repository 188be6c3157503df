// flowlua CASE.lua [--set name=value]... [--backend auto|cpu|cuda] [--precision float|double]
//                  [--output DIR] [--restart FILE] [--timeout SECONDS] [--quiet] [--explain]
//                  [--version] [--help]
// flowlua --bench [--backend ...] [--precision ...] [--bench-sizes N,N] [--bench-repeats N]
//
// Exit codes: 0 done, 1 case error (Lua error, bad key or value, I/O failure),
// 2 usage error (bad command line, unknown --set name, missing case file),
// 3 numerical blow-up, 4 --timeout reached, 130/143 stopped by SIGINT/SIGTERM (a
// checkpoint of the state between two steps is written first).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "build_info.hpp"
#include "host.hpp"
#include "lua_checkpoint.hpp"
#include "io/files.hpp"
#include "parallel/ranks.hpp"
#include "param.hpp"
#include "sim/interrupt.hpp"
#include "sim/solver.hpp"

namespace fs = std::filesystem;
using flowlua::lua::Host;
using flowlua::lua::HostOptions;

static int usage_error(const std::string& msg) {
  std::fprintf(stderr, "flowlua: %s\nRun 'flowlua --help' for the options.\n", msg.c_str());
  return flowlua::lua::kExitUsage;
}

// flowlua --bench: the benchmark harness (engine/bench/bench.hpp); the table goes
// to stdout, bench.csv and bench.json to the output folder.
static int run_bench(const std::string& backend, const std::string& precision, const std::vector<int>& sizes,
                     int repeats, const std::string& output, bool quiet, const std::string& model) {
  flowlua::bench::Options o;
  o.model = model;
  if (backend == "cpu") o.backend = flowlua::BackendChoice::Cpu;
  else if (backend == "cuda") o.backend = flowlua::BackendChoice::Cuda;
  if (precision == "float") o.precisions = {flowlua::Precision::Float};
  else if (precision == "double") o.precisions = {flowlua::Precision::Double};
  o.sizes = sizes;
  o.repeats = repeats;
  const std::string dir = output.empty() ? "out/bench" : output;
  flowlua::bench::Report r = flowlua::bench::run(o, quiet ? nullptr : stderr);
  std::string table = flowlua::bench::table(r);
  std::fputs(table.c_str(), stdout);
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"bench.csv", flowlua::bench::csv(r)},
                                   {"bench.json", flowlua::bench::json(r)}, {"bench.md", table}}) {
    const std::string path = (fs::path(dir) / name).string();
    flowlua::io::make_parent_dirs(path);
    flowlua::io::write_file_atomic(path, text);
  }
  if (!quiet) std::fprintf(stderr, "bench: wrote %s/bench.csv, bench.json and bench.md\n", dir.c_str());
  return 0;
}

// "256,1024" -> {256, 1024}; each an integer from 16 to 16384.
static std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    std::size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || n < 16 || n > 16384)
      throw std::invalid_argument("--bench-sizes: '" + item + "' is not a grid size (an integer from 16 to 16384)");
    sizes.push_back(n);
    start = end + 1;
  }
  return sizes;
}

static int run(int argc, char** argv) {
  CLI::App app{"flowlua: 2D incompressible flow cases written in Lua 5.4", "flowlua"};
  std::string case_path, backend, precision, output, restart;
  double timeout = 0;
  std::vector<std::string> sets;
  bool quiet = false, explain = false, version = false, bench = false;
  std::string bench_sizes_text;
  int bench_repeats = 0;
  std::string bench_model = "projection";
  app.add_option("case", case_path, "The case script, e.g. cases/cavity.lua")->type_name("CASE.lua");
  app.add_option("--set", sets,
                 "Override a param(name, default) of the case: --set Re=1000 (repeatable)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--backend", backend, "auto (CUDA when a device answers), cpu or cuda; overrides the case")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app.add_option("--precision", precision, "float or double; overrides the case")
      ->check(CLI::IsMember({"float", "double"}));
  app.add_option("--output", output, "Output folder (default out/<case name>/)")->type_name("DIR");
  app.add_option("--restart", restart, "Continue from a checkpoint (sim:checkpoint, the checkpoint key, or "
                 "the one written on SIGINT/SIGTERM); the case must be the one that wrote it")->type_name("FILE");
  app.add_option("--timeout", timeout, "Stop after this much wall time: a checkpoint between steps, exit 4; "
                 "Lua code still running 2 s later is stopped")->type_name("SECONDS")->check(CLI::PositiveNumber);
  app.add_flag("--quiet,-q", quiet, "No progress bar and no run summary");
  app.add_flag("--explain", explain,
               "Build each simulation and print its case summary and kernel plan; do not step");
  app.add_flag("--bench", bench,
               "Run the benchmark harness instead of a case: copy bandwidth, then each stage of a projection "
               "step and the whole step, per grid size and precision (docs/performance.md)");
  // One string, split here: a vector option would also swallow a case file after it.
  app.add_option("--bench-sizes", bench_sizes_text, "Grid sizes n (n x n) for --bench, e.g. --bench-sizes 256,1024")
      ->type_name("N,N,...");
  app.add_option("--bench-repeats", bench_repeats, "Timed repeats per row for --bench (median reported)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--bench-model", bench_model, "Whose step --bench times: projection (default; with the lbm_swe step), fractional_step, fractional_step_3d (n^3 cells), or projection_batch (flow.batch: FLOWLUA_BENCH_MEMBERS cavities, default 256, stepped as one batch)")
      ->check(CLI::IsMember({"projection", "fractional_step", "fractional_step_3d", "projection_batch"}));
  app.add_flag("--version", version, "Print the version, the build (CUDA, precisions) and library versions; exit");
  app.footer(
      "Exit codes: 0 done, 1 case error, 2 usage error, 3 numerical blow-up, 4 --timeout,\n"
      "130/143 SIGINT/SIGTERM (after writing a checkpoint).\n"
      "The case language is described in docs/case-language.md.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  if (version) {
    std::fputs(flowlua::lua::build_info().c_str(), stdout);
    return 0;
  }
  std::vector<int> bench_sizes;
  try {
    bench_sizes = parse_sizes(bench_sizes_text);
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }
  if (bench) {
    if (!case_path.empty()) return usage_error("--bench runs the harness, not a case: give no case file");
    return run_bench(backend, precision, bench_sizes, bench_repeats, output, quiet, bench_model);
  }
  if (!bench_sizes.empty() || bench_repeats) return usage_error("--bench-sizes and --bench-repeats go with --bench");
  if (bench_model != "projection") return usage_error("--bench-model goes with --bench");
  if (case_path.empty()) return usage_error("no case file given: flowlua CASE.lua [options]");
  std::error_code ec;
  if (!fs::is_regular_file(case_path, ec)) {
    if (!fs::exists(case_path, ec))
      return usage_error("cannot open the case file '" + case_path + "': no such file");
    return usage_error("the case file '" + case_path + "' is not a regular file");
  }

  HostOptions opt;
  opt.case_path = case_path;
  try {
    for (const auto& s : sets) opt.sets.push_back(flowlua::lua::parse_set_argument(s));
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }
  if (backend == "cpu") opt.backend = flowlua::BackendChoice::Cpu;
  else if (backend == "cuda") opt.backend = flowlua::BackendChoice::Cuda;
  else if (backend == "auto") opt.backend = flowlua::BackendChoice::Auto;
  if (precision == "float") opt.precision = flowlua::Precision::Float;
  else if (precision == "double") opt.precision = flowlua::Precision::Double;
  opt.output_dir = !output.empty() ? output : (fs::path("out") / fs::path(case_path).stem()).string();
  // On several MPI ranks the root speaks for all (docs/mpi.md): the others print
  // nothing but their errors.
  opt.quiet = quiet || !flowlua::ranks::root();
  opt.explain = explain;
  opt.progress = !opt.quiet && isatty(fileno(stderr));
  opt.timeout = timeout;
  if (!restart.empty()) {
    try {
      flowlua::lua::load_restart(opt, restart);
    } catch (const std::exception& e) {
      return usage_error(std::string("--restart: ") + e.what());
    }
  }

  flowlua::interrupt::install_handlers();
  Host host(std::move(opt));
  int rc = host.run_file();
  if (int code = flowlua::interrupt::pending(); code && rc == 0) {  // arrived outside a run
    std::fprintf(stderr, "flowlua: stopped by %s\n", flowlua::interrupt::what());
    rc = code;
  }
  return rc;
}

// Under mpirun: every rank runs the case on its block of the grid, with the GPU of
// its local rank; a rank that fails stops all the others (never a hang in a
// collective operation), with its message and exit code.
static int run_on_ranks(int argc, char** argv) {
  namespace ranks = flowlua::ranks;
  try {
    ranks::init(&argc, &argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flowlua: %s\n", e.what());
    return flowlua::lua::kExitCase;
  }
  if (ranks::several()) {
    flowlua::use_cuda_device(ranks::local_rank());
    if (!ranks::root() && !std::freopen("/dev/null", "w", stdout)) return flowlua::lua::kExitCase;
  }
  int rc = flowlua::lua::kExitCase;
  try {
    rc = run(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: %s\n", e.what());
  } catch (...) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: unknown internal error\n");
  }
  if (rc != 0 && ranks::several()) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: rank %d of %d stops all ranks (exit code %d)\n", ranks::rank(), ranks::size(), rc);
    std::fflush(stderr);
    ranks::abort_all(rc);
  }
  ranks::finalize();
  return rc;
}

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe on stdout is an I/O error, not a crash
  std::signal(SIGXFSZ, SIG_IGN);  // over RLIMIT_FSIZE a write fails (EFBIG) and says so
  return run_on_ranks(argc, argv);
}
