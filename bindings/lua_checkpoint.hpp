// Checkpoint and restart for the Lua host (bindings/lua_checkpoint.cpp); the file
// format is engine/io/checkpoint.hpp's.
//
// The case hash: FNV-1a (64 bit) over the case summary (--explain's text, with the stop
// conditions t_end/steps/steady left out of its time line) and the --set values. It
// catches a changed grid, model, fluid, boundary kind or constant value, solver or
// dt/cfl; it cannot see inside Lua functions (a changed inflow profile or obstacle
// function has the same summary) nor differences below the summary's 6 significant digits.
#pragma once
#include <lua.hpp>

#include <string>
#include <utility>
#include <vector>

#include "host.hpp"
#include "lua_simulation.hpp"

namespace flowlua::lua {

std::string case_hash(const CaseSpec& spec, std::vector<std::pair<std::string, std::string>> params);

// Writes the simulation's state to `file` (a %d pattern, relative to the output folder);
// returns the path written.
std::string write_sim_checkpoint(lua_State* L, SimCore& c, const std::string& file);

// After flow.simulation built the solver: the --restart checkpoint of this simulation
// (checked now, restored at the first sim:run()/sim:step()) and the checkpoint key's
// schedule.
void setup_checkpoints(lua_State* L, SimCore& c);
// At the start of sim:run()/sim:step(): the pending --restart restore.
void before_run(lua_State* L, SimCore& c);
// At their end: an interrupted run writes its checkpoint and throws InterruptedError.
void after_run(lua_State* L, SimCore& c, const RunReport& r);

int l_sim_checkpoint(lua_State* L);  // sim:checkpoint([file]) -> the path written
int l_sim_restore(lua_State* L);     // sim:restore(file) -> sim

// --restart FILE: reads the checkpoint into the options and adds its --set values.
void load_restart(HostOptions& options, const std::string& path);

}  // namespace flowlua::lua
