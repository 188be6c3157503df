#include "sim/steady.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "core/error.hpp"
#include "sim/solver.hpp"

namespace flowlua {

void SteadyMonitor::reset() {
  samples_ = 0;
  checked_ = false;
  change_ = previous_change_ = std::numeric_limits<double>::infinity();
}

double SteadyMonitor::interval(const Solver& solver) const {
  if (interval_ > 0) return interval_;
  const double steps = solver.steady_interval_steps();
  return (steps > 0 ? steps : kDefaultSteps) * solver.dt();
}

bool SteadyMonitor::due(const Solver& solver) const {
  if (!enabled()) return false;
  if (samples_ == 0) return true;
  // Spans D, kLongSpan D, D, ...: the span that ends at sample number samples_ + 1.
  const double factor = samples_ % 2 == 0 ? kLongSpan : 1.0;
  // A given interval: the time bound (Solver::time_upper_bound) decides most steps
  // without reading the time back. The default interval needs the current dt.
  if (interval_ > 0 && solver.time_upper_bound() < now_.time + interval_ * factor * (1 - 1e-9)) return false;
  const double span = interval(solver) * factor;
  return solver.time() >= now_.time + span * (1 - 1e-9);  // now_: the latest sample
}

double SteadyMonitor::measure(const SteadySample& now, const SteadySample& before) {
  const double span = now.time - before.time;
  if (!(span > 0) || now.groups.size() != before.groups.size())
    return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t g = 0; g < now.groups.size(); ++g) {
    const auto& a = now.groups[g].values;
    const auto& b = before.groups[g].values;
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    double diff = 0;
    for (std::size_t k = 0; k < a.size(); ++k) diff = std::max(diff, std::fabs(a[k] - b[k]));
    if (!std::isfinite(diff)) return std::numeric_limits<double>::infinity();
    const double scale = std::max(now.groups[g].scale, before.groups[g].scale);
    if (diff == 0) continue;  // nothing moved (a fluid at rest is steady)
    if (!(scale > 0)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, diff / (span * scale));
  }
  return worst;
}

void SteadyMonitor::sample(Solver& solver) {
  // Before the first step there is no dt (and so no default interval) yet.
  if (!(interval(solver) > 0)) return;
  std::swap(now_, before_);
  solver.steady_sample(now_);
  now_.time = solver.time();
  ++samples_;
  if (samples_ < 2) return;
  previous_change_ = change_;
  change_ = measure(now_, before_);
  // Checked at the second sample, with the dt of the flow by then (the first steps of
  // a fluid at rest may take the far longer diffusive dt).
  if (!checked_ && !now_.groups.empty() && now_.groups[0].scale > 0) {
    checked_ = true;
    check_reachable(solver, now_.groups[0].scale, interval(solver));
  }
}

// The noise floor of kNoiseFactor (steady.hpp) over the shorter span D against the
// target: a combination the pressure solve cannot reach is refused instead of never
// being met.
void SteadyMonitor::check_reachable(const Solver& solver, double u_scale, double span) const {
  const double tol = solver.poisson_tolerance();
  const Grid& g = solver.common().grid;
  const double length = std::min(g.lx, g.ly);
  const double dt = solver.dt();
  if (!(tol > 0) || !(dt > 0) || !(span > 0)) return;
  const double floor = kNoiseFactor * tol * (u_scale / length) * dt / span;
  if (floor <= target_) return;
  std::ostringstream m;
  m << "time.steady = " << target_ << " cannot be reached with pressure.tol = " << tol
    << ": each pressure solve leaves a velocity error that makes the measured change about "
    << floor << " per time unit (over time.steady_interval = " << span << ", dt = " << dt
    << ", velocity scale " << u_scale << "); use pressure.tol <= " << tol * target_ / floor
    << ", a longer time.steady_interval (>= " << span * floor / target_
    << ") or a larger time.steady";
  throw CaseError(m.str());
}

}  // namespace flowlua
