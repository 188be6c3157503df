// The 3D FFT Poisson solves that run on any backend from real FFTs (the CUDA
// backend's; the CPU one uses FFTW's 3D real-to-real transforms directly, and the
// unit tests run these on the CPU with FFTW's real FFTs to check them against it).
//
// PeriodicFftPoisson3: a periodic box (seed 004's case). One 3D real-to-complex FFT,
//   a division of each complex coefficient by -lambda (the sum of the three axes'
//   eigenvalues, fft_poisson.hpp) and one complex-to-real FFT: three passes over the
//   data besides the load and the store.
// SeparableFftPoisson3: any mix of periodic, wall (cosine) and outflow (sine) axes.
//   Each axis is transformed in turn with the 1D Makhoul transform of
//   fft_poisson_makhoul.hpp (reorder -> batched real FFT along the axis ->
//   coefficients), the coefficients divided by -lambda, and each axis transformed
//   back. The reorder passes gather each axis's lines into rows (a transpose for y
//   and z), so it moves more bytes than the fused 2D solve; it is the general case,
//   not the fast one.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "backend/device_array.hpp"
#include "linalg/fft_poisson_makhoul.hpp"

namespace flowlua {

// A 3D real FFT of an nz x ny x nx array (x fastest): forward to nz x ny x (nx/2 + 1)
// complex (interleaved), inverse back (unnormalised, input destroyed).
template <class Real>
class RealFft3 {
 public:
  virtual ~RealFft3() = default;
  virtual void forward(Real* in, Real* out) = 0;
  virtual void inverse(Real* in, Real* out) = 0;
};
std::unique_ptr<RealFft3<float>> make_real_fft3(CpuExec*, int nx, int ny, int nz, float*);
std::unique_ptr<RealFft3<double>> make_real_fft3(CpuExec*, int nx, int ny, int nz, double*);
std::unique_ptr<RealFft3<float>> make_real_fft3(CudaExec*, int nx, int ny, int nz, float*);
std::unique_ptr<RealFft3<double>> make_real_fft3(CudaExec*, int nx, int ny, int nz, double*);

namespace fft3_detail {

// Grid3 layout (ghosts) <-> compact nx ny nz array.
template <class Real>
struct LoadCompact {
  int nx, ny;
  const Real* f;
  Real* w;
  FL_HD void operator()(int i, int j, int k) const {
    w[(std::size_t(k) * ny + j) * nx + i] = f[(std::size_t(k + 1) * (ny + 2) + j + 1) * (nx + 2) + i + 1];
  }
};
template <class Real>
struct StoreCompact {
  int nx, ny;
  const Real* w;
  Real* p;
  FL_HD void operator()(int i, int j, int k) const {
    p[(std::size_t(k + 1) * (ny + 2) + j + 1) * (nx + 2) + i + 1] = w[(std::size_t(k) * ny + j) * nx + i];
  }
};

// Line b of axis a and position t along it -> the compact index. Lines: axis x, b
// = j + ny k; axis y, b = i + nx k; axis z, b = i + nx j.
struct Lines {
  int nx, ny, nz, axis;
  FL_HD std::size_t at(int t, int b) const {
    if (axis == 0) return std::size_t(b) * nx + t;
    if (axis == 1) return (std::size_t(b / nx) * ny + t) * nx + b % nx;
    return std::size_t(t) * nx * ny + b;
  }
};

// 1. the lines of one axis, reordered, into rows (n per line).
template <class Real>
struct GatherLines {
  fft_detail::Axis<Real> ax;
  Lines l;
  const Real* w;
  Real* rows;
  FL_HD void operator()(int b, int t) const { rows[std::size_t(b) * ax.n + ax.pos(t)] = ax.sign(t) * w[l.at(t, b)]; }
};
// 2. the axis's coefficients from the rows' half spectra, back into the array.
template <class Real>
struct ScatterCoefficients {
  fft_detail::Axis<Real> ax;
  Lines l;
  const Real* spec;
  Real* w;
  FL_HD void operator()(int b, int k) const {
    w[l.at(k, b)] = ax.coef(spec + std::size_t(b) * 2 * (ax.n / 2 + 1), 1, k);
  }
};
// 3. divide by -lambda (0 for the zero mode of a singular box), times the scale of
// the unnormalised round trip.
template <class Real>
struct DivideCoefficients {
  const Real *lx, *ly, *lz;
  int nx, ny;
  Real scale;
  Real* w;
  FL_HD void operator()(int i, int j, int k) const {
    const Real l = lx[i] + ly[j] + lz[k];
    Real& c = w[(std::size_t(k) * ny + j) * nx + i];
    c = l > 0 ? -c * scale / l : Real(0);
  }
};
// 4. the inverse half spectrum of each line from the coefficients.
template <class Real>
struct LineSpectra {
  fft_detail::Axis<Real> ax;
  Lines l;
  const Real* w;
  Real* spec;
  FL_HD void operator()(int b, int m) const {
    auto c = [&](int k) -> Real { return w[l.at(k, b)]; };
    Real re, im;
    ax.spectrum(c, m, re, im);
    spec[std::size_t(b) * 2 * (ax.n / 2 + 1) + 2 * m] = re;
    spec[std::size_t(b) * 2 * (ax.n / 2 + 1) + 2 * m + 1] = im;
  }
};
// 5. rows back along the axis, un-reordered, into the array.
template <class Real>
struct ScatterLines {
  fft_detail::Axis<Real> ax;
  Lines l;
  const Real* rows;
  Real* w;
  FL_HD void operator()(int b, int t) const { w[l.at(t, b)] = ax.sign(t) * rows[std::size_t(b) * ax.n + ax.pos(t)]; }
};

// The periodic box's division on the half spectrum nz x ny x (nx/2 + 1).
template <class Real>
struct DivideHalfSpectrum {
  const Real *lx, *ly, *lz;
  int hx, ny;  // hx = nx/2 + 1
  Real scale;
  Real* spec;
  FL_HD void operator()(int i, int j, int k) const {
    const Real l = lx[i] + ly[j] + lz[k];
    const Real f = l > 0 ? -scale / l : Real(0);
    const std::size_t c = 2 * ((std::size_t(k) * ny + j) * hx + i);
    spec[c] *= f;
    spec[c + 1] *= f;
  }
};

// cos, sin (pi k / 2n), then the eigenvalues / h^2 (as MakhoulFftPoisson::table).
template <class Exec, class Real>
DeviceArray<Exec, Real> axis_table(FftAxis a, int n, double h) {
  const double pi = 3.14159265358979323846;
  std::vector<Real> t(3 * std::size_t(n));
  for (int k = 0; k < n; ++k) {
    t[k] = Real(std::cos(pi * k / (2.0 * n)));
    t[n + k] = Real(std::sin(pi * k / (2.0 * n)));
    double theta = a == FftAxis::Periodic ? 2 * pi * std::min(k, n - k) / n
                   : a == FftAxis::Cosine ? pi * k / n
                                          : pi * (k + 1) / n;
    t[2 * n + k] = Real((2 - 2 * std::cos(theta)) / (h * h));
  }
  DeviceArray<Exec, Real> d(t.size());
  d.upload(t);
  return d;
}

}  // namespace fft3_detail

template <class Exec, class Real>
class SeparableFftPoisson3 final : public FftPoissonCore<Real> {
 public:
  explicit SeparableFftPoisson3(const FftShape3& s) : s_(s), w_(std::size_t(s.nx) * s.ny * s.nz) {
    const int n[3] = {s.nx, s.ny, s.nz};
    const double h[3] = {s.dx, s.dy, s.dz};
    const FftAxis kind[3] = {s.x, s.y, s.z};
    std::size_t spec = 0;
    for (int a = 0; a < 3; ++a) {
      table_[a] = fft3_detail::axis_table<Exec, Real>(kind[a], n[a], h[a]);
      const int batch = int(w_.size() / n[a]);
      fft_[a] = make_real_fft(static_cast<Exec*>(nullptr), n[a], batch, FftLayout::Rows, static_cast<Real*>(nullptr));
      spec = std::max(spec, std::size_t(batch) * 2 * (n[a] / 2 + 1));
    }
    rows_ = DeviceArray<Exec, Real>(w_.size());
    spec_ = DeviceArray<Exec, Real>(spec);
  }

  void solve(const Real* f, Real* p) override {
    using namespace fft3_detail;
    const int nx = s_.nx, ny = s_.ny, nz = s_.nz;
    Exec::for_each3(0, nx - 1, 0, ny - 1, 0, nz - 1, LoadCompact<Real>{nx, ny, f, w_.data()});
    for (int a = 0; a < 3; ++a) {
      const fft_detail::Axis<Real> ax = axis(a);
      const Lines l{nx, ny, nz, a};
      const int lines = int(w_.size() / ax.n);
      Exec::for_each(0, lines - 1, 0, ax.n - 1, GatherLines<Real>{ax, l, w_.data(), rows_.data()});
      fft_[a]->forward(rows_.data(), spec_.data());
      Exec::for_each(0, lines - 1, 0, ax.n - 1, ScatterCoefficients<Real>{ax, l, spec_.data(), w_.data()});
    }
    Exec::for_each3(0, nx - 1, 0, ny - 1, 0, nz - 1,
                    DivideCoefficients<Real>{lam(0), lam(1), lam(2), nx, ny,
                                             Real(1.0 / (double(nx) * ny * nz)), w_.data()});
    for (int a = 2; a >= 0; --a) {
      const fft_detail::Axis<Real> ax = axis(a);
      const Lines l{nx, ny, nz, a};
      const int lines = int(w_.size() / ax.n);
      Exec::for_each(0, lines - 1, 0, ax.n / 2, LineSpectra<Real>{ax, l, w_.data(), spec_.data()});
      fft_[a]->inverse(spec_.data(), rows_.data());
      Exec::for_each(0, lines - 1, 0, ax.n - 1, ScatterLines<Real>{ax, l, rows_.data(), w_.data()});
    }
    Exec::for_each3(0, nx - 1, 0, ny - 1, 0, nz - 1, StoreCompact<Real>{nx, ny, w_.data(), p});
  }

  std::string describe() const override { return "per-axis real FFTs with Makhoul reordering"; }

 private:
  fft_detail::Axis<Real> axis(int a) const {
    const int n[3] = {s_.nx, s_.ny, s_.nz};
    const FftAxis kind[3] = {s_.x, s_.y, s_.z};
    const Real* t = table_[a].data();
    return fft_detail::Axis<Real>{n[a], kind[a], t, t + 2 * n[a]};
  }
  const Real* lam(int a) const {
    const int n[3] = {s_.nx, s_.ny, s_.nz};
    return table_[a].data() + 2 * n[a];
  }

  FftShape3 s_;
  DeviceArray<Exec, Real> w_, rows_, spec_;
  DeviceArray<Exec, Real> table_[3];
  std::unique_ptr<RealFftBatch<Real>> fft_[3];
};

template <class Exec, class Real>
class PeriodicFftPoisson3 final : public FftPoissonCore<Real> {
 public:
  explicit PeriodicFftPoisson3(const FftShape3& s)
      : s_(s), w_(std::size_t(s.nx) * s.ny * s.nz), spec_(std::size_t(s.nz) * s.ny * 2 * (s.nx / 2 + 1)),
        tx_(fft3_detail::axis_table<Exec, Real>(FftAxis::Periodic, s.nx, s.dx)),
        ty_(fft3_detail::axis_table<Exec, Real>(FftAxis::Periodic, s.ny, s.dy)),
        tz_(fft3_detail::axis_table<Exec, Real>(FftAxis::Periodic, s.nz, s.dz)),
        fft_(make_real_fft3(static_cast<Exec*>(nullptr), s.nx, s.ny, s.nz, static_cast<Real*>(nullptr))) {
    if (!s.all_periodic()) throw CaseError("PeriodicFftPoisson3 needs a periodic box");
  }

  void solve(const Real* f, Real* p) override {
    using namespace fft3_detail;
    const int nx = s_.nx, ny = s_.ny, nz = s_.nz;
    Exec::for_each3(0, nx - 1, 0, ny - 1, 0, nz - 1, LoadCompact<Real>{nx, ny, f, w_.data()});
    fft_->forward(w_.data(), spec_.data());
    Exec::for_each3(0, nx / 2, 0, ny - 1, 0, nz - 1,
                    DivideHalfSpectrum<Real>{tx_.data() + 2 * nx, ty_.data() + 2 * ny, tz_.data() + 2 * nz, nx / 2 + 1,
                                             ny, Real(1.0 / (double(nx) * ny * nz)), spec_.data()});
    fft_->inverse(spec_.data(), w_.data());
    Exec::for_each3(0, nx - 1, 0, ny - 1, 0, nz - 1, StoreCompact<Real>{nx, ny, w_.data(), p});
  }

  std::string describe() const override { return "one 3D real FFT each way"; }

 private:
  FftShape3 s_;
  DeviceArray<Exec, Real> w_, spec_, tx_, ty_, tz_;
  std::unique_ptr<RealFft3<Real>> fft_;
};

}  // namespace flowlua
