// Copies of a few scalars from backend memory to the host, taken without waiting for
// them: post() queues a copy behind the launches queued before it, take() hands back
// the oldest one posted (waiting for it when asked). A model that keeps values the
// host needs only now and then in backend memory (the projection model's dt and time,
// a pressure solve's stop) reads them this way, a step or a few sweeps late, so the
// device is never idle while the host waits for a number.
//
// This generic version (the CPU backend) copies when a copy is posted: take() never
// waits and kLag is 0, so a CPU run reads every value at once, in the same order as
// the device's. The CUDA backend's (cuda/lagged_read.cuh) copies into page-locked
// memory on the launch stream and marks each copy with an event.
#pragma once
#include <deque>
#include <vector>

namespace flowlua {

template <class Exec>
class LaggedRead {
 public:
  // How many posted copies a user should leave in flight before it takes the oldest.
  static constexpr int kLag = 0;

  explicit LaggedRead(int n = 1) : n_(n) {}
  LaggedRead(const LaggedRead&) = delete;
  LaggedRead& operator=(const LaggedRead&) = delete;

  int size() const { return n_; }
  int pending() const { return int(queue_.size()); }
  // Queues a copy of the n scalars at dev (backend memory).
  void post(const double* dev) {
    queue_.emplace_back(std::size_t(n_));
    Exec::read_scalars(queue_.back().data(), dev, n_);
  }
  // The oldest posted copy, taken out of the queue; nullptr when none is pending or
  // (wait = false) it is not done yet. Valid until the next post() or take().
  const double* take(bool /*wait*/) {
    if (queue_.empty()) return nullptr;
    cur_ = std::move(queue_.front());
    queue_.pop_front();
    return cur_.data();
  }
  // Forgets every pending copy (without waiting for it).
  void discard() { queue_.clear(); }

 private:
  int n_;
  std::deque<std::vector<double>> queue_;
  std::vector<double> cur_;
};

}  // namespace flowlua

#if defined(__CUDACC__)
#include "backend/cuda/lagged_read.cuh"
#endif
