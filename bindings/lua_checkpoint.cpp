// Checkpoint and restart from Lua and the command line: sim:checkpoint(file),
// sim:restore(file), the checkpoint = {...} key, --restart FILE, and the checkpoint a
// run writes when SIGINT, SIGTERM or --timeout stops it (sim/interrupt.hpp).
#include "lua_checkpoint.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/error.hpp"
#include "host.hpp"
#include "io/checkpoint.hpp"
#include "io/checkpoint_pieces.hpp"
#include "parallel/agree.hpp"
#include "parallel/ranks.hpp"
#include "lua_output.hpp"
#include "lua_table.hpp"
#include "sim/interrupt.hpp"

namespace flowlua::lua {

namespace {

// The summary with the stop conditions taken out of its time line (t_end, steps and
// steady may change on a restart; dt and cfl may not).
std::string summary_for_hash(const CaseSpec& spec) {
  std::istringstream in(spec.summary());
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("  time:", 0) == 0) {
      const std::size_t comma = line.rfind(',');
      if (comma != std::string::npos) line = "  time:" + line.substr(comma + 1);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string case_hash(const CaseSpec& spec, std::vector<std::pair<std::string, std::string>> params) {
  std::sort(params.begin(), params.end());
  std::string text = summary_for_hash(spec) + "params:\n";
  for (const auto& [k, v] : params) text += k + "=" + v + "\n";
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016" PRIx64, io::fnv1a64(text));
  return buf;
}

std::string write_sim_checkpoint(lua_State* L, SimCore& c, const std::string& file) {
  Host& h = host_of(L);
  const std::string path = h.output_path(format_step_pattern(file, c.solver().steps()), c.output_sub);
  c.flush_pending();
  io::Checkpoint k;
  k.model = c.spec.model;
  k.precision = precision_name(c.solver().common().precision);
  k.backend = c.solver().backend_name();
  k.case_hash = case_hash(c.spec, h.options().sets);
  k.case_file = h.options().case_path;
  k.flowlua_version = FLOWLUA_VERSION;
  k.simulation = c.index;
  k.step = c.solver().steps();
  k.time = c.solver().time();
  k.params = h.options().sets;
  if (ranks::several()) {  // one piece a rank and a manifest, nothing gathered (docs/mpi.md)
    k.state = c.solver().save_block_state();
    io::write_checkpoint_pieces(path, k, c.solver().rank_block());
  } else {
    k.state = c.solver().save_state();
    io::write_checkpoint(path, k);
  }
  return path;
}

// Refuses a checkpoint of another case, model or precision.
static void check_matches(const Host& h, const SimCore& c, const io::Checkpoint& k, const std::string& path) {
  const std::string where = "the checkpoint '" + path + "' ";
  if (k.model != c.spec.model)
    throw CaseError(where + "is of model '" + k.model + "', this simulation is model '" + c.spec.model + "'");
  const std::string prec = precision_name(c.spec.common.precision);
  if (k.precision != prec)
    throw CaseError(where + "was written in " + k.precision + " precision and this simulation runs in " + prec +
                    " (give --precision " + k.precision + ")");
  const std::string hash = case_hash(c.spec, h.options().sets);
  if (k.case_hash != hash)
    throw CaseError(where + "was written by a different case (" + (k.case_file.empty() ? "?" : k.case_file) +
                    ", case hash " + k.case_hash + "; this case has " + hash +
                    "): the grid, model, fluid, boundaries, solver, dt/cfl or a --set value differ. "
                    "Restart with the case and --set values that wrote it");
}

void restore_sim(lua_State* L, SimCore& c, const io::Checkpoint& k, const std::string& path) {
  check_matches(host_of(L), c, k, path);
  c.pending.clear();  // field writes made before the restore would undo it
  if (k.pieces) {  // written on several ranks: this rank's block from the pieces
    try {
      c.solver().restore_block_state(io::read_block_state(*k.pieces, c.solver().rank_block()));
    } catch (const CaseError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw CaseError(e.what());
    }
  } else {
    c.solver().restore_state(k.state);
  }
  c.loop->resync_schedule();
  if (k.backend != c.solver().backend_name() && !host_of(L).options().quiet)
    std::fprintf(stderr, "flowlua: note: the checkpoint was written on the %s backend and continues on %s "
                 "(the same physics, not the same bits)\n", k.backend.c_str(), c.solver().backend_name().c_str());
}

void setup_checkpoints(lua_State* L, SimCore& c) {
  Host& h = host_of(L);
  if (h.options().restart && h.options().restart->simulation == c.index) {
    check_matches(h, c, *h.options().restart, h.options().restart_path);  // fail now, not at sim:run()
    c.restore_pending = h.options().restart;
    h.restart_used = true;
  }
  const CheckpointSpec& k = c.spec.checkpoint;
  if (!k.enabled || c.explain) return;
  if (!io::checkpoints_available())
    throw CaseError("checkpoint: this flowlua was built without HDF5, which checkpoints need");
  SimCore* cp = &c;
  auto write = [cp] {
    const std::string path = write_sim_checkpoint(cp->L, *cp, cp->spec.checkpoint.file);
    auto& w = cp->written;
    w.erase(std::remove(w.begin(), w.end(), path), w.end());
    w.push_back(path);
    while (int(w.size()) > cp->spec.checkpoint.keep) {
      io::remove_checkpoint(w.front());
      w.pop_front();
    }
  };
  if (k.every_steps > 0) c.loop->every_steps(k.every_steps, write);
  else c.loop->every_time(k.every_time, write);
}

void before_run(lua_State* L, SimCore& c) {
  if (!c.restore_pending) return;
  auto k = std::move(c.restore_pending);
  restore_sim(L, c, *k, host_of(L).options().restart_path);
}

void after_run(lua_State* L, SimCore& c, const RunReport& r) {
  if (r.reason != StopReason::Interrupted) return;
  const int code = interrupt::pending() ? interrupt::pending() : 130;
  Host& h = host_of(L);
  std::string msg = std::string("interrupted by ") + interrupt::what() + " at step " + std::to_string(c.solver().steps()) +
                    " (t = " + fmt(c.solver().time()) + ")";
  if (h.options().checkpoint_on_interrupt && io::checkpoints_available()) {
    const std::string path = write_sim_checkpoint(L, c, c.spec.checkpoint.file);
    msg += "; checkpoint written to " + path + "; continue with: flowlua " +
           (h.options().case_path.empty() ? "CASE.lua" : h.options().case_path) + " --restart " + path;
  } else if (h.options().checkpoint_on_interrupt) {
    msg += "; no checkpoint (this flowlua was built without HDF5)";
  }
  throw InterruptedError(msg, code);
}

int l_sim_checkpoint(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:checkpoint");
  std::string file = lua_isnoneornil(L, 2) ? c.spec.checkpoint.file
                                           : arg_string(L, 2, "sim:checkpoint", "the file name");
  format_step_pattern(file, 0);
  if (!io::checkpoints_available())
    throw CaseError("sim:checkpoint: this flowlua was built without HDF5, which checkpoints need");
  std::string path;
  try {
    path = write_sim_checkpoint(L, c, file);
  } catch (const std::runtime_error& e) {
    throw CaseError(std::string("sim:checkpoint: ") + e.what());
  }
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

int l_sim_restore(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:restore");
  std::string file = arg_string(L, 2, "sim:restore", "the checkpoint file");
  if (c.loop->running())
    throw CaseError("sim:restore() was called from inside one of this simulation's callbacks; restore "
                    "before sim:run()");
  // Relative names are read from the output folder, where sim:checkpoint(file) wrote them.
  std::filesystem::path p(file);
  if (p.is_relative()) p = std::filesystem::path(host_of(L).output_dir(false)) / c.output_sub / p;
  const std::string path = p.string();
  io::Checkpoint k;
  try {
    k = io::read_checkpoint(path);
  } catch (const std::runtime_error& e) {
    throw CaseError(std::string("sim:restore: ") + e.what());
  }
  c.restore_pending.reset();
  restore_sim(L, c, k, path);
  lua_settop(L, 1);
  return 1;
}

void load_restart(HostOptions& o, const std::string& path) {
  // Every rank reads it (the manifest only, of several ranks' checkpoint) and they
  // agree, so that a missing or truncated piece is reported by each rank before any
  // stops the others.
  std::shared_ptr<io::Checkpoint> k;
  std::string error;
  try {
    k = std::make_shared<io::Checkpoint>(io::read_checkpoint(path));
  } catch (const std::exception& e) {
    error = e.what();
  }
  ranks::agree(error, "cannot read checkpoint '" + path + "'");
  // The params it ran with, unless the command line gives them again (then the case
  // hash decides whether they still fit).
  for (const auto& [name, value] : k->params) {
    bool given = false;
    for (const auto& s : o.sets) given = given || s.first == name;
    if (!given) o.sets.emplace_back(name, value);
  }
  o.restart = std::move(k);
  o.restart_path = path;
}

}  // namespace flowlua::lua
