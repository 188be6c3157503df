// LaggedRead on CUDA (backend/lagged_read.hpp): a ring of page-locked host buffers,
// each filled by an asynchronous copy on the launch stream and marked by an event;
// take(false) asks the event (no wait), take(true) waits for it.
#pragma once
#include <stdexcept>

#include "backend/cuda/cuda_exec.cuh"

namespace flowlua {

template <>
class LaggedRead<CudaExec> {
 public:
  // Two steps in flight keep the device busy while the host handles the step before
  // them (its callbacks, its next launches): the host waits for step n - 2 after
  // queuing step n.
  static constexpr int kLag = 2;
  static constexpr int kSlots = 8;

  explicit LaggedRead(int n = 1) : n_(n) {}
  LaggedRead(const LaggedRead&) = delete;
  LaggedRead& operator=(const LaggedRead&) = delete;
  ~LaggedRead() {
    if (!host_) return;
    for (cudaEvent_t e : ev_) {
      cudaEventSynchronize(e);  // no copy may land in freed memory
      cudaEventDestroy(e);
    }
    cudaFreeHost(host_);
  }

  int size() const { return n_; }
  int pending() const { return pending_; }
  void post(const double* dev) {
    if (pending_ == kSlots) throw std::logic_error("LaggedRead: every slot is in flight; take one first");
    if (!host_) {
      cuda_check(cudaMallocHost(&host_, sizeof(double) * n_ * kSlots), "cudaMallocHost(lagged read)");
      for (cudaEvent_t& e : ev_) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
    }
    const int k = (first_ + pending_) % kSlots;
    cudaStream_t s = cuda_detail::launch_stream();
    cuda_check(cudaMemcpyAsync(host_ + std::size_t(k) * n_, dev, sizeof(double) * n_, cudaMemcpyDeviceToHost, s),
               "lagged read");
    cuda_check(cudaEventRecord(ev_[k], s), "lagged read event");
    ++pending_;
  }
  const double* take(bool wait) {
    if (!pending_) return nullptr;
    const int k = first_;
    if (wait) {
      cuda_check(cudaEventSynchronize(ev_[k]), "lagged read wait");
    } else {
      const cudaError_t e = cudaEventQuery(ev_[k]);
      if (e == cudaErrorNotReady) return nullptr;
      cuda_check(e, "lagged read query");
    }
    first_ = (first_ + 1) % kSlots;
    --pending_;
    return host_ + std::size_t(k) * n_;  // not posted into again before kSlots - 1 more posts
  }
  // Forgets the pending copies without waiting for them: a later post into one of
  // their slots is queued behind them on the same stream, and its event is recorded
  // anew, so what take() then hands back is the later copy.
  void discard() {
    first_ = (first_ + pending_) % kSlots;
    pending_ = 0;
  }

 private:
  int n_;
  double* host_ = nullptr;
  cudaEvent_t ev_[kSlots] = {};
  int first_ = 0, pending_ = 0;
};

}  // namespace flowlua
