// TransferStream on CUDA (backend/transfer_stream.hpp): a second stream, created
// non-blocking so that it never waits for the default stream implicitly; the fences
// are events. Host copies need page-locked memory to run asynchronously
// (CudaExec::alloc_host).
#pragma once
#include "backend/cuda/cuda_exec.cuh"
#include "backend/transfer_stream.hpp"

namespace flowlua {

template <>
struct TransferStream<CudaExec> {
  // The highest priority: a packing kernel queued while a large kernel runs gets the
  // next free multiprocessors instead of waiting for all of that kernel's blocks
  // (measured on 2 H100s: without it the weak scaling of lbm_swe was 90%; docs/performance.md).
  static cudaStream_t stream() {
    static cudaStream_t s = [] {
      int least = 0, greatest = 0;
      cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
      cudaStream_t t = nullptr;
      cuda_check(cudaStreamCreateWithPriority(&t, cudaStreamNonBlocking, greatest), "transfer stream");
      return t;
    }();
    return s;
  }
  static void after_kernels() { fence(cudaStreamLegacy, stream()); }
  static void before_kernels() { fence(stream(), cudaStreamLegacy); }
  static void wait() { cuda_check(cudaStreamSynchronize(stream()), "transfer stream"); }
  template <class F>
  static void for_each(int n, const F& f) {
    if (n <= 0) return;
    cuda_detail::for_each_kernel<<<(n + 255) / 256, 256, 0, stream()>>>(0, n - 1, 0, 0, f);
    cuda_check(cudaGetLastError(), "kernel launch");
  }
  template <class T>
  static void download(T* host, const T* dev, std::size_t n) {
    cuda_check(cudaMemcpyAsync(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost, stream()), "download");
  }
  template <class T>
  static void upload(T* dev, const T* host, std::size_t n) {
    cuda_check(cudaMemcpyAsync(dev, host, n * sizeof(T), cudaMemcpyHostToDevice, stream()), "upload");
  }

 private:
  // `waiter` waits for the work queued so far in `first`.
  static void fence(cudaStream_t first, cudaStream_t waiter) {
    static cudaEvent_t e = [] {
      cudaEvent_t t = nullptr;
      cuda_check(cudaEventCreateWithFlags(&t, cudaEventDisableTiming), "event");
      return t;
    }();
    cuda_check(cudaEventRecord(e, first), "event record");
    cuda_check(cudaStreamWaitEvent(waiter, e, 0), "stream wait");
  }
};

}  // namespace flowlua
