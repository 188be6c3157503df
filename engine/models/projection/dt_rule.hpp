// The projection model's time step (seed 002 eq. 9; Griebel, Dornseifer & Neunhoeffer
// 1998 eq. 3.50 with the squares) as one rule for both places that compute it: the
// host, from the maxima a reduction copied back (kernels.dt = "host"), and the device,
// where DeviceDt turns the maxima into dt, 1/dt, gamma and the new time without any
// copy to the host (kernels.dt = "device"). Both do the same operations in the same
// order, and nothing is contracted into a fused multiply-add (nvcc would, the host
// compiler does not on x86-64), so both give the same dt bit for bit.
//
// The step's scalars live in the solver's slots (StepSlot, backend memory): the
// kernels of a step in device mode read dt, 1/dt and gamma from slots kDt, kInvDt,
// kGamma (three in a row: the `step` pointer of the point functions).
#pragma once
#include <cmath>

#include "core/hd.hpp"

namespace flowlua::projection {

// The slots of a solver's scalar array (doubles in backend memory). The reductions'
// results come first; then the step's scalars; the block the host reads back after a
// step in device mode is the whole array (one copy).
enum StepSlot : int {
  kInverseTime,   // max(|u|/dx, |v|/dy)
  kSpeedSquared,  // max(u^2 + v^2)
  kRhsSum,        // sum of rhs over fluid cells (its mean is removed without outflow)
  kPressureSum,   // sum of p over fluid cells
  kRhsNorm2,      // the batch's ||rhs||^2 (projection_batch.hpp)
  kResidual2,     // the batch's ||r||^2
  kDt,            // the step's dt,
  kInvDt,         //   1/dt and
  kGamma,         //   the donor-cell weight, as the kernels read them in device mode
  kTime,          // the time after the step (device mode)
  kTimeBefore,    // the time before it (for the message of a blow-up)
  kEndTime,       // the run's t_end (infinity: none): the step lands on it
  kDtCap,         // limit_next_dt's cap (<= 0: none), when there is no end time
  kStepSlots      // the first slot after these (the pressure solver's, projection_solver.hpp)
};

// a * b and a + b rounded once each, never fused (see above).
FL_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
FL_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
// std::min(a, b), NaN handling included: b when b < a, else a.
FL_HD double lesser(double a, double b) { return b < a ? b : a; }

struct DtRule {
  double fixed = 0;      // time.dt: > 0 fixes the step
  double diffusive = 0;  // 0.5 / (nu (1/dx^2 + 1/dy^2)): Griebel eq. 3.50, with the squares
  double cfl = 0;        // time.cfl, the safety factor
  double gamma = 0;      // advection.gamma (< 0: automatic)
  double nu = 0, h = 0;  // viscosity, min(dx, dy)

  // dt before any cap, from inv_t = max(|u|/dx, |v|/dy) and speed2 = max(u^2 + v^2)
  // (0 when they were not reduced).
  FL_HD double next(double inv_t, double speed2) const {
    if (!(fixed <= 0)) return fixed;
    const double convective = inv_t > 0 ? 1 / inv_t : diffusive;
    double dt = lesser(diffusive, convective);
    // Cell-Peclet limit of central advection, relaxed by the donor-cell share: the
    // upwind part adds a diffusion of about gamma |u| h / 2.
    if (speed2 > 0 && gamma >= 0) {
      const double nu_eff = add_rn(nu, mul_rn(mul_rn(mul_rn(0.5, gamma), sqrt(speed2)), h));
      dt = lesser(dt, 2 * nu_eff / speed2);
    }
    return mul_rn(dt, cfl);
  }
  // The donor-cell weight of a step: Griebel's rule gamma = min(1, 1.2 max CFL) when
  // automatic.
  FL_HD double weight(double dt, double inv_t) const {
    return gamma >= 0 ? gamma : lesser(1.0, mul_rn(mul_rn(1.2, dt), inv_t));
  }
};

// kernels.dt = "device": one thread turns the maxima of this step (when `speed`: they
// were reduced into kInverseTime and, with `peclet`, kSpeedSquared) into dt, capped to
// land on kEndTime (or by kDtCap), 1/dt, gamma and the time after the step.
struct DeviceDt {
  double* s;  // the solver's slots
  DtRule rule;
  bool speed, peclet;
  FL_HD void operator()(int, int) const {
    double inv_t = 0, speed2 = 0;
    if (speed) {
      inv_t = s[kInverseTime];
      if (peclet) speed2 = s[kSpeedSquared];
    }
    const double t0 = s[kTime], end = s[kEndTime];
    // A finite end time caps the step to the time left (the run loop's t_end).
    const double cap = end - end == 0 ? end - t0 : s[kDtCap];
    double dt = rule.next(inv_t, speed2);
    if (cap > 0) dt = lesser(dt, cap);
    s[kDt] = dt;
    s[kInvDt] = 1 / dt;
    s[kGamma] = rule.weight(dt, inv_t);
    s[kTimeBefore] = t0;
    s[kTime] = t0 + dt;
  }
};

}  // namespace flowlua::projection
