// MPI behind parallel/ranks.hpp (FLOWLUA_HAVE_MPI), or one rank without it.
#include "parallel/ranks.hpp"

#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"

#ifdef FLOWLUA_HAVE_MPI
#include <mpi.h>
#endif

namespace flowlua::ranks {

#ifdef FLOWLUA_HAVE_MPI

namespace {
bool g_active = false;  // MPI_Init was called
int g_rank = 0, g_size = 1, g_local = 0;
std::vector<int> g_node_ranks{0};  // the ranks on this node, this one included

// Launchers say so in the environment: Open MPI's mpirun, PMI (MPICH, Slurm) and PMIx.
bool started_by_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_STEP_NUM_TASKS"})
    if (std::getenv(v)) return true;
  return false;
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, std::size_t(len)));
  }
}
}  // namespace

void init(int* argc, char*** argv) {
  if (g_active || !started_by_launcher()) return;
  check(MPI_Init(argc, argv), "MPI_Init");
  g_active = true;
  // Errors come back as return codes (checked above), not as an abort inside MPI.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_local);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  g_node_ranks.assign(std::size_t(on_node), 0);
  MPI_Allgather(&g_rank, 1, MPI_INT, g_node_ranks.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
}

void finalize() {
  if (!g_active) return;
  MPI_Finalize();
  g_active = false;
}

void abort_all(int code) {
  if (g_active && g_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

int rank() { return g_rank; }
int size() { return g_size; }
int local_rank() { return g_local; }
bool same_node(int peer) { return std::find(g_node_ranks.begin(), g_node_ranks.end(), peer) != g_node_ranks.end(); }

std::string library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string s(text, std::size_t(len));
  if (auto nl = s.find_first_of(",\n"); nl != std::string::npos) s.resize(nl);
  return s;
}

double sum(double x) {
  if (g_size == 1) return x;
  double r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return r;
}

double max(double x) {
  if (g_size == 1) return x;
  double r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return r;
}

void sum(double* values, int n) {
  if (g_size == 1 || n == 0) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
}

void allgatherv(const void* mine, int n, void* all, const std::vector<int>& counts, const std::vector<int>& displs,
                int elem_bytes) {
  MPI_Datatype t;
  check(MPI_Type_contiguous(elem_bytes, MPI_BYTE, &t), "MPI_Type_contiguous");
  MPI_Type_commit(&t);
  const int rc = MPI_Allgatherv(mine, n, t, all, counts.data(), displs.data(), t, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  check(rc, "MPI_Allgatherv");
}

struct Exchange::Requests {
  std::vector<MPI_Request> r;
};

void Exchange::post(const std::vector<Transfer>& transfers) {
  wait();
  for (const Transfer& t : transfers)
    if (t.recv_bytes) {
      requests_->r.emplace_back();
      check(MPI_Irecv(t.recv, int(t.recv_bytes), MPI_BYTE, t.peer, t.recv_tag, MPI_COMM_WORLD, &requests_->r.back()),
            "MPI_Irecv");
    }
  for (const Transfer& t : transfers)
    if (t.send_bytes) {
      requests_->r.emplace_back();
      check(MPI_Isend(t.send, int(t.send_bytes), MPI_BYTE, t.peer, t.send_tag, MPI_COMM_WORLD, &requests_->r.back()),
            "MPI_Isend");
    }
}

void Exchange::wait() {
  if (requests_->r.empty()) return;
  check(MPI_Waitall(int(requests_->r.size()), requests_->r.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests_->r.clear();
}

#else  // one rank

void init(int*, char***) {}
void finalize() {}
void abort_all(int code) { std::exit(code); }
int rank() { return 0; }
int size() { return 1; }
int local_rank() { return 0; }
bool same_node(int peer) { return peer == 0; }
std::string library() { return "no MPI"; }
double sum(double x) { return x; }
double max(double x) { return x; }
void sum(double*, int) {}
void allgatherv(const void* mine, int n, void* all, const std::vector<int>&, const std::vector<int>& displs,
                int elem_bytes) {
  if (n) std::memcpy(static_cast<char*>(all) + std::size_t(displs[0]) * elem_bytes, mine, std::size_t(n) * elem_bytes);
}
struct Exchange::Requests {};
void Exchange::post(const std::vector<Transfer>& transfers) {
  if (!transfers.empty()) throw std::logic_error("ranks::Exchange without MPI: there is no other rank");
}
void Exchange::wait() {}

#endif

HaloMode halo_mode() {
  const char* e = std::getenv("FLOWLUA_HALO");
  const std::string v = e ? e : "";
  if (v.empty() || v == "auto") return HaloMode::Auto;
  if (v == "staged") return HaloMode::Staged;
  if (v == "ipc") return HaloMode::Ipc;
  throw CaseError("environment variable FLOWLUA_HALO='" + v +
                  "': expected auto, staged or ipc (how halo exchanges between ranks of one node travel; "
                  "unset it for auto)");
}

const char* halo_mode_name(HaloMode m) {
  return m == HaloMode::Staged ? "staged" : m == HaloMode::Ipc ? "ipc" : "auto";
}

Exchange::Exchange() : requests_(std::make_unique<Requests>()) {}
Exchange::Exchange(Exchange&&) noexcept = default;
Exchange& Exchange::operator=(Exchange&&) noexcept = default;
Exchange::~Exchange() {
  try {
    if (requests_) wait();
  } catch (...) {
  }
}

}  // namespace flowlua::ranks
