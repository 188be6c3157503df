#include "models/lbm_swe/lbm_swe_setup.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace flowlua::lbm_swe {

namespace {
std::string num(double v) {
  std::ostringstream o;
  o.precision(4);
  o << v;
  return o.str();
}
}  // namespace

Setup prepare(const LbmSweConfig& c) {
  Setup s;
  const Grid& g = c.grid;
  const long n = long(g.nx) * g.ny;
  if (std::fabs(g.dx - g.dy) > 1e-9 * g.dx)
    throw CaseError("model = 'lbm_swe' needs square cells: grid.lx / grid.nx = " + num(g.dx) +
                    " but grid.ly / grid.ny = " + num(g.dy));
  if (!(c.gravity > 0)) throw CaseError("fluid.gravity must be a positive number (got " + num(c.gravity) + ")");
  if (!(c.nu > 0)) throw CaseError("fluid.nu must be a positive number (got " + num(c.nu) + ")");
  if (long(c.h0.size()) != n) throw CaseError("lbm_swe: the initial depth is missing (initial = { h = ... } or { eta = ... })");
  if ((c.sides[0].kind == SweSide::Periodic) != (c.sides[1].kind == SweSide::Periodic) ||
      (c.sides[2].kind == SweSide::Periodic) != (c.sides[3].kind == SweSide::Periodic))
    throw CaseError("a periodic side needs the opposite side periodic too");
  s.solid = !c.solid.empty() && std::any_of(c.solid.begin(), c.solid.end(), [](std::uint8_t v) { return v != 0; });
  double vol = 0;
  long wet = 0;
  for (long k = 0; k < n; ++k) {
    if (s.solid && c.solid[k]) continue;
    const double h = c.h0[k];
    const int i = int(k % g.nx), j = int(k / g.nx);
    if (!(h > 0))
      throw CaseError("lbm_swe: the initial depth must be positive in every wet cell; h = " + num(h) + " at x = " +
                      num((i + 0.5) * g.dx) + ", y = " + num((j + 0.5) * g.dy) +
                      " (this model has no wetting and drying)");
    const double u = c.u0.empty() ? 0 : c.u0[k], v = c.v0.empty() ? 0 : c.v0[k];
    s.max_wave = std::max(s.max_wave, std::hypot(u, v) + std::sqrt(c.gravity * h));
    vol += h;
    ++wet;
  }
  if (wet == 0) throw CaseError("lbm_swe: obstacles cover every cell");
  s.h_ref = vol / double(wet);
  for (int k = 0; k < 4; ++k)
    for (double v : c.sides[k].values)
      if (c.sides[k].kind == SweSide::OutflowH && !(v > 0))
        throw CaseError(std::string("the outflow depth on the ") + (k == 0 ? "left" : k == 1 ? "right" : k == 2 ? "bottom" : "top") +
                        " side must be positive (got h = " + num(v) + ")");
  if (!c.bed.empty()) {
    const double z0 = c.bed[0];
    s.bed = std::any_of(c.bed.begin(), c.bed.end(), [z0](double z) { return z != z0; });
  }
  // The time step: given, or cfl * dx / max(|u| + sqrt(g h)) (the lattice speed then
  // exceeds every signal speed of the initial state by 1 / cfl).
  if (c.time.dt > 0) {
    s.dt = c.time.dt;
  } else {
    s.dt = c.time.cfl * g.dx / s.max_wave;
    s.dt_chosen = true;
  }
  s.e = g.dx / s.dt;
  // Zhou's conditions (seed eqs. 3.17-3.18): |u| and sqrt(g h) below e; the rest
  // distribution f0 = h (1 - 5 g h / 6 e^2 - ...) stays positive only then.
  if (s.max_wave >= s.e)
    throw CaseError("lbm_swe: the time step is too large for this initial state: max(|u| + sqrt(g h)) = " +
                    num(s.max_wave) + " m/s is not below the lattice speed e = dx / dt = " + num(s.e) +
                    " m/s (dt = " + num(s.dt) + " s); use dt <= " + num(0.5 * g.dx / s.max_wave) +
                    " s or leave dt out (time.cfl picks it)");
  s.tau = 0.5 + 3 * c.nu * s.dt / (g.dx * g.dx);
  const double margin = kMinTauMargin[c.collision == SweCollision::Trt ? 1 : 0];
  if (s.tau - 0.5 < margin)
    throw CaseError("lbm_swe: fluid.nu = " + num(c.nu) + " gives the relaxation time tau = " + num(s.tau) +
                    ", too close to 1/2 for collision = '" + (c.collision == SweCollision::Trt ? "trt" : "bgk") +
                    "' at dx = " + num(g.dx) + " and dt = " + num(s.dt) + "; the smallest nu allowed is " +
                    num(margin * g.dx * g.dx / (3 * s.dt)) +
                    (c.collision == SweCollision::Bgk
                         ? " (collision = 'trt' allows " + num(kMinTauMargin[1] * g.dx * g.dx / (3 * s.dt)) + ")"
                         : std::string()));
  if (c.storage == SweStorage::Fp16 && c.precision != Precision::Float)
    throw CaseError("storage = 'fp16' stores the distributions in 16 bits and computes in float: "
                    "give precision = 'float' with it");
  return s;
}

std::string describe_setup(const LbmSweConfig& c, const Setup& s) {
  std::ostringstream o;
  o << "lattice    D2Q9, Zhou's equilibrium; dt = " << num(s.dt)
    << (s.dt_chosen ? " s (chosen: time.cfl = " + num(c.time.cfl) + " times dx / max(|u| + sqrt(g h)) = " +
                          num(s.max_wave) + " m/s)"
                    : " s (time.dt)")
    << ", e = dx/dt = " << num(s.e) << " m/s, tau = " << num(s.tau) << "\n";
  o << "collision  " << (c.collision == SweCollision::Trt ? "TRT (Lambda = 1/4)" : "BGK")
    << (c.smagorinsky > 0 ? ", Smagorinsky C_s = " + num(c.smagorinsky) : std::string()) << "; storage "
    << (c.storage == SweStorage::Fp16 ? "fp16 (arithmetic in float)" : precision_name(c.precision)) << "\n";
  o << "sources    " << (s.bed ? "bed slope (Zhou's centred scheme)" : "flat bed (no slope force)");
  if (c.friction == SweFriction::Manning) o << ", Manning n = " << num(c.friction_coefficient);
  if (c.friction == SweFriction::Chezy) o << ", Chezy C = " << num(c.friction_coefficient);
  o << "\n";
  return o.str();
}

}  // namespace flowlua::lbm_swe
