// The steady-state test of the run loop (time.steady, time.steady_interval), the same
// for every model: a model only hands over its velocity (Solver::steady_sample).
//
// During sim:run() the loop copies the model's velocity (and, where the model
// transports one, its temperature) to the host every so often and compares it with
// the previous copy:
//
//   change = max over groups g of  max_k |x_k(t) - x_k(t - S)| / (S * X_g)
//
// with S the simulated time between the two copies and X_g the group's scale: for the
// velocity U, the largest |u|, |v| in the field and on the boundaries; for a
// temperature the range of T. So `change` is a rate in 1/time: the largest change of
// the velocity per unit time, as a fraction of the velocity scale. The spans S
// alternate between D (time.steady_interval; default 500 times the current dt) and
// kLongSpan * D; the steady measure is the larger of the last two changes (one over
// each span), and the flow is steady when it is below the target.
//
// Why over an interval and not one step: a pressure solve that stops at a relative
// tolerance leaves a velocity error that changes from step to step; divided by a small
// dt (the old per-step max |u^{n+1} - u^n| / dt) it stays above 1e-4 for ever in the
// 128^2 cavity (issue 16), while over an interval it is divided by S.
// Why two spans of irrational ratio: a flow with period T compares equal to itself
// over any S that is a multiple of T; it cannot be (nearly) a multiple of both D and
// kLongSpan * D unless T is a tiny fraction of D, so a periodic flow (a shedding
// cylinder) is never taken for steady, whatever interval a user picks.
#pragma once
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace flowlua {

class Solver;

// What a model hands the steady test: groups of values, each with its scale. The
// vectors are reused from sample to sample (resize, not reallocate).
struct SteadySample {
  struct Group {
    std::string name;             // "velocity", "temperature": for messages
    std::vector<double> values;   // any fixed layout; the same from sample to sample
    double scale = 0;             // U, or the range of T; 0: nothing moves (yet)
  };
  double time = 0;
  std::vector<Group> groups;
};

class SteadyMonitor {
 public:
  // interval <= 0: the default, kDefaultSteps times the current dt.
  static constexpr double kDefaultSteps = 500;
  // Every second span is this much longer (the golden ratio: no span ratio is
  // closer to a ratio of small integers).
  static constexpr double kLongSpan = 1.6180339887498949;
  // A pressure solve stopped at relative tolerance tol leaves a velocity error of
  // about C * tol * dt * U per step, C up to ~40 U / L in the 128^2 cavity (measured
  // in issue 16: max |u^{n+1} - u^n| / dt levelled off at up to 4e-3 with tol = 1e-4);
  // between two samples N = D / dt steps apart that reads as a change of up to about
  // 2 C tol / N. The run is refused when this floor exceeds the target.
  static constexpr double kNoiseFactor = 100;

  SteadyMonitor(double target, double interval) : target_(target), interval_(interval) {}

  // Forget the samples (a new run() starts comparing afresh).
  void reset();
  bool enabled() const { return target_ > 0; }
  // Whether the loop should take a sample now.
  bool due(const Solver& solver) const;
  // Takes a sample from the solver and updates change(). Throws CaseError when the
  // target cannot be reached with the model's Poisson tolerance (checked once per run,
  // at the second sample).
  void sample(Solver& solver);
  // The steady measure (1/time): the larger of the changes over the last two spans
  // (one D, one kLongSpan D); infinity before three samples.
  double change() const { return std::max(change_, previous_change_); }
  bool steady() const { return enabled() && change() < target_; }
  double target() const { return target_; }
  // D: the shorter span (time.steady_interval, or 500 times the current dt).
  double interval(const Solver& solver) const;

  // The change between two samples (public for tests).
  static double measure(const SteadySample& now, const SteadySample& before);

 private:
  void check_reachable(const Solver& solver, double velocity_scale, double span) const;

  double target_ = 0, interval_ = 0;
  double change_ = std::numeric_limits<double>::infinity();
  double previous_change_ = std::numeric_limits<double>::infinity();
  long samples_ = 0;  // taken in this run
  bool checked_ = false;
  SteadySample now_, before_;
};

}  // namespace flowlua
