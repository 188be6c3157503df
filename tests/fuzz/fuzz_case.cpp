// libFuzzer target for the case reader and the Lua host: each input is run as a case
// script (flow.simulation, boundaries, callbacks, fields, output) on the CPU backend.
// Built with clang when FLOWLUA_FUZZ is on (tests/fuzz/run.sh); without -runs it fuzzes,
// given files it replays them (tests/fuzz/regressions: every crash it ever found).
//
// What the harness bounds, so that a finding is a bug and not a big input: at most
// 4096 cells, 64 MiB of Lua heap, 0.5 s of run time (--timeout: the run loop stops, and
// Lua code still running 2 s later is stopped), output confined to a scratch folder;
// os.execute/exit/remove/rename and io are removed so an input cannot touch the machine.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "host.hpp"
#include "sim/interrupt.hpp"

namespace {

const char* kLockDown = R"lua(
for _, k in ipairs { "execute", "exit", "remove", "rename", "tmpname", "getenv" } do os[k] = nil end
for _, k in ipairs { "open", "popen", "lines", "input", "output", "read", "write", "close", "tmpfile" } do io[k] = nil end
)lua";

std::string scratch_dir() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/flowlua_fuzz_XXXXXX";
    const char* d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flowlua;
  lua::HostOptions o;
  o.output_dir = scratch_dir() + "/out";
  o.case_path = "";
  o.quiet = true;
  o.print_errors = false;
  o.backend = BackendChoice::Cpu;
  o.confine_output = true;
  o.max_cells = 4096;
  o.lua_memory_limit = std::size_t(64) << 20;
  o.timeout = 0.5;
  o.checkpoint_on_interrupt = false;
  {
    lua::Host host(o);
    if (host.run_string(kLockDown, "=lockdown") != 0) std::abort();  // the harness itself is broken
    host.run_string(std::string(reinterpret_cast<const char*>(data), size), "=fuzz");
  }
  interrupt::clear();
  interrupt::set_deadline(0);
  return 0;
}
