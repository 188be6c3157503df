// A collective step that may fail on some ranks only (a file a rank cannot write or
// read): every rank says whether it failed, and all throw together, so that none goes
// on to the next collective call and waits there for a rank that stopped. On one rank
// it throws this rank's error, if any.
#pragma once
#include <stdexcept>
#include <string>

#include "parallel/ranks.hpp"

namespace flowlua::ranks {

// Collective. `my_error` empty: this rank succeeded. Throws std::runtime_error on every
// rank when any failed: a failed rank its own message, the others `what` and the
// first failed rank's number (its message is on its standard error).
inline void agree(const std::string& my_error, const std::string& what) {
  const double first_failed = -max(my_error.empty() ? -double(size()) : -double(rank()));
  if (!my_error.empty()) throw std::runtime_error(my_error);
  if (first_failed < size())
    throw std::runtime_error(what + ": rank " + std::to_string(int(first_failed)) + " of " + std::to_string(size()) +
                             " failed (its message is printed above)");
}

}  // namespace flowlua::ranks
