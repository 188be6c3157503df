// PeerMemory on CUDA (backend/peer_memory.hpp): CUDA IPC. The memory is device memory
// of its own cudaMalloc (an IPC handle names a whole allocation), opened in the other
// process with peer access enabled on first use (cudaIpcMemLazyEnablePeerAccess); a
// rank on another GPU that cannot reach this one (cudaDeviceCanAccessPeer) refuses it,
// and the exchange stays staged. Two ranks on one GPU open each other's memory too.
// Signals are interprocess events (cudaEventInterprocess), recorded and waited for in
// the transfer stream (cuda/transfer_stream.cuh).
#pragma once
#include <cstring>
#include <vector>

#include "backend/cuda/transfer_stream.cuh"
#include "backend/peer_memory.hpp"

namespace flowlua {

template <>
struct PeerMemory<CudaExec> {
  static constexpr const char* kind = "CUDA IPC";
  static constexpr bool kAuto = true;

  static void* create(std::size_t bytes, PeerHandle& h, std::string& why) {
    static_assert(sizeof(cudaIpcMemHandle_t) <= sizeof h.bytes, "PeerHandle too small");
    void* p = nullptr;
    if (!ok(cudaMalloc(&p, bytes), "cudaMalloc", why)) return nullptr;
    cudaIpcMemHandle_t m;
    if (!ok(cudaIpcGetMemHandle(&m, p), "cudaIpcGetMemHandle", why)) {
      cudaFree(p);
      return nullptr;
    }
    std::memcpy(h.bytes, &m, sizeof m);
    return p;
  }
  // CUDA leaves freeing exported memory before every importer has closed it
  // undefined, and when a neighbour closes is not known here without another message:
  // the allocation is kept until the process ends (the receive buffers of an exchange
  // that is set up and then discarded: a few strips).
  static void destroy(void* p, std::size_t) {
    if (p) kept_memory().push_back(p);
  }
  static void* open(const PeerHandle& h, std::size_t, std::string& why) {
    cudaIpcMemHandle_t m;
    std::memcpy(&m, h.bytes, sizeof m);
    void* p = nullptr;
    if (!ok(cudaIpcOpenMemHandle(&p, m, cudaIpcMemLazyEnablePeerAccess), "cudaIpcOpenMemHandle", why)) return nullptr;
    int mine = 0;
    cudaPointerAttributes a{};
    if (!ok(cudaGetDevice(&mine), "cudaGetDevice", why) ||
        !ok(cudaPointerGetAttributes(&a, p), "cudaPointerGetAttributes", why)) {
      cudaIpcCloseMemHandle(p);
      return nullptr;
    }
    if (a.device != mine) {
      int can = 0;
      if (!ok(cudaDeviceCanAccessPeer(&can, mine, a.device), "cudaDeviceCanAccessPeer", why) || !can) {
        if (why.empty())
          why = "GPU " + std::to_string(mine) + " cannot access GPU " + std::to_string(a.device) +
                " (cudaDeviceCanAccessPeer)";
        cudaIpcCloseMemHandle(p);
        return nullptr;
      }
    }
    return p;
  }
  static void close(void* p, std::size_t) {
    if (p) cudaIpcCloseMemHandle(p);
  }
  static void forget(const PeerHandle&) {}

  using Signal = cudaEvent_t;
  static bool new_signal(Signal& s, PeerHandle& h, std::string& why) {
    static_assert(sizeof(cudaIpcEventHandle_t) <= sizeof h.bytes, "PeerHandle too small");
    s = nullptr;
    if (!ok(cudaEventCreateWithFlags(&s, cudaEventDisableTiming | cudaEventInterprocess), "cudaEventCreate", why))
      return false;
    cudaIpcEventHandle_t e;
    if (!ok(cudaIpcGetEventHandle(&e, s), "cudaIpcGetEventHandle", why)) {
      cudaEventDestroy(s);
      s = nullptr;
      return false;
    }
    std::memcpy(h.bytes, &e, sizeof e);
    return true;
  }
  static bool open_signal(Signal& s, const PeerHandle& h, std::string& why) {
    cudaIpcEventHandle_t e;
    std::memcpy(&e, h.bytes, sizeof e);
    s = nullptr;
    return ok(cudaIpcOpenEventHandle(&s, e), "cudaIpcOpenEventHandle", why);
  }
  // An event this process created may still be waited for by a neighbour's queued
  // work after this process is done with it (the neighbour's last unpack), and CUDA
  // leaves an exported event destroyed before that undefined: such events are kept
  // until the process ends (two per exchange that is set up and then discarded).
  static void drop_signal(Signal s, bool own) {
    if (!s) return;
    if (own) kept().push_back(s);
    else cudaEventDestroy(s);
  }
  static void record(Signal s) {
    cuda_check(cudaEventRecord(s, TransferStream<CudaExec>::stream()), "cudaEventRecord (halo signal)");
  }
  static void wait(Signal s) {
    cuda_check(cudaStreamWaitEvent(TransferStream<CudaExec>::stream(), s, 0), "cudaStreamWaitEvent (halo signal)");
  }
  static void quiesce() { TransferStream<CudaExec>::wait(); }

 private:
  static bool ok(cudaError_t e, const char* what, std::string& why) {
    if (e == cudaSuccess) return true;
    why = std::string(what) + ": " + cudaGetErrorString(e);
    cudaGetLastError();  // not sticky: the run goes on staged
    return false;
  }
  static std::vector<cudaEvent_t>& kept() {
    static std::vector<cudaEvent_t> v;
    return v;
  }
  static std::vector<void*>& kept_memory() {
    static std::vector<void*> v;
    return v;
  }
};

}  // namespace flowlua
