// Field snapshots in Lua: sim:field(name) -> f:sample(x, y), f:get(i, j), f:set(i, j, v),
// f:min(), f:max(), f:mean(), f:norm(), f:size(), f:line{x = ...}, f.name. A 3D
// model's fields take (x, y, z) and (i, j, k), and f:slice{ z = 0.5 } gives a 2D field.
#include <algorithm>
#include <cmath>
#include <new>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_simulation.hpp"
#include "lua_table.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

std::shared_ptr<FieldData> take_field(const std::shared_ptr<SimCore>& core, const std::string& name) {
  Solver& s = core->solver();
  auto names = s.field_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string best = closest_match(name, names);
    throw CaseError("unknown field '" + clip(name) + "'" +
                    (best.empty() ? "" : "; did you mean '" + best + "'?") +
                    " (fields: " + join_names(names) + ")");
  }
  core->flush_pending();  // read what was written
  auto d = std::make_shared<FieldData>();
  if (s.dims() == 3) {
    d->three_d = true;
    d->snap3 = s.field3(name);
  } else {
    d->snap = s.field(name);
  }
  d->step = s.steps();
  d->time = s.time();
  d->owner = core;
  return d;
}

void push_field(lua_State* L, std::shared_ptr<FieldData> data) {
  void* mem = lua_newuserdatauv(L, sizeof(FieldUD), 0);
  new (mem) FieldUD{std::move(data)};
  luaL_setmetatable(L, kFieldMeta);
}

FieldData* test_field(lua_State* L, int idx) {
  auto* ud = test_udata<FieldUD>(L, idx, kFieldMeta);
  return ud && ud->data ? ud->data.get() : nullptr;
}

namespace {

FieldData& check_field(lua_State* L, const char* method) {
  FieldData* f = test_field(L, 1);
  if (!f)
    throw CaseError(std::string("field:") + method + ": expected a field (got " +
                    describe_value(L, 1) + "); call methods with a colon: f:" + method + "(...)");
  return *f;
}

const std::string& field_name(const FieldData& f) { return f.three_d ? f.snap3.name : f.snap.name; }

std::string call_name(const FieldData& f, const char* method) {
  return field_name(f) + ":" + method;
}

void check_index3(const FieldData& f, const char* method, long long i, long long j, long long k) {
  const Grid3& g = f.snap3.grid;
  if (i < 1 || i > g.nx || j < 1 || j > g.ny || k < 1 || k > g.nz)
    throw CaseError(call_name(f, method) + "(" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                    std::to_string(k) + "): index out of range; i must be in 1.." + std::to_string(g.nx) +
                    ", j in 1.." + std::to_string(g.ny) + " and k in 1.." + std::to_string(g.nz));
}

// A 2D field's methods take no third coordinate: say so instead of ignoring it.
void no_third(lua_State* L, const FieldData& f, const char* method, int idx, const char* what) {
  if (!f.three_d && !lua_isnoneornil(L, idx))
    throw CaseError(call_name(f, method) + ": this field is 2D and takes no " + what);
}

void check_index(const FieldData& f, const char* method, long long i, long long j) {
  if (i < 1 || i > f.snap.nx() || j < 1 || j > f.snap.ny())
    throw CaseError(call_name(f, method) + "(" + std::to_string(i) + ", " + std::to_string(j) +
                    "): index out of range; i must be in 1.." + std::to_string(f.snap.nx()) +
                    " and j in 1.." + std::to_string(f.snap.ny()));
}

int l_get(lua_State* L) {
  FieldData& f = check_field(L, "get");
  std::string n = call_name(f, "get");
  long long i = arg_integer(L, 2, n.c_str(), "i"), j = arg_integer(L, 3, n.c_str(), "j");
  if (f.three_d) {
    long long k = arg_integer(L, 4, n.c_str(), "k");
    check_index3(f, "get", i, j, k);
    lua_pushnumber(L, f.snap3.get(int(i), int(j), int(k)));
    return 1;
  }
  no_third(L, f, "get", 4, "k (get(i, j))");
  check_index(f, "get", i, j);
  lua_pushnumber(L, f.snap.get(int(i), int(j)));
  return 1;
}

int l_set(lua_State* L) {
  FieldData& f = check_field(L, "set");
  std::string n = call_name(f, "set");
  long long i = arg_integer(L, 2, n.c_str(), "i"), j = arg_integer(L, 3, n.c_str(), "j");
  long long k = f.three_d ? arg_integer(L, 4, n.c_str(), "k") : 0;
  double v = arg_number(L, f.three_d ? 5 : 4, n.c_str(), "the value");
  if (f.three_d) check_index3(f, "set", i, j, k);
  else check_index(f, "set", i, j);
  if (f.slice) throw CaseError(n + ": a slice is read-only; set values on the 3D field it was taken from");
  auto core = f.owner.lock();
  if (!core || !core->loop) throw CaseError(n + ": the simulation of this field is gone");
  if (!(f.three_d ? f.snap3.writable : f.snap.writable)) {
    std::vector<std::string> writable;
    for (const std::string& name : core->solver().field_names())
      if (f.three_d ? core->solver().field3(name).writable : core->solver().field(name).writable)
        writable.push_back(name);
    throw CaseError(n + ": field '" + field_name(f) + "' is read-only (computed from the flow)" +
                    (writable.empty() ? "" : "; writable fields: " + join_names(writable)));
  }
  if (core->solver().steps() != f.step)
    throw CaseError(n + ": this snapshot was taken at step " + std::to_string(f.step) +
                    " and the simulation is at step " + std::to_string(core->solver().steps()) +
                    "; take a new one with sim:field('" + field_name(f) + "') before writing");
  if (f.three_d) f.snap3.set(int(i), int(j), int(k), v);
  else f.snap.set(int(i), int(j), v);
  if (!f.dirty) {
    f.dirty = true;
    FieldUD* ud = test_udata<FieldUD>(L, 1, kFieldMeta);
    core->pending.push_back(ud->data);
  }
  return 0;
}

int l_sample(lua_State* L) {
  FieldData& f = check_field(L, "sample");
  std::string n = call_name(f, "sample");
  double x = arg_number(L, 2, n.c_str(), "x"), y = arg_number(L, 3, n.c_str(), "y");
  if (f.three_d) {
    double z = arg_number(L, 4, n.c_str(), "z");
    lua_pushnumber(L, f.snap3.sample(x, y, z));
    return 1;
  }
  no_third(L, f, "sample", 4, "z (sample(x, y))");
  lua_pushnumber(L, f.snap.sample(x, y));
  return 1;
}

template <class Stat>
int push_stat(lua_State* L, const char* method, Stat stat) {
  FieldData& f = check_field(L, method);
  lua_pushnumber(L, f.three_d ? stat(f.snap3) : stat(f.snap));
  return 1;
}
int l_min(lua_State* L) { return push_stat(L, "min", [](const auto& s) { return s.min(); }); }
int l_max(lua_State* L) { return push_stat(L, "max", [](const auto& s) { return s.max(); }); }
int l_mean(lua_State* L) { return push_stat(L, "mean", [](const auto& s) { return s.mean(); }); }
int l_norm(lua_State* L) { return push_stat(L, "norm", [](const auto& s) { return s.norm(); }); }

int l_size(lua_State* L) {
  FieldData& f = check_field(L, "size");
  if (f.three_d) {
    lua_pushinteger(L, f.snap3.nx());
    lua_pushinteger(L, f.snap3.ny());
    lua_pushinteger(L, f.snap3.nz());
    return 3;
  }
  lua_pushinteger(L, f.snap.nx());
  lua_pushinteger(L, f.snap.ny());
  return 2;
}

// f:slice{ z = 0.5 } (or x = , y = ): the plane of a 3D field as a 2D field, which
// flow.write_png, f:line and the other 2D helpers take. Read-only.
int l_slice(lua_State* L) {
  FieldData& f = check_field(L, "slice");
  std::string n = call_name(f, "slice");
  if (!f.three_d)
    throw CaseError(n + ": this field is already 2D; slices are taken of the fields of 3D simulations");
  const SliceSpec spec = read_slice_spec(L, 2, n);
  auto d = std::make_shared<FieldData>();
  d->snap = field_2d(f, spec, n);
  d->slice = true;
  d->step = f.step;
  d->time = f.time;
  d->owner = f.owner;  // for the output folder; not writable, so never uploaded
  push_field(L, std::move(d));
  return 1;
}

// f:line{x = 0.5} (a vertical line: one point per cell row) or f:line{y = 0.5}.
int l_line(lua_State* L) {
  FieldData& f = check_field(L, "line");
  std::string n = call_name(f, "line");
  if (f.three_d) throw CaseError(n + ": this field is 3D; take a line of a slice: f:slice{ z = 0.5 }:line{ x = 0.5 }");
  TableReader t(L, 2, n, {"x", "y"});
  bool hx = t.has("x"), hy = t.has("y");
  if (hx == hy) throw CaseError(n + " takes one of x or y: f:line{ x = 0.5 } or f:line{ y = 0.5 }");
  const Grid& g = f.snap.grid;
  double c = hx ? t.required_number("x") : t.required_number("y");
  double len = hx ? g.lx : g.ly;
  if (c < 0 || c > len)
    throw CaseError(n + ": " + (hx ? "x" : "y") + " = " + fmt(c) + " is outside the domain [0, " +
                    fmt(len) + "]");
  int count = hx ? g.ny : g.nx;
  lua_createtable(L, count, 0);
  for (int k = 1; k <= count; ++k) {
    double x = hx ? c : g.xc(k), y = hx ? g.yc(k) : c;
    double v = f.snap.sample(x, y);
    lua_createtable(L, 3, 3);
    lua_pushnumber(L, x);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 1);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, y);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 2);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, v);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 3);
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, k);
  }
  return 1;
}

const luaL_Reg kFieldMethods[] = {
    {"get", protect<l_get>},   {"set", protect<l_set>},   {"sample", protect<l_sample>},
    {"min", protect<l_min>},   {"max", protect<l_max>},   {"mean", protect<l_mean>},
    {"norm", protect<l_norm>}, {"size", protect<l_size>}, {"line", protect<l_line>},
    {"slice", protect<l_slice>}, {nullptr, nullptr}};

int l_field_index(lua_State* L) {
  FieldData& f = check_field(L, "index");
  if (lua_type(L, 2) != LUA_TSTRING) throw CaseError("a field has no entry " + describe_value(L, 2));
  std::string key = lua_tostring(L, 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  if (key == "name") lua_pushstring(L, field_name(f).c_str());
  else if (key == "step") lua_pushinteger(L, f.step);
  else if (key == "time") lua_pushnumber(L, f.time);
  else if (key == "nx") lua_pushinteger(L, f.three_d ? f.snap3.nx() : f.snap.nx());
  else if (key == "ny") lua_pushinteger(L, f.three_d ? f.snap3.ny() : f.snap.ny());
  else if (key == "nz") lua_pushinteger(L, f.three_d ? f.snap3.nz() : 1);
  else if (key == "writable") lua_pushboolean(L, f.three_d ? f.snap3.writable : f.snap.writable);
  else {
    std::vector<std::string> all = {"name", "step", "time", "nx", "ny", "nz", "writable"};
    for (const luaL_Reg* r = kFieldMethods; r->name; ++r) all.push_back(r->name);
    throw CaseError("a field has no entry '" + clip(key) + "'" + suggestion(key, all));
  }
  return 1;
}

int l_field_newindex(lua_State* L) {
  throw CaseError(std::string("fields are changed with f:set(i, j, value), not by assignment") +
                  (lua_type(L, 2) == LUA_TSTRING ? " (tried to set '" + std::string(lua_tostring(L, 2)) + "')"
                                                 : std::string()));
}

int l_field_tostring(lua_State* L) {
  FieldData* f = test_field(L, 1);
  std::string s = "flow field";
  if (f && f->three_d)
    s = "flow field '" + f->snap3.name + "' (" + std::to_string(f->snap3.nx()) + " x " +
        std::to_string(f->snap3.ny()) + " x " + std::to_string(f->snap3.nz()) + ", step " + std::to_string(f->step) +
        ")";
  else if (f)
    s = "flow field '" + f->snap.name + "' (" + std::to_string(f->snap.nx()) + " x " + std::to_string(f->snap.ny()) +
        ", step " + std::to_string(f->step) + ")";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int l_field_gc(lua_State* L) {
  auto* ud = test_udata<FieldUD>(L, 1, kFieldMeta);
  if (ud) ud->~FieldUD();
  return 0;
}

}  // namespace

void register_fields(lua_State* L) {
  register_class(L, kFieldMeta, kFieldMethods, protect<l_field_index>, protect<l_field_newindex>, protect<l_field_tostring>,
                 l_field_gc, "flow field");
}


SliceSpec read_slice_spec(lua_State* L, int idx, const std::string& what) {
  if (lua_type(L, idx) != LUA_TTABLE)
    throw CaseError(what + " takes a table with one of x, y or z: { z = 0.5 } (got " + describe_value(L, idx) + ")");
  TableReader t(L, idx, what, {"x", "y", "z"});
  const int given = int(t.has("x")) + int(t.has("y")) + int(t.has("z"));
  if (given != 1) throw CaseError(what + " takes exactly one of x, y or z: { z = 0.5 }");
  SliceSpec s;
  s.axis = t.has("x") ? 0 : t.has("y") ? 1 : 2;
  s.at = t.required_number(s.axis == 0 ? "x" : s.axis == 1 ? "y" : "z");
  return s;
}

FieldSnapshot field_2d(const FieldData& f, const SliceSpec& slice, const std::string& who) {
  if (!f.three_d) {
    if (slice.axis >= 0)
      throw CaseError(who + ": slice is for the fields of 3D simulations, and '" + f.snap.name + "' is 2D");
    return f.snap;
  }
  if (slice.axis < 0)
    throw CaseError(who + " draws a 2D field, and '" + f.snap3.name +
                    "' is 3D; give the plane to draw: slice = { z = 0.5 } (or f:slice{ z = 0.5 })");
  const char* key = slice.axis == 0 ? "x" : slice.axis == 1 ? "y" : "z";
  const Grid3& g = f.snap3.grid;
  const double len = slice.axis == 0 ? g.lx : slice.axis == 1 ? g.ly : g.lz;
  if (!(slice.at >= 0 && slice.at <= len))
    throw CaseError(who + ": " + key + " = " + fmt(slice.at) + " is outside the domain [0, " + fmt(len) + "]");
  return f.snap3.slice(slice.axis, slice.at);
}

}  // namespace flowlua::lua
