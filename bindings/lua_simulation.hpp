// The Simulation and Field objects Lua sees.
//
// A Simulation userdata holds a shared SimCore (the run loop with its solver, the case
// as read, pending field uploads). Its one uservalue is a table of Lua values the
// simulation keeps (boundary functions, callbacks, obstacle objects) in integer slots:
// tying them to the userdata instead of the registry lets a finished simulation be
// collected in a parameter-study loop.
//
// Lua code runs only from inside sim:run() / sim:step(n): `L` and `self` below are the
// running thread and the stack index of the simulation userdata during such a call.
#pragma once
#include <lua.hpp>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "core/snapshot.hpp"
#include "io/checkpoint.hpp"
#include "core/snapshot3.hpp"
#include "sim/run_loop.hpp"

namespace flowlua::lua {

inline constexpr const char* kSimMeta = "flowlua.Simulation";
inline constexpr const char* kFieldMeta = "flowlua.Field";

struct SimCore;

// A host snapshot that Lua holds; set() marks it dirty and queues it for upload.
// A 3D model's snapshot is in snap3 (three_d); f:slice{...} of it is a 2D FieldData
// with no owner, which every 2D helper takes.
struct FieldData {
  FieldSnapshot snap;
  bool three_d = false;
  bool slice = false;  // a plane of a 3D snapshot: read-only
  FieldSnapshot3 snap3;
  long step = 0;      // the simulation's step when it was taken
  double time = 0;
  bool dirty = false;
  std::weak_ptr<SimCore> owner;
};

struct SimCore {
  std::unique_ptr<RunLoop> loop;
  CaseSpec spec;
  std::string output_sub;   // the case's `output` folder
  lua_State* L = nullptr;   // valid during run()/step()
  int self = 0;
  int next_slot = 1;
  bool explain = false;
  int index = 0;            // 1-based, in the order the script built its simulations
  std::shared_ptr<const io::Checkpoint> restore_pending;  // --restart: at the first run
  std::deque<std::string> written;  // checkpoint files written by the checkpoint key
  std::vector<std::shared_ptr<FieldData>> pending;  // written fields, uploaded before a step

  Solver& solver() { return loop->solver(); }
  // Uploads the written snapshots (Solver::set_field) and forgets them.
  void flush_pending();
  // Stores the value at idx in the slot table of the userdata at `ud`; returns the slot.
  int keep(lua_State* L, int ud, int idx);
};

struct SimUD {
  std::shared_ptr<SimCore> core;
};

struct FieldUD {
  std::shared_ptr<FieldData> data;
};

// Makes the running thread and the simulation's stack slot known to its callbacks
// (for the duration of sim:run(), sim:step(n) or batch:run()).
struct ActiveCall {
  SimCore& c;
  lua_State* old_L;
  int old_self;
  ActiveCall(SimCore& core, lua_State* L, int self) : c(core), old_L(core.L), old_self(core.self) {
    c.L = L;
    c.self = lua_absindex(L, self);
  }
  ~ActiveCall() {
    c.L = old_L;
    c.self = old_self;
  }
  ActiveCall(const ActiveCall&) = delete;
  ActiveCall& operator=(const ActiveCall&) = delete;
};

// flow.simulation{...}: the table at 1 becomes a simulation userdata (returned).
int l_simulation(lua_State* L);
// The table sim:run() returns: steps, time, wall, callback_wall, cell_updates_per_s,
// reason (and error for a failed batch member).
void push_report(lua_State* L, const RunReport& r);
// flow.batch and flow.study (lua_batch.cpp), registered with flow.simulation.
void register_batch(lua_State* L, int flow);

// The simulation at idx, or a CaseError naming the method ("sim:run").
SimCore& check_sim(lua_State* L, int idx, const char* method);
// Pushes a Field userdata for a new snapshot.
void push_field(lua_State* L, std::shared_ptr<FieldData> data);
// The Field at idx, or nullptr.
FieldData* test_field(lua_State* L, int idx);
// A snapshot of `name` (checked against the model's fields, with a suggestion).
std::shared_ptr<FieldData> take_field(const std::shared_ptr<SimCore>& core, const std::string& name);
std::shared_ptr<SimCore> sim_core_ptr(lua_State* L, int idx);

// A plane of a 3D field: { x = c }, { y = c } or { z = c } (exactly one key).
struct SliceSpec {
  int axis = -1;  // -1: none given; 0, 1, 2: x, y, z
  double at = 0;
};
// Reads the slice table at stack index idx; `what` names it in messages
// ("f:slice", "flow.png.slice").
SliceSpec read_slice_spec(lua_State* L, int idx, const std::string& what);
// The 2D field to draw or read: f itself when it is 2D (a slice spec is then an
// error), its plane `slice` when it is 3D (no slice spec is then an error naming
// `who`, which draws 2D fields only).
FieldSnapshot field_2d(const FieldData& f, const SliceSpec& slice, const std::string& who);

}  // namespace flowlua::lua
