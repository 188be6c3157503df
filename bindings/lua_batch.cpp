// flow.batch and flow.study: simulations stepped together (engine/sim/batch.hpp).
//
//   local b = flow.batch{ sim1, sim2, ..., dt = "own" | "shared" }
//   local b = flow.study{ base = { <a flow.simulation table> },
//                         vary = { ["fluid.Re"] = { 100, 400 }, ... }, dt = "own" }
//   local reports, summary = b:run()
//
// A Batch userdata keeps its members (Simulation userdata) and, for a study, the
// varied values of each member in its uservalue table: { members = {...}, values = {...} }.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_checkpoint.hpp"
#include "lua_simulation.hpp"
#include "lua_table.hpp"
#include "sim/batch.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

namespace {

constexpr const char* kBatchMeta = "flowlua.Batch";

struct BatchUD {
  BatchOptions options;
  int members = 0;
  bool study = false;
  bool running = false;
};

BatchUD& check_batch(lua_State* L, int idx, const char* method) {
  auto* ud = test_udata<BatchUD>(L, idx, kBatchMeta);
  if (!ud)
    throw CaseError(std::string(method) + ": expected a batch (got " + describe_value(L, idx) +
                    "); call methods with a colon: batch:run()");
  return *ud;
}

// Pushes the field `key` of the batch's uservalue table.
void push_kept(lua_State* L, int ud, const char* key) {
  lua_getiuservalue(L, ud, 1);
  lua_getfield(L, -1, key);
  lua_remove(L, -2);
}

// The members' run loops, in order (the members table on top of the stack is read).
std::vector<RunLoop*> member_loops(lua_State* L, int members, int n, const char* who) {
  std::vector<RunLoop*> loops;
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, members, k);
    SimCore& c = check_sim(L, -1, who);
    loops.push_back(c.loop.get());
    lua_pop(L, 1);
  }
  return loops;
}

BatchOptions read_dt_option(const TableReader& t) {
  BatchOptions o;
  o.shared_dt = t.choice("dt", "own", {"own", "shared"}) == "shared";
  return o;
}

// Makes the Batch userdata from the members table at `members` (and the values table
// at `values`, 0: none); checks that the members can step together. Leaves it on top.
void new_batch(lua_State* L, int members, int values, const BatchOptions& o, const char* who) {
  members = lua_absindex(L, members);
  if (values) values = lua_absindex(L, values);
  const int n = int(luaL_len(L, members));
  {
    std::vector<RunLoop*> loops = member_loops(L, members, n, who);
    for (std::size_t k = 0; k < loops.size(); ++k)
      if (loops[k]->running())
        throw CaseError(std::string(who) + ": simulation " + std::to_string(k + 1) +
                        " is running (this was called from one of its callbacks)");
    BatchRun check(loops, o);  // the members' compatibility, with its message
  }
  void* mem = lua_newuserdatauv(L, sizeof(BatchUD), 1);
  auto* ud = new (mem) BatchUD();
  luaL_setmetatable(L, kBatchMeta);
  ud->options = o;
  ud->members = n;
  ud->study = values != 0;
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, members);
  lua_setfield(L, -2, "members");
  if (values) {
    lua_pushvalue(L, values);
    lua_setfield(L, -2, "values");
  }
  lua_setiuservalue(L, -2, 1);
}

// flow.batch{ sim1, sim2, ..., dt = "own" }
int l_batch(lua_State* L) {
  arg_table(L, 1, "flow.batch");
  lua_settop(L, 1);
  TableReader t(L, 1, "flow.batch", {"dt"}, {}, true);
  const BatchOptions o = read_dt_option(t);
  const int n = int(luaL_len(L, 1));
  if (n == 0) throw CaseError("flow.batch: no simulations given; list them: flow.batch{ sim1, sim2, ... }");
  lua_createtable(L, n, 0);  // 2: the members
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, 1, k);
    if (!test_udata<SimUD>(L, -1, kSimMeta))
      throw CaseError("flow.batch: entry " + std::to_string(k) + " is " + describe_value(L, -1) +
                      ", not a simulation; list simulations made by flow.simulation{...}");
    lua_rawseti(L, 2, k);
  }
  new_batch(L, 2, 0, o, "flow.batch");
  return 1;
}

// Sets path (a.b.c) in the case table at `tbl` to the value on top (popped), copying
// each table along the path first so that the base case is not changed.
void set_path(lua_State* L, int tbl, const std::string& path, const std::string& key_name) {
  tbl = lua_absindex(L, tbl);
  const int value = lua_gettop(L);
  std::vector<std::string> parts;
  std::size_t a = 0;
  for (;;) {
    const std::size_t b = path.find('.', a);
    parts.push_back(path.substr(a, b == std::string::npos ? std::string::npos : b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  for (const std::string& p : parts)
    if (p.empty()) throw CaseError("flow.study.vary: key '" + key_name + "' has an empty part; write keys as \"fluid.Re\"");
  int cur = tbl;
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    lua_getfield(L, cur, parts[k].c_str());
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_newtable(L);
    } else if (!lua_istable(L, -1)) {
    {
      std::string at = parts[0];
      for (std::size_t q = 1; q <= k; ++q) at += "." + parts[q];
      throw CaseError("flow.study.vary: key '" + key_name + "': base." + at + " is " + describe_value(L, -1) +
                      ", not a table");
    }
    } else {  // a shallow copy
      const int src = lua_gettop(L);
      lua_newtable(L);
      lua_pushnil(L);
      while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
      }
      lua_remove(L, src);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, cur, parts[k].c_str());
    cur = lua_gettop(L);
  }
  lua_pushvalue(L, value);
  lua_setfield(L, cur, parts.back().c_str());
  lua_settop(L, value - 1);
}

// flow.study{ base = {...}, vary = { ["fluid.Re"] = {...}, ... }, dt = "own" }: one
// member per combination of the varied values (keys in alphabetical order, the first
// varying slowest).
int l_study(lua_State* L) {
  arg_table(L, 1, "flow.study");
  lua_settop(L, 1);
  TableReader t(L, 1, "flow.study", {"base", "vary", "dt"});
  const BatchOptions o = read_dt_option(t);
  if (t.type("base") != LUA_TTABLE) {
    t.push("base");
    throw CaseError("flow.study.base must be a table: the case every member starts from, as for flow.simulation "
                    "(got " + describe_value(L, -1) + ")");
  }
  if (t.type("vary") != LUA_TTABLE)
    throw CaseError("flow.study.vary must be a table of value lists: vary = { [\"fluid.Re\"] = { 100, 400 } }");
  t.push("base");  // 2
  t.push("vary");  // 3
  std::vector<std::string> keys;
  lua_pushnil(L);
  while (lua_next(L, 3)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      throw CaseError("flow.study.vary: keys name case keys as strings (\"fluid.Re\"); got " + describe_value(L, -1));
    keys.push_back(lua_tostring(L, -1));
  }
  if (keys.empty()) throw CaseError("flow.study.vary is empty: name at least one key and its values");
  std::sort(keys.begin(), keys.end());
  std::vector<int> counts;
  long long total = 1;
  for (const std::string& k : keys) {
    lua_getfield(L, 3, k.c_str());
    const int len = lua_istable(L, -1) ? int(luaL_len(L, -1)) : 0;
    if (len == 0)
      throw CaseError("flow.study.vary[\"" + k + "\"] must be a non-empty list of values (got " +
                      describe_value(L, -1) + ")");
    lua_pop(L, 1);
    counts.push_back(len);
    total *= len;
    if (total > 65535) throw CaseError("flow.study: more than 65535 members; split the study");
  }
  lua_createtable(L, int(total), 0);  // 4: members
  lua_createtable(L, int(total), 0);  // 5: values
  std::vector<int> idx(keys.size(), 0);
  for (long long m = 1; m <= total; ++m) {
    // The case: a shallow copy of base with the varied keys set.
    lua_newtable(L);
    const int cs = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, 2)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, cs);
    }
    lua_newtable(L);  // this member's values
    const int vals = lua_gettop(L);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      lua_getfield(L, 3, keys[k].c_str());
      lua_rawgeti(L, -1, idx[k] + 1);
      lua_remove(L, -2);
      lua_pushvalue(L, -1);
      lua_setfield(L, vals, keys[k].c_str());
      set_path(L, cs, keys[k], keys[k]);
    }
    lua_rawseti(L, 5, int(m));  // values
    lua_pushcfunction(L, protect<l_simulation>);
    lua_insert(L, cs);
    call_protected(L, 1, 1, false, "flow.study member " + std::to_string(m));
    lua_rawseti(L, 4, int(m));
    for (int k = int(keys.size()) - 1; k >= 0; --k) {  // the last key varies fastest
      if (++idx[k] < counts[k]) break;
      idx[k] = 0;
    }
  }
  new_batch(L, 4, 5, o, "flow.study");
  return 1;
}

int l_batch_run(lua_State* L) {
  BatchUD& b = check_batch(L, 1, "batch:run");
  if (b.running) throw CaseError("batch:run() was called from inside a member's callback; callbacks run between steps");
  lua_settop(L, 1);
  push_kept(L, 1, "members");  // 2
  const int n = b.members;
  luaL_checkstack(L, n + 20, "batch:run: too many members for the Lua stack");
  // The members stay on the stack while they run: their callbacks find them there.
  std::vector<SimCore*> cores;
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, 2, k);  // at 2 + k
    SimCore& c = check_sim(L, -1, "batch:run");
    if (c.loop->running())
      throw CaseError("batch:run: simulation " + std::to_string(k) + " is running (called from its callback)");
    const StopConditions& s = c.loop->stop_conditions();
    if (!std::isfinite(s.t_end) && s.max_steps < 0 && !(s.steady > 0))
      throw CaseError("batch:run: simulation " + std::to_string(k) +
                      " has no stop condition: give each member time = { t_end = ... }, { steps = ... } or "
                      "{ steady = ... }");
    cores.push_back(&c);
  }
  Host& h = host_of(L);
  BatchReport rep;
  if (h.options().explain) {  // --explain: nothing runs, the script goes on
    rep.members.resize(n);
    for (int k = 0; k < n; ++k) rep.members[k].sim_time = cores[k]->solver().time();
  } else {
    std::vector<std::unique_ptr<ActiveCall>> active;
    for (int k = 0; k < n; ++k) {
      active.push_back(std::make_unique<ActiveCall>(*cores[k], L, 2 + k + 1));
      before_run(L, *cores[k]);
    }
    std::vector<RunLoop*> loops;
    for (SimCore* c : cores) loops.push_back(c->loop.get());
    struct Running {
      BatchUD& b;
      ~Running() { b.running = false; }
    } running{b};
    b.running = true;
    BatchRun run(loops, b.options);
    rep = run.run();
    for (int k = 0; k < n; ++k) after_run(L, *cores[k], rep.members[k]);  // an interruption stops here
    if (!h.options().quiet) {
      const long cells = cores[0]->solver().common().grid.cells();
      std::fprintf(stderr,
                   "%s%sbatch of %d: %ld case steps (%ld batch steps) in %.3g s wall, %.3g case steps/s, "
                   "%.3g cell updates/s (%ld cells each); %s\n",
                   h.case_name().c_str(), h.case_name().empty() ? "" : ": ", n, rep.case_steps, rep.batch_steps,
                   rep.wall_s, rep.wall_s > 0 ? double(rep.case_steps) / rep.wall_s : 0.0,
                   rep.wall_s > 0 ? double(rep.case_steps) * double(cells) / rep.wall_s : 0.0, cells,
                   rep.batched ? "stages launched once for the batch" : "members stepped in turn");
      std::fflush(stderr);
    }
  }
  lua_settop(L, 2);
  lua_createtable(L, n, 0);
  for (int k = 0; k < n; ++k) {
    push_report(L, rep.members[k]);
    lua_rawseti(L, -2, k + 1);
  }
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "members");
  lua_pushinteger(L, rep.case_steps);
  lua_setfield(L, -2, "case_steps");
  lua_pushinteger(L, rep.batch_steps);
  lua_setfield(L, -2, "batch_steps");
  lua_pushnumber(L, rep.wall_s);
  lua_setfield(L, -2, "wall");
  lua_pushnumber(L, rep.wall_s > 0 ? double(rep.case_steps) / rep.wall_s : 0.0);
  lua_setfield(L, -2, "case_steps_per_s");
  lua_pushboolean(L, rep.batched);
  lua_setfield(L, -2, "batched");
  return 2;
}

const luaL_Reg kBatchMethods[] = {{"run", protect<l_batch_run>}, {nullptr, nullptr}};

// A fresh list (changing it does not change the batch).
void push_list_copy(lua_State* L, int ud, const char* key, int n) {
  push_kept(L, ud, key);
  const int src = lua_gettop(L);
  lua_createtable(L, n, 0);
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, src, k);
    lua_rawseti(L, -2, k);
  }
  lua_remove(L, src);
}

int l_batch_index(lua_State* L) {
  BatchUD& b = check_batch(L, 1, "batch");
  if (lua_isinteger(L, 2)) {  // batch[k]: member k
    const lua_Integer k = lua_tointeger(L, 2);
    if (k < 1 || k > b.members)
      throw CaseError("batch[" + std::to_string(k) + "]: the batch has members 1.." + std::to_string(b.members));
    push_kept(L, 1, "members");
    lua_rawgeti(L, -1, int(k));
    return 1;
  }
  if (lua_type(L, 2) != LUA_TSTRING) throw CaseError("a batch has no field " + describe_value(L, 2));
  const std::string key = lua_tostring(L, 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  if (key == "members") push_list_copy(L, 1, "members", b.members);
  else if (key == "values" && b.study) push_list_copy(L, 1, "values", b.members);
  else if (key == "size") lua_pushinteger(L, b.members);
  else if (key == "dt") lua_pushstring(L, b.options.shared_dt ? "shared" : "own");
  else {
    std::vector<std::string> all = {"members", "size", "dt", "run"};
    if (b.study) all.push_back("values");
    throw CaseError("a batch has no field or method '" + clip(key) + "'" + suggestion(key, all) +
                    (key == "values" ? " (values: flow.study's batches only)" : ""));
  }
  return 1;
}

int l_batch_newindex(lua_State* L) {
  std::string key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : describe_value(L, 2);
  throw CaseError("cannot set '" + key + "' on a batch: its fields are read-only");
}

int l_batch_tostring(lua_State* L) {
  auto* ud = test_udata<BatchUD>(L, 1, kBatchMeta);
  std::string s = "flow batch";
  if (ud) s += " (" + std::to_string(ud->members) + " members, dt " + (ud->options.shared_dt ? "shared" : "own") + ")";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int l_batch_gc(lua_State* L) {
  auto* ud = test_udata<BatchUD>(L, 1, kBatchMeta);
  if (ud) ud->~BatchUD();
  return 0;
}

}  // namespace

void register_batch(lua_State* L, int flow) {
  flow = lua_absindex(L, flow);
  register_class(L, kBatchMeta, kBatchMethods, protect<l_batch_index>, protect<l_batch_newindex>,
                 protect<l_batch_tostring>, l_batch_gc, "flow batch");
  lua_pushcfunction(L, protect<l_batch>);
  lua_setfield(L, flow, "batch");
  lua_pushcfunction(L, protect<l_study>);
  lua_setfield(L, flow, "study");
}

}  // namespace flowlua::lua
