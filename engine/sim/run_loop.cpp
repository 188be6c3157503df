#include "sim/run_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "sim/interrupt.hpp"

namespace flowlua {

const char* stop_reason_text(StopReason reason) {
  switch (reason) {
    case StopReason::None: return "running";
    case StopReason::TimeEnd: return "reached t_end";
    case StopReason::MaxSteps: return "reached the step limit";
    case StopReason::Steady: return "reached a steady state";
    case StopReason::Requested: return "stopped by request";
    case StopReason::StepsDone: return "steps done";
    case StopReason::Interrupted: return "interrupted";
    case StopReason::Failed: return "failed";
  }
  return "?";
}

RunLoop::RunLoop(std::unique_ptr<Solver> solver) : solver_(std::move(solver)) {
  if (!solver_) throw std::invalid_argument("RunLoop needs a solver");
}

RunLoop::~RunLoop() = default;

void RunLoop::every_steps(long n, Callback fn) {
  if (n < 1) throw std::invalid_argument("every_steps: n must be >= 1");
  Scheduled s{Scheduled::Steps, n, 0, 0, std::move(fn)};
  schedule_.push_back(std::move(s));
}

void RunLoop::every_time(double interval, Callback fn) {
  if (!(interval > 0) || !std::isfinite(interval))
    throw std::invalid_argument("every_time: the interval must be > 0");
  double t = solver_->time();
  double k = std::floor(t / interval + 1e-9) + 1;
  Scheduled s{Scheduled::Time, 1, interval, k * interval, std::move(fn)};
  schedule_.push_back(std::move(s));
}

void RunLoop::on_finish(Callback fn) {
  Scheduled s{Scheduled::Finish, 1, 0, 0, std::move(fn)};
  schedule_.push_back(std::move(s));
}

void RunLoop::resync_schedule() {
  const double t = solver_->time();
  for (Scheduled& e : schedule_)
    if (e.kind == Scheduled::Time) e.next_time = (std::floor(t / e.interval + 1e-9) + 1) * e.interval;
}

void RunLoop::add_boundary_refresher(long every, Callback fn) {
  if (every < 1) throw std::invalid_argument("boundary refresher: every must be >= 1");
  refreshers_.push_back(Refresher{every, std::move(fn)});
}

void RunLoop::add_before_step(Callback fn) { before_.push_back(std::move(fn)); }

StopReason RunLoop::stop_condition() const {
  if (std::isfinite(stop_.t_end)) {
    const double end = stop_.t_end - 1e-12 * std::fabs(stop_.t_end);
    // The bound first: most steps are decided without reading the time back.
    if (solver_->time_upper_bound() >= end && solver_->time() >= end) return StopReason::TimeEnd;
  }
  if (stop_.max_steps >= 0 && solver_->steps() >= stop_.max_steps) return StopReason::MaxSteps;
  if (stepped_this_call_ && steady_.steady())
    return StopReason::Steady;
  return StopReason::None;
}

RunReport RunLoop::run() { return loop(0, true); }

RunReport RunLoop::step(long n) { return loop(std::max(n, 0L), false); }

void RunLoop::run_callback(const Callback& fn, bool may_print) {
  if (may_print) clear_bar();
  auto t0 = Clock::now();
  struct Timer {  // counts the time even when the callback throws
    double& acc;
    Clock::time_point t0;
    ~Timer() { acc += std::chrono::duration<double>(Clock::now() - t0).count(); }
  } timer{callback_s_, t0};
  fn();
}

void RunLoop::before_step() {
  for (std::size_t i = 0; i < before_.size(); ++i) {
    Callback fn = before_[i];  // a copy: the hook may add hooks
    run_callback(fn, false);
  }
  long s = solver_->steps();
  for (std::size_t i = 0; i < refreshers_.size(); ++i) {
    if (s % refreshers_[i].every != 0) continue;
    Callback fn = refreshers_[i].fn;
    run_callback(fn, false);
  }
}

void RunLoop::after_step() {
  long s = solver_->steps();
  std::size_t n = schedule_.size();  // callbacks added in this round wait for the next
  // The time is read (before any callback runs) only when a time callback may be due
  // by the bound of Solver::time_upper_bound.
  double t = -std::numeric_limits<double>::infinity();
  const double bound = solver_->time_upper_bound();
  for (std::size_t i = 0; i < n; ++i)
    if (schedule_[i].kind == Scheduled::Time && bound >= schedule_[i].next_time - 1e-9 * schedule_[i].interval) {
      t = solver_->time();
      break;
    }
  for (std::size_t i = 0; i < n; ++i) {
    Scheduled& e = schedule_[i];
    bool due = false;
    if (e.kind == Scheduled::Steps) {
      due = s % e.every_steps == 0;
    } else if (e.kind == Scheduled::Time) {
      if (t >= e.next_time - 1e-9 * e.interval) {
        due = true;
        e.next_time = (std::floor(t / e.interval + 1e-9) + 1) * e.interval;
      }
    }
    if (!due) continue;
    Callback fn = e.fn;  // a copy: the deque may grow while it runs
    run_callback(fn);
  }
}

void RunLoop::start_call(long n_steps, bool until_stop) {
  if (running_) throw std::logic_error("the simulation is already running");
  running_ = true;
  until_stop_ = until_stop;
  stop_requested_ = false;
  stepped_this_call_ = false;
  if (until_stop) {
    // Compare afresh in every run(); the first sample is the state it starts from.
    steady_.reset();
    if (steady_.enabled()) steady_.sample(*solver_);
  }
  callback_s_ = 0;
  call_steps_ = 0;
  call_target_ = until_stop ? -1 : n_steps;
  call_t0_ = solver_->time();
  call_start_ = last_draw_ = Clock::now();
  step0_ = solver_->steps();
}

StopReason RunLoop::next_stop() {
  if (stop_requested_) return StopReason::Requested;
  if (interrupt::pending()) return StopReason::Interrupted;
  if (until_stop_) return stop_condition();
  return call_steps_ >= call_target_ ? StopReason::StepsDone : StopReason::None;
}

void RunLoop::pre_step() {
  before_step();
  // Land on t_end: cap the step to the time that is left (no cap in step(n)).
  solver_->limit_end_time(until_stop_ ? stop_.t_end : std::numeric_limits<double>::infinity());
}

void RunLoop::post_step() {
  ++call_steps_;
  stepped_this_call_ = true;
  if (until_stop_ && steady_.due(*solver_)) steady_.sample(*solver_);
  after_step();
  draw_bar(false);
}

RunReport RunLoop::finish_call(StopReason reason, bool until_stop) {
  clear_bar();
  RunReport report;
  report.reason = reason;
  report.steps = solver_->steps() - step0_;
  report.sim_time = solver_->time();
  report.wall_s = std::chrono::duration<double>(Clock::now() - call_start_).count();
  report.callback_s = callback_s_;
  long cells = solver_->common().grid.cells();
  report.cell_updates_per_s =
      report.wall_s > 0 ? double(cells) * double(report.steps) / report.wall_s : 0.0;
  last_ = report;

  if (until_stop && report.reason != StopReason::Interrupted && report.reason != StopReason::Failed) {
    for (std::size_t i = 0; i < schedule_.size(); ++i) {
      if (schedule_[i].kind != Scheduled::Finish) continue;
      Callback fn = schedule_[i].fn;
      run_callback(fn);
    }
    if (progress_.summary) {
      std::string line = summary_line(report, cells);
      std::fprintf(progress_.stream, "%s%s%s\n", progress_.label.c_str(),
                   progress_.label.empty() ? "" : ": ", line.c_str());
      std::fflush(progress_.stream);
    }
  }
  return report;
}

RunReport RunLoop::loop(long n_steps, bool until_stop) {
  start_call(n_steps, until_stop);
  struct Reset {
    RunLoop* self;
    ~Reset() { self->abandon(); }
  } reset{this};

  StopReason reason;
  for (;;) {
    reason = next_stop();
    if (reason != StopReason::None) break;
    pre_step();
    solver_->step();
    post_step();
  }
  return finish_call(reason, until_stop);  // on_finish runs while the loop still counts as running
}

void RunLoop::begin(bool quiet) {
  start_call(0, true);
  if (quiet) {  // until abandon(): the batch reports for its members
    saved_progress_ = progress_;
    progress_saved_ = true;
    progress_.bar = progress_.summary = false;
  }
}

RunReport RunLoop::end(StopReason reason) {
  struct Reset {
    RunLoop* self;
    ~Reset() { self->abandon(); }
  } reset{this};
  return finish_call(reason, true);
}

void RunLoop::abandon() {
  clear_bar();
  if (progress_saved_) {
    progress_ = saved_progress_;
    progress_saved_ = false;
  }
  running_ = false;
  solver_->limit_next_dt(0);  // later step(n) calls are not capped
}

static std::string format_duration(double s) {
  char buf[64];
  if (!std::isfinite(s) || s < 0) return "?";
  if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", int(s / 60), int(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", int(s / 3600), (int(s) % 3600) / 60);
  return buf;
}

std::string RunLoop::summary_line(const RunReport& r, long cells) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%ld steps to t = %.6g in %.3g s wall (%.3g s in callbacks), "
                "%.3g cell updates/s (%ld cells); %s",
                r.steps, r.sim_time, r.wall_s, r.callback_s, r.cell_updates_per_s, cells,
                stop_reason_text(r.reason));
  return buf;
}

void RunLoop::draw_bar(bool force) {
  if (!progress_.bar) return;
  auto now = Clock::now();
  double elapsed = std::chrono::duration<double>(now - call_start_).count();
  if (elapsed < 0.5) return;  // short runs stay quiet
  if (!force && std::chrono::duration<double>(now - last_draw_).count() < 0.2) return;
  last_draw_ = now;

  double t = solver_->time();
  double frac = -1;
  if (call_target_ >= 0) {
    frac = call_target_ > 0 ? double(call_steps_) / double(call_target_) : 1.0;
  } else {
    if (std::isfinite(stop_.t_end) && stop_.t_end > call_t0_)
      frac = std::max(frac, (t - call_t0_) / (stop_.t_end - call_t0_));
    if (stop_.max_steps > 0) {
      long start = solver_->steps() - call_steps_;
      if (stop_.max_steps > start)
        frac = std::max(frac, double(call_steps_) / double(stop_.max_steps - start));
    }
  }
  double rate = call_steps_ / std::max(elapsed, 1e-9);
  char bar[32];
  const int width = 20;
  int filled = frac >= 0 ? int(std::clamp(frac, 0.0, 1.0) * width + 0.5) : 0;
  for (int k = 0; k < width; ++k) bar[k] = k < filled ? '#' : (frac >= 0 ? '.' : ' ');
  bar[width] = 0;

  char line[256];
  if (std::isfinite(stop_.t_end) && call_target_ < 0)
    std::snprintf(line, sizeof line, "t = %.4g / %.4g", t, stop_.t_end);
  else
    std::snprintf(line, sizeof line, "t = %.4g", t);
  if (steady_.enabled() && call_target_ < 0) {
    const double ch = steady_.change();
    char st[80];
    if (std::isfinite(ch)) std::snprintf(st, sizeof st, "  steady %.2e / %.3g", ch, steady_.target());
    else std::snprintf(st, sizeof st, "  steady - / %.3g", steady_.target());
    std::strncat(line, st, sizeof line - std::strlen(line) - 1);
  }
  std::string eta = frac > 0 ? format_duration(elapsed * (1 - frac) / frac) : "?";
  std::fprintf(progress_.stream, "\r%s%s[%s] %s  step %ld  %.3g steps/s  ETA %s\033[K",
               progress_.label.c_str(), progress_.label.empty() ? "" : " ", bar, line,
               solver_->steps(), rate, eta.c_str());
  std::fflush(progress_.stream);
  bar_shown_ = true;
}

void RunLoop::clear_bar() {
  if (!bar_shown_) return;
  std::fprintf(progress_.stream, "\r\033[K");
  std::fflush(progress_.stream);
  bar_shown_ = false;
}

}  // namespace flowlua
