// Checks of an lbm_swe case and the numbers the step derives from it: the time step
// (given, or from the initial state and time.cfl), the lattice speed e = dx / dt and
// the relaxation time tau = 1/2 + 3 nu dt / dx^2 (seed eq. 3.15).
#pragma once
#include <string>

#include "models/lbm_swe/lbm_swe_config.hpp"

namespace flowlua::lbm_swe {

struct Setup {
  double dt = 0, e = 0, tau = 0;
  bool dt_chosen = false;    // picked from the initial state (no time.dt)
  double max_wave = 0;       // max over wet cells of |u| + sqrt(g h) at t = 0
  double h_ref = 0;          // mean initial depth (the 16-bit storage's reference)
  bool bed = false;          // a bed that is not flat: the step carries the slope force
  bool solid = false;        // obstacles
};

// The smallest tau - 1/2 each collision accepts (docs/case-language.md, lbm_swe).
inline constexpr double kMinTauMargin[2] = {0.01, 0.001};  // BGK, TRT

// Throws CaseError naming the numbers when the case cannot run.
Setup prepare(const LbmSweConfig& c);
std::string describe_setup(const LbmSweConfig& c, const Setup& s);

}  // namespace flowlua::lbm_swe
