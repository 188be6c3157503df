// The halo exchange between ranks of one node through memory they share
// (parallel/halo.hpp; docs/mpi.md "Halo exchange through shared memory"): CUDA IPC on
// the CUDA backend, POSIX shared memory on the CPU backend (backend/peer_memory.hpp).
// Each rank's exchange owns a receive buffer of two halves (exchange parity n % 2)
// that its neighbours on the node open; the pack kernel of a neighbour writes its
// strip straight into the half of exchange n, so nothing goes through host memory.
// An MPI message of 8 bytes (the exchange's count, checked) tells the receiver the
// strip is on its way; the GPUs order the rest with two signals (interprocess events)
// per rank and exchange: W ("written", recorded after its pack) and C ("consumed",
// recorded after its unpack).
//
// Exchange n between sender S and receiver R (each is both, symmetrically):
//   S begin(n):  stream waits C_R; pack into R's half n % 2; record W_S.
//   S finish(n): send "n" to R; receive "n" from R; stream waits W_R; unpack own half
//                n % 2; record C_S.
// A wait takes the event's latest record when it is queued (cudaStreamWaitEvent), so
// what matters is which records the host has issued by then:
// - Read after write: R waits W_S after receiving S's "n", which S sent after
//   recording W_S for pack n, so R's unpack n follows S's pack n. (S may already have
//   recorded W for pack n + 1: R then waits longer, never too little.)
// - Write after read: S's pack n overwrites the half R unpacked at n - 2. S queues it
//   after S's finish(n - 1) received R's "n - 1", which R sent in finish(n - 1), after
//   its finish(n - 2) recorded C_R behind unpack n - 2: the latest C_R that S waits
//   for is at least that one. (One half would not do: R may record C after unpack
//   n - 1 only after S has queued pack n.)
// - No cycle: S's wait can catch a record of at most one exchange ahead (S cannot
//   pass finish(n + 1) before R sends "n + 1"), whose work waits only for work R
//   queued before.
// On the host backends every step runs when it is called, in order; the signals are
// not needed and the same argument holds with "queued" read as "done".
//
// Setup (the first exchange; collective with each neighbour, over MPI with the
// exchange's own tags): round 1 swaps offers (wants shared memory; the memory's and
// signals' handles; where the strip goes in the receive buffer); where both want it,
// each opens the other's; round 2 swaps whether that worked. A pair of transfers goes
// through shared memory only if both sides opened, so both sides always agree.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/peer_memory.hpp"
#include "core/error.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::ranks {

// Whether this backend and mode try shared memory with a neighbour on the node.
template <class Exec>
bool wants_shared(HaloMode mode) {
  return mode == HaloMode::Ipc || (mode == HaloMode::Auto && PeerMemory<Exec>::kAuto);
}

template <class Exec, class T>
class HaloPeers {
  using PM = PeerMemory<Exec>;
  using Signal = typename PM::Signal;

 public:
  // transfers: the exchange's (each with the tags of its data message); recv_offset[k]:
  // where transfer k's strip lies in the exchange's receive buffer, recv_len elements.
  HaloPeers(const std::vector<Transfer>& transfers, const std::vector<long>& recv_offset, long recv_len, HaloMode mode)
      : len_(recv_len), bytes_(std::size_t(2 * recv_len) * sizeof(T)) {
    const std::size_t n = transfers.size();
    peer_.assign(n, -1);
    offset_.assign(n, 0);
    their_offset_.assign(n, 0);
    their_len_.assign(n, 0);
    on_.assign(n, false);
    for (std::size_t k = 0; k < n; ++k) offset_[k] = recv_offset[k];
    const bool want = wants_shared<Exec>(mode);
    if (want && mode == HaloMode::Ipc)
      for (const Transfer& t : transfers)
        if (!same_node(t.peer))
          throw CaseError("FLOWLUA_HALO=ipc: rank " + std::to_string(rank()) + "'s neighbour rank " +
                          std::to_string(t.peer) + " runs on another node; unset FLOWLUA_HALO (auto) to stage there");
    std::string why;
    bool mine_ok = false;
    if (want) {
      mine_ = static_cast<T*>(PM::create(bytes_, mine_handle_, why));
      mine_ok = mine_ && PM::new_signal(written_, written_handle_, why) && PM::new_signal(consumed_, consumed_handle_, why);
    }

    // Round 1: the offers.
    std::vector<Offer> out(n), in(n);
    std::vector<Transfer> round(n);
    for (std::size_t k = 0; k < n; ++k) {
      Offer& o = out[k];
      o.want = want && mine_ok && same_node(transfers[k].peer);
      o.elem = std::int32_t(sizeof(T));
      o.offset = offset_[k];
      o.len = len_;
      o.strip_bytes = std::int64_t(transfers[k].recv_bytes);
      o.mem = mine_handle_;
      o.written = written_handle_;
      o.consumed = consumed_handle_;
      round[k] = Transfer{transfers[k].peer, transfers[k].send_tag, transfers[k].recv_tag, &out[k], &in[k],
                          sizeof(Offer), sizeof(Offer)};
    }
    swap(round);

    // Open what both offered, once a peer (one allocation and two signals a rank).
    std::vector<std::int32_t> ok_out(n, 0), ok_in(n, 0);
    std::map<int, std::size_t> index;  // peer rank -> remote_
    std::map<int, std::string> failed;
    for (std::size_t k = 0; k < n; ++k) {
      if (!out[k].want || !in[k].want) continue;
      if (in[k].elem != std::int32_t(sizeof(T)) || in[k].strip_bytes != std::int64_t(transfers[k].send_bytes))
        throw std::logic_error("HaloPeers: the neighbour's exchange does not match this one");
      const int p = transfers[k].peer;
      if (failed.count(p)) continue;
      auto it = index.find(p);
      if (it == index.end()) {
        Remote r;
        r.peer = p;
        std::string w;
        r.base = static_cast<T*>(PM::open(in[k].mem, std::size_t(2 * in[k].len) * sizeof(T), w));
        r.bytes = std::size_t(2 * in[k].len) * sizeof(T);
        bool good = r.base && PM::open_signal(r.written, in[k].written, w);
        good = good && PM::open_signal(r.consumed, in[k].consumed, w);
        if (!good) {
          release(r);
          failed[p] = w;
          continue;
        }
        it = index.emplace(p, remote_.size()).first;
        remote_.push_back(r);
      }
      peer_[k] = int(it->second);
      their_offset_[k] = in[k].offset;
      their_len_[k] = in[k].len;
      ok_out[k] = 1;
    }

    // Round 2: whether each side opened the other's (only where both offered).
    std::vector<Transfer> second;
    for (std::size_t k = 0; k < n; ++k)
      if (out[k].want && in[k].want)
        second.push_back(Transfer{transfers[k].peer, transfers[k].send_tag, transfers[k].recv_tag, &ok_out[k], &ok_in[k],
                                  sizeof(std::int32_t), sizeof(std::int32_t)});
    swap(second);
    if (mine_) PM::forget(mine_handle_);  // every neighbour that opens it has
    std::string trouble;
    for (std::size_t k = 0; k < n; ++k) {
      on_[k] = ok_out[k] && ok_in[k];
      const int p = transfers[k].peer;
      // Staged by choice (this mode or backend) or by place (another node): no trouble.
      if (on_[k] || !want || !same_node(p) || !trouble.empty()) continue;
      const std::string w = !mine_ok          ? why
                            : failed.count(p) ? failed[p]
                            : !in[k].want     ? "rank " + std::to_string(p) + " did not offer it (its message says why)"
                                              : "rank " + std::to_string(p) + " could not open this rank's memory";
      trouble = "with rank " + std::to_string(p) + ": " + w;
    }
    // Peers opened but not used (their side failed): let go.
    for (Remote& r : remote_) {
      bool used = false;
      for (std::size_t k = 0; k < n; ++k) used = used || (on_[k] && remote_[std::size_t(peer_[k])].peer == r.peer);
      if (!used) release(r);
    }
    for (std::size_t k = 0; k < n; ++k) any_ = any_ || on_[k];
    all_ = n > 0;
    for (std::size_t k = 0; k < n; ++k) all_ = all_ && on_[k];
    if (!trouble.empty()) {
      const std::string text = std::string("halo exchange ") + trouble + "; " + PM::kind + " unavailable";
      if (mode == HaloMode::Ipc) {
        drop_mine();
        throw BackendError("FLOWLUA_HALO=ipc: rank " + std::to_string(rank()) + ": " + text);
      }
      warn_once("flowlua: rank " + std::to_string(rank()) + ": " + text + ": staged through host memory instead\n");
    }
    if (!any_) drop_mine();
  }
  ~HaloPeers() {
    if (!any_ && remote_.empty() && !mine_) return;
    try {
      PM::quiesce();
    } catch (...) {
    }
    for (Remote& r : remote_) release(r);
    drop_mine();
  }
  HaloPeers(const HaloPeers&) = delete;
  HaloPeers& operator=(const HaloPeers&) = delete;

  bool any() const { return any_; }  // some transfer goes through shared memory
  bool all() const { return all_; }  // every transfer does
  bool on(std::size_t k) const { return on_[k]; }
  // Where this rank's strip of transfer k goes at exchange n (the neighbour's buffer),
  // and where the neighbour's strip of transfer k arrives (this rank's).
  T* send_to(std::size_t k, long n) const {
    return remote_[std::size_t(peer_[k])].base + (n & 1) * their_len_[k] + their_offset_[k];
  }
  T* recv_from(std::size_t k, long n) const { return mine_ + (n & 1) * len_ + offset_[k]; }

  // The protocol's four points (above), in the transfer stream.
  void before_pack() const {
    for (const Remote& r : remote_)
      if (r.base) PM::wait(r.consumed);
  }
  void after_pack() const { PM::record(written_); }
  void before_unpack() const {
    for (const Remote& r : remote_)
      if (r.base) PM::wait(r.written);
  }
  void after_unpack() const { PM::record(consumed_); }

 private:
  struct Offer {
    std::int32_t want, elem;
    std::int64_t offset, len, strip_bytes;
    PeerHandle mem, written, consumed;
  };
  struct Remote {
    int peer = -1;
    T* base = nullptr;
    std::size_t bytes = 0;
    Signal written{}, consumed{};
  };

  static void swap(const std::vector<Transfer>& round) {
    Exchange e;
    e.post(round);
    e.wait();
  }
  static void release(Remote& r) {
    PM::drop_signal(r.written, false);
    PM::drop_signal(r.consumed, false);
    r.written = r.consumed = Signal{};
    if (r.base) PM::close(r.base, r.bytes);
    r.base = nullptr;
  }
  // The signals were offered: a neighbour may hold them open (or have queued a wait).
  void drop_mine() {
    PM::drop_signal(written_, true);
    PM::drop_signal(consumed_, true);
    written_ = consumed_ = Signal{};
    if (mine_) PM::destroy(mine_, bytes_);
    mine_ = nullptr;
  }
  static void warn_once(const std::string& text) {
    static bool said = false;
    if (said) return;
    said = true;
    std::fputs(text.c_str(), stderr);
  }

  long len_ = 0;            // elements of one half of the receive buffer
  std::size_t bytes_ = 0;   // the whole receive buffer
  T* mine_ = nullptr;       // this rank's receive buffer (two halves)
  PeerHandle mine_handle_, written_handle_, consumed_handle_;
  Signal written_{}, consumed_{};
  std::vector<Remote> remote_;  // the neighbours' buffers this rank writes, one a peer
  std::vector<int> peer_;       // transfer -> remote_
  std::vector<long> offset_, their_offset_, their_len_;
  std::vector<bool> on_;
  bool any_ = false, all_ = false;
};

}  // namespace flowlua::ranks
