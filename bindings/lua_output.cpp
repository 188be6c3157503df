// Output from Lua: flow.png{...} (a callback), flow.write_png, flow.csv, flow.output_dir.
// Relative paths go under the output folder (--output, default out/<case name>/).
#include <algorithm>
#include <cctype>
#include <memory>
#include <new>

#include "core/error.hpp"
#include "host.hpp"
#include "io/colormap.hpp"
#include "io/csv.hpp"
#include "io/png.hpp"
#include "lua_output.hpp"
#include "lua_simulation.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

std::string format_step_pattern(const std::string& pattern, long step) {
  std::string out;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    char c = pattern[k];
    if (c != '%') { out += c; continue; }
    if (k + 1 < pattern.size() && pattern[k + 1] == '%') { out += '%'; ++k; continue; }
    std::size_t e = k + 1;
    bool zero = false;
    if (e < pattern.size() && pattern[e] == '0') { zero = true; ++e; }
    int width = 0;
    while (e < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[e])) && width < 100)
      width = width * 10 + (pattern[e++] - '0');
    if (e >= pattern.size() || pattern[e] != 'd' || width >= 100)
      throw CaseError("file name '" + pattern + "': only %d (with an optional width such as %06d) "
                      "and %% are allowed; %d is replaced by the step number");
    std::string digits = std::to_string(step < 0 ? -step : step);
    std::string sign = step < 0 ? "-" : "";
    int pad = width - int(digits.size() + sign.size());
    if (pad > 0) {
      if (zero) digits = std::string(pad, '0') + digits;
      else sign = std::string(pad, ' ') + sign;
    }
    out += sign + digits;
    k = e;
  }
  return out;
}

namespace {

constexpr const char* kPngMeta = "flowlua.PngSpec";
constexpr const char* kCsvMeta = "flowlua.Csv";
const std::vector<std::string> kPngKeys = {"field", "file", "colormap", "range", "scale",
                                           "annotate", "title", "contours", "arrows", "slice"};

struct PngSpec {
  std::string field, file, where;
  io::PngOptions opts;
  SliceSpec slice;  // the plane of a 3D field to draw (none for 2D fields)
};

struct CsvUD {
  std::unique_ptr<io::CsvWriter> writer;
};

// colormap=, range=, scale= of a PNG options table.
void read_png_options(const TableReader& t, io::PngOptions& o) {
  lua_State* L = t.state();
  o.colormap = io::colormap_from_name(t.string("colormap", "viridis"));
  int rt = t.type("range");
  if (rt == LUA_TSTRING) {
    std::string r = t.string("range", "auto");
    if (r != "auto") throw CaseError(t.name("range") + " must be {lo, hi} or \"auto\" (got '" + r + "')");
    o.auto_range = true;
  } else if (rt == LUA_TTABLE) {
    t.push("range");
    int idx = lua_gettop(L);
    if (lua_rawlen(L, idx) != 2) {
      lua_pop(L, 1);
      throw CaseError(t.name("range") + " must be {lo, hi}: two numbers");
    }
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    try {
      o.lo = to_finite(L, -2, t.name("range") + "[1]");
      o.hi = to_finite(L, -1, t.name("range") + "[2]");
    } catch (...) {
      lua_pop(L, 3);
      throw;
    }
    lua_pop(L, 3);
    o.auto_range = false;
  } else if (rt != LUA_TNIL) {
    t.push("range");
    std::string d = describe_value(L, -1);
    lua_pop(L, 1);
    throw CaseError(t.name("range") + " must be {lo, hi} or \"auto\" (got " + d + ")");
  }
  long long scale = t.integer("scale", 0);
  check_int_range(t.name("scale") + " (pixels per cell, 0 = automatic)", scale, 0, 64);
  o.scale = int(scale);
  o.annotate = t.boolean("annotate", true);
  o.title = t.string("title", "");
  // contours = N (evenly spaced levels inside the colour range) or {level, level, ...}.
  const int ct = t.type("contours");
  if (ct == LUA_TTABLE) {
    StackGuard guard(L);
    t.push("contours");
    const lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    if (n == 0) throw CaseError(t.name("contours") + " is an empty list: give levels, a count, or leave it out");
    for (lua_Integer k = 1; k <= n; ++k) {
      lua_rawgeti(L, -1, k);
      o.levels.push_back(to_finite(L, -1, t.name("contours") + "[" + std::to_string(k) + "]"));
      lua_pop(L, 1);
    }
  } else if (ct != LUA_TNIL) {
    long long n = t.integer("contours", 0);
    check_int_range(t.name("contours") + " (the number of isolines)", n, 0, 200);
    o.contours = int(n);
  }
  // arrows = true (about 20 along the longer side) or N.
  if (t.type("arrows") == LUA_TBOOLEAN) {
    o.arrows = t.boolean("arrows", false) ? 20 : 0;
  } else {
    long long n = t.integer("arrows", 0);
    check_int_range(t.name("arrows") + " (arrows along the longer side, or true)", n, 0, 200);
    o.arrows = int(n);
  }
}

// The stream function is shown as streamlines: its isolines, unless the case says.
void default_contours(const TableReader& t, const std::string& field, io::PngOptions& o) {
  if (o.annotate && t.type("contours") == LUA_TNIL && (field == "stream" || field == "psi")) o.contours = 16;
}

// Fills the label (time, step) and the arrows' velocity of a picture of `core` now.
struct PictureExtras {
  std::shared_ptr<FieldData> u, v;
};
void picture_extras(const std::shared_ptr<SimCore>& core, io::PngOptions& o, PictureExtras& keep) {
  o.time = core->solver().time();
  o.step = core->solver().steps();
  if (o.arrows > 0) {
    keep.u = take_field(core, "u");
    keep.v = take_field(core, "v");
    o.arrow_u = &keep.u->snap;
    o.arrow_v = &keep.v->snap;
  }
}

std::string output_sub_of(const std::weak_ptr<SimCore>& owner) {
  auto core = owner.lock();
  return core ? core->output_sub : std::string();
}

int l_png(lua_State* L) {
  arg_table(L, 1, "flow.png");
  TableReader t(L, 1, "flow.png", kPngKeys);
  PngSpec spec;
  spec.field = t.string("field", "speed");
  if (t.has("slice")) {
    t.push("slice");
    try {
      spec.slice = read_slice_spec(L, lua_gettop(L), "flow.png.slice");
    } catch (...) {
      lua_pop(L, 1);
      throw;
    }
    lua_pop(L, 1);
  }
  spec.file = t.string("file", spec.field + "_%06d.png");
  format_step_pattern(spec.file, 0);  // checks the pattern now
  read_png_options(t, spec.opts);
  default_contours(t, spec.field, spec.opts);
  spec.where = lua_where(L);
  void* mem = lua_newuserdatauv(L, sizeof(PngSpec), 0);
  new (mem) PngSpec(std::move(spec));
  luaL_setmetatable(L, kPngMeta);
  lua_pushcclosure(L, protect<l_png_call>, 1);
  return 1;
}

}  // namespace

// The callback flow.png returns: function(sim) writing one image.
int l_png_call(lua_State* L) {
  auto* spec = test_udata<PngSpec>(L, lua_upvalueindex(1), kPngMeta);
  if (!spec) throw CaseError("flow.png callback without its options");
  try {
    auto core = sim_core_ptr(L, 1);
    if (!core || !core->loop)
      throw CaseError("the callback from flow.png takes the simulation: sim:every(n, flow.png{...}) "
                      "(got " + describe_value(L, 1) + ")");
    auto data = take_field(core, spec->field);
    const FieldSnapshot snap = field_2d(*data, spec->slice, "flow.png");
    std::string file = format_step_pattern(spec->file, core->solver().steps());
    Host& h = host_of(L);
    io::PngOptions opts = spec->opts;
    PictureExtras keep;
    picture_extras(core, opts, keep);
    io::write_png(h.output_path(file, core->output_sub), snap, opts);
  } catch (const std::exception& e) {
    // Called from the run loop there is no Lua line to point at: name where it was made.
    std::string where = lua_where(L).empty() ? spec->where : "";
    throw CaseError(where + "flow.png: " + e.what());
  }
  return 0;
}

namespace {

// flow.write_png(field, file, opts) or flow.write_png(sim, file, {field = ..., ...}).
int l_write_png(lua_State* L) {
  std::string file = arg_string(L, 2, "flow.write_png", "the file name");
  std::shared_ptr<FieldData> data;
  io::PngOptions opts;
  opts.annotate = true;  // the documented default, with or without an options table
  std::string field = "speed";
  bool explicit_contours = false;
  SliceSpec slice;
  if (!lua_isnoneornil(L, 3)) {
    TableReader t(L, 3, "flow.write_png options", kPngKeys);
    read_png_options(t, opts);
    field = t.string("field", field);
    explicit_contours = t.type("contours") != LUA_TNIL;
    if (t.has("slice")) {
      t.push("slice");
      slice = read_slice_spec(L, lua_gettop(L), "flow.write_png options.slice");
      lua_pop(L, 1);
    }
  }
  PictureExtras keep;
  if (test_field(L, 1)) {
    data = test_udata<FieldUD>(L, 1, kFieldMeta)->data;
    opts.time = data->time;
    opts.step = data->step;
    if (opts.arrows > 0) {
      auto core = data->owner.lock();
      if (!core || !core->loop || core->solver().steps() != data->step)
        throw CaseError("flow.write_png: arrows need the velocity at the field's step, and the simulation has "
                        "moved on (or is gone); use flow.write_png(sim, file, { field = ..., arrows = ... })");
      picture_extras(core, opts, keep);
    }
  } else if (auto core = sim_core_ptr(L, 1)) {
    if (!core->loop) throw CaseError("flow.write_png: this simulation was not built");
    data = take_field(core, field);
    picture_extras(core, opts, keep);
  } else {
    throw CaseError("flow.write_png: argument 1 must be a field (sim:field(\"u\")) or a simulation "
                    "(got " + describe_value(L, 1) + ")");
  }
  if (!explicit_contours && opts.annotate && (data->snap.name == "stream" || data->snap.name == "psi"))
    opts.contours = 16;  // streamlines (see default_contours)
  const FieldSnapshot snap = field_2d(*data, slice, "flow.write_png");
  file = format_step_pattern(file, data->step);
  Host& h = host_of(L);
  std::string path = h.output_path(file, output_sub_of(data->owner));
  io::write_png(path, snap, opts);
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

int l_csv(lua_State* L) {
  std::string file = arg_string(L, 1, "flow.csv", "the file name");
  Host& h = host_of(L);
  std::string path = h.output_path(file);
  void* mem = lua_newuserdatauv(L, sizeof(CsvUD), 0);
  auto* ud = new (mem) CsvUD();
  luaL_setmetatable(L, kCsvMeta);
  ud->writer = std::make_unique<io::CsvWriter>(path);
  return 1;
}

std::string csv_value(lua_State* L, int idx, const std::string& key) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
      return io::CsvWriter::format_number(lua_tonumber(L, idx));
    case LUA_TSTRING: {
      std::size_t n = 0;
      const char* s = lua_tolstring(L, idx, &n);
      return std::string(s, n);
    }
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? "true" : "false";
    default:
      throw CaseError("csv:row: the value of '" + key + "' must be a number, a string or a boolean (got " +
                      describe_value(L, idx) + ")");
  }
}

// csv:row{ step = 10, ke = 0.5 } (columns sorted by name the first time) or
// csv:row{ {"step", 10}, {"ke", 0.5} } (columns in this order).
int l_csv_row(lua_State* L) {
  auto* ud = test_udata<CsvUD>(L, 1, kCsvMeta);
  if (!ud || !ud->writer)
    throw CaseError("csv:row: expected a csv object from flow.csv(file) (got " + describe_value(L, 1) +
                    "); call it with a colon: csv:row{...}");
  arg_table(L, 2, "csv:row");
  std::vector<std::pair<std::string, std::string>> cells;
  lua_rawgeti(L, 2, 1);
  bool pairs_form = lua_type(L, -1) == LUA_TTABLE;
  lua_pop(L, 1);
  if (pairs_form) {
    TableReader check(L, 2, "csv:row", {}, {}, true);
    lua_Integer n = lua_Integer(lua_rawlen(L, 2));
    for (lua_Integer k = 1; k <= n; ++k) {
      StackGuard guard(L);
      lua_rawgeti(L, 2, k);
      if (lua_type(L, -1) != LUA_TTABLE)
        throw CaseError("csv:row: entry " + std::to_string(k) + " must be a pair {name, value} (got " +
                        describe_value(L, -1) + ")");
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
      if (lua_type(L, -2) != LUA_TSTRING)
        throw CaseError("csv:row: entry " + std::to_string(k) + " must start with a column name (got " +
                        describe_value(L, -2) + ")");
      std::string key = lua_tostring(L, -2);
      cells.emplace_back(key, csv_value(L, -1, key));
    }
  } else {
    std::vector<std::pair<std::string, std::string>> found;
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING) {
        lua_pop(L, 2);
        throw CaseError("csv:row: columns need names: row{ step = 10, ke = 0.5 } or "
                        "row{ {\"step\", 10}, {\"ke\", 0.5} }");
      }
      std::string key = lua_tostring(L, -2);
      std::string value;
      try {
        value = csv_value(L, -1, key);
      } catch (...) {
        lua_pop(L, 2);
        throw;
      }
      found.emplace_back(key, value);
      lua_pop(L, 1);
    }
    // The header order (fixed by the first row) where it applies, names sorted otherwise.
    const auto& header = ud->writer->header();
    std::sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
      auto ia = std::find(header.begin(), header.end(), a.first);
      auto ib = std::find(header.begin(), header.end(), b.first);
      if (ia != ib) return ia < ib;
      return a.first < b.first;
    });
    cells = std::move(found);
  }
  ud->writer->row(cells);
  return 0;
}

int l_csv_index(lua_State* L) {
  auto* ud = test_udata<CsvUD>(L, 1, kCsvMeta);
  std::string key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
  if (key == "row") {
    lua_pushcfunction(L, protect<l_csv_row>);
    return 1;
  }
  if (key == "path" && ud && ud->writer) {
    lua_pushstring(L, ud->writer->path().c_str());
    return 1;
  }
  if (key == "rows" && ud && ud->writer) {
    lua_pushinteger(L, lua_Integer(ud->writer->rows()));
    return 1;
  }
  throw CaseError("a csv object has row, path and rows (no '" + key + "')");
}

int l_csv_gc(lua_State* L) {
  auto* ud = test_udata<CsvUD>(L, 1, kCsvMeta);
  if (ud) ud->~CsvUD();
  return 0;
}

int l_png_gc(lua_State* L) {
  auto* ud = test_udata<PngSpec>(L, 1, kPngMeta);
  if (ud) ud->~PngSpec();
  return 0;
}

int l_output_dir(lua_State* L) {
  std::string d = host_of(L).output_dir(true);
  lua_pushlstring(L, d.data(), d.size());
  return 1;
}

}  // namespace

void register_output(lua_State* L, int flow) {
  luaL_newmetatable(L, kPngMeta);
  lua_pushcfunction(L, l_png_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, "flow png options");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  luaL_newmetatable(L, kCsvMeta);
  lua_pushcfunction(L, protect<l_csv_index>);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_csv_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, "flow csv");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  const luaL_Reg fns[] = {{"png", protect<l_png>},
                          {"write_png", protect<l_write_png>},
                          {"csv", protect<l_csv>},
                          {"output_dir", protect<l_output_dir>},
                          {nullptr, nullptr}};
  for (const luaL_Reg* r = fns; r->name; ++r) {
    lua_pushcfunction(L, r->func);
    lua_setfield(L, flow, r->name);
  }
}

}  // namespace flowlua::lua
