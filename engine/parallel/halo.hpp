// The halo exchange of a field split between ranks (parallel/decomposition.hpp): the
// owned cells along each side and corner where a neighbouring block lies are packed
// into one buffer on the backend, staged through host memory, sent to that
// neighbour, and the neighbour's cells unpacked into the halo layer. Corners go to
// the diagonal neighbours directly, so one round fills the whole ring (the D2Q9
// lattice and the 9-point stencils need the corners).
//
// A field is `planes` planes of nxa * nya cells (i + j nxa, plane after plane), as
// the Subdomain's local arrays, or `planes` separate arrays of one plane each (u and
// v in one message). begin() queues the packing; the caller may queue work that
// neither reads the halo nor writes the strips; finish() sends, receives and queues
// the unpacking. On CUDA the packing, the copies and the unpacking run in a second
// stream, beside the work queued in between (docs/mpi.md, "Overlap").
//
// Two layouts (Ring): Halo, the Subdomain's own (a layer only where a neighbour is:
// lbm_swe), and Ghosts, the NaSt2D ghost ring on every side ((nx + 2) x (ny + 2),
// owned cells from 1: the projection model and its pressure solvers). In the Ghosts
// layout a strip along a side also carries the ghost cells at its ends where the block
// lies on a side of the domain, so that the neighbour's corner of the ring gets the
// domain's ghost value there (which no diagonal neighbour could send): after one
// exchange every cell of the ring holds what one rank holds in that cell.
//
// The Ghosts layout may be deeper (hx, hy > 1: the pressure solvers' padded blocks,
// linalg/padded_block.hpp): (nx + 2 hx) x (ny + 2 hy) values, owned cells from (hx, hy),
// and a neighbour sends the hx columns (hy rows) of its block along the shared side,
// so that a rank can compute a few steps of a stencil on its ring without another
// exchange. Every block then needs at least hx (hy) cells across.
//
// Between ranks of one node the strips may skip host memory altogether: the pack
// kernel writes them into the neighbour's receive buffer, opened through CUDA IPC
// (parallel/halo_peers.hpp; FLOWLUA_HALO chooses, docs/mpi.md "Halo exchange through
// shared memory"). That is set up at the first exchange, with each neighbour, and
// falls back to the staged path transfer by transfer where it cannot be.
#pragma once
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "backend/transfer_stream.hpp"
#include "core/hd.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_peers.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::ranks {

enum class Ring { Halo, Ghosts };

struct Strip {
  int i0, j0, w;  // first cell, width (cells along i)
  long cells;     // w * height
  long offset;    // in the buffer, in elements
};

constexpr int kMaxSeparateFields = 4;

// Messages up to this size skip the device-side buffers: the pack kernel writes
// straight into the page-locked host buffer and the unpack kernel reads from it (on
// CUDA, page-locked memory is addressable from the device), which saves two copies
// and their latency. The pressure solvers exchange thin strips many times a step:
// on 2 GPUs this made the projection's multigrid step 10% faster; lbm_swe's larger
// strips, overlapped with the interior anyway, were unchanged (docs/mpi.md).
constexpr std::size_t kDirectBytes = 64 * 1024;

// Exchanges this process has completed (every HaloExchange, every field): what the
// pressure solvers' exchange counts are measured with (docs/mpi.md); of them, those
// with some strip through shared memory (halo_peers.hpp).
inline long exchanges_done = 0;
inline long shared_exchanges_done = 0;

// Copies between the field's strips and the buffers: kPack packs (field -> buffer).
// Plane p is field[0] + p * plane (one array of planes) or field[p] (separate arrays).
// Strip s's values lie at buf[s] (the staging buffer at the strip's offset, or, for a
// neighbour on the node, its receive buffer or this rank's).
template <class T, bool kPack>
struct StripCopy {
  T* field[kMaxSeparateFields];
  bool separate;
  T* buf[8];
  Strip strips[8];
  int nstrips;
  int nxa;
  long plane;  // nxa * nya
  FL_HD void operator()(int k, int) const {
    int s = 0;
    while (s + 1 < nstrips && k >= strips[s + 1].offset) ++s;
    const Strip& st = strips[s];
    const long r = k - st.offset;
    const long p = r / st.cells, q = r % st.cells;
    T* base = separate ? field[p] : field[0] + p * plane;
    const long c = long(st.i0 + int(q % st.w)) + long(st.j0 + int(q / st.w)) * nxa;
    if (kPack) buf[s][r] = base[c];
    else base[c] = buf[s][r];
  }
};

// Host memory the backend copies to and from fastest (page-locked on CUDA).
template <class Exec, class T>
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t n) : n_(n), p_(n ? Exec::template alloc_host<T>(n) : nullptr, &free) {}
  T* data() { return p_.get(); }
  std::size_t size() const { return n_; }

 private:
  static void free(T* p) {
    if (p) Exec::release_host(p);
  }
  std::size_t n_ = 0;
  std::unique_ptr<T, void (*)(T*)> p_{nullptr, &free};
};

template <class Exec, class T>
class HaloExchange {
 public:
  HaloExchange() = default;
  // tag: tells this field's messages from another's between the same two ranks.
  // hx, hy: the depth of a Ghosts ring (1: the NaSt2D layout).
  HaloExchange(const Subdomain& sd, int planes, int tag, Ring ring = Ring::Halo, int hx = 1, int hy = 1)
      : planes_(planes) {
    const bool ghosts = ring == Ring::Ghosts;
    if (!ghosts) hx = hy = 1;
    if (hx < 1 || hy < 1 || (hx > 1 && hx > sd.nx) || (hy > 1 && hy > sd.ny))
      throw std::logic_error("HaloExchange: a ring deeper than the block");
    const int ox = ghosts ? hx : sd.ox(), oy = ghosts ? hy : sd.oy();
    const int nxa = ghosts ? sd.nx + 2 * hx : sd.nxa(), nya = ghosts ? sd.ny + 2 * hy : sd.nya();
    nxa_ = nxa;
    plane_ = long(nxa) * nya;
    long send_at = 0, recv_at = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int peer = (dx || dy) ? sd.neighbour[dy + 1][dx + 1] : -1;
        if (peer < 0) continue;
        // What this block owns along that side (sent) and the halo cells there
        // (received); in the Ghosts layout a side's strip takes in the domain's ghost
        // cells at its ends (lo, hi: no neighbour that way).
        // (h: the ring's depth along that axis; o: the first owned cell.)
        auto range = [ghosts](int d, int o, int n, int h, bool lo, bool hi, bool send, int& first, int& count) {
          count = d ? h : n;
          first = d < 0 ? (send ? o : o - h) : d > 0 ? (send ? o + n - h : o + n) : o;
          if (d == 0 && ghosts) {
            if (lo) { first -= h; count += h; }
            if (hi) count += h;
          }
        };
        const bool no_l = !sd.halo[0], no_r = !sd.halo[1], no_b = !sd.halo[2], no_t = !sd.halo[3];
        int si, sj, ri, rj, w, h;
        range(dx, ox, sd.nx, hx, no_l, no_r, true, si, w);
        range(dy, oy, sd.ny, hy, no_b, no_t, true, sj, h);
        range(dx, ox, sd.nx, hx, no_l, no_r, false, ri, w);
        range(dy, oy, sd.ny, hy, no_b, no_t, false, rj, h);
        const long cells = long(w) * h;
        send_.push_back({si, sj, w, cells, send_at});
        recv_.push_back({ri, rj, w, cells, recv_at});
        const int dir = (dy + 1) * 3 + (dx + 1), back = (1 - dy) * 3 + (1 - dx);
        // The neighbour sends its strip facing this block with the tag of its own
        // direction towards it, the opposite of ours.
        transfers_.push_back({peer, 9 * tag + dir, 9 * tag + back, nullptr, nullptr, std::size_t(cells * planes) * sizeof(T),
                              std::size_t(cells * planes) * sizeof(T)});
        send_at += cells * planes;
        recv_at += cells * planes;
      }
    if (send_.empty()) return;
    direct_ = std::size_t(std::max(send_at, recv_at)) * sizeof(T) <= kDirectBytes;
    if (!direct_) {
      send_dev_ = DeviceArray<Exec, T>(std::size_t(send_at));
      recv_dev_ = DeviceArray<Exec, T>(std::size_t(recv_at));
    }
    send_host_ = HostBuffer<Exec, T>(std::size_t(send_at));
    recv_host_ = HostBuffer<Exec, T>(std::size_t(recv_at));
    for (std::size_t k = 0; k < transfers_.size(); ++k) {
      transfers_[k].send = send_host_.data() + send_[k].offset;
      transfers_[k].recv = recv_host_.data() + recv_[k].offset;
    }
  }

  bool any() const { return !send_.empty(); }
  // Bytes sent per exchange (each direction's messages together).
  std::size_t bytes() const { return send_host_.size() * sizeof(T); }
  // After the first exchange: whether some strips, or all, go through shared memory.
  bool shared_any() const { return peers_ && peers_->any(); }
  bool shared_all() const { return peers_ && peers_->all(); }

  // One array of `planes` planes.
  void begin(T* field) { begin_fields({field}, false); }
  void finish(T* field) { finish_fields({field}, false); }
  void exchange(T* field) {
    begin(field);
    finish(field);
  }
  // `planes` separate arrays of one plane each, in one message per neighbour.
  void begin(std::initializer_list<T*> fields) { begin_fields(fields, true); }
  void finish(std::initializer_list<T*> fields) { finish_fields(fields, true); }
  void exchange(std::initializer_list<T*> fields) {
    begin(fields);
    finish(fields);
  }

 private:
  // The first exchange sets up the strips through shared memory with each neighbour
  // (collective with them; parallel/halo_peers.hpp) and what goes over MPI: the data of
  // the staged strips, an 8-byte count for each shared one.
  void set_up() {
    if (set_up_) return;
    set_up_ = true;
    std::vector<long> offsets;
    for (const Strip& r : recv_) offsets.push_back(r.offset);
    peers_ = std::make_unique<HaloPeers<Exec, T>>(transfers_, offsets, long(recv_host_.size()), halo_mode());
    posted_ = transfers_;
    counts_.assign(transfers_.size() + 1, 0);  // on the heap: a moved exchange keeps posted_ right
    staged_ = false;
    for (std::size_t k = 0; k < transfers_.size(); ++k) {
      if (!peers_->on(k)) {
        staged_ = true;
        continue;
      }
      posted_[k].send = &counts_[0];
      posted_[k].recv = &counts_[k + 1];
      posted_[k].send_bytes = posted_[k].recv_bytes = sizeof(long);
    }
  }

  // Queues the packing of the strips (and their copy to host memory, unless direct)
  // behind the kernels queued so far (on CUDA in the transfer stream, so that kernels queued
  // next, which must not touch the strips or the halo, run beside it).
  void begin_fields(std::initializer_list<T*> fields, bool separate) {
    if (!any()) return;
    set_up();
    using Stream = TransferStream<Exec>;
    Stream::after_kernels();
    T* staging = direct_ ? send_host_.data() : send_dev_.data();
    if (peers_->any()) peers_->before_pack();
    Stream::for_each(int(send_host_.size()), copy<true>(fields, separate, send_, [&](std::size_t k) {
                       return peers_->on(k) ? peers_->send_to(k, counts_[0]) : staging + send_[k].offset;
                     }));
    if (peers_->any()) peers_->after_pack();
    if (staged_ && !direct_) Stream::download(send_host_.data(), send_dev_.data(), send_host_.size());
  }
  // Sends and receives, then queues the unpacking into the halo before any kernel
  // queued after this call. Strips through shared memory need no wait for the device:
  // the host only swaps the counts with the neighbours (halo_peers.hpp).
  void finish_fields(std::initializer_list<T*> fields, bool separate) {
    if (!any()) return;
    set_up();  // (begin did, unless finish comes alone)
    using Stream = TransferStream<Exec>;
    ++exchanges_done;
    if (staged_) Stream::wait();
    pending_.post(posted_);
    pending_.wait();
    T* staging = direct_ ? recv_host_.data() : recv_dev_.data();
    if (peers_->any()) {
      ++shared_exchanges_done;
      for (std::size_t k = 0; k < transfers_.size(); ++k)
        if (peers_->on(k) && counts_[k + 1] != counts_[0])
          throw std::logic_error("HaloExchange: rank " + std::to_string(transfers_[k].peer) + " is at exchange " +
                                 std::to_string(counts_[k + 1]) + " of this field, this rank at " +
                                 std::to_string(counts_[0]));
      peers_->before_unpack();
    }
    if (staged_ && !direct_) Stream::upload(recv_dev_.data(), recv_host_.data(), recv_host_.size());
    Stream::for_each(int(recv_host_.size()), copy<false>(fields, separate, recv_, [&](std::size_t k) {
                       return peers_->on(k) ? peers_->recv_from(k, counts_[0]) : staging + recv_[k].offset;
                     }));
    if (peers_->any()) peers_->after_unpack();
    Stream::before_kernels();
    ++counts_[0];
  }

  template <bool kPack, class Where>
  StripCopy<T, kPack> copy(std::initializer_list<T*> fields, bool separate, const std::vector<Strip>& strips,
                           const Where& where) const {
    if (separate && (int(fields.size()) != planes_ || planes_ > kMaxSeparateFields))
      throw std::logic_error("HaloExchange: one array per plane expected");
    StripCopy<T, kPack> c{{}, separate, {}, {}, int(strips.size()), nxa_, plane_};
    int k = 0;
    for (T* f : fields) c.field[k++] = f;
    for (std::size_t s = 0; s < strips.size(); ++s) {
      c.strips[s] = strips[s];
      c.buf[s] = where(s);
    }
    return c;
  }

  int planes_ = 1;
  bool direct_ = false;  // the kernels pack into and unpack from the page-locked buffers
  int nxa_ = 0;
  long plane_ = 0;
  std::vector<Strip> send_, recv_;
  std::vector<Transfer> transfers_;
  DeviceArray<Exec, T> send_dev_, recv_dev_;
  HostBuffer<Exec, T> send_host_, recv_host_;
  Exchange pending_;
  // Shared memory with the neighbours on the node (set up by the first exchange).
  bool set_up_ = false, staged_ = true;
  std::unique_ptr<HaloPeers<Exec, T>> peers_;
  std::vector<Transfer> posted_;    // what goes over MPI: transfers_ with counts for shared strips
  // [0]: this field's exchanges so far (whose parity picks the receive buffer's half);
  // [k + 1]: the count transfer k's neighbour sent.
  std::vector<long> counts_;
};

// The plan's line (--explain) on how a block's halo travels: which neighbours the
// exchange would reach through shared memory (the same node, a backend and FLOWLUA_HALO
// that try it) and which are staged. What the first exchange then sets up may still
// fall back to staged (a warning on standard error says so; FLOWLUA_HALO=ipc stops).
template <class Exec>
std::string halo_plan(const Subdomain& b) {
  const HaloMode mode = halo_mode();
  const bool want = wants_shared<Exec>(mode);
  std::string shared, staged;
  std::vector<int> seen;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int p = (dx || dy) ? b.neighbour[dy + 1][dx + 1] : -1;
      if (p < 0 || std::find(seen.begin(), seen.end(), p) != seen.end()) continue;
      seen.push_back(p);
      std::string& to = want && same_node(p) ? shared : staged;
      to += (to.empty() ? "" : ", ") + std::to_string(p);
    }
  if (seen.empty()) return "";
  std::string s = "halo       ";
  if (!shared.empty())
    s += std::string(PeerMemory<Exec>::kind) + " with rank(s) " + shared +
         " (this node: the pack kernel writes into their receive buffers)";
  if (!staged.empty()) {
    if (!shared.empty()) s += "; ";
    s += "staged through host memory with rank(s) " + staged;
  }
  s += std::string(" [FLOWLUA_HALO=") + halo_mode_name(mode) + "]\n";
  return s;
}

}  // namespace flowlua::ranks
