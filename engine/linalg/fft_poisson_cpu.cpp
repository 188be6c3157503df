// The FFT Poisson solve on the CPU backend with FFTW: one 2D real-to-real plan each
// way, with the kinds of fft_poisson.hpp per axis (R2HC/HC2R for periodic axes,
// REDFT10/REDFT01 for walls, RODFT10/RODFT01 for outflow sides). Also FFTW's batched
// real FFTs, so that the transform-from-FFT code that the CUDA backend runs
// (fft_poisson_makhoul.hpp) can be tested on the CPU.
#include <fftw3.h>

#include <cmath>
#include <mutex>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "backend/device_array.hpp"
#include "linalg/fft_poisson3.hpp"
#include "linalg/fft_poisson_makhoul.hpp"

namespace flowlua {

namespace {

// FFTW's planner is not thread-safe; solvers may be built from several threads.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// The double and float FFTW interfaces behind one name.
template <class Real>
struct Fftw;
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
  static plan r2r_2d(int n0, int n1, double* in, double* out, fftw_r2r_kind k0, fftw_r2r_kind k1) {
    return fftw_plan_r2r_2d(n0, n1, in, out, k0, k1, FFTW_ESTIMATE);
  }
  static plan r2r_3d(int n0, int n1, int n2, double* in, double* out, fftw_r2r_kind k0, fftw_r2r_kind k1,
                     fftw_r2r_kind k2) {
    return fftw_plan_r2r_3d(n0, n1, n2, in, out, k0, k1, k2, FFTW_ESTIMATE);
  }
  static plan r2c_3d(int n0, int n1, int n2, double* in, double* out) {
    return fftw_plan_dft_r2c_3d(n0, n1, n2, in, reinterpret_cast<complex*>(out), FFTW_ESTIMATE);
  }
  static plan c2r_3d(int n0, int n1, int n2, double* in, double* out) {
    return fftw_plan_dft_c2r_3d(n0, n1, n2, reinterpret_cast<complex*>(in), out, FFTW_ESTIMATE);
  }
  static plan many_r2c(int n, int batch, int rs, int rd, int cs, int cd, double* in, double* out) {
    return fftw_plan_many_dft_r2c(1, &n, batch, in, nullptr, rs, rd, reinterpret_cast<complex*>(out), nullptr, cs,
                                  cd, FFTW_ESTIMATE);
  }
  static plan many_c2r(int n, int batch, int rs, int rd, int cs, int cd, double* in, double* out) {
    return fftw_plan_many_dft_c2r(1, &n, batch, reinterpret_cast<complex*>(in), nullptr, cs, cd, out, nullptr, rs,
                                  rd, FFTW_ESTIMATE);
  }
  static void execute_r2r(plan p, double* in, double* out) { fftw_execute_r2r(p, in, out); }
  static void execute_r2c(plan p, double* in, double* out) {
    fftw_execute_dft_r2c(p, in, reinterpret_cast<complex*>(out));
  }
  static void execute_c2r(plan p, double* in, double* out) {
    fftw_execute_dft_c2r(p, reinterpret_cast<complex*>(in), out);
  }
  static void destroy(plan p) { fftw_destroy_plan(p); }
};
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
  static plan r2r_2d(int n0, int n1, float* in, float* out, fftwf_r2r_kind k0, fftwf_r2r_kind k1) {
    return fftwf_plan_r2r_2d(n0, n1, in, out, k0, k1, FFTW_ESTIMATE);
  }
  static plan r2r_3d(int n0, int n1, int n2, float* in, float* out, fftwf_r2r_kind k0, fftwf_r2r_kind k1,
                     fftwf_r2r_kind k2) {
    return fftwf_plan_r2r_3d(n0, n1, n2, in, out, k0, k1, k2, FFTW_ESTIMATE);
  }
  static plan r2c_3d(int n0, int n1, int n2, float* in, float* out) {
    return fftwf_plan_dft_r2c_3d(n0, n1, n2, in, reinterpret_cast<complex*>(out), FFTW_ESTIMATE);
  }
  static plan c2r_3d(int n0, int n1, int n2, float* in, float* out) {
    return fftwf_plan_dft_c2r_3d(n0, n1, n2, reinterpret_cast<complex*>(in), out, FFTW_ESTIMATE);
  }
  static plan many_r2c(int n, int batch, int rs, int rd, int cs, int cd, float* in, float* out) {
    return fftwf_plan_many_dft_r2c(1, &n, batch, in, nullptr, rs, rd, reinterpret_cast<complex*>(out), nullptr, cs,
                                   cd, FFTW_ESTIMATE);
  }
  static plan many_c2r(int n, int batch, int rs, int rd, int cs, int cd, float* in, float* out) {
    return fftwf_plan_many_dft_c2r(1, &n, batch, reinterpret_cast<complex*>(in), nullptr, cs, cd, out, nullptr, rs,
                                   rd, FFTW_ESTIMATE);
  }
  static void execute_r2r(plan p, float* in, float* out) { fftwf_execute_r2r(p, in, out); }
  static void execute_r2c(plan p, float* in, float* out) {
    fftwf_execute_dft_r2c(p, in, reinterpret_cast<complex*>(out));
  }
  static void execute_c2r(plan p, float* in, float* out) {
    fftwf_execute_dft_c2r(p, reinterpret_cast<complex*>(in), out);
  }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
};

fftw_r2r_kind forward_kind(FftAxis a) {
  return a == FftAxis::Periodic ? FFTW_R2HC : a == FftAxis::Cosine ? FFTW_REDFT10 : FFTW_RODFT10;
}
fftw_r2r_kind inverse_kind(FftAxis a) {
  return a == FftAxis::Periodic ? FFTW_HC2R : a == FftAxis::Cosine ? FFTW_REDFT01 : FFTW_RODFT01;
}
// Eigenvalue (2 - 2 cos theta) / h^2 of coefficient k in FFTW's output order, and the
// factor one forward-inverse round trip multiplies by (n, or 2n for REDFT/RODFT).
double eigenvalue(FftAxis a, int k, int n, double h) {
  const double pi = 3.14159265358979323846;
  double theta = a == FftAxis::Periodic ? 2 * pi * std::min(k, n - k) / n
                 : a == FftAxis::Cosine ? pi * k / n
                                        : pi * (k + 1) / n;
  return (2 - 2 * std::cos(theta)) / (h * h);
}
double round_trip(FftAxis a, int n) { return a == FftAxis::Periodic ? n : 2.0 * n; }

template <class Real>
class FftwPoisson final : public FftPoissonCore<Real> {
 public:
  explicit FftwPoisson(const FftShape& s)
      : s_(s), work_(std::size_t(s.nx) * s.ny), inv_lambda_(work_.size()) {
    std::lock_guard<std::mutex> lock(planner_mutex());
    // FFTW is row-major: the first dimension is y (slowest), the second x.
    fwd_ = Fftw<Real>::r2r_2d(s.ny, s.nx, work_.data(), work_.data(), forward_kind(s.y), forward_kind(s.x));
    inv_ = Fftw<Real>::r2r_2d(s.ny, s.nx, work_.data(), work_.data(), inverse_kind(s.y), inverse_kind(s.x));
    const double norm = round_trip(s.x, s.nx) * round_trip(s.y, s.ny);
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i) {
        double l = eigenvalue(s.x, i, s.nx, s.dx) + eigenvalue(s.y, j, s.ny, s.dy);
        inv_lambda_.data()[std::size_t(j) * s.nx + i] = l > 0 ? Real(-1 / (l * norm)) : Real(0);
      }
  }
  ~FftwPoisson() override {
    std::lock_guard<std::mutex> lock(planner_mutex());
    Fftw<Real>::destroy(fwd_);
    Fftw<Real>::destroy(inv_);
  }

  void solve(const Real* f, Real* p) override {
    const int nx = s_.nx, ny = s_.ny;
    Real* w = work_.data();
    const Real* il = inv_lambda_.data();
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) w[std::size_t(j) * nx + i] = f[std::size_t(j + 1) * (nx + 2) + i + 1];
    Fftw<Real>::execute_r2r(fwd_, w, w);
    for (std::size_t k = 0; k < work_.size(); ++k) w[k] *= il[k];
    Fftw<Real>::execute_r2r(inv_, w, w);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) p[std::size_t(j + 1) * (nx + 2) + i + 1] = w[std::size_t(j) * nx + i];
  }

  std::string describe() const override { return "FFTW real-to-real transforms"; }

 private:
  FftShape s_;
  DeviceArray<CpuExec, Real> work_, inv_lambda_;
  typename Fftw<Real>::plan fwd_{}, inv_{};
};

template <class Real>
class FftwRealBatch final : public RealFftBatch<Real> {
 public:
  FftwRealBatch(int n, int batch, FftLayout layout) : n_(n), batch_(batch) {
    // Plans made on scratch arrays of the right size and alignment, executed on the
    // caller's (FFTW's new-array interface; CpuExec memory is 64-byte aligned).
    DeviceArray<CpuExec, Real> a(std::size_t(n) * batch), b(std::size_t(batch) * 2 * (n / 2 + 1));
    std::lock_guard<std::mutex> lock(planner_mutex());
    const bool rows = layout == FftLayout::Rows;
    const int rs = rows ? 1 : batch, rd = rows ? n : 1, cs = rows ? 1 : batch, cd = rows ? n / 2 + 1 : 1;
    fwd_ = Fftw<Real>::many_r2c(n, batch, rs, rd, cs, cd, a.data(), b.data());
    inv_ = Fftw<Real>::many_c2r(n, batch, rs, rd, cs, cd, b.data(), a.data());
  }
  ~FftwRealBatch() override {
    std::lock_guard<std::mutex> lock(planner_mutex());
    Fftw<Real>::destroy(fwd_);
    Fftw<Real>::destroy(inv_);
  }
  void forward(Real* in, Real* out) override { Fftw<Real>::execute_r2c(fwd_, in, out); }
  void inverse(Real* in, Real* out) override { Fftw<Real>::execute_c2r(inv_, in, out); }

 private:
  int n_, batch_;
  typename Fftw<Real>::plan fwd_{}, inv_{};
};

// The 3D solve: one 3D real-to-real plan each way (FFTW row-major: z, y, x).
template <class Real>
class FftwPoisson3 final : public FftPoissonCore<Real> {
 public:
  explicit FftwPoisson3(const FftShape3& s)
      : s_(s), work_(std::size_t(s.nx) * s.ny * s.nz), inv_lambda_(work_.size()) {
    std::lock_guard<std::mutex> lock(planner_mutex());
    fwd_ = Fftw<Real>::r2r_3d(s.nz, s.ny, s.nx, work_.data(), work_.data(), forward_kind(s.z), forward_kind(s.y),
                              forward_kind(s.x));
    inv_ = Fftw<Real>::r2r_3d(s.nz, s.ny, s.nx, work_.data(), work_.data(), inverse_kind(s.z), inverse_kind(s.y),
                              inverse_kind(s.x));
    const double norm = round_trip(s.x, s.nx) * round_trip(s.y, s.ny) * round_trip(s.z, s.nz);
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) {
          double l = eigenvalue(s.x, i, s.nx, s.dx) + eigenvalue(s.y, j, s.ny, s.dy) + eigenvalue(s.z, k, s.nz, s.dz);
          inv_lambda_.data()[(std::size_t(k) * s.ny + j) * s.nx + i] = l > 0 ? Real(-1 / (l * norm)) : Real(0);
        }
  }
  ~FftwPoisson3() override {
    std::lock_guard<std::mutex> lock(planner_mutex());
    Fftw<Real>::destroy(fwd_);
    Fftw<Real>::destroy(inv_);
  }

  void solve(const Real* f, Real* p) override {
    const int nx = s_.nx, ny = s_.ny, nz = s_.nz;
    Real* w = work_.data();
    const Real* il = inv_lambda_.data();
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          w[(std::size_t(k) * ny + j) * nx + i] = f[(std::size_t(k + 1) * (ny + 2) + j + 1) * (nx + 2) + i + 1];
    Fftw<Real>::execute_r2r(fwd_, w, w);
    for (std::size_t c = 0; c < work_.size(); ++c) w[c] *= il[c];
    Fftw<Real>::execute_r2r(inv_, w, w);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          p[(std::size_t(k + 1) * (ny + 2) + j + 1) * (nx + 2) + i + 1] = w[(std::size_t(k) * ny + j) * nx + i];
  }

  std::string describe() const override { return "FFTW 3D real-to-real transforms"; }

 private:
  FftShape3 s_;
  DeviceArray<CpuExec, Real> work_, inv_lambda_;
  typename Fftw<Real>::plan fwd_{}, inv_{};
};

// FFTW's 3D real FFT, so that the transform code the CUDA backend runs
// (fft_poisson3.hpp) can be tested on the CPU.
template <class Real>
class FftwReal3 final : public RealFft3<Real> {
 public:
  FftwReal3(int nx, int ny, int nz) {
    DeviceArray<CpuExec, Real> a(std::size_t(nx) * ny * nz), b(std::size_t(nz) * ny * 2 * (nx / 2 + 1));
    std::lock_guard<std::mutex> lock(planner_mutex());
    fwd_ = Fftw<Real>::r2c_3d(nz, ny, nx, a.data(), b.data());
    inv_ = Fftw<Real>::c2r_3d(nz, ny, nx, b.data(), a.data());
  }
  ~FftwReal3() override {
    std::lock_guard<std::mutex> lock(planner_mutex());
    Fftw<Real>::destroy(fwd_);
    Fftw<Real>::destroy(inv_);
  }
  void forward(Real* in, Real* out) override { Fftw<Real>::execute_r2c(fwd_, in, out); }
  void inverse(Real* in, Real* out) override { Fftw<Real>::execute_c2r(inv_, in, out); }

 private:
  typename Fftw<Real>::plan fwd_{}, inv_{};
};

}  // namespace

std::unique_ptr<FftPoissonCore<float>> make_fft_core(CpuExec*, const FftShape3& s, float*) {
  return std::make_unique<FftwPoisson3<float>>(s);
}
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CpuExec*, const FftShape3& s, double*) {
  return std::make_unique<FftwPoisson3<double>>(s);
}
std::unique_ptr<RealFft3<float>> make_real_fft3(CpuExec*, int nx, int ny, int nz, float*) {
  return std::make_unique<FftwReal3<float>>(nx, ny, nz);
}
std::unique_ptr<RealFft3<double>> make_real_fft3(CpuExec*, int nx, int ny, int nz, double*) {
  return std::make_unique<FftwReal3<double>>(nx, ny, nz);
}

std::unique_ptr<FftPoissonCore<float>> make_fft_core(CpuExec*, const FftShape& s, float*) {
  return std::make_unique<FftwPoisson<float>>(s);
}
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CpuExec*, const FftShape& s, double*) {
  return std::make_unique<FftwPoisson<double>>(s);
}
std::unique_ptr<RealFftBatch<float>> make_real_fft(CpuExec*, int n, int batch, FftLayout l, float*) {
  return std::make_unique<FftwRealBatch<float>>(n, batch, l);
}
std::unique_ptr<RealFftBatch<double>> make_real_fft(CpuExec*, int n, int batch, FftLayout l, double*) {
  return std::make_unique<FftwRealBatch<double>>(n, batch, l);
}

}  // namespace flowlua
