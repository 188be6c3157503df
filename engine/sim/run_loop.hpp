// The time loop between a Solver and whoever drives it (the Lua host, tests, benchmarks).
//
// It owns the solver and a schedule of callbacks: every N steps, every T of simulated
// time, on finish. Before each step it runs the "before step" hooks (uploads of fields
// written by the host) and the boundary refreshers that are due (time-dependent inflow
// profiles, re-evaluated every N steps and handed to Solver::set_side). After each step
// it fires the callbacks that are due and checks the stop conditions: t_end, max_steps,
// steady state (sim/steady.hpp: the change of the velocity over an interval) and stop
// requests.
//
// Callbacks and hooks are plain std::function<void()>; whatever they throw (a Lua
// error wrapped in an exception, BlowUp from the solver) leaves run()/step() untouched
// and reaches the caller. The loop itself knows nothing about Lua.
//
// Progress: with `bar` set (the host sets it on a terminal, not with --quiet) a
// one-line bar on stderr is redrawn at most ~5 times a second: simulated time / t_end,
// steps per second, ETA. With `summary` set, run() prints one line at the end: steps,
// simulated time, wall time, cell updates per second (cells * steps / wall).
//
// Interruptions (sim/interrupt.hpp): before each step the loop asks whether SIGINT,
// SIGTERM or the deadline arrived; if so it returns with StopReason::Interrupted
// (on_finish callbacks do not run) and the caller decides what to save.
//
// t_end: before each step of run() the loop caps the step with
// Solver::limit_end_time(t_end) (limit_next_dt(t_end - time) unless the model caps on
// the device), so the last step lands on t_end; it stops as soon as
// time >= t_end - 1e-12 * t_end (rounding). step(n) removes the cap.
//
// Reading the time: a model may keep it in backend memory (Solver::time_upper_bound);
// the stop test, the time callbacks and a steady test with a given interval read it
// only when its bound says they may be due, so most steps need no read back.
#pragma once
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "sim/solver.hpp"
#include "sim/steady.hpp"

namespace flowlua {

enum class StopReason {
  None,        // still running (or never started)
  TimeEnd,     // reached t_end
  MaxSteps,    // reached max_steps
  Steady,      // the steady test's change fell below its target
  Requested,   // stop() was called (from a callback)
  StepsDone,   // step(n) did its n steps
  Interrupted, // SIGINT, SIGTERM or the deadline (sim/interrupt.hpp), between steps
  Failed,      // a batch member whose step failed (BlowUp); the others went on
};

const char* stop_reason_text(StopReason reason);

struct StopConditions {
  double t_end = std::numeric_limits<double>::infinity();  // stop at this time
  long max_steps = -1;                                      // total step count; -1: none
  double steady = 0;           // target of the steady test (sim/steady.hpp); 0: off
  double steady_interval = 0;  // time between its samples; 0: 500 times the current dt
};

struct ProgressOptions {
  bool bar = false;       // redraw a progress line on stderr
  bool summary = false;   // print a summary line at the end of run()
  std::string label;      // printed in front of the bar and the summary (e.g. the case name)
  std::FILE* stream = stderr;
};

struct RunReport {
  long steps = 0;              // steps taken by this call
  double sim_time = 0;         // simulated time at the end
  double wall_s = 0;           // wall time of this call, callbacks included
  double callback_s = 0;       // wall time spent in callbacks, hooks and refreshers
  double cell_updates_per_s = 0;  // cells * steps / wall_s
  StopReason reason = StopReason::None;
  std::string error;  // reason Failed: what failed (a batch member's BlowUp)
};

class RunLoop {
 public:
  using Callback = std::function<void()>;

  explicit RunLoop(std::unique_ptr<Solver> solver);
  ~RunLoop();
  RunLoop(const RunLoop&) = delete;
  RunLoop& operator=(const RunLoop&) = delete;

  Solver& solver() { return *solver_; }
  const Solver& solver() const { return *solver_; }

  // The schedule. Callbacks fire after a step, in the order they were added:
  // every_steps when the step count is a multiple of n; every_time when the simulated
  // time passes the next multiple of `interval` (once per step even if a step crosses
  // several); on_finish when run() ends by a stop condition (not on error, not step(n)).
  // They may be added while the loop runs (from a callback).
  void every_steps(long n, Callback fn);         // n >= 1 (std::invalid_argument)
  void every_time(double interval, Callback fn); // interval > 0 (std::invalid_argument)
  void on_finish(Callback fn);

  // Called before a step when the step count is a multiple of `every` (every >= 1).
  void add_boundary_refresher(long every, Callback fn);
  // Called before every step (first of all), e.g. to upload fields written by the host.
  // Hooks and refreshers should not print: the progress bar is not cleared for them.
  void add_before_step(Callback fn);

  void set_stop_conditions(const StopConditions& stop) {
    stop_ = stop;
    steady_ = SteadyMonitor(stop.steady, stop.steady_interval);
  }
  const StopConditions& stop_conditions() const { return stop_; }
  void set_progress(const ProgressOptions& progress) { progress_ = progress; }

  // After the solver's state was replaced (a restart): the time callbacks' next times
  // are recomputed from the solver's time, as if they had been added now.
  void resync_schedule();

  // Asks a running run()/step() to return after the current callback round.
  void request_stop() { stop_requested_ = true; }
  bool running() const { return running_; }

  // The stop condition that holds now (None when the loop may go on). `steady` is only
  // judged after a step of the current call.
  StopReason stop_condition() const;

  // Steps until a stop condition holds, then calls the on_finish callbacks.
  RunReport run();
  // Exactly n steps (fewer if stop() is requested), ignoring t_end, max_steps and
  // steady; the scheduled callbacks fire as in run(), on_finish does not.
  RunReport step(long n);

  // The loop driven from outside, one step at a time, so that a batch (sim/batch.hpp)
  // can step several solvers together: begin(), then per step next_stop() (None: go
  // on), pre_step(), the caller's step of solver(), post_step(); finally end(reason).
  // run() is exactly this sequence with solver().step() in the middle; end() runs the
  // on_finish callbacks (unless interrupted) and returns the report. abandon() resets
  // a loop that begin() started when an error ends the batch. begin(true) keeps the
  // bar and the summary line off until then (the batch reports for its members).
  void begin(bool quiet = false);
  StopReason next_stop();
  void pre_step();
  void post_step();
  RunReport end(StopReason reason);
  void abandon();

  const RunReport& last_report() const { return last_; }
  // The steady test: its last measured change (infinity before two samples of a run).
  const SteadyMonitor& steady_monitor() const { return steady_; }

  static std::string summary_line(const RunReport& report, long cells);

 private:
  struct Scheduled {
    enum Kind { Steps, Time, Finish } kind;
    long every_steps = 1;
    double interval = 0;
    double next_time = 0;
    Callback fn;
  };
  struct Refresher {
    long every;
    Callback fn;
  };

  RunReport loop(long n_steps, bool until_stop);
  void start_call(long n_steps, bool until_stop);
  RunReport finish_call(StopReason reason, bool until_stop);
  void before_step();
  void after_step();
  // Times the callback; the progress bar is cleared first when it may print.
  void run_callback(const Callback& fn, bool may_print = true);
  void draw_bar(bool force);
  void clear_bar();

  std::unique_ptr<Solver> solver_;
  std::deque<Scheduled> schedule_;   // deque: references stay valid while callbacks add more
  std::deque<Refresher> refreshers_;
  std::deque<Callback> before_;
  StopConditions stop_;
  ProgressOptions progress_;
  ProgressOptions saved_progress_;
  bool progress_saved_ = false;
  RunReport last_;

  bool running_ = false;
  bool stop_requested_ = false;
  bool stepped_this_call_ = false;
  bool until_stop_ = false;  // run() (or begin()), not step(n)
  SteadyMonitor steady_{0, 0};

  // progress bookkeeping for the current call
  using Clock = std::chrono::steady_clock;
  Clock::time_point call_start_{}, last_draw_{};
  double callback_s_ = 0;
  long call_steps_ = 0, call_target_ = 0, step0_ = 0;
  double call_t0_ = 0;
  bool bar_shown_ = false;
};

}  // namespace flowlua
