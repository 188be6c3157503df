#include "psi_omega_reader.hpp"

#include <cmath>

#include "core/error.hpp"
#include "host.hpp"

namespace flowlua::lua {

namespace {

// fluid.gravity as { gx, gy } or { gx = , gy = }; false when absent.
bool read_gravity(const TableReader& f, double& gx, double& gy) {
  lua_State* L = f.state();
  int gt = f.type("gravity");
  if (gt == LUA_TNIL) return false;
  f.push("gravity");
  StackGuard guard(L);
  if (gt != LUA_TTABLE)
    throw CaseError("fluid.gravity must be a table { gx, gy } (got " + describe_value(L, -1) + ")");
  TableReader g(L, -1, "fluid.gravity", {"gx", "gy"}, {}, true);
  lua_rawgeti(L, -1, 1);
  lua_rawgeti(L, -2, 2);
  if (!lua_isnil(L, -2) || !lua_isnil(L, -1)) {
    gx = to_finite(L, -2, "fluid.gravity[1] (gx)");
    gy = to_finite(L, -1, "fluid.gravity[2] (gy)");
  } else {
    gx = g.number("gx", 0);
    gy = g.number("gy", 0);
  }
  lua_pop(L, 1);  // the guard pops the rest
  return true;
}

}  // namespace

// Viscosity: nu, or Re (nu = U L / Re), or with Ra: nu = Pr kappa.
// Diffusivity (heat transport on): kappa, or Pr (kappa = nu / Pr), or with Ra: kappa
// (default 1, so velocities come in units of kappa / L when L = 1).
// Buoyancy: beta with gravity, or Ra = beta |g| dT L^3 / (nu kappa) with
// reference_length L (default 1), reference_temperature_difference dT (default 1) and
// gravity (default { 0, -1 }): beta = Ra nu kappa / (|g| dT L^3).
void read_fluid_psi_omega(const TableReader& top, CaseSpec& c) {
  lua_State* L = top.state();
  top.push("fluid");
  StackGuard guard(L);
  TableReader f(L, -1, "fluid",
                {"nu", "Re", "reference_velocity", "reference_length", "kappa", "beta", "Pr", "Ra",
                 "reference_temperature_difference", "gravity"},
                {{"rho", "does not apply to the psi_omega model (it has no pressure; density only enters "
                         "through beta)"}});
  auto nu = f.opt_number("nu"), re = f.opt_number("Re"), kappa = f.opt_number("kappa"), beta = f.opt_number("beta");
  auto pr = f.opt_number("Pr"), ra = f.opt_number("Ra");
  HeatConfig& h = c.config.heat;
  double gx = 0, gy = 0;
  const bool gravity = read_gravity(f, gx, gy);
  if (f.has("reference_temperature_difference") && !ra)
    throw CaseError("fluid.reference_temperature_difference goes with fluid.Ra");
  if (ra) {
    if (!pr) throw CaseError("fluid.Ra needs fluid.Pr (nu = Pr kappa)");
    if (nu || re) throw CaseError("fluid.Ra with Pr sets the viscosity (nu = Pr kappa): give neither nu nor Re");
    if (beta) throw CaseError("fluid.Ra sets beta: give one of them");
    if (f.has("reference_velocity")) throw CaseError("fluid.reference_velocity goes with fluid.Re, not Ra");
    check_positive("fluid.Ra", *ra);
    check_positive("fluid.Pr", *pr);
    h.kappa = kappa.value_or(1.0);
    check_positive("fluid.kappa", h.kappa);
    c.config.nu = *pr * h.kappa;
    if (!gravity) gy = -1;
    const double g = std::hypot(gx, gy);
    if (!(g > 0)) throw CaseError("fluid.Ra needs a nonzero fluid.gravity");
    const double len = f.number("reference_length", 1.0), dT = f.number("reference_temperature_difference", 1.0);
    check_positive("fluid.reference_length", len);
    check_positive("fluid.reference_temperature_difference", dT);
    h.beta = *ra * c.config.nu * h.kappa / (g * dT * len * len * len);
    h.enabled = true;
  } else {
    if (nu && re) throw CaseError("fluid has both nu and Re: give one of them");
    if (!nu && !re)
      throw CaseError("fluid needs nu (the kinematic viscosity), Re (with reference_velocity and "
                      "reference_length, default 1), or Ra and Pr");
    if ((f.has("reference_velocity") || f.has("reference_length")) && !re)
      throw CaseError("fluid.reference_velocity and fluid.reference_length go with fluid.Re (or Ra)");
    if (nu) {
      check_positive("fluid.nu", *nu);
      c.config.nu = *nu;
    } else {
      check_positive("fluid.Re", *re);
      double u = f.number("reference_velocity", 1.0), l = f.number("reference_length", 1.0);
      check_positive("fluid.reference_velocity", u);
      check_positive("fluid.reference_length", l);
      c.config.nu = u * l / *re;
    }
    if (kappa && pr) throw CaseError("fluid has both kappa and Pr: give one of them (kappa = nu / Pr)");
    if (kappa) {
      check_positive("fluid.kappa", *kappa);
      h.kappa = *kappa;
    } else if (pr) {
      check_positive("fluid.Pr", *pr);
      h.kappa = c.config.nu / *pr;
    }
    h.enabled = kappa || pr;
    if (beta && !h.enabled)
      throw CaseError("fluid.beta (buoyancy) needs a temperature field: give fluid.kappa or fluid.Pr too");
    h.beta = beta.value_or(0.0);
  }
  c.config.gx = gx;
  c.config.gy = gy;
}

void read_kernels_psi_omega(const TableReader& top, CaseSpec& c) {
  if (!top.has("kernels")) return;
  lua_State* L = top.state();
  top.push("kernels");
  StackGuard guard(L);
  TableReader t(L, -1, "kernels", {"advection", "diffusion", "wall_vorticity", "transport", "stream", "general"},
                {{"gamma", "is the projection model's donor-cell weight; psi_omega takes advection = "
                           "'upwind', 'central' or 'upwind2'"}});
  std::string a = t.string("advection", "central");
  if (a == "donor_cell")
    throw CaseError("kernels.advection = 'donor_cell' is the projection model's name; the psi_omega model "
                    "calls first-order upwind 'upwind' (allowed: 'upwind', 'central', 'upwind2')");
  a = t.choice("advection", "central", {"upwind", "central", "upwind2"});
  c.config.psi_omega.advection = a == "upwind" ? ScalarAdvection::Upwind
                               : a == "central" ? ScalarAdvection::Central : ScalarAdvection::Upwind2;
  c.advection = a;
  c.config.psi_omega.wall =
      t.choice("wall_vorticity", "thom", {"thom", "jensen"}) == "jensen" ? WallVorticity::Jensen : WallVorticity::Thom;
  std::string d = t.string("diffusion", "explicit");
  if (d == "implicit")
    throw CaseError("kernels.diffusion = 'implicit' (the seed's IMEX scheme) is not yet available in the "
                    "psi_omega model; allowed: 'explicit'");
  t.choice("diffusion", "explicit", {"explicit"});
  read_forced_kernels(t, {"transport", "stream"}, c);  // psi_omega_kernels.cpp
}

}  // namespace flowlua::lua
