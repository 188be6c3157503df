#include "param.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

static bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::pair<std::string, std::string> parse_set_argument(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos)
    throw UsageError("--set '" + arg + "': expected name=value, e.g. --set Re=1000");
  std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
  if (!is_identifier(name))
    throw UsageError("--set '" + arg + "': '" + name +
                     "' is not a parameter name (letters, digits and _)");
  return {name, value};
}

static bool parse_integer(const std::string& t, long long& out) {
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0]))) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || *end != 0) return false;
  out = v;
  return true;
}

static bool parse_number(const std::string& t, double& out) {
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0]))) return false;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (*end != 0 || !std::isfinite(v)) return false;
  out = v;
  return true;
}

static bool parse_boolean(const std::string& t, bool& out) {
  if (t == "true" || t == "1" || t == "yes" || t == "on") { out = true; return true; }
  if (t == "false" || t == "0" || t == "no" || t == "off") { out = false; return true; }
  return false;
}

ParamValue convert_param(const std::string& name, const std::string& text, ParamType want,
                         const std::string& default_text) {
  ParamValue v;
  v.text = text;
  std::string dflt = default_text.empty() ? "" : " (its default is " + default_text + ")";
  auto fail = [&](const char* kind) {
    throw UsageError("--set " + name + "=" + text + ": '" + name + "' takes " + kind + dflt);
  };
  switch (want) {
    case ParamType::Integer:
      if (parse_integer(text, v.integer)) { v.type = ParamType::Integer; return v; }
      // 1e3 for an integer parameter: accept when it is a whole number
      if (parse_number(text, v.number) && v.number == std::floor(v.number) &&
          std::fabs(v.number) < 9e15) {
        v.type = ParamType::Integer;
        v.integer = static_cast<long long>(v.number);
        return v;
      }
      if (parse_number(text, v.number)) { v.type = ParamType::Number; return v; }
      fail("a number");
      break;
    case ParamType::Number:
      if (parse_number(text, v.number)) { v.type = ParamType::Number; return v; }
      fail("a number");
      break;
    case ParamType::Boolean:
      if (parse_boolean(text, v.boolean)) { v.type = ParamType::Boolean; return v; }
      fail("true or false");
      break;
    case ParamType::String:
      v.type = ParamType::String;
      return v;
    case ParamType::Auto:
      if (parse_integer(text, v.integer)) { v.type = ParamType::Integer; return v; }
      if (parse_number(text, v.number)) { v.type = ParamType::Number; return v; }
      if (text == "true" || text == "false") {
        v.type = ParamType::Boolean;
        v.boolean = text == "true";
        return v;
      }
      v.type = ParamType::String;
      return v;
  }
  return v;
}

// param(name, default): the --set value converted to the default's type, or the default.
static int l_param(lua_State* L) {
  std::string name = arg_string(L, 1, "param", "the parameter name");
  Host& h = host_of(L);
  int t = lua_type(L, 2);
  ParamType want = ParamType::Auto;
  std::string dflt;
  switch (t) {
    case LUA_TNONE:
    case LUA_TNIL: want = ParamType::Auto; break;
    case LUA_TNUMBER:
      want = lua_isinteger(L, 2) ? ParamType::Integer : ParamType::Number;
      dflt = describe_value(L, 2).substr(7);
      break;
    case LUA_TBOOLEAN:
      want = ParamType::Boolean;
      dflt = lua_toboolean(L, 2) ? "true" : "false";
      break;
    case LUA_TSTRING:
      want = ParamType::String;
      dflt = describe_value(L, 2).substr(7);
      break;
    default:
      throw CaseError("param('" + name + "', ...): the default must be a number, a string or a "
                      "boolean (got " + describe_value(L, 2) + ")");
  }
  auto text = h.take_set(name);
  if (!text) {
    lua_settop(L, 2);
    return 1;  // the default (nil when none)
  }
  ParamValue v = convert_param(name, *text, want, dflt);
  switch (v.type) {
    case ParamType::Integer: lua_pushinteger(L, v.integer); break;
    case ParamType::Number: lua_pushnumber(L, v.number); break;
    case ParamType::Boolean: lua_pushboolean(L, v.boolean); break;
    default: lua_pushlstring(L, v.text.data(), v.text.size()); break;
  }
  return 1;
}

void open_param(lua_State* L) {
  lua_pushcfunction(L, protect<l_param>);
  lua_setglobal(L, "param");
}

}  // namespace flowlua::lua
