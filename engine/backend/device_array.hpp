// An array in a backend's memory, freed when it goes out of scope.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace flowlua {

template <class Exec, class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : n_(n), p_(n ? Exec::template alloc<T>(n) : nullptr) {}
  ~DeviceArray() { if (p_) Exec::release(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }

  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }

  void upload(const std::vector<T>& host) { Exec::upload(p_, host.data(), n_); }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    Exec::download(host.data(), p_, n_);
    return host;
  }
  // The same into a vector the caller keeps (no allocation once it has the size).
  void download_into(std::vector<T>& host) const {
    host.resize(n_);
    Exec::download(host.data(), p_, n_);
  }
  void fill(T value) { Exec::fill(p_, value, n_); }

 private:
  std::size_t n_ = 0;
  T* p_ = nullptr;
};

}  // namespace flowlua
