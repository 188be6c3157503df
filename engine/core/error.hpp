// Errors that reach people. The Lua host turns each into a message and an exit code.
#pragma once
#include <stdexcept>
#include <string>

namespace flowlua {

// A case that cannot be run as written (bad size, bad value, impossible geometry).
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The solution stopped being finite: step, time and the first bad cell are reported.
struct BlowUp : std::runtime_error {
  long step;
  double time;
  int i, j;
  BlowUp(const std::string& what, long step_, double time_, int i_, int j_)
      : std::runtime_error(what), step(step_), time(time_), i(i_), j(j_) {}
};

// The machine could not do what was asked (no GPU for backend = "cuda", out of memory).
struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace flowlua
