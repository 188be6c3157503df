// Transfers beside the kernels (the halo exchange, parallel/halo.hpp): packing,
// copies to and from host memory, unpacking. TransferStream<Exec> queues them, and
// two fences order them with the backend's kernels. This generic version runs each
// at once, in order (the CPU backend); the CUDA backend's (cuda/transfer_stream.cuh)
// runs them in a second stream.
#pragma once
#include <cstddef>

namespace flowlua {

template <class Exec>
struct TransferStream {
  // The transfers queued next wait for the kernels queued so far.
  static void after_kernels() {}
  // The kernels queued next wait for the transfers queued so far.
  static void before_kernels() {}
  // The host waits for the transfers queued so far.
  static void wait() {}
  // f(k, 0) for k in [0, n).
  template <class F>
  static void for_each(int n, const F& f) {
    if (n > 0) Exec::for_each(0, n - 1, 0, 0, f);
  }
  template <class T>
  static void download(T* host, const T* dev, std::size_t n) {
    Exec::download(host, dev, n);
  }
  template <class T>
  static void upload(T* dev, const T* host, std::size_t n) {
    Exec::upload(dev, host, n);
  }
};

}  // namespace flowlua

#ifdef __CUDACC__
#include "backend/cuda/transfer_stream.cuh"
#endif
