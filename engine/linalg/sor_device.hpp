// Red-black SOR whose convergence is decided in backend memory (issue 12): the norm of
// the right-hand side, the residual checks and the stop are computed by one-thread
// kernels into slots the caller owns, and the sweeps after the stop return at once
// (gated), so no check needs a host round trip. RedBlackSOR::solve_device
// (linalg/rbsor.hpp) launches them; the host reads the slots later (the projection
// model in its step report) or waits for kContinue a few sweeps late.
//
// The sweeps are launched in bodies of `per_body` sweeps (check_every, or twice that
// for the fused variant with an odd check_every, so that a body of ping-pong sweeps
// ends in the buffer it started from); sweep number it = body * per_body + pos + 1.
// A body repeats unchanged, so it can be a CUDA graph's conditional while node.
//
// The iterates checked, the stop and the report are those of RedBlackSOR::solve:
//   two-colour  after sweeps it = check_every, 2 check_every, ..., and max_iter: the
//               residual of the iterate, stop when !(residual > tol) or at max_iter;
//   fused       sweep it computes the residual of iterate it - 1 when
//               (it - 1) % check_every == 0 and it > 1; converged: that iterate is
//               the result (in the second buffer when it - 1 is odd); never
//               converged: iterate max_iter and its residual.
#pragma once
#include <cmath>

#include "core/hd.hpp"

namespace flowlua {

namespace sor_slot {
enum : int {
  kBnorm2,      // ||rhs||^2 over the fluid cells (a reduction)
  kBnorm,       // its root
  kActive,      // 1 while the solve iterates
  kBody,        // bodies of sweeps started
  kIterations,  // the report: sweeps
  kResidual,    //   and relative residual of the result
  kRes2,        // squared residual of the iterate being checked
  kFinal2,      // fused, never converged: that of iterate max_iter
  kInAlt,       // fused: the converged iterate lies in the second buffer
  kContinue,    // after a body: 1 when another is needed
  kCount
};
}  // namespace sor_slot

// Where a sweep stands in its body; `s` null: not gated (RedBlackSOR::solve's sweeps).
// The two-colour sweeps run gated through Exec::for_each_gated (backend/launch.hpp).
struct SorGate {
  const double* s = nullptr;
  int pos = 0, per_body = 1, max_iter = 0;
  bool check = false;  // fused: this position computes the residual of its input
  FL_HD int iteration() const { return int(s[sor_slot::kBody]) * per_body + pos + 1; }
  FL_HD bool open() const { return s[sor_slot::kActive] != 0 && iteration() <= max_iter; }
};

// Before the first sweep: ||rhs|| from its reduced square, the gate opened unless it
// is 0 (then lap p = 0 and p = 0: SorFinish), the report cleared.
struct SorStart {
  double* s;
  FL_HD void operator()(int, int) const {
    using namespace sor_slot;
    const double b = sqrt(s[kBnorm2]);
    s[kBnorm] = b;
    s[kActive] = b != 0 ? 1 : 0;  // a NaN norm iterates (and reports a NaN residual)
    s[kBody] = 0;
    s[kIterations] = 0;
    s[kResidual] = 0;
    s[kRes2] = 0;
    s[kInAlt] = 0;
    s[kContinue] = s[kActive];
  }
};

// The check after a chunk of check_every sweeps starting at position `first` of the
// body (two-colour: the residual of the chunk's last iterate was reduced into kRes2)
// or after the chunk's first sweep (fused: it added the residual of its input, the
// chunk's first iterate, into kRes2).
struct SorCheck {
  double* s;
  int first, check_every, per_body, max_iter;
  double tol;
  bool fused;
  FL_HD void operator()(int, int) const {
    using namespace sor_slot;
    const int base = int(s[kBody]) * per_body + first;  // sweeps before the chunk
    if (s[kActive] == 0 || base >= max_iter) return;
    if (fused) {
      if (base == 0) return;  // the first sweep of a solve checks nothing
      const double res = sqrt(s[kRes2]) / s[kBnorm];
      s[kRes2] = 0;
      s[kIterations] = base;
      s[kResidual] = res;
      if (!(res > tol)) {  // also stops on NaN
        s[kActive] = 0;
        s[kInAlt] = base & 1;
      }
      return;
    }
    const int done = base + check_every < max_iter ? base + check_every : max_iter;
    const double res = sqrt(s[kRes2]) / s[kBnorm];
    s[kIterations] = done;
    s[kResidual] = res;
    if (!(res > tol) || done >= max_iter) s[kActive] = 0;
  }
};

// After a body: counts it and says whether another is needed.
struct SorEndBody {
  double* s;
  int per_body, max_iter;
  FL_HD void operator()(int, int) const {
    using namespace sor_slot;
    const double body = s[kBody] + 1;
    s[kBody] = body;
    s[kContinue] = s[kActive] != 0 && body * per_body < max_iter ? 1 : 0;
  }
};

// After the last body, over every cell of the field (ghosts too): p = 0 when ||rhs||
// is 0; the fused variant's result copied into p when it lies in the second buffer
// (`alt`; nullptr for the two-colour variant, which sweeps in place); the report of
// a fused solve that never converged (iterate max_iter, whose squared residual was
// reduced into kFinal2). Cell (0, 0) writes the report; every cell reads only slots
// no cell writes here.
template <class Real>
struct SorFinish {
  Real* p;
  const Real* alt;
  double* s;
  int stride, max_iter;
  FL_HD void operator()(int i, int j) const {
    using namespace sor_slot;
    const std::size_t c = std::size_t(j) * stride + i;
    const double b = s[kBnorm];
    const bool first = i == 0 && j == 0;
    if (b == 0) {
      p[c] = Real(0);
      if (first) {
        s[kIterations] = 0;
        s[kResidual] = 0;
      }
      return;
    }
    if (!alt) return;
    bool in_alt = s[kInAlt] != 0;
    if (s[kActive] != 0) {
      in_alt = (max_iter & 1) != 0;
      if (first) {
        s[kIterations] = max_iter;
        s[kResidual] = sqrt(s[kFinal2]) / b;
      }
    }
    if (in_alt) p[c] = alt[c];
  }
};

}  // namespace flowlua
