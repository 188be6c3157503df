// What the lattice-Boltzmann shallow-water model (seed 003: Zhou's LABSWE, as in
// HONEI) needs to build one simulation, beyond the shared part of the case. The Lua
// host fills it (bindings/lbm_swe_reader.cpp); lbm_swe_setup.cpp checks it.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/config.hpp"

namespace flowlua {

class Solver;

// One side of the basin. Values are per boundary cell (ny on left/right, nx on
// bottom/top, in increasing coordinate order).
enum class SweSide : int {
  Wall = 0,       // bounce-back (no slip)
  Slip = 1,       // specular reflection (free slip)
  Periodic = 2,   // wraps to the opposite side (both sides must say so)
  InflowQ = 3,    // given discharge per unit width q (m^2/s, into the domain)
  InflowU = 4,    // given normal velocity u (m/s, into the domain)
  OutflowH = 5,   // given depth h (m), e.g. a tide
  OutflowFree = 6 // zero gradient: the missing distributions copied from the cell
};
inline const char* swe_side_name(SweSide s) {
  switch (s) {
    case SweSide::Wall: return "wall (bounce-back)";
    case SweSide::Slip: return "slip (specular reflection)";
    case SweSide::Periodic: return "periodic";
    case SweSide::InflowQ: return "inflow (given discharge q)";
    case SweSide::InflowU: return "inflow (given velocity u)";
    case SweSide::OutflowH: return "outflow (given depth h)";
    case SweSide::OutflowFree: return "outflow (zero gradient)";
  }
  return "?";
}
inline bool swe_side_open(SweSide s) { return int(s) >= int(SweSide::InflowQ); }

struct SweSideCondition {
  SweSide kind = SweSide::Wall;
  std::vector<double> values;  // q, u or h per boundary cell; empty for the others
};

enum class SweCollision { Bgk, Trt };
enum class SweFriction { None, Manning, Chezy };
enum class SweStorage { Same, Fp16 };  // distributions in the arithmetic precision, or 16-bit

struct LbmSweConfig : CaseCommon {
  double gravity = 9.81;  // m/s^2
  double nu = 0;          // kinematic viscosity (m^2/s): tau = 1/2 + 3 nu dt / dx^2
  // Bed elevation z and initial depth h and velocity (u, v) at the cell centres,
  // nx * ny, index i + j nx (0-based); z may be empty (flat bed at 0).
  std::vector<double> bed, h0, u0, v0;
  std::vector<std::uint8_t> solid;  // nx * ny, 1 = obstacle (bounce-back); empty: none
  std::array<SweSideCondition, 4> sides;  // left, right, bottom, top
  SweFriction friction = SweFriction::None;
  double friction_coefficient = 0;  // Manning n (s/m^(1/3)) or Chezy C (m^(1/2)/s)
  SweCollision collision = SweCollision::Bgk;
  double smagorinsky = 0;           // C_s of the eddy viscosity (0: off)
  SweStorage storage = SweStorage::Same;
};

// Builds the model on the requested backend ("auto": CUDA when a device answers).
std::unique_ptr<Solver> make_lbm_swe_solver(const LbmSweConfig& config);

}  // namespace flowlua
