// Several simulations stepped together (flow.batch in the case language): a parameter
// study's members advance in lock step, each with its own run loop (stop conditions,
// callbacks, boundary refreshers), and a model that can (the projection model) launches
// each stage of a step once for all members (models/projection/projection_batch.hpp).
// Members that stop drop out; the others go on.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/batch_stepper.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"

namespace flowlua {

// The stepper of models that have none: each member's own step, in turn.
class InTurnStepper final : public BatchStepper {
 public:
  explicit InTurnStepper(std::vector<Solver*> members) : m_(std::move(members)) {}
  void step(const std::vector<int>& active, std::vector<std::string>& failed) override;
  bool batched() const override { return false; }

 private:
  std::vector<Solver*> m_;
};

struct BatchOptions {
  bool shared_dt = false;  // one dt for all members: the smallest of their own
};

struct BatchReport {
  std::vector<RunReport> members;  // in the members' order
  long case_steps = 0;             // steps summed over the members
  long batch_steps = 0;            // steps of the batch (the longest member's)
  double wall_s = 0;
  bool batched = false;            // the stages were launched once for all members
};

// Runs every member to its own stop condition (RunLoop::begin/next_stop/.../end for
// each, the steps through the stepper). A callback's error ends the whole batch (the
// loops are reset, the error reaches the caller); a member's BlowUp ends only that
// member (reason Failed, RunReport::error says why).
class BatchRun {
 public:
  // Throws CaseError when the members cannot step together (different models, grid
  // sizes, kernel plans, backends or precisions; the message names the member).
  BatchRun(std::vector<RunLoop*> members, const BatchOptions& options);
  ~BatchRun();
  BatchReport run();

 private:
  std::vector<RunLoop*> loops_;
  std::unique_ptr<BatchStepper> stepper_;
};

}  // namespace flowlua
