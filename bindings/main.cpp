// flowlua CASE.lua [--set name=value]... [--backend auto|cpu|cuda] [--precision float|double]
//                  [--output DIR] [--quiet] [--explain] [--version] [--help]
//
// Exit codes: 0 done, 1 case error (Lua error, bad key or value, I/O failure),
// 2 usage error (bad command line, unknown --set name, missing case file),
// 3 numerical blow-up.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "host.hpp"
#include "param.hpp"
#include "sim/solver.hpp"

namespace fs = std::filesystem;
using flowlua::lua::Host;
using flowlua::lua::HostOptions;

static int usage_error(const std::string& msg) {
  std::fprintf(stderr, "flowlua: %s\nRun 'flowlua --help' for the options.\n", msg.c_str());
  return flowlua::lua::kExitUsage;
}

static int run(int argc, char** argv) {
  CLI::App app{"flowlua: 2D incompressible flow cases written in Lua 5.4", "flowlua"};
  std::string case_path, backend, precision, output;
  std::vector<std::string> sets;
  bool quiet = false, explain = false, version = false;
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
  app.add_flag("--quiet,-q", quiet, "No progress bar and no run summary");
  app.add_flag("--explain", explain,
               "Build each simulation and print its case summary and kernel plan; do not step");
  app.add_flag("--version", version, "Print the version and exit");
  app.footer(
      "Exit codes: 0 done, 1 case error, 2 usage error, 3 numerical blow-up.\n"
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
    std::string why;
    bool cuda = flowlua::cuda_available(&why);
    std::printf("flowlua %s (%s; CUDA %s)\n", FLOWLUA_VERSION, LUA_RELEASE,
                cuda ? "available" : ("not available: " + why).c_str());
    return 0;
  }
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
  opt.quiet = quiet;
  opt.explain = explain;
  opt.progress = !quiet && isatty(fileno(stderr));

  Host host(std::move(opt));
  return host.run_file();
}

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe on stdout is an I/O error, not a crash
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: %s\n", e.what());
  } catch (...) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: unknown internal error\n");
  }
  return flowlua::lua::kExitCase;
}
