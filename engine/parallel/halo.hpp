// The halo exchange of a field split between ranks (parallel/decomposition.hpp): the
// owned cells along each side and corner where a neighbouring block lies are packed
// into one buffer on the backend, staged through host memory, sent to that
// neighbour, and the neighbour's cells unpacked into the halo layer. Corners go to
// the diagonal neighbours directly, so one round fills the whole ring (the D2Q9
// lattice and the 9-point stencils need the corners).
//
// A field is `planes` planes of nxa * nya cells (i + j nxa, plane after plane), as
// the Subdomain's local arrays. begin() queues the packing; the caller may queue work
// that neither reads the halo nor writes the strips; finish() sends, receives and
// queues the unpacking. On CUDA the packing, the copies and the unpacking run in a
// second stream, beside the work queued in between (docs/mpi.md, "Overlap").
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "backend/device_array.hpp"
#include "backend/transfer_stream.hpp"
#include "core/hd.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::ranks {

struct Strip {
  int i0, j0, w;  // first cell, width (cells along i)
  long cells;     // w * height
  long offset;    // in the buffer, in elements
};

// Copies between the field's strips and the buffer: out = true packs (field -> buffer).
template <class T, bool kPack>
struct StripCopy {
  T* field;
  T* buf;
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
    const long c = p * plane + long(st.i0 + int(q % st.w)) + long(st.j0 + int(q / st.w)) * nxa;
    if (kPack) buf[k] = field[c];
    else field[c] = buf[k];
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
  HaloExchange(const Subdomain& sd, int planes, int tag) : nxa_(sd.nxa()), plane_(long(sd.nxa()) * sd.nya()) {
    const int ox = sd.ox(), oy = sd.oy();
    long send_at = 0, recv_at = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int peer = (dx || dy) ? sd.neighbour[dy + 1][dx + 1] : -1;
        if (peer < 0) continue;
        // What this block owns along that side (sent) and the halo cells there (received).
        auto range = [](int d, int o, int n, int na, bool send, int& first, int& count) {
          count = d ? 1 : n;
          first = d < 0 ? (send ? o : 0) : d > 0 ? (send ? o + n - 1 : na - 1) : o;
        };
        int si, sj, ri, rj, w, h;
        range(dx, ox, sd.nx, sd.nxa(), true, si, w);
        range(dy, oy, sd.ny, sd.nya(), true, sj, h);
        range(dx, ox, sd.nx, sd.nxa(), false, ri, w);
        range(dy, oy, sd.ny, sd.nya(), false, rj, h);
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
    send_dev_ = DeviceArray<Exec, T>(std::size_t(send_at));
    recv_dev_ = DeviceArray<Exec, T>(std::size_t(recv_at));
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

  // Queues the packing of the strips and their copy to host memory behind the
  // kernels queued so far (on CUDA in the transfer stream, so that kernels queued
  // next, which must not touch the strips or the halo, run beside it).
  void begin(T* field) {
    if (!any()) return;
    using Stream = TransferStream<Exec>;
    Stream::after_kernels();
    Stream::for_each(int(send_host_.size()), copy<true>(field, send_dev_.data(), send_));
    Stream::download(send_host_.data(), send_dev_.data(), send_host_.size());
  }
  // Sends and receives, then queues the unpacking into the halo before any kernel
  // queued after this call.
  void finish(T* field) {
    if (!any()) return;
    using Stream = TransferStream<Exec>;
    Stream::wait();
    pending_.post(transfers_);
    pending_.wait();
    Stream::upload(recv_dev_.data(), recv_host_.data(), recv_host_.size());
    Stream::for_each(int(recv_host_.size()), copy<false>(field, recv_dev_.data(), recv_));
    Stream::before_kernels();
  }
  void exchange(T* field) {
    begin(field);
    finish(field);
  }

 private:
  template <bool kPack>
  StripCopy<T, kPack> copy(T* field, T* buf, const std::vector<Strip>& strips) const {
    StripCopy<T, kPack> c{field, buf, {}, int(strips.size()), nxa_, plane_};
    for (std::size_t s = 0; s < strips.size(); ++s) c.strips[s] = strips[s];
    return c;
  }

  int nxa_ = 0;
  long plane_ = 0;
  std::vector<Strip> send_, recv_;
  std::vector<Transfer> transfers_;
  DeviceArray<Exec, T> send_dev_, recv_dev_;
  HostBuffer<Exec, T> send_host_, recv_host_;
  Exchange pending_;
};

}  // namespace flowlua::ranks
