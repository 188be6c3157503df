#include "sim/batch.hpp"

#include <chrono>
#include <set>

#include "core/error.hpp"

namespace flowlua {

void InTurnStepper::step(const std::vector<int>& active, std::vector<std::string>& failed) {
  for (int i : active) {
    try {
      m_[i]->step();
    } catch (const BlowUp& e) {
      failed[i] = e.what();
    }
  }
}

BatchRun::BatchRun(std::vector<RunLoop*> members, const BatchOptions& options) : loops_(std::move(members)) {
  if (loops_.empty()) throw CaseError("flow.batch: no simulations given; list them: flow.batch{ sim1, sim2, ... }");
  std::set<RunLoop*> seen;
  std::vector<Solver*> solvers;
  for (std::size_t k = 0; k < loops_.size(); ++k) {
    if (!seen.insert(loops_[k]).second)
      throw CaseError("flow.batch: simulation " + std::to_string(k + 1) +
                      " is listed twice; a simulation can be a member once");
    solvers.push_back(&loops_[k]->solver());
  }
  const std::string key = solvers[0]->batch_key();
  for (std::size_t k = 1; k < solvers.size(); ++k) {
    const std::string other = solvers[k]->batch_key();
    if (other != key)
      throw CaseError("flow.batch: simulation " + std::to_string(k + 1) + " (" +
                      (other.empty() ? "a model that steps alone" : other) + ") cannot step with simulation 1 (" +
                      (key.empty() ? "a model that steps alone" : key) +
                      "); a batch holds simulations of one model, backend, precision, grid size and kernel plan "
                      "(run the others in a batch of their own)");
  }
  if (!key.empty()) stepper_ = solvers[0]->make_batch_stepper(solvers, options.shared_dt);
  if (!stepper_) {
    if (options.shared_dt)
      throw CaseError("flow.batch: dt = \"shared\" needs members that step together (the projection model); "
                      "leave dt = \"own\"");
    stepper_ = std::make_unique<InTurnStepper>(solvers);
  }
}

BatchRun::~BatchRun() {
  if (stepper_) stepper_->release();
}

BatchReport BatchRun::run() {
  const std::size_t n = loops_.size();
  BatchReport rep;
  rep.members.resize(n);
  std::vector<bool> done(n, false);
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t begun = 0;
  try {
    for (; begun < n; ++begun) loops_[begun]->begin(true);  // no bars, no summary lines
    std::vector<int> active, stepping;
    for (std::size_t i = 0; i < n; ++i) active.push_back(int(i));
    std::vector<std::string> failed(n);
    bool any_batched = false;
    while (!active.empty()) {
      stepping.clear();
      for (int i : active) {
        const StopReason r = loops_[i]->next_stop();
        if (r == StopReason::None) {
          stepping.push_back(i);
          continue;
        }
        done[i] = true;
        rep.members[i] = loops_[i]->end(r);
      }
      if (stepping.empty()) break;
      for (int i : stepping) loops_[i]->pre_step();
      for (int i : stepping) failed[i].clear();
      stepper_->step(stepping, failed);
      any_batched = any_batched || stepper_->batched();
      ++rep.batch_steps;
      active.clear();
      for (int i : stepping) {
        if (!failed[i].empty()) {
          done[i] = true;
          rep.members[i] = loops_[i]->end(StopReason::Failed);
          rep.members[i].error = failed[i];
          continue;
        }
        loops_[i]->post_step();
        active.push_back(i);
      }
    }
    rep.batched = any_batched;
  } catch (...) {
    for (std::size_t i = 0; i < begun; ++i)
      if (!done[i]) loops_[i]->abandon();
    stepper_->release();
    throw;
  }
  stepper_->release();
  rep.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const RunReport& r : rep.members) rep.case_steps += r.steps;
  return rep;
}

}  // namespace flowlua
