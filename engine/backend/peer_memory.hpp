// Memory that one process of a node hands to the others, and the signals that order
// work across processes: what the halo exchange between ranks of one node writes
// through (parallel/halo_peers.hpp, docs/mpi.md "Halo exchange through shared memory").
// A process creates memory and gets a handle (bytes it sends to the other process over
// MPI); the other process opens the handle and gets a pointer it can write through.
// A signal is recorded by its creator after work queued in the transfer stream
// (backend/transfer_stream.hpp) and waited for by another process's transfer stream.
//
// This generic version is the host backends': POSIX shared memory (shm_open, mmap),
// and no signals, since the host runs the transfers at once, in order (a record is
// done when it is called). The CUDA backend's (cuda/peer_memory.cuh) is CUDA IPC:
// device memory (cudaIpcGetMemHandle / cudaIpcOpenMemHandle) and interprocess events.
#pragma once
#include <cstddef>
#include <string>

namespace flowlua {

// A handle as it travels between processes (cudaIpcMemHandle_t and
// cudaIpcEventHandle_t are 64 bytes; a shared memory object's name fits).
struct PeerHandle {
  unsigned char bytes[64] = {};
};

// POSIX shared memory (backend/cpu/peer_memory_shm.cpp). Each returns null and says
// why on failure.
void* shm_create(std::size_t bytes, PeerHandle& h, std::string& why);
void* shm_open_peer(const PeerHandle& h, std::size_t bytes, std::string& why);
void shm_unmap(void* p, std::size_t bytes);
void shm_forget(const PeerHandle& h);  // the name goes; the mappings stay

template <class Exec>
struct PeerMemory {
  // What it is (messages, --explain).
  static constexpr const char* kind = "POSIX shared memory";
  // Whether FLOWLUA_HALO=auto uses it. The host backends stage through host memory
  // unless asked (FLOWLUA_HALO=ipc): there MPI's own shared-memory transport already
  // avoids the network, and this path is there to test the protocol without a GPU.
  static constexpr bool kAuto = false;

  static void* create(std::size_t bytes, PeerHandle& h, std::string& why) { return shm_create(bytes, h, why); }
  static void destroy(void* p, std::size_t bytes) { shm_unmap(p, bytes); }
  static void* open(const PeerHandle& h, std::size_t bytes, std::string& why) { return shm_open_peer(h, bytes, why); }
  static void close(void* p, std::size_t bytes) { shm_unmap(p, bytes); }
  // Called by the creator once every process that opens the memory has opened it.
  static void forget(const PeerHandle& h) { shm_forget(h); }

  using Signal = void*;
  static bool new_signal(Signal& s, PeerHandle&, std::string&) {
    s = nullptr;
    return true;
  }
  static bool open_signal(Signal& s, const PeerHandle&, std::string&) {
    s = nullptr;
    return true;
  }
  // own: created here (and handed out), else opened from another process's handle.
  static void drop_signal(Signal, bool) {}
  static void record(Signal) {}
  static void wait(Signal) {}
  // The host waits for the transfers queued so far (before memory is unmapped).
  static void quiesce() {}
};

}  // namespace flowlua

#ifdef __CUDACC__
#include "backend/cuda/peer_memory.cuh"
#endif
