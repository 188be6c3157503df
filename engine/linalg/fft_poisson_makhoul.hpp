// The FFT Poisson solve from batched real FFTs only (what cuFFT offers), with the
// cosine and sine transforms built by Makhoul's reordering (J. Makhoul, "A fast cosine
// transform in one and multiple dimensions", IEEE Trans. ASSP 28, 1980):
//   DCT-II  C_k = sum_n x_n cos(pi k (2n+1) / 2N) = Re(w^-k V_k),  w = exp(i pi / 2N),
//           V = DFT of v, v_{n/2} = x_n (n even), v_{N-1-(n-1)/2} = x_n (n odd);
//   inverse V_k = w^k (C_k - i C_{N-k}) (C_N = 0), v = N IDFT(V), x from v;
//   DST-II  S_k = DCT-II((-1)^n x_n)_{N-1-k};
//   Fourier the real FFT itself, coefficients in FFTW's half-complex order
//           (Re V_0 .. Re V_{N/2}, Im V_{(N-1)/2} .. Im V_1).
// A 2D solve is rows forward, columns forward, divide, columns back, rows back. The
// kernels between the FFTs fuse the twiddles of one axis with the reorder of the
// next, so the data makes 5 passes besides the four batched FFTs; the column FFTs
// run on the row-major array with a stride (no transposes), so every pass is
// coalesced.
// Written for any backend; the CUDA one uses it (fft_poisson_cuda.cu), and the unit
// tests run it on the CPU with FFTW's real FFTs to check it against FFTW's
// real-to-real transforms.
#pragma once
#include <cmath>
#include <memory>
#include <sstream>
#include <vector>

#include "backend/device_array.hpp"
#include "linalg/fft_poisson.hpp"

namespace flowlua {

// Batched real FFTs of length n: forward real -> n/2 + 1 complex (interleaved re, im),
// inverse back (unnormalised, input destroyed). Rows: transform b is contiguous
// (reals at b n + t, complex values at b (n/2 + 1) + t). Columns of a row-major
// array `batch` wide: reals at t batch + b, complex values at t batch + b, so
// every kernel around the FFTs reads and writes whole rows (coalesced on the GPU)
// and no transpose is needed.
enum class FftLayout { Rows, Columns };
template <class Real>
class RealFftBatch {
 public:
  virtual ~RealFftBatch() = default;
  virtual void forward(Real* in, Real* out) = 0;
  virtual void inverse(Real* in, Real* out) = 0;
};
std::unique_ptr<RealFftBatch<float>> make_real_fft(CpuExec*, int n, int batch, FftLayout, float*);
std::unique_ptr<RealFftBatch<double>> make_real_fft(CpuExec*, int n, int batch, FftLayout, double*);
std::unique_ptr<RealFftBatch<float>> make_real_fft(CudaExec*, int n, int batch, FftLayout, float*);
std::unique_ptr<RealFftBatch<double>> make_real_fft(CudaExec*, int n, int batch, FftLayout, double*);

namespace fft_detail {

// One axis: its kind, length, twiddles cos, sin(pi k / 2N) and eigenvalues / h^2.
template <class Real>
struct Axis {
  int n;
  FftAxis kind;
  const Real* cs;   // 2n: cos then sin
  const Real* lam;  // n: (2 - 2 cos(...)) / h^2 per coefficient
  FL_HD int pos(int i) const {
    if (kind == FftAxis::Periodic) return i;
    return (i & 1) ? n - 1 - (i >> 1) : (i >> 1);
  }
  FL_HD Real sign(int i) const { return (kind == FftAxis::Sine && (i & 1)) ? Real(-1) : Real(1); }
  // Coefficient k from a half spectrum (n/2 + 1 complex values, `step` complex
  // values apart).
  FL_HD Real coef(const Real* spec, std::size_t step, int k) const {
    if (kind == FftAxis::Periodic) return k <= n / 2 ? spec[2 * step * k] : spec[2 * step * (n - k) + 1];
    if (kind == FftAxis::Sine) k = n - 1 - k;
    Real re, im;  // V_k, from the half spectrum by conjugate symmetry
    if (k <= n / 2) { re = spec[2 * step * k]; im = spec[2 * step * k + 1]; }
    else { re = spec[2 * step * (n - k)]; im = -spec[2 * step * (n - k) + 1]; }
    return cs[k] * re + cs[n + k] * im;  // Re(w^-k V_k)
  }
  // Half-spectrum entry m (0 <= m <= n/2) of the inverse, from the coefficients c(k).
  template <class Get>
  FL_HD void spectrum(const Get& c, int m, Real& re, Real& im) const {
    if (kind == FftAxis::Periodic) {
      re = c(m);
      im = (m == 0 || 2 * m == n) ? Real(0) : c(n - m);
      return;
    }
    // Cosine coefficients C_m and C_{n-m}; for the sine axis C_k = S_{n-1-k}.
    Real a, b;
    if (kind == FftAxis::Cosine) { a = c(m); b = m == 0 ? Real(0) : c(n - m); }
    else { a = c(n - 1 - m); b = m == 0 ? Real(0) : c(m - 1); }
    // w^m (a - i b)
    re = cs[m] * a + cs[n + m] * b;
    im = cs[n + m] * a - cs[m] * b;
  }
};

// 1. f (grid layout) -> rows reordered for the x transform.
template <class Real>
struct LoadRows {
  Axis<Real> x, y;
  const Real* f;
  Real* rows;  // ny x nx
  FL_HD void operator()(int i, int j) const {
    rows[std::size_t(j) * x.n + x.pos(i)] = x.sign(i) * f[std::size_t(j + 1) * (x.n + 2) + i + 1];
  }
};

// 2. x coefficients of row j, reordered along y for the column transforms.
template <class Real>
struct RowsToColumns {
  Axis<Real> x, y;
  const Real* spec;  // ny rows of nx/2 + 1 complex
  Real* cols;        // ny x nx, row y.pos(j) holds row j
  FL_HD void operator()(int k, int j) const {
    const Real c = x.coef(spec + std::size_t(j) * 2 * (x.n / 2 + 1), 1, k);
    cols[std::size_t(y.pos(j)) * x.n + k] = y.sign(j) * c;
  }
};

// 3. y coefficients of column k, divided by -lambda, -> the column's inverse spectrum.
template <class Real>
struct Divide {
  Axis<Real> x, y;
  const Real* spec;  // (ny/2 + 1) x nx complex: entry m of column k at m nx + k
  Real* out;         // same shape
  Real scale;        // 1 / (nx ny): the unnormalised round trip
  FL_HD void operator()(int k, int m) const {
    const Real* s = spec + 2 * std::size_t(k);
    const Real lx = x.lam[k];
    auto c = [&](int q) -> Real {
      const Real l = lx + y.lam[q];
      return l > 0 ? -y.coef(s, x.n, q) * scale / l : Real(0);  // the zero mode of singular boxes: 0
    };
    Real re, im;
    y.spectrum(c, m, re, im);
    out[2 * (std::size_t(m) * x.n + k)] = re;
    out[2 * (std::size_t(m) * x.n + k) + 1] = im;
  }
};

// 4. columns back in y -> row j's inverse x spectrum.
template <class Real>
struct ColumnsToRows {
  Axis<Real> x, y;
  const Real* cols;  // ny x nx, reordered along y
  Real* spec;        // ny rows of nx/2 + 1 complex
  FL_HD void operator()(int m, int j) const {
    const Real* row = cols + std::size_t(y.pos(j)) * x.n;
    const Real sj = y.sign(j);
    auto c = [&](int k) -> Real { return sj * row[k]; };
    Real re, im;
    x.spectrum(c, m, re, im);
    spec[std::size_t(j) * 2 * (x.n / 2 + 1) + 2 * m] = re;
    spec[std::size_t(j) * 2 * (x.n / 2 + 1) + 2 * m + 1] = im;
  }
};

// 5. rows back in x -> p (grid layout).
template <class Real>
struct StoreRows {
  Axis<Real> x, y;
  const Real* rows;
  Real* p;
  FL_HD void operator()(int i, int j) const {
    p[std::size_t(j + 1) * (x.n + 2) + i + 1] = x.sign(i) * rows[std::size_t(j) * x.n + x.pos(i)];
  }
};

}  // namespace fft_detail

template <class Exec, class Real>
class MakhoulFftPoisson final : public FftPoissonCore<Real> {
 public:
  explicit MakhoulFftPoisson(const FftShape& s)
      : s_(s), tx_(table(s.x, s.nx, s.dx)), ty_(table(s.y, s.ny, s.dy)),
        rows_(std::size_t(s.nx) * s.ny), cols_(std::size_t(s.nx) * s.ny),
        spec_x_(std::size_t(s.ny) * 2 * (s.nx / 2 + 1)), spec_y_(std::size_t(s.nx) * 2 * (s.ny / 2 + 1)),
        spec_y2_(spec_y_.size()),
        fft_x_(make_real_fft(static_cast<Exec*>(nullptr), s.nx, s.ny, FftLayout::Rows, static_cast<Real*>(nullptr))),
        fft_y_(make_real_fft(static_cast<Exec*>(nullptr), s.ny, s.nx, FftLayout::Columns,
                             static_cast<Real*>(nullptr))) {}

  void solve(const Real* f, Real* p) override {
    using namespace fft_detail;
    const Axis<Real> x{s_.nx, s_.x, tx_.data(), tx_.data() + 2 * s_.nx};
    const Axis<Real> y{s_.ny, s_.y, ty_.data(), ty_.data() + 2 * s_.ny};
    Exec::for_each(0, s_.nx - 1, 0, s_.ny - 1, LoadRows<Real>{x, y, f, rows_.data()});
    fft_x_->forward(rows_.data(), spec_x_.data());
    Exec::for_each(0, s_.nx - 1, 0, s_.ny - 1, RowsToColumns<Real>{x, y, spec_x_.data(), cols_.data()});
    fft_y_->forward(cols_.data(), spec_y_.data());
    Exec::for_each(0, s_.nx - 1, 0, s_.ny / 2,
                   Divide<Real>{x, y, spec_y_.data(), spec_y2_.data(), Real(1.0 / (double(s_.nx) * s_.ny))});
    fft_y_->inverse(spec_y2_.data(), cols_.data());
    Exec::for_each(0, s_.nx / 2, 0, s_.ny - 1, ColumnsToRows<Real>{x, y, cols_.data(), spec_x_.data()});
    fft_x_->inverse(spec_x_.data(), rows_.data());
    Exec::for_each(0, s_.nx - 1, 0, s_.ny - 1, StoreRows<Real>{x, y, rows_.data(), p});
  }

  std::string describe() const override { return "real FFTs with Makhoul reordering and twiddle kernels"; }

 private:
  // cos(pi k / 2n), sin(pi k / 2n) for k < n, then the eigenvalues / h^2.
  static DeviceArray<Exec, Real> table(FftAxis a, int n, double h) {
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

  FftShape s_;
  DeviceArray<Exec, Real> tx_, ty_, rows_, cols_, spec_x_, spec_y_, spec_y2_;
  std::unique_ptr<RealFftBatch<Real>> fft_x_, fft_y_;
};

}  // namespace flowlua
