// The Lua host: one Lua state per run, the command-line options the case sees
// (--set values, backend/precision overrides, output folder), and the rules that keep
// C++ exceptions and Lua errors apart.
//
// Error discipline (the Lua library is C and raises errors with longjmp):
//  - every lua_CFunction is wrapped by protect<F>: F may throw any C++ exception; the
//    wrapper catches it, pushes the message while still inside the catch block, leaves
//    the block and only then calls lua_error. No C++ frame with live destructors is
//    crossed by the longjmp.
//  - inside F, never call Lua API functions that raise (luaL_check*, lua_call, metamethod
//    driven lua_gettable ...): read arguments with the helpers in lua_table.hpp, read
//    tables raw, and call Lua functions with call_protected(), which turns a Lua error
//    into a LuaError exception.
//  - BlowUp and usage errors keep their identity through Lua: the host remembers their
//    message (note_fatal) and maps the final error back to exit code 3 or 2.
#pragma once
#include <lua.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "io/checkpoint.hpp"

namespace flowlua::lua {

enum ExitCode { kExitOk = 0, kExitCase = 1, kExitUsage = 2, kExitBlowUp = 3, kExitTimeout = 4 };

struct LuaHeap;

// A Lua error message that already carries its location (and maybe a traceback).
struct LuaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A bad command line (unknown --set name, --set value of the wrong type): exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// SIGINT, SIGTERM or the --timeout stopped a run between steps (sim/interrupt.hpp);
// `code` is the exit code (130, 143, 4). The message says where the checkpoint is.
struct InterruptedError : std::runtime_error {
  int code;
  InterruptedError(const std::string& what, int exit_code) : std::runtime_error(what), code(exit_code) {}
};

struct HostOptions {
  std::string case_path;                                   // "" for tests that run strings
  std::vector<std::pair<std::string, std::string>> sets;   // --set name=value, in order
  std::optional<BackendChoice> backend;                    // --backend overrides the case
  std::optional<Precision> precision;                      // --precision overrides the case
  std::string output_dir = "out";                          // --output (or out/<case name>)
  bool quiet = false;
  bool explain = false;
  bool progress = false;      // draw a progress bar (a terminal, not --quiet)
  bool print_errors = true;   // print "flowlua: message" to stderr (tests turn it off)
  // --restart FILE: the checkpoint, read before the case runs (its params are in `sets`).
  std::shared_ptr<const io::Checkpoint> restart;
  std::string restart_path;
  double timeout = 0;                  // --timeout SECONDS (0: none)
  bool checkpoint_on_interrupt = true; // write a checkpoint when a run is interrupted
  // Fuzzing: output paths must stay inside the output folder; cases above this many
  // cells are refused (0: no limit); the Lua heap is capped at this many bytes (0: none).
  bool confine_output = false;
  long long max_cells = 0;
  std::size_t lua_memory_limit = 0;
};

class Host {
 public:
  explicit Host(HostOptions options);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  lua_State* state() const { return L_; }
  const HostOptions& options() const { return options_; }

  // Runs the case file (options().case_path) and returns the exit code.
  int run_file();
  // Runs a chunk of Lua (tests); returns the exit code; the message is in last_error().
  int run_string(const std::string& code, const std::string& chunk_name = "=case");
  const std::string& last_error() const { return last_error_; }

  // ---- --set values and param() ----
  // The text given with --set for `name` (and marks it used), or nullopt.
  std::optional<std::string> take_set(const std::string& name);
  void declare_param(const std::string& name);
  // Throws UsageError naming --set names no param() call has asked for.
  void check_unknown_sets() const;

  // ---- paths ----
  std::string case_dir() const { return case_dir_; }
  std::string case_name() const { return case_name_; }
  // A path for output: relative ones go under the output folder (`sub` first, when
  // given); the parent folders are created.
  std::string output_path(const std::string& path, const std::string& sub = "") const;
  std::string output_dir(bool create) const;
  // A path for input: relative ones are taken from the case file's folder.
  std::string input_path(const std::string& path) const;

  // ---- error identity ----
  void note_fatal(int exit_code, const std::string& message);
  int exit_code_for(const std::string& message) const;
  std::string last_raised;  // the last message protect<> raised (no second traceback)

  int simulations_built = 0;
  bool restart_used = false;  // the --restart checkpoint found its simulation

 private:
  int finish(int status, const char* what);
  int call_loaded_chunk(int load_status);
  void setup_state();
  // Takes <output>/.flowlua.lock once the output folder exists (CaseError when another
  // process holds it).
  void lock_output() const;

  lua_State* L_ = nullptr;
  HostOptions options_;
  std::map<std::string, std::string> sets_;
  std::set<std::string> used_, declared_;
  std::string case_dir_ = ".", case_name_ = "case";
  std::vector<std::pair<int, std::string>> fatal_;  // exit code, message
  std::string last_error_;
  std::unique_ptr<LuaHeap> heap_;
  mutable int lock_fd_ = -1;
};

// The host that owns this Lua state.
Host& host_of(lua_State* L);

// Must be called inside a catch block: pushes the message of the current exception
// (located at the Lua caller for C++ errors) and records BlowUp/usage identity.
void push_exception_message(lua_State* L);

template <int (*F)(lua_State*)>
int protect(lua_State* L) {
  try {
    return F(L);
  } catch (...) {
    push_exception_message(L);
  }
  return lua_error(L);  // outside the catch block: no C++ state is live here
}

// The message handler for lua_pcall: adds a traceback unless protect<> already formed
// the message.
int traceback_handler(lua_State* L);

// Calls the function below the top `nargs` values under lua_pcall; on error pops it and
// throws LuaError(context + message). With `traceback` the message carries one.
void call_protected(lua_State* L, int nargs, int nresults, bool traceback,
                    const std::string& context = "");

// Like call_protected but reports failure instead of throwing: returns false and sets
// *error (the stack then holds no results).
bool call_checked(lua_State* L, int nargs, int nresults, bool traceback, std::string* error);

// "file.lua:12: " of the Lua code that called the running C function ("" if none).
std::string lua_where(lua_State* L, int level = 1);

// A number formatted for messages (%.6g).
std::string fmt(double v);

// Registers the global `flow` module and `param` (implemented across bindings/*.cpp).
void open_flow(lua_State* L);
void open_param(lua_State* L);
void register_boundaries(lua_State* L, int flow_table);
void register_shapes(lua_State* L, int flow_table);
void register_simulation(lua_State* L, int flow_table);
void register_fields(lua_State* L);
void register_output(lua_State* L, int flow_table);
void register_vtk(lua_State* L, int flow_table);

// Registers the metatable `meta` of a userdata class: `index` is called with the
// method table as its first upvalue; __newindex, __tostring and __gc as given; the
// metatable itself is hidden behind `label`.
void register_class(lua_State* L, const char* meta, const luaL_Reg* methods, lua_CFunction index,
                    lua_CFunction newindex, lua_CFunction tostring, lua_CFunction gc, const char* label);

}  // namespace flowlua::lua
