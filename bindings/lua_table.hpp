// Reading user tables and arguments without raising Lua errors: everything here throws
// CaseError (see host.hpp for why). Tables are read raw (metatables are not consulted).
#pragma once
#include <lua.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace flowlua::lua {

// "number", "string", ... ; with the value for short strings and numbers.
std::string describe_value(lua_State* L, int idx);

// A keyed table whose keys are all checked against `keys` when constructed:
// an unknown key is a CaseError "unknown key 'nuu' in fluid; did you mean 'nu'?".
// `unavailable` maps names that are known but not supported yet to an explanation.
class TableReader {
 public:
  TableReader(lua_State* L, int idx, std::string path, std::vector<std::string> keys,
              std::map<std::string, std::string> unavailable = {}, bool allow_array = false);

  const std::string& path() const { return path_; }
  lua_State* state() const { return L_; }
  std::string name(const std::string& key) const;  // "fluid.nu"
  int index() const { return idx_; }

  bool has(const std::string& key) const;
  int type(const std::string& key) const;  // LUA_TNIL when absent
  void push(const std::string& key) const; // the raw value (nil when absent)

  std::optional<double> opt_number(const std::string& key) const;  // finite numbers only
  double number(const std::string& key, double def) const;
  double required_number(const std::string& key) const;
  std::optional<long long> opt_integer(const std::string& key) const;
  long long integer(const std::string& key, long long def) const;
  std::optional<std::string> opt_string(const std::string& key) const;
  std::string string(const std::string& key, const std::string& def) const;
  // One of `allowed`; an unknown one is reported with a suggestion.
  std::string choice(const std::string& key, const std::string& def,
                     const std::vector<std::string>& allowed) const;
  bool boolean(const std::string& key, bool def) const;

 private:
  lua_State* L_;
  int idx_;
  std::string path_;
};

// Argument helpers for C functions (1-based Lua argument positions).
double arg_number(lua_State* L, int arg, const char* fname, const char* what);
long long arg_integer(lua_State* L, int arg, const char* fname, const char* what);
std::string arg_string(lua_State* L, int arg, const char* fname, const char* what);
void arg_table(lua_State* L, int arg, const char* fname);
void arg_function(lua_State* L, int arg, const char* fname, const char* what);

// The value at idx as a finite double (CaseError naming `what` otherwise).
double to_finite(lua_State* L, int idx, const std::string& what);
long long to_integer(lua_State* L, int idx, const std::string& what);

// Range checks: "fluid.nu must be > 0 (got -1)".
void check_positive(const std::string& name, double v);
void check_open(const std::string& name, double v, double lo, double hi);    // lo < v < hi
void check_left_open(const std::string& name, double v, double lo, double hi);  // lo < v <= hi
void check_closed(const std::string& name, double v, double lo, double hi);  // lo <= v <= hi
void check_int_range(const std::string& name, long long v, long long lo, long long hi);

// Restores the Lua stack top when it goes out of scope (also when an exception passes).
struct StackGuard {
  lua_State* L;
  int top;
  explicit StackGuard(lua_State* L_) : L(L_), top(lua_gettop(L_)) {}
  ~StackGuard() { lua_settop(L, top); }
  StackGuard(const StackGuard&) = delete;
  StackGuard& operator=(const StackGuard&) = delete;
};

// A userdata of the given metatable name at idx, or nullptr (never raises).
template <class T>
T* test_udata(lua_State* L, int idx, const char* tname) {
  return static_cast<T*>(luaL_testudata(L, idx, tname));
}

}  // namespace flowlua::lua
