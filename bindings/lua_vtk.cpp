// VTK output from Lua: flow.vtk{...} (a callback that writes one .vti per call and
// keeps a .pvd collection of them) and flow.write_vtk (one file). Relative paths go
// under the output folder, like flow.png's. On several MPI ranks each image is a
// parallel set instead, a .pvti and one piece a rank (io/vtk_pieces.hpp).
#include <memory>
#include <new>

#include "core/error.hpp"
#include "host.hpp"
#include "io/vtk.hpp"
#include "io/vtk_fields.hpp"
#include "io/vtk_pieces.hpp"
#include "lua_output.hpp"
#include "lua_simulation.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

namespace {

constexpr const char* kVtkMeta = "flowlua.VtkSpec";

struct VtkSpec {
  std::vector<std::string> fields;  // empty: the model's output fields
  std::string file, collection, where;
  bool compress = true;
  std::unique_ptr<io::PvdCollection> pvd;  // made at the first write (needs the output folder)
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void check_vti_name(const std::string& key, const std::string& file) {
  if (!ends_with(file, ".vti"))
    throw CaseError(key + " '" + file + "' must end in .vti (ParaView picks its reader by the extension)");
}

// "flow_%06d.vti" -> "flow.pvd": the pattern without its step number and separator.
std::string default_collection(const std::string& pattern) {
  std::string base = pattern.substr(0, pattern.size() - 4);  // without ".vti"
  std::size_t pct = base.find('%');
  while (pct != std::string::npos && pct + 1 < base.size() && base[pct + 1] == '%') pct = base.find('%', pct + 2);
  if (pct != std::string::npos) {
    std::size_t end = base.find('d', pct);
    std::size_t start = pct;
    while (start > 0 && (base[start - 1] == '_' || base[start - 1] == '-' || base[start - 1] == '.')) --start;
    base = base.substr(0, start) + (end == std::string::npos ? "" : base.substr(end + 1));
  }
  if (base.empty() || base.back() == '/') base += "flow";
  return base + ".pvd";
}

// fields = {"u", "v", ...} (absent: every field of the model).
std::vector<std::string> read_field_list(const TableReader& t) {
  std::vector<std::string> names;
  if (t.type("fields") == LUA_TNIL) return names;
  lua_State* L = t.state();
  StackGuard guard(L);
  t.push("fields");
  if (!lua_istable(L, -1)) throw CaseError(t.name("fields") + " must be a list of field names, e.g. {\"u\", \"p\"} (got " +
                                           describe_value(L, -1) + ")");
  const lua_Integer n = lua_Integer(lua_rawlen(L, -1));
  if (n == 0) throw CaseError(t.name("fields") + " is empty: name at least one field, or leave it out for all");
  for (lua_Integer k = 1; k <= n; ++k) {
    lua_rawgeti(L, -1, k);
    if (lua_type(L, -1) != LUA_TSTRING)
      throw CaseError(t.name("fields") + "[" + std::to_string(k) + "] must be a field name (got " +
                      describe_value(L, -1) + ")");
    names.emplace_back(lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  return names;
}

// The image of `names` (or every output field) of a simulation, now.
io::VtkImage image_of(const std::shared_ptr<SimCore>& core, const std::vector<std::string>& names, bool compress) {
  const std::vector<std::string> list = names.empty() ? core->solver().output_field_names() : names;
  io::VtkImage im;
  if (core->solver().dims() == 3) {
    std::vector<FieldSnapshot3> snaps;
    for (const auto& n : list) snaps.push_back(take_field(core, n)->snap3);
    im = io::vtk_image3(snaps, core->solver().time(), core->solver().steps());
  } else {
    std::vector<FieldSnapshot> snaps;
    for (const auto& n : list) snaps.push_back(take_field(core, n)->snap);
    im = io::vtk_image(snaps, core->solver().time(), core->solver().steps());
  }
  im.compress = compress;
  return im;
}

int l_vtk_call(lua_State* L) {
  auto* spec = test_udata<VtkSpec>(L, lua_upvalueindex(1), kVtkMeta);
  if (!spec) throw CaseError("flow.vtk callback without its options");
  try {
    auto core = sim_core_ptr(L, 1);
    if (!core || !core->loop)
      throw CaseError("the callback from flow.vtk takes the simulation: sim:every(n, flow.vtk{...}) "
                      "(got " + describe_value(L, 1) + ")");
    Host& h = host_of(L);
    const std::string path =
        h.output_path(format_step_pattern(spec->file, core->solver().steps()), core->output_sub);
    const std::string written =
        io::write_vtk_set(path, image_of(core, spec->fields, spec->compress), core->solver().rank_block());
    if (!spec->collection.empty()) {
      const std::string pvd = h.output_path(spec->collection, core->output_sub);
      if (!spec->pvd || spec->pvd->path() != pvd) spec->pvd = std::make_unique<io::PvdCollection>(pvd);
      spec->pvd->add(core->solver().time(), written);
    }
  } catch (const std::exception& e) {
    std::string where = lua_where(L).empty() ? spec->where : "";
    throw CaseError(where + "flow.vtk: " + e.what());
  }
  return 0;
}

int l_vtk(lua_State* L) {
  arg_table(L, 1, "flow.vtk");
  TableReader t(L, 1, "flow.vtk", {"fields", "file", "collection", "compress"});
  VtkSpec spec;
  spec.fields = read_field_list(t);
  spec.file = t.string("file", "flow_%06d.vti");
  check_vti_name(t.name("file"), spec.file);
  format_step_pattern(spec.file, 0);  // checks the pattern now
  if (t.type("collection") == LUA_TBOOLEAN) {
    if (t.boolean("collection", true)) spec.collection = default_collection(spec.file);
  } else {
    spec.collection = t.string("collection", default_collection(spec.file));
    if (!ends_with(spec.collection, ".pvd"))
      throw CaseError(t.name("collection") + " '" + spec.collection + "' must end in .pvd (or be false: none)");
  }
  spec.compress = t.boolean("compress", true);
  spec.where = lua_where(L);
  void* mem = lua_newuserdatauv(L, sizeof(VtkSpec), 0);
  new (mem) VtkSpec(std::move(spec));
  luaL_setmetatable(L, kVtkMeta);
  lua_pushcclosure(L, protect<l_vtk_call>, 1);
  return 1;
}

// flow.write_vtk(sim, file, {fields = ..., compress = ...}) or flow.write_vtk(field, file).
int l_write_vtk(lua_State* L) {
  std::string file = arg_string(L, 2, "flow.write_vtk", "the file name");
  check_vti_name("flow.write_vtk: the file name", file);
  std::vector<std::string> fields;
  bool compress = true;
  if (!lua_isnoneornil(L, 3)) {
    TableReader t(L, 3, "flow.write_vtk options", {"fields", "compress"});
    fields = read_field_list(t);
    compress = t.boolean("compress", true);
  }
  io::VtkImage im;
  std::string sub;
  long step = 0;
  ranks::Subdomain block;  // whose split the pieces follow on several ranks
  if (FieldData* f = test_field(L, 1)) {
    if (!fields.empty()) throw CaseError("flow.write_vtk: fields = ... goes with a simulation, not a field");
    im = f->three_d ? io::vtk_image3({f->snap3}, f->time, f->step) : io::vtk_image({f->snap}, f->time, f->step);
    im.compress = compress;
    step = f->step;
    if (auto core = f->owner.lock()) {
      sub = core->output_sub;
      block = core->solver().rank_block();
    }
  } else if (auto core = sim_core_ptr(L, 1)) {
    if (!core->loop) throw CaseError("flow.write_vtk: this simulation was not built");
    im = image_of(core, fields, compress);
    step = core->solver().steps();
    sub = core->output_sub;
    block = core->solver().rank_block();
  } else {
    throw CaseError("flow.write_vtk: argument 1 must be a simulation or a field (sim:field(\"u\")) (got " +
                    describe_value(L, 1) + ")");
  }
  const std::string path = io::write_vtk_set(host_of(L).output_path(format_step_pattern(file, step), sub), im, block);
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

int l_vtk_gc(lua_State* L) {
  auto* ud = test_udata<VtkSpec>(L, 1, kVtkMeta);
  if (ud) ud->~VtkSpec();
  return 0;
}

}  // namespace

void register_vtk(lua_State* L, int flow) {
  luaL_newmetatable(L, kVtkMeta);
  lua_pushcfunction(L, l_vtk_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, "flow vtk options");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  lua_pushcfunction(L, protect<l_vtk>);
  lua_setfield(L, flow, "vtk");
  lua_pushcfunction(L, protect<l_write_vtk>);
  lua_setfield(L, flow, "write_vtk");
}

}  // namespace flowlua::lua
