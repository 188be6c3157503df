#include "lua_table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/error.hpp"
#include "host.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

std::string describe_value(lua_State* L, int idx) {
  int t = lua_type(L, idx);
  if (t == LUA_TNUMBER) {
    if (lua_isinteger(L, idx)) return "number " + std::to_string(lua_tointeger(L, idx));
    return "number " + fmt(lua_tonumber(L, idx));
  }
  if (t == LUA_TSTRING) {
    std::size_t n = 0;
    const char* s = lua_tolstring(L, idx, &n);
    std::string text(s, std::min<std::size_t>(n, 40));
    for (char& c : text)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127) c = '?';
    return "string '" + text + (n > 40 ? "...'" : "'");
  }
  if (t == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    lua_pushstring(L, "__name");
    lua_rawget(L, -2);
    std::string name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "userdata";
    lua_pop(L, 2);
    // flowlua's own objects: "flowlua.Boundary" -> "a flow boundary"
    if (name.rfind("flowlua.", 0) == 0) {
      name = name.substr(8);
      for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (name == "pngspec") name = "png options";
      return "a flow " + name;
    }
    return name;
  }
  return lua_typename(L, t);
}

TableReader::TableReader(lua_State* L, int idx, std::string path, std::vector<std::string> keys,
                         std::map<std::string, std::string> unavailable, bool allow_array)
    : L_(L), idx_(lua_absindex(L, idx)), path_(std::move(path)) {
  if (lua_type(L, idx_) != LUA_TTABLE)
    throw CaseError(path_ + " must be a table (got " + describe_value(L, idx_) + ")");
  lua_checkstack(L, 4);
  lua_pushnil(L);
  while (lua_next(L, idx_) != 0) {
    // key at -2, value at -1
    if (lua_type(L, -2) == LUA_TSTRING) {
      std::string key = lua_tostring(L, -2);
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        lua_pop(L, 2);
        auto it = unavailable.find(key);
        if (it != unavailable.end()) throw CaseError(path_ + "." + clip(key) + ": " + it->second);
        throw CaseError("unknown key '" + clip(key) + "' in " + path_ + suggestion(key, keys));
      }
    } else if (!(allow_array && lua_isinteger(L, -2))) {
      std::string k = lua_type(L, -2) == LUA_TNUMBER ? fmt(lua_tonumber(L, -2))
                                                     : std::string(luaL_typename(L, -2));
      lua_pop(L, 2);
      throw CaseError(path_ + " has a value without a name (at [" + k +
                      "]); write key = value, with keys " + join_names(keys));
    }
    lua_pop(L, 1);
  }
}

std::string TableReader::name(const std::string& key) const { return path_ + "." + key; }

void TableReader::push(const std::string& key) const {
  lua_checkstack(L_, 2);
  lua_pushlstring(L_, key.data(), key.size());
  lua_rawget(L_, idx_);
}

int TableReader::type(const std::string& key) const {
  push(key);
  int t = lua_type(L_, -1);
  lua_pop(L_, 1);
  return t;
}

bool TableReader::has(const std::string& key) const { return type(key) != LUA_TNIL; }

std::optional<double> TableReader::opt_number(const std::string& key) const {
  push(key);
  if (lua_isnil(L_, -1)) { lua_pop(L_, 1); return std::nullopt; }
  double v;
  try {
    v = to_finite(L_, -1, name(key));
  } catch (...) {
    lua_pop(L_, 1);
    throw;
  }
  lua_pop(L_, 1);
  return v;
}

double TableReader::number(const std::string& key, double def) const {
  auto v = opt_number(key);
  return v ? *v : def;
}

double TableReader::required_number(const std::string& key) const {
  auto v = opt_number(key);
  if (!v) throw CaseError(name(key) + " is missing (a number)");
  return *v;
}

std::optional<long long> TableReader::opt_integer(const std::string& key) const {
  push(key);
  if (lua_isnil(L_, -1)) { lua_pop(L_, 1); return std::nullopt; }
  long long v;
  try {
    v = to_integer(L_, -1, name(key));
  } catch (...) {
    lua_pop(L_, 1);
    throw;
  }
  lua_pop(L_, 1);
  return v;
}

long long TableReader::integer(const std::string& key, long long def) const {
  auto v = opt_integer(key);
  return v ? *v : def;
}

std::optional<std::string> TableReader::opt_string(const std::string& key) const {
  push(key);
  if (lua_isnil(L_, -1)) { lua_pop(L_, 1); return std::nullopt; }
  if (lua_type(L_, -1) != LUA_TSTRING) {
    std::string d = describe_value(L_, -1);
    lua_pop(L_, 1);
    throw CaseError(name(key) + " must be a string (got " + d + ")");
  }
  std::size_t n = 0;
  const char* s = lua_tolstring(L_, -1, &n);
  std::string v(s, n);
  lua_pop(L_, 1);
  return v;
}

std::string TableReader::string(const std::string& key, const std::string& def) const {
  auto v = opt_string(key);
  return v ? *v : def;
}

std::string TableReader::choice(const std::string& key, const std::string& def,
                                const std::vector<std::string>& allowed) const {
  std::string v = string(key, def);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string best = closest_match(v, allowed);
    throw CaseError(name(key) + " = '" + clip(v) + "' is not allowed; allowed: " +
                    join_names(allowed, true) +
                    (best.empty() ? "" : " (did you mean '" + best + "'?)"));
  }
  return v;
}

bool TableReader::boolean(const std::string& key, bool def) const {
  push(key);
  int t = lua_type(L_, -1);
  if (t == LUA_TNIL) { lua_pop(L_, 1); return def; }
  if (t != LUA_TBOOLEAN) {
    std::string d = describe_value(L_, -1);
    lua_pop(L_, 1);
    throw CaseError(name(key) + " must be true or false (got " + d + ")");
  }
  bool v = lua_toboolean(L_, -1);
  lua_pop(L_, 1);
  return v;
}

double to_finite(lua_State* L, int idx, const std::string& what) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    throw CaseError(what + " must be a number (got " + describe_value(L, idx) + ")");
  double v = lua_tonumber(L, idx);
  if (!std::isfinite(v)) throw CaseError(what + " must be a finite number (got " + fmt(v) + ")");
  return v;
}

long long to_integer(lua_State* L, int idx, const std::string& what) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    throw CaseError(what + " must be an integer (got " + describe_value(L, idx) + ")");
  if (lua_isinteger(L, idx)) return lua_tointeger(L, idx);
  double v = lua_tonumber(L, idx);
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e15)
    throw CaseError(what + " must be an integer (got " + fmt(v) + ")");
  return static_cast<long long>(v);
}

static std::string arg_name(const char* fname, int arg, const char* what) {
  return std::string(fname) + ": argument " + std::to_string(arg) + " (" + what + ")";
}

double arg_number(lua_State* L, int arg, const char* fname, const char* what) {
  return to_finite(L, arg, arg_name(fname, arg, what));
}

long long arg_integer(lua_State* L, int arg, const char* fname, const char* what) {
  return to_integer(L, arg, arg_name(fname, arg, what));
}

std::string arg_string(lua_State* L, int arg, const char* fname, const char* what) {
  if (lua_type(L, arg) != LUA_TSTRING)
    throw CaseError(arg_name(fname, arg, what) + " must be a string (got " +
                    describe_value(L, arg) + ")");
  std::size_t n = 0;
  const char* s = lua_tolstring(L, arg, &n);
  return std::string(s, n);
}

void arg_table(lua_State* L, int arg, const char* fname) {
  if (lua_type(L, arg) != LUA_TTABLE)
    throw CaseError(std::string(fname) + " takes a table: " + fname + "{ ... } (got " +
                    describe_value(L, arg) + ")");
}

void arg_function(lua_State* L, int arg, const char* fname, const char* what) {
  if (lua_type(L, arg) != LUA_TFUNCTION)
    throw CaseError(arg_name(fname, arg, what) + " must be a function (got " +
                    describe_value(L, arg) + ")");
}

void check_positive(const std::string& name, double v) {
  if (!(v > 0)) throw CaseError(name + " must be > 0 (got " + fmt(v) + ")");
}

void check_open(const std::string& name, double v, double lo, double hi) {
  if (!(v > lo && v < hi))
    throw CaseError(name + " must be between " + fmt(lo) + " and " + fmt(hi) +
                    ", both excluded (got " + fmt(v) + ")");
}

void check_left_open(const std::string& name, double v, double lo, double hi) {
  if (!(v > lo && v <= hi))
    throw CaseError(name + " must be > " + fmt(lo) + " and <= " + fmt(hi) + " (got " + fmt(v) +
                    ")");
}

void check_closed(const std::string& name, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi))
    throw CaseError(name + " must be between " + fmt(lo) + " and " + fmt(hi) + " (got " +
                    fmt(v) + ")");
}

void check_int_range(const std::string& name, long long v, long long lo, long long hi) {
  if (v < lo || v > hi)
    throw CaseError(name + " must be an integer between " + std::to_string(lo) + " and " +
                    std::to_string(hi) + " (got " + std::to_string(v) + ")");
}

}  // namespace flowlua::lua
