// The interface a model offers to step several of its solvers together (flow.batch,
// sim/batch.hpp); Solver::make_batch_stepper makes one.
#pragma once
#include <string>
#include <vector>

namespace flowlua {

// Steps a fixed list of solvers (given when it was made) together.
class BatchStepper {
 public:
  virtual ~BatchStepper() = default;
  // One step of each member listed in `active` (indices into the list). A member
  // whose step fails (BlowUp) gets its message in failed[index] and is left out of
  // the rest of the step; the others complete theirs.
  virtual void step(const std::vector<int>& active, std::vector<std::string>& failed) = 0;
  // Whether the last step launched its stages once for the whole batch (false: the
  // members' launches differed, or the model steps members in turn).
  virtual bool batched() const = 0;
  // Called once when the batch ends (also on error): members go back to stepping alone.
  virtual void release() {}
};

}  // namespace flowlua
