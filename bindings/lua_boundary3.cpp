// The six sides of a 3D case: boundaries = { left, right, bottom, top, back, front }
// (back: z = 0, front: z = lz) evaluated into Boundaries3 (core/boundary.hpp). The
// same flow.wall / flow.slip / flow.inflow / flow.outflow / flow.periodic values as
// in 2D, with w, and inflow functions of the side's two transverse coordinates.
#include <cmath>
#include <tuple>

#include "core/error.hpp"
#include "flow_readers.hpp"
#include "host.hpp"
#include "lua_boundary.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

void side_axes3(Side side, int& t1, int& t2) {
  const int a = int(side) / 2;
  t1 = a == 0 ? 1 : 0;
  t2 = a == 2 ? 1 : 2;
}

SideCondition evaluate_side3(lua_State* L, Side side, const Grid3& g, const BoundarySpec& spec, double t,
                             const std::function<void(int)>& push_fn) {
  static const char* axes[3] = {"x", "y", "z"};
  static const char* comps[3] = {"u", "v", "w"};
  const std::string sname = side_name(side);
  if (spec.type == BoundarySpec::Type::Custom)
    throw CaseError("boundaries." + sname + ": flow.custom is not available on 3D grids yet; use flow.inflow with "
                    "functions of the side's two coordinates and t");
  if (spec.T_kind != ScalarCondition::Kind::None)
    throw CaseError("boundaries." + sname + ": temperature conditions are for the 2D psi_omega model");
  const int A = int(side) / 2;
  int T1, T2;
  side_axes3(side, T1, T2);
  const int n[3] = {g.nx, g.ny, g.nz};
  const int na = n[T1], nb = n[T2];
  SideCondition c;
  c.label = spec.label();
  c.normal.assign(std::size_t(na) * nb, 0.0);
  c.tangential.assign(c.normal.size(), 0.0);
  c.tangential2.assign(c.normal.size(), 0.0);
  switch (spec.type) {
    case BoundarySpec::Type::Slip: c.kind = BoundaryKind::Slip; return c;
    case BoundarySpec::Type::Outflow: c.kind = BoundaryKind::Outflow; return c;
    case BoundarySpec::Type::Periodic: c.kind = BoundaryKind::Periodic; return c;
    default: c.kind = BoundaryKind::Dirichlet; break;
  }
  lua_checkstack(L, 8);
  const bool fn[3] = {spec.u_fn, spec.v_fn, spec.w_fn};
  std::string err, got;
  for (int b = 1; b <= nb; ++b)
    for (int a = 1; a <= na; ++a) {
      const double ca = (a - 0.5) * (T1 == 0 ? g.dx : g.dy), cb = (b - 0.5) * (T2 == 1 ? g.dy : g.dz);
      double vel[3] = {spec.u, spec.v, spec.w};
      for (int comp = 0; comp < 3; ++comp) {
        if (!fn[comp]) continue;
        push_fn(comp == 2 ? 3 : comp);
        lua_pushnumber(L, ca);
        lua_pushnumber(L, cb);
        lua_pushnumber(L, t);
        auto where = [&] {
          return std::string(axes[T1]) + " = " + fmt(ca) + ", " + axes[T2] + " = " + fmt(cb) + ", t = " + fmt(t);
        };
        const std::string what = std::string("inflow ") + comps[comp] + " function(" + axes[T1] + ", " + axes[T2] +
                                 ", t) on the " + sname + " side";
        if (!call_checked(L, 3, 1, false, &err)) throw CaseError(what + " failed at " + where() + ": " + err);
        const bool ok = lua_type(L, -1) == LUA_TNUMBER && std::isfinite(lua_tonumber(L, -1));
        if (ok) vel[comp] = lua_tonumber(L, -1);
        else got = lua_type(L, -1) == LUA_TNUMBER ? fmt(lua_tonumber(L, -1)) : describe_value(L, -1);
        lua_pop(L, 1);
        if (!ok) throw CaseError(what + " returned " + got + " at " + where() + "; it must return a finite number");
      }
      const bool high = int(side) % 2 == 1;
      const double normal = high ? -vel[A] : vel[A];
      if (spec.type == BoundarySpec::Type::Wall && normal != 0)
        throw CaseError("a wall on the " + sname + " side cannot have a velocity through it (" + comps[A] + " = " +
                        fmt(vel[A]) + "); walls move along themselves only. For flow through a side use "
                        "flow.inflow{ " + comps[A] + " = ... }");
      const std::size_t q = std::size_t(a - 1) + std::size_t(na) * (b - 1);
      c.normal[q] = normal;
      c.tangential[q] = vel[T1];
      c.tangential2[q] = vel[T2];
    }
  return c;
}

void read_boundaries3(const TableReader& top, CaseSpec& c, FnStore& store, Boundaries3& out) {
  lua_State* L = top.state();
  const Grid3& g = c.common.grid3;
  if (!top.has("boundaries"))
    throw CaseError("boundaries is missing: give the six sides of the 3D box, boundaries = { left = ..., right = "
                    "..., bottom = ..., top = ..., back = ..., front = ... }");
  top.push("boundaries");
  TableReader b(L, -1, "boundaries", {"left", "right", "bottom", "top", "back", "front"});
  std::array<BoundarySpec, 6> specs;
  for (Side side : kSides3) {
    const std::string name = side_name(side);
    b.push(name.c_str());
    const int idx = lua_gettop(L);
    auto* ud = test_udata<BoundaryUD>(L, idx, kBoundaryMeta);
    if (!ud) {
      const std::string d = describe_value(L, idx);
      const bool missing = lua_isnil(L, idx);
      lua_pop(L, 2);
      if (missing)
        throw CaseError("boundaries." + name + " is missing: every side of a 3D box needs a condition "
                        "(left, right, bottom, top, back (z = 0) and front (z = lz)): flow.wall{...}, flow.slip(), "
                        "flow.inflow{...}, flow.outflow() or flow.periodic()");
      throw CaseError("boundaries." + name + " must be a boundary such as flow.wall() or flow.inflow{...} (got " + d +
                      ")");
    }
    const BoundarySpec spec = ud->spec;
    specs[int(side)] = spec;
    c.side_text[int(side)] = spec.describe();
    DynamicSide dyn;
    dyn.side = side;
    dyn.spec = spec;
    dyn.three_d = true;
    const int uv[4] = {1, 2, 0, 4};  // uservalue of the u, v, (T), w function
    for (int comp : {0, 1, 3}) {
      const bool has = comp == 0 ? spec.u_fn : comp == 1 ? spec.v_fn : spec.w_fn;
      if (!has) continue;
      lua_getiuservalue(L, idx, uv[comp]);
      (comp == 0 ? dyn.slot_a : comp == 1 ? dyn.slot_b : dyn.slot_w) = store.store(-1);
      lua_pop(L, 1);
    }
    try {
      out[int(side)] = evaluate_side3(L, side, g, spec, 0.0, [&](int which) {
        store.push(which == 0 ? dyn.slot_a : which == 1 ? dyn.slot_b : dyn.slot_w);
      });
    } catch (...) {
      lua_pop(L, 2);
      throw;
    }
    lua_pop(L, 1);
    if (spec.dynamic()) c.dynamic.push_back(dyn);
  }
  lua_pop(L, 1);
  using T = BoundarySpec::Type;
  for (auto [lo, hi, axis] : {std::tuple{Side::Left, Side::Right, "x"}, std::tuple{Side::Bottom, Side::Top, "y"},
                              std::tuple{Side::Back, Side::Front, "z"}}) {
    const bool pl = specs[int(lo)].type == T::Periodic, ph = specs[int(hi)].type == T::Periodic;
    if (pl != ph) {
      const Side p = pl ? lo : hi, o = pl ? hi : lo;
      throw CaseError("boundaries." + std::string(side_name(p)) + " is periodic but boundaries." + side_name(o) +
                      " is " + specs[int(o)].type_name() + ": periodic in " + axis + " must be on both the " +
                      side_name(lo) + " and the " + side_name(hi) + " side");
    }
  }
}

}  // namespace flowlua::lua
