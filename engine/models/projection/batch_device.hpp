// The one-thread stages of a batch step with dt and the SOR stop on the device
// (projection_batch_resident.hpp): a shared dt (flow.batch dt = "shared") taken as the
// smallest of the members' own dts in backend memory, and the batch's "another body
// of sweeps?" flag from the members' own. Each member's slots are its block of the
// batch's scalar array (`stride` doubles a member, StepSlot and the SOR slots of
// projection_solver.hpp); `who` lists the members stepping (backend memory).
#pragma once
#include <cmath>

#include "core/hd.hpp"
#include "models/projection/dt_rule.hpp"

namespace flowlua::projection {

// dt = "shared": where a member leaves its own dt before the minimum. The host path's
// ||r||^2 slot (kResidual2), which a batch on the device does not use.
constexpr int kOwnDt = kResidual2;

// Shared dt, first stage: the member's own dt before any cap, from its maxima (when
// `speed`), as DeviceDt computes it; NaN when its velocity is not finite (the host
// path leaves such a member out of the minimum: it fails).
struct BatchOwnDt {
  double* s;
  DtRule rule;
  bool speed, peclet;
  FL_HD void operator()(int, int) const {
    const double inv_t = speed ? s[kInverseTime] : 0;
    const double speed2 = speed && peclet ? s[kSpeedSquared] : 0;
    s[kOwnDt] = inv_t - inv_t == 0 ? rule.next(inv_t, speed2) : NAN;
  }
};

// The smallest of the stepping members' values at `slot` (their own dts) into *out;
// NaNs (members that blew up) are passed over.
struct BatchSmallest {
  const double* scal;
  int stride, slot;
  const int* who;
  int n;
  double* out;
  FL_HD void operator()(int, int) const {
    double m = INFINITY;
    for (int k = 0; k < n; ++k) m = lesser(m, scal[std::size_t(who[k]) * stride + slot]);
    *out = m;
  }
};

// Shared dt, last stage: the member takes the common dt, capped to land on its own end
// time (or by its kDtCap) exactly as the host path caps a shared dt
// (ProjectionSolver::finish_dt), then 1/dt, gamma from its own maxima and its time as
// DeviceDt.
struct BatchSharedDt {
  double* s;
  const double* common;
  DtRule rule;
  bool speed;
  FL_HD void operator()(int, int) const {
    const double inv_t = speed ? s[kInverseTime] : 0;
    const double t0 = s[kTime], end = s[kEndTime];
    const double cap = end - end == 0 ? end - t0 : s[kDtCap];
    const double shared = *common;
    double dt = shared;
    if (!(shared > 0)) dt = s[kOwnDt];  // as finish_dt: no common dt, the member's own
    if (cap > 0) dt = lesser(dt, cap);
    s[kDt] = dt;
    s[kInvDt] = 1 / dt;
    s[kGamma] = rule.weight(dt, inv_t);
    s[kTimeBefore] = t0;
    s[kTime] = t0 + dt;
  }
};

// 1 into *out when any stepping member's flag at `slot` (its SOR kContinue) is
// non-zero: the batch sweeps another body while one member still iterates.
struct BatchAny {
  const double* scal;
  int stride, slot;
  const int* who;
  int n;
  double* out;
  FL_HD void operator()(int, int) const {
    double any = 0;
    for (int k = 0; k < n; ++k)
      if (scal[std::size_t(who[k]) * stride + slot] != 0) any = 1;
    *out = any;
  }
};

}  // namespace flowlua::projection
