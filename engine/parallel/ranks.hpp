// Several flowlua processes on one case (mpirun -np N flowlua CASE.lua): which rank
// this process is, and the few collective operations the engine needs. Without MPI
// in the build, or when flowlua was not started by mpirun, there is one rank and
// every operation is the identity, so callers need no #ifdef.
//
// Every rank runs the same case script; the models split the grid between the ranks
// (parallel/decomposition.hpp) and exchange the ghost layers (parallel/halo.hpp).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace flowlua::ranks {

// MPI_Init when this process was started by an MPI launcher (its environment says
// so); otherwise nothing. Call once, first thing in main.
void init(int* argc, char*** argv);
void finalize();
// Stops every rank (MPI_Abort) with the exit code; one rank that fails must never
// leave the others waiting in a collective operation.
[[noreturn]] void abort_all(int code);

int rank();
int size();
inline bool root() { return rank() == 0; }
inline bool several() { return size() > 1; }
// The rank's place among the ranks of its node (for one GPU per rank).
int local_rank();
// Whether rank `peer` runs on this process's node (MPI_COMM_TYPE_SHARED): a neighbour
// whose halo can go through memory the two processes share (parallel/halo_peers.hpp).
bool same_node(int peer);

// How halo exchanges between ranks of one node travel (environment variable
// FLOWLUA_HALO, docs/mpi.md "Halo exchange on the GPUs"): Auto (unset or "auto"): CUDA
// IPC on the CUDA backend, staged through host memory otherwise; Staged ("staged"):
// always staged; Ipc ("ipc"): through shared memory with every neighbour (CUDA IPC,
// POSIX shared memory on the CPU backend), an error where that cannot be set up.
// Throws CaseError for any other value.
enum class HaloMode { Auto, Staged, Ipc };
HaloMode halo_mode();
const char* halo_mode_name(HaloMode m);
// What the build has: the MPI library's version line ("Open MPI v4.1.4") or "no MPI".
std::string library();

double sum(double x);
double max(double x);
void sum(double* values, int n);  // in place, elementwise over the ranks

// Every rank's `mine` (n elements of elem_bytes each) into `all` on every rank, rank r's
// at element offset displs[r], counts[r] elements.
void allgatherv(const void* mine, int n, void* all, const std::vector<int>& counts, const std::vector<int>& displs,
                int elem_bytes);
template <class T>
void allgatherv(const T* mine, int n, T* all, const std::vector<int>& counts, const std::vector<int>& displs) {
  allgatherv(static_cast<const void*>(mine), n, static_cast<void*>(all), counts, displs, int(sizeof(T)));
}

// One message each way with one neighbour: send `send_bytes` from send to `peer`
// with tag `send_tag`, receive `recv_bytes` into recv from `peer` with `recv_tag`.
struct Transfer {
  int peer;
  int send_tag, recv_tag;
  const void* send;
  void* recv;
  std::size_t send_bytes, recv_bytes;
};

// Transfers in flight: post() starts them (receives first), wait() completes them,
// so that work can run in between.
class Exchange {
 public:
  Exchange();
  ~Exchange();
  Exchange(Exchange&&) noexcept;
  Exchange& operator=(Exchange&&) noexcept;
  void post(const std::vector<Transfer>& transfers);
  void wait();

 private:
  struct Requests;
  std::unique_ptr<Requests> requests_;
};

}  // namespace flowlua::ranks
