#include "host.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <system_error>

#include "core/error.hpp"
#include "install_paths.hpp"
#include "io/files.hpp"
#include "parallel/ranks.hpp"
#include "sim/interrupt.hpp"
#include "suggest.hpp"

namespace fs = std::filesystem;

namespace flowlua::lua {

static const char kHostKey = 0;  // its address keys the Host pointer in the registry

Host& host_of(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kHostKey);
  void* p = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return *static_cast<Host*>(p);
}

static Host* host_ptr(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kHostKey);
  void* p = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return static_cast<Host*>(p);
}

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string lua_where(lua_State* L, int level) {
  lua_Debug ar;
  if (lua_getstack(L, level, &ar)) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) return std::string(ar.short_src) + ":" + std::to_string(ar.currentline) + ": ";
  }
  return "";
}

static std::string blowup_text(const BlowUp& e) {
  std::string what = e.what();
  std::string msg = "numerical blow-up at step " + std::to_string(e.step) + " (t = " + fmt(e.time) +
                    ") in cell (i, j) = (" + std::to_string(e.i) + ", " + std::to_string(e.j) +
                    "): " + what;
  if (what.find("try") == std::string::npos && what.find("Try") == std::string::npos)
    msg += "; try a smaller time step (a smaller time.cfl, or a smaller fixed time.dt), a finer "
           "grid, or more upwinding (kernels = { advection = \"donor_cell\" })";
  return msg;
}

void push_exception_message(lua_State* L) {
  Host* h = host_ptr(L);
  std::string msg;
  try {
    throw;
  } catch (const LuaError& e) {
    msg = e.what();
  } catch (const UsageError& e) {
    msg = lua_where(L) + e.what();
    if (h) h->note_fatal(kExitUsage, msg);
  } catch (const InterruptedError& e) {
    msg = e.what();
    if (h) h->note_fatal(e.code, msg);
  } catch (const BlowUp& e) {
    msg = lua_where(L) + blowup_text(e);
    if (h) h->note_fatal(kExitBlowUp, msg);
  } catch (const CaseError& e) {
    msg = lua_where(L) + e.what();
  } catch (const BackendError& e) {
    msg = lua_where(L) + e.what();
  } catch (const std::bad_alloc&) {
    msg = lua_where(L) + "out of memory";
  } catch (const std::exception& e) {
    msg = lua_where(L) + e.what();
  } catch (...) {
    msg = lua_where(L) + "unknown internal error";
  }
  if (h) h->last_raised = msg;
  lua_pushlstring(L, msg.data(), msg.size());
}

int traceback_handler(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (!msg) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  Host* h = host_ptr(L);
  if (h && h->last_raised == msg) {  // formed by protect<>: it already says where
    lua_pushstring(L, msg);
    return 1;
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

static std::string error_text(lua_State* L, int idx) {
  if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) {
    std::size_t n = 0;
    const char* s = lua_tolstring(L, idx, &n);
    return std::string(s, n);
  }
  return std::string("(error object is a ") + luaL_typename(L, idx) + " value)";
}

bool call_checked(lua_State* L, int nargs, int nresults, bool traceback, std::string* error) {
  int base = lua_gettop(L) - nargs;  // the function
  if (traceback) {
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
  }
  int st = lua_pcall(L, nargs, nresults, traceback ? base : 0);
  if (traceback) lua_remove(L, base);
  if (st == LUA_OK) return true;
  if (error) *error = error_text(L, -1);
  lua_pop(L, 1);
  return false;
}

void call_protected(lua_State* L, int nargs, int nresults, bool traceback,
                    const std::string& context) {
  std::string msg;
  if (!call_checked(L, nargs, nresults, traceback, &msg)) throw LuaError(context + msg);
}

// ---------------------------------------------------------------------------------------

// Binary chunks are not verified by Lua and can crash it: only text is loaded, by the
// case file, load/loadfile/dofile and require. The debug library can give any userdata
// any metatable, so only its harmless parts stay.
static const char* kSandbox = R"lua(
local load, loadfile, select, error, format = load, loadfile, select, error, string.format
_G.load = function(chunk, name, mode, ...)
  if select('#', ...) > 0 then return load(chunk, name, "t", ...) end
  return load(chunk, name, "t")
end
_G.loadfile = function(file, mode, ...)
  if select('#', ...) > 0 then return loadfile(file, "t", ...) end
  return loadfile(file, "t")
end
_G.dofile = function(file)
  local f, err = loadfile(file, "t")
  if not f then error(err, 2) end
  return f()
end
package.searchers[2] = function(name)
  local file, err = package.searchpath(name, package.path)
  if not file then return err end
  local f, lerr = loadfile(file, "t")
  if not f then
    error(format("error loading module '%s' from file '%s':\n\t%s", name, file, lerr), 0)
  end
  return f, file
end
local dbg = debug
_G.debug = { traceback = dbg.traceback, getinfo = dbg.getinfo }
package.loaded.debug = _G.debug
)lua";

static int l_setup(lua_State* L) {
  luaL_openlibs(L);
  // package.path: the case file's folder, then the scripts shipped with flowlua. The
  // C++ strings live only inside this block: a Lua error below must not skip them.
  lua_getglobal(L, "package");
  {
    std::string dir = host_of(L).case_dir();
    const std::string scripts = scripts_dir();
    std::string path = dir + "/?.lua;" + dir + "/?/init.lua;" + scripts + "/?.lua;" + scripts + "/?/init.lua;";
    lua_getfield(L, -1, "path");
    if (const char* old = lua_tostring(L, -1)) path += old;
    lua_pop(L, 1);
    lua_pushlstring(L, path.data(), path.size());
  }
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  if (luaL_loadbufferx(L, kSandbox, std::char_traits<char>::length(kSandbox), "=sandbox", "t") != LUA_OK)
    return lua_error(L);
  lua_call(L, 0, 0);
  open_flow(L);
  open_param(L);
  return 0;
}

// --timeout: Lua code still running this long after the deadline is stopped with an
// error (the grace lets a run reach its next step and write a checkpoint first).
constexpr double kTimeoutGrace = 2.0;

static void timeout_hook(lua_State* L, lua_Debug*) {
  if (interrupt::overrun() < kTimeoutGrace) return;
  Host* h = host_ptr(L);
  char msg[160];
  std::snprintf(msg, sizeof msg, "the --timeout of %g s is over: Lua code that was still running was stopped",
                interrupt::deadline_seconds());
  if (h) h->note_fatal(kExitTimeout, msg);
  luaL_error(L, "%s", msg);
}

// The Lua heap with a cap (fuzzing): an allocation above it fails as out of memory.
struct LuaHeap {
  std::size_t used = 0, limit = 0;
};
static void* limited_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* heap = static_cast<LuaHeap*>(ud);
  const std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    std::free(ptr);
    heap->used -= old;
    return nullptr;
  }
  if (nsize > old && heap->used - old + nsize > heap->limit) return nullptr;
  void* p = std::realloc(ptr, nsize);
  if (p) heap->used = heap->used - old + nsize;
  return p;
}
static int lua_panic(lua_State* L) {
  std::fprintf(stderr, "flowlua: Lua panic: %s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
  std::fflush(stderr);
  return 0;  // Lua aborts
}

Host::Host(HostOptions options) : options_(std::move(options)) {
  for (auto& [name, value] : options_.sets) sets_[name] = value;
  if (!options_.case_path.empty()) {
    fs::path p(options_.case_path);
    case_dir_ = p.has_parent_path() ? p.parent_path().string() : ".";
    case_name_ = p.stem().string();
  }
  if (options_.lua_memory_limit > 0) {
    heap_ = std::make_unique<LuaHeap>();
    heap_->limit = options_.lua_memory_limit;
    L_ = lua_newstate(limited_alloc, heap_.get());
    if (L_) lua_atpanic(L_, lua_panic);
  } else {
    L_ = luaL_newstate();
  }
  if (!L_) throw std::bad_alloc();
  lua_pushlightuserdata(L_, this);
  lua_rawsetp(L_, LUA_REGISTRYINDEX, &kHostKey);
  lua_pushcfunction(L_, l_setup);
  if (lua_pcall(L_, 0, 0, 0) != LUA_OK) {
    std::string msg = error_text(L_, -1);
    lua_close(L_);
    L_ = nullptr;
    throw std::runtime_error("cannot set up Lua: " + msg);
  }
  if (options_.timeout > 0) {
    interrupt::set_deadline(options_.timeout);
    lua_sethook(L_, timeout_hook, LUA_MASKCOUNT, 10000);
  }
}

Host::~Host() {
  if (L_) lua_close(L_);  // runs __gc: simulations and their solvers go here
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

// One run per output folder: an flock on <output>/.flowlua.lock, held until the process
// ends (the kernel drops it even after a crash, so it never goes stale).
void Host::lock_output() const {
  if (lock_fd_ >= 0 || options_.explain) return;
  // On several MPI ranks the root writes the files and holds the lock for all of them
  // (the others would find it taken by the root).
  if (!ranks::root()) return;
  const std::string dir = options_.output_dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;  // made (and locked) by the first write
  const std::string path = (fs::path(dir) / ".flowlua.lock").string();
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;  // an unwritable folder: the writes will say so
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char pid[32] = "";
    ssize_t n = ::read(fd, pid, sizeof pid - 1);
    pid[n > 0 ? n : 0] = 0;
    ::close(fd);
    std::string who = pid[0] ? " (process " + std::string(pid) + ")" : "";
    throw CaseError("the output folder '" + dir + "' is in use by another flowlua run" + who +
                    "; wait for it to finish or give this run another --output");
  }
  const std::string me = std::to_string(long(::getpid()));
  if (::ftruncate(fd, 0) == 0) (void)!::write(fd, me.data(), me.size());
  lock_fd_ = fd;
}

int Host::finish(int status, const char* what) {
  last_error_ = what;
  if (options_.print_errors) {
    std::fflush(stdout);
    std::fprintf(stderr, "flowlua: %s\n", what);
    std::fflush(stderr);
  }
  return status;
}

int Host::run_file() {
  last_error_.clear();
  try {
    lock_output();
  } catch (const CaseError& e) {
    return finish(kExitCase, e.what());
  }
  lua_settop(L_, 0);
  lua_pushcfunction(L_, traceback_handler);
  int st = luaL_loadfilex(L_, options_.case_path.c_str(), "t");
  if (st != LUA_OK) {
    std::string msg = error_text(L_, -1);
    lua_settop(L_, 0);
    return finish(st == LUA_ERRFILE ? kExitUsage : kExitCase, msg.c_str());
  }
  return call_loaded_chunk(st);
}

// Runs the chunk on the stack (above the traceback handler) when it loaded, then
// checks that every --set name was asked for.
int Host::call_loaded_chunk(int load_status) {
  int st = load_status == LUA_OK ? lua_pcall(L_, 0, 0, 1) : load_status;
  if (st != LUA_OK) {
    std::string msg = error_text(L_, -1);
    lua_settop(L_, 0);
    return finish(exit_code_for(msg), msg.c_str());
  }
  lua_settop(L_, 0);
  try {
    check_unknown_sets();
  } catch (const UsageError& e) {
    return finish(kExitUsage, e.what());
  }
  if (options_.restart && !restart_used && !options_.explain)
    return finish(kExitCase, ("--restart: the checkpoint '" + options_.restart_path + "' is of simulation " +
                              std::to_string(options_.restart->simulation) + " of its case, and this case built " +
                              std::to_string(simulations_built))
                                 .c_str());
  std::fflush(stdout);
  return kExitOk;
}

int Host::run_string(const std::string& code, const std::string& chunk_name) {
  last_error_.clear();
  lua_settop(L_, 0);
  lua_pushcfunction(L_, traceback_handler);
  return call_loaded_chunk(luaL_loadbufferx(L_, code.data(), code.size(), chunk_name.c_str(), "t"));
}

std::optional<std::string> Host::take_set(const std::string& name) {
  declared_.insert(name);
  auto it = sets_.find(name);
  if (it == sets_.end()) return std::nullopt;
  used_.insert(name);
  return it->second;
}

void Host::declare_param(const std::string& name) { declared_.insert(name); }

void Host::check_unknown_sets() const {
  std::vector<std::string> unknown;
  for (auto& [name, value] : sets_)
    if (!declared_.count(name)) unknown.push_back(name);
  if (unknown.empty()) return;
  std::vector<std::string> declared(declared_.begin(), declared_.end());
  std::string msg = "unknown --set name" + std::string(unknown.size() > 1 ? "s " : " ") +
                    join_names(unknown, true);
  if (unknown.size() == 1) {
    std::string best = closest_match(unknown[0], declared);
    if (!best.empty()) msg += "; did you mean '" + best + "'?";
  }
  msg += declared.empty() ? " (no param() call has asked for a value so far)"
                          : " (the case declares: " + join_names(declared) + ")";
  msg += "; param(name, default) calls must come before the first flow.simulation";
  throw UsageError(msg);
}

std::string Host::output_dir(bool create) const {
  if (create) {
    std::error_code ec;
    fs::create_directories(options_.output_dir, ec);
    if (ec)
      throw CaseError("cannot create the output folder '" + options_.output_dir +
                      "': " + ec.message());
    lock_output();
  }
  return options_.output_dir;
}

std::string Host::output_path(const std::string& path, const std::string& sub) const {
  if (path.empty()) throw CaseError("an output file name is empty");
  fs::path p(path);
  if (options_.confine_output) {
    bool up = false;
    for (const auto& part : p) up = up || part == "..";
    if (p.is_absolute() || up) throw CaseError("output file '" + path + "' is outside the output folder");
  }
  if (p.is_relative()) {
    fs::path base(options_.output_dir);
    if (!sub.empty()) base /= sub;
    p = base / p;
  }
  io::make_parent_dirs(p.string());
  lock_output();
  return p.string();
}

std::string Host::input_path(const std::string& path) const {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(case_dir_) / p;
  return p.string();
}

void Host::note_fatal(int exit_code, const std::string& message) {
  fatal_.emplace_back(exit_code, message);
  if (fatal_.size() > 64) fatal_.erase(fatal_.begin());
}

int Host::exit_code_for(const std::string& message) const {
  for (auto it = fatal_.rbegin(); it != fatal_.rend(); ++it)
    if (!it->second.empty() && message.find(it->second) != std::string::npos) return it->first;
  return kExitCase;
}

void register_class(lua_State* L, const char* meta, const luaL_Reg* methods, lua_CFunction index,
                    lua_CFunction newindex, lua_CFunction tostring, lua_CFunction gc, const char* label) {
  luaL_newmetatable(L, meta);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_pushcclosure(L, index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, label);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

}  // namespace flowlua::lua
