// CUDA graphs of a step (issue 12), as every backend sees them:
//   StepGraph  what a model launches for one step, recorded once and replayed with
//              one launch; capture() is false where there is nothing to record (the
//              CPU backend) or the step needs the host, and the caller launches the
//              step directly. With `programmatic` (CUDA, compute capability 9.0+)
//              a kernel that follows a kernel gets a programmatic edge: it may start
//              while the one before finishes (backend/cuda/cuda_exec.cuh, pdl_enter);
//              programmatic_edges() says how many the recording has.
//   GraphLoop  a loop whose condition the device decides: while a step is recorded,
//              run_while() records `body` once into a conditional while node that
//              repeats it as long as the double at `flag` (backend memory; the body's
//              last launch writes it) is non-zero. Outside a recording, and without
//              graphs, capturing() is false and the caller runs its own loop.
// The CUDA versions are in cuda/step_graph.cuh.
#pragma once
#include <string>

namespace flowlua {

template <class Exec>
class StepGraph {
 public:
  bool ready() const { return false; }
  bool failed() const { return true; }
  const std::string& why() const { return why_; }
  template <class F>
  bool capture(F&&, bool = false) { return false; }
  void launch() {}
  long programmatic_edges() const { return 0; }

 private:
  std::string why_ = "no graphs on this backend";
};

template <class Exec>
struct GraphLoop {
  static bool capturing() { return false; }
  template <class Body>
  static void run_while(Body&&, const double*) {}
};

}  // namespace flowlua

#if defined(__CUDACC__)
#include "backend/cuda/step_graph.cuh"
#endif
