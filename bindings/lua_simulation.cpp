#include "lua_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <optional>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_checkpoint.hpp"
#include "lua_table.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

void SimCore::flush_pending() {
  auto list = std::move(pending);
  pending.clear();
  for (auto& d : list) {
    if (!d->dirty) continue;
    d->dirty = false;
    if (d->three_d) solver().set_field3(d->snap3);
    else solver().set_field(d->snap);
  }
}

int SimCore::keep(lua_State* L, int ud, int idx) {
  idx = lua_absindex(L, idx);
  ud = lua_absindex(L, ud);
  lua_getiuservalue(L, ud, 1);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, next_slot);
  lua_pop(L, 1);
  return next_slot++;
}

std::shared_ptr<SimCore> sim_core_ptr(lua_State* L, int idx) {
  auto* ud = test_udata<SimUD>(L, idx, kSimMeta);
  return ud ? ud->core : nullptr;
}

SimCore& check_sim(lua_State* L, int idx, const char* method) {
  auto* ud = test_udata<SimUD>(L, idx, kSimMeta);
  if (!ud)
    throw CaseError(std::string(method) + ": expected a simulation (got " + describe_value(L, idx) +
                    "); call methods with a colon: sim:run(), sim:field(\"u\")");
  if (!ud->core || !ud->core->loop) throw CaseError(std::string(method) + ": this simulation was not built");
  return *ud->core;
}

namespace {

void call_slot(SimCore* c, int slot) {
  lua_State* L = c->L;
  if (!L) throw std::logic_error("a simulation callback ran outside sim:run()");
  lua_checkstack(L, 8);
  lua_getiuservalue(L, c->self, 1);
  lua_rawgeti(L, -1, slot);
  lua_remove(L, -2);
  lua_pushvalue(L, c->self);
  call_protected(L, 1, 0, true);
}

void refresh_side(SimCore* c, const DynamicSide& d) {
  if (c->solver().steps() == 0) return;  // the values at t = 0 came with the case
  lua_State* L = c->L;
  if (!L) throw std::logic_error("a boundary refresher ran outside sim:run()");
  StackGuard guard(L);
  lua_getiuservalue(L, c->self, 1);
  FnStore store{L, lua_gettop(L), 0};
  if (d.three_d) {
    c->solver().set_side(d.side, evaluate_side3(L, d.side, c->solver().common().grid3, d.spec, c->solver().time(),
                                                [&](int which) {
                                                  store.push(which == 0 ? d.slot_a : which == 1 ? d.slot_b : d.slot_w);
                                                }));
    return;
  }
  SideCondition cond = evaluate_side(
      L, d.side, c->solver().common().grid, d.spec, c->solver().time(),
      [&](int which) { store.push(which == 0 ? d.slot_a : which == 1 ? d.slot_b : d.slot_T); }, d.at_nodes);
  c->solver().set_side(d.side, cond);
}

}  // namespace

static const char* reason_text(const RunReport& r) {
  return r.reason == StopReason::None ? "explain only: not run" : stop_reason_text(r.reason);
}

void push_report(lua_State* L, const RunReport& r) {
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, r.steps);
  lua_setfield(L, -2, "steps");
  lua_pushnumber(L, r.sim_time);
  lua_setfield(L, -2, "time");
  lua_pushnumber(L, r.wall_s);
  lua_setfield(L, -2, "wall");
  lua_pushnumber(L, r.callback_s);
  lua_setfield(L, -2, "callback_wall");
  lua_pushnumber(L, r.cell_updates_per_s);
  lua_setfield(L, -2, "cell_updates_per_s");
  lua_pushstring(L, reason_text(r));
  lua_setfield(L, -2, "reason");
  if (!r.error.empty()) {
    lua_pushlstring(L, r.error.data(), r.error.size());
    lua_setfield(L, -2, "error");
  }
}

namespace {

// ---- flow.simulation ------------------------------------------------------------------

}  // namespace

int l_simulation(lua_State* L) {
  Host& h = host_of(L);
  arg_table(L, 1, "flow.simulation");
  if (h.simulations_built == 0) h.check_unknown_sets();
  lua_settop(L, 1);
  void* mem = lua_newuserdatauv(L, sizeof(SimUD), 1);
  auto* ud = new (mem) SimUD();
  luaL_setmetatable(L, kSimMeta);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, 2, 1);
  FnStore store{L, 3, 1};

  auto core = std::make_shared<SimCore>();
  core->spec = read_case(L, 1, store);
  core->next_slot = store.next;
  CaseSpec& spec = core->spec;
  if (h.options().backend) spec.common.backend = *h.options().backend;
  if (h.options().precision) spec.common.precision = *h.options().precision;
  core->output_sub = spec.output;
  core->explain = h.options().explain;

  core->loop = std::make_unique<RunLoop>(spec.build());
  StopConditions stop;
  stop.t_end = spec.t_end;
  stop.max_steps = spec.max_steps;
  stop.steady = spec.steady;
  stop.steady_interval = spec.steady_interval;
  core->loop->set_stop_conditions(stop);
  ProgressOptions progress;
  progress.bar = h.options().progress;
  progress.summary = !h.options().quiet;
  progress.label = h.case_name();
  core->loop->set_progress(progress);

  SimCore* cp = core.get();
  core->loop->add_before_step([cp] { cp->flush_pending(); });
  for (const DynamicSide& d : spec.dynamic)
    core->loop->add_boundary_refresher(d.spec.every, [cp, d] { refresh_side(cp, d); });

  ud->core = core;
  ++h.simulations_built;
  core->index = h.simulations_built;
  setup_checkpoints(L, *core);
  if (core->explain) {
    std::string text = "== simulation " + std::to_string(h.simulations_built) + " (" +
                       lua_where(L).substr(0, lua_where(L).size() - 2) + ")\n" + spec.summary() +
                       "  backend: " + core->solver().backend_name() + "\nplan:\n" +
                       core->solver().plan() + "\n";
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  }
  lua_settop(L, 2);
  return 1;
}

namespace {

// ---- methods --------------------------------------------------------------------------

int do_steps(lua_State* L, int sim, int count) {
  SimCore& c = check_sim(L, sim, "sim:step");
  long long n = lua_isnoneornil(L, count) ? 1 : arg_integer(L, count, "sim:step", "the number of steps");
  check_int_range("sim:step: the number of steps", n, 0, 1000000000000LL);
  if (c.loop->running())
    throw CaseError("sim:step() was called from inside one of this simulation's callbacks; "
                    "callbacks run between steps (use sim:stop() to end a run)");
  if (c.explain) {  // --explain: nothing runs, the script goes on
    RunReport none;
    none.sim_time = c.solver().time();
    push_report(L, none);
    return 1;
  }
  ActiveCall active(c, L, sim);
  before_run(L, c);
  RunReport r = c.loop->step(long(n));
  after_run(L, c, r);
  push_report(L, r);
  return 1;
}

// sim:step(n) reaches here: `sim.step` is the step count (a number), and calling a number
// calls this __call metamethod of numbers with (number, sim, n).
int l_number_call(lua_State* L) {
  if (!test_udata<SimUD>(L, 2, kSimMeta))
    throw CaseError(std::string("attempt to call a number value") +
                    (lua_gettop(L) == 1 ? " (to advance a simulation write sim:step(n), with a colon)"
                                        : ""));
  return do_steps(L, 2, 3);
}

int l_run(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:run");
  if (c.loop->running())
    throw CaseError("sim:run() was called from inside one of this simulation's callbacks; "
                    "callbacks run between steps (use sim:stop() to end the run)");
  const StopConditions& s = c.loop->stop_conditions();
  if (!std::isfinite(s.t_end) && s.max_steps < 0 && !(s.steady > 0))
    throw CaseError("sim:run() needs a stop condition: time = { t_end = ... }, { steps = ... } "
                    "or { steady = ... } in flow.simulation (or use sim:step(n))");
  if (c.explain) {  // --explain: nothing runs, the script goes on
    RunReport none;
    none.sim_time = c.solver().time();
    push_report(L, none);
    return 1;
  }
  ActiveCall active(c, L, 1);
  before_run(L, c);
  RunReport r = c.loop->run();
  after_run(L, c, r);
  push_report(L, r);
  return 1;
}

int l_stop(lua_State* L) {
  check_sim(L, 1, "sim:stop").loop->request_stop();
  return 0;
}

int l_every(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:every");
  long long n = arg_integer(L, 2, "sim:every", "the number of steps");
  check_int_range("sim:every: the number of steps", n, 1, 1000000000000LL);
  arg_function(L, 3, "sim:every", "the callback");
  int slot = c.keep(L, 1, 3);
  SimCore* cp = &c;
  c.loop->every_steps(long(n), [cp, slot] { call_slot(cp, slot); });
  lua_settop(L, 1);
  return 1;
}

int l_every_time(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:every_time");
  double dt = arg_number(L, 2, "sim:every_time", "the time interval");
  check_positive("sim:every_time: the time interval", dt);
  arg_function(L, 3, "sim:every_time", "the callback");
  int slot = c.keep(L, 1, 3);
  SimCore* cp = &c;
  c.loop->every_time(dt, [cp, slot] { call_slot(cp, slot); });
  lua_settop(L, 1);
  return 1;
}

int l_on_finish(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:on_finish");
  arg_function(L, 2, "sim:on_finish", "the callback");
  int slot = c.keep(L, 1, 2);
  SimCore* cp = &c;
  c.loop->on_finish([cp, slot] { call_slot(cp, slot); });
  lua_settop(L, 1);
  return 1;
}

int l_field(lua_State* L) {
  check_sim(L, 1, "sim:field");
  std::string name = arg_string(L, 2, "sim:field", "the field name");
  push_field(L, take_field(sim_core_ptr(L, 1), name));
  return 1;
}

int l_diagnostics(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:diagnostics");
  c.flush_pending();
  Diagnostics d = c.solver().diagnostics();
  lua_createtable(L, 0, int(d.values.size()) + 3);
  auto num = [&](const char* k, double v) {
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
  };
  lua_pushinteger(L, d.step);
  lua_setfield(L, -2, "step");
  num("time", d.time);
  num("dt", d.dt);
  for (const auto& v : d.values) {
    if (v.integer) lua_pushinteger(L, lua_Integer(v.value));
    else lua_pushnumber(L, v.value);
    lua_setfield(L, -2, v.name.c_str());
  }
  // The steady test's last change (sim/steady.hpp), once a run has measured one.
  const SteadyMonitor& st = c.loop->steady_monitor();
  if (st.enabled() && std::isfinite(st.change())) num("steady_change", st.change());
  return 1;
}

int l_forces(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:forces");
  lua_settop(L, 3);  // the result table goes above the arguments
  int n = int(c.spec.obstacles.size());
  if (n == 0) throw CaseError("sim:forces: this simulation has no obstacles");
  int k = -1;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    long long v = arg_integer(L, 2, "sim:forces", "the obstacle number");
    check_int_range("sim:forces: the obstacle number", v, 1, n);
    k = int(v);
  } else if (lua_isnoneornil(L, 2)) {
    if (n != 1)
      throw CaseError("sim:forces: this simulation has " + std::to_string(n) +
                      " obstacles; say which: sim:forces(k) with k in 1.." + std::to_string(n));
    k = 1;
  } else {
    lua_getiuservalue(L, 1, 1);
    for (int i = 0; i < n && k < 0; ++i) {
      lua_rawgeti(L, -1, c.spec.obstacles[i].slot);
      if (lua_rawequal(L, -1, 2)) k = i + 1;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (k < 0)
      throw CaseError("sim:forces: " + describe_value(L, 2) +
                      " is not one of this simulation's obstacles; give its number 1.." + std::to_string(n));
  }
  c.flush_pending();
  Forces f = c.solver().forces(k - 1);
  // The moment about another point: M_P = M_ref + (ref - P) x F.
  double mx = f.x_ref, my = f.y_ref, moment = f.moment;
  TableReader* opts = nullptr;
  std::optional<TableReader> reader;
  if (!lua_isnoneornil(L, 3)) {
    reader.emplace(L, 3, "sim:forces options", std::vector<std::string>{"U", "L", "about"});
    opts = &*reader;
    if (opts->has("about")) {
      opts->push("about");
      const int a = lua_gettop(L);
      if (lua_type(L, a) != LUA_TTABLE || lua_rawlen(L, a) != 2)
        throw CaseError("sim:forces options.about must be a point { x, y } (got " + describe_value(L, a) + ")");
      lua_rawgeti(L, a, 1);
      lua_rawgeti(L, a, 2);
      const double px = to_finite(L, -2, "sim:forces options.about x");
      const double py = to_finite(L, -1, "sim:forces options.about y");
      lua_pop(L, 3);
      moment += (f.x_ref - px) * f.fy - (f.y_ref - py) * f.fx;
      mx = px;
      my = py;
    }
  }
  lua_createtable(L, 0, 16);
  auto num = [&](const char* key, double v) {
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
  };
  num("fx", f.fx);
  num("fy", f.fy);
  num("fx_pressure", f.fx_pressure);
  num("fy_pressure", f.fy_pressure);
  num("fx_viscous", f.fx_viscous);
  num("fy_viscous", f.fy_viscous);
  num("moment", moment);
  lua_createtable(L, 2, 0);
  lua_pushnumber(L, mx);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, my);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, "about");
  lua_pushstring(L, f.method);
  lua_setfield(L, -2, "method");
  lua_pushinteger(L, k);
  lua_setfield(L, -2, "obstacle");
  if (opts && (opts->has("U") || opts->has("L"))) {
    double u = opts->required_number("U"), len = opts->required_number("L");
    check_positive("sim:forces reference U", u);
    check_positive("sim:forces reference L", len);
    double q = 0.5 * c.spec.model_case->constant("rho").value_or(1.0) * u * u * len;
    num("cd", f.fx / q);
    num("cl", f.fy / q);
    num("cd_pressure", f.fx_pressure / q);
    num("cl_pressure", f.fy_pressure / q);
    num("cd_viscous", f.fx_viscous / q);
    num("cl_viscous", f.fy_viscous / q);
    num("cm", moment / (q * len));
  }
  return 1;
}

int l_explain(lua_State* L) {
  SimCore& c = check_sim(L, 1, "sim:explain");
  std::string text = c.spec.summary() + "  backend: " + c.solver().backend_name() + "\nplan:\n" +
                     c.solver().plan();
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

const luaL_Reg kMethods[] = {
    {"run", protect<l_run>},           {"stop", protect<l_stop>},
    {"every", protect<l_every>},       {"every_time", protect<l_every_time>},
    {"on_finish", protect<l_on_finish>}, {"field", protect<l_field>},
    {"diagnostics", protect<l_diagnostics>}, {"forces", protect<l_forces>},
    {"explain", protect<l_explain>},   {"checkpoint", protect<l_sim_checkpoint>},
    {"restore", protect<l_sim_restore>}, {nullptr, nullptr}};

const std::vector<std::string> kProperties = {"step", "time", "dt", "backend", "precision",
                                              "nx", "ny", "lx", "ly", "dx", "dy"};

int l_sim_index(lua_State* L) {
  SimCore& c = check_sim(L, 1, "simulation");
  if (lua_type(L, 2) != LUA_TSTRING)
    throw CaseError("a simulation has no field " + describe_value(L, 2));
  std::string key = lua_tostring(L, 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  Solver& s = c.solver();
  const Grid& g = s.common().grid;
  if (key == "step") lua_pushinteger(L, s.steps());
  else if (key == "time") lua_pushnumber(L, s.time());
  else if (key == "dt") lua_pushnumber(L, s.dt());
  else if (key == "backend") lua_pushstring(L, s.backend_name().c_str());
  else if (key == "precision") lua_pushstring(L, precision_name(s.common().precision));
  else if (key == "nx") lua_pushinteger(L, g.nx);
  else if (key == "ny") lua_pushinteger(L, g.ny);
  else if (key == "lx") lua_pushnumber(L, g.lx);
  else if (key == "ly") lua_pushnumber(L, g.ly);
  else if (key == "dx") lua_pushnumber(L, g.dx);
  else if (key == "dy") lua_pushnumber(L, g.dy);
  else if (auto v = c.spec.model_case->constant(key)) lua_pushnumber(L, *v);  // sim.nu, sim.rho
  else {
    std::vector<std::string> all = kProperties;
    for (const auto& k : c.spec.model_case->constant_names()) all.push_back(k);
    for (const luaL_Reg* r = kMethods; r->name; ++r) all.push_back(r->name);
    throw CaseError("a simulation has no field or method '" + clip(key) + "'" + suggestion(key, all));
  }
  return 1;
}

int l_sim_newindex(lua_State* L) {
  std::string key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : describe_value(L, 2);
  throw CaseError("cannot set '" + key + "' on a simulation: its fields are read-only");
}

int l_sim_tostring(lua_State* L) {
  auto core = sim_core_ptr(L, 1);
  std::string s = "flow simulation";
  if (core && core->loop) {
    const Solver& sv = core->solver();
    const Grid& g = sv.common().grid;
    s += " (" + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " cells, step " +
         std::to_string(sv.steps()) + ", t = " + fmt(sv.time()) + ", " + sv.backend_name() + ")";
  }
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int l_sim_gc(lua_State* L) {
  auto* ud = test_udata<SimUD>(L, 1, kSimMeta);
  if (ud) {
    try {
      ud->~SimUD();  // a solver's destructor must not throw; be safe all the same
    } catch (...) {
    }
  }
  return 0;
}

}  // namespace

void register_simulation(lua_State* L, int flow) {
  register_class(L, kSimMeta, kMethods, protect<l_sim_index>, protect<l_sim_newindex>, protect<l_sim_tostring>,
                 l_sim_gc, "flow simulation");

  lua_pushcfunction(L, protect<l_simulation>);
  lua_setfield(L, flow, "simulation");
  register_batch(L, flow);  // flow.batch, flow.study (lua_batch.cpp)

  // Numbers get a __call metamethod so that sim:step(n) works while sim.step is a number.
  lua_pushinteger(L, 0);
  lua_newtable(L);
  lua_pushcfunction(L, protect<l_number_call>);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

}  // namespace flowlua::lua
