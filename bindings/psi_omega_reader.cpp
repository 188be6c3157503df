#include "psi_omega_reader.hpp"

#include <cmath>

#include "core/error.hpp"
#include "host.hpp"

namespace flowlua::lua {


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
    c.config.nu = read_viscosity(f,
                                 "fluid needs nu (the kinematic viscosity), Re (with reference_velocity and "
                                 "reference_length, default 1), or Ra and Pr",
                                 "fluid.Re (or Ra)");
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
