// The FFT Poisson solve on the CUDA backend: cuFFT batched real FFTs (plans made once,
// when the solver is built) under the reorder/twiddle kernels of fft_poisson_makhoul.hpp.
#include <cufft.h>

#include <string>

#include "backend/cuda/cuda_exec.cuh"
#include "linalg/fft_poisson3.hpp"
#include "linalg/fft_poisson_makhoul.hpp"

namespace flowlua {

namespace {

void cufft_check(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw BackendError(std::string("cuFFT error in ") + what + ": code " + std::to_string(int(r)));
}

template <class Real>
struct CufftTypes;
template <>
struct CufftTypes<float> {
  static constexpr cufftType r2c = CUFFT_R2C, c2r = CUFFT_C2R;
  static cufftResult forward(cufftHandle h, float* in, float* out) {
    return cufftExecR2C(h, in, reinterpret_cast<cufftComplex*>(out));
  }
  static cufftResult inverse(cufftHandle h, float* in, float* out) {
    return cufftExecC2R(h, reinterpret_cast<cufftComplex*>(in), out);
  }
};
template <>
struct CufftTypes<double> {
  static constexpr cufftType r2c = CUFFT_D2Z, c2r = CUFFT_Z2D;
  static cufftResult forward(cufftHandle h, double* in, double* out) {
    return cufftExecD2Z(h, in, reinterpret_cast<cufftDoubleComplex*>(out));
  }
  static cufftResult inverse(cufftHandle h, double* in, double* out) {
    return cufftExecZ2D(h, reinterpret_cast<cufftDoubleComplex*>(in), out);
  }
};

template <class Real>
class CufftRealBatch final : public RealFftBatch<Real> {
 public:
  CufftRealBatch(int n, int batch, FftLayout layout) {
    // The embed sizes only switch on the advanced layout; strides and distances say it.
    int len = n, complex_len = n / 2 + 1;
    const bool rows = layout == FftLayout::Rows;
    const int rs = rows ? 1 : batch, rd = rows ? n : 1, cs = rows ? 1 : batch, cd = rows ? n / 2 + 1 : 1;
    cufft_check(cufftPlanMany(&fwd_, 1, &len, &len, rs, rd, &complex_len, cs, cd, CufftTypes<Real>::r2c, batch),
                "cufftPlanMany (forward)");
    cufft_check(cufftPlanMany(&inv_, 1, &len, &complex_len, cs, cd, &len, rs, rd, CufftTypes<Real>::c2r, batch),
                "cufftPlanMany (inverse)");
  }
  ~CufftRealBatch() override {
    cufftDestroy(fwd_);
    cufftDestroy(inv_);
  }
  void forward(Real* in, Real* out) override { cufft_check(CufftTypes<Real>::forward(fwd_, in, out), "cufftExec (forward)"); }
  void inverse(Real* in, Real* out) override { cufft_check(CufftTypes<Real>::inverse(inv_, in, out), "cufftExec (inverse)"); }

 private:
  cufftHandle fwd_{}, inv_{};
};

// cuFFT's 3D real transform (cufftPlan3d: z, y, x, x fastest).
template <class Real>
class Cufft3 final : public RealFft3<Real> {
 public:
  Cufft3(int nx, int ny, int nz) {
    cufft_check(cufftPlan3d(&fwd_, nz, ny, nx, CufftTypes<Real>::r2c), "cufftPlan3d (forward)");
    cufft_check(cufftPlan3d(&inv_, nz, ny, nx, CufftTypes<Real>::c2r), "cufftPlan3d (inverse)");
  }
  ~Cufft3() override {
    cufftDestroy(fwd_);
    cufftDestroy(inv_);
  }
  void forward(Real* in, Real* out) override { cufft_check(CufftTypes<Real>::forward(fwd_, in, out), "cufftExec (3D forward)"); }
  void inverse(Real* in, Real* out) override { cufft_check(CufftTypes<Real>::inverse(inv_, in, out), "cufftExec (3D inverse)"); }

 private:
  cufftHandle fwd_{}, inv_{};
};

template <class Real>
std::unique_ptr<FftPoissonCore<Real>> cuda_fft_core3(const FftShape3& s) {
  if (s.all_periodic()) return std::make_unique<PeriodicFftPoisson3<CudaExec, Real>>(s);
  return std::make_unique<SeparableFftPoisson3<CudaExec, Real>>(s);
}

}  // namespace

std::unique_ptr<RealFft3<float>> make_real_fft3(CudaExec*, int nx, int ny, int nz, float*) {
  return std::make_unique<Cufft3<float>>(nx, ny, nz);
}
std::unique_ptr<RealFft3<double>> make_real_fft3(CudaExec*, int nx, int ny, int nz, double*) {
  return std::make_unique<Cufft3<double>>(nx, ny, nz);
}
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CudaExec*, const FftShape3& s, float*) {
  return cuda_fft_core3<float>(s);
}
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CudaExec*, const FftShape3& s, double*) {
  return cuda_fft_core3<double>(s);
}

std::unique_ptr<RealFftBatch<float>> make_real_fft(CudaExec*, int n, int batch, FftLayout l, float*) {
  return std::make_unique<CufftRealBatch<float>>(n, batch, l);
}
std::unique_ptr<RealFftBatch<double>> make_real_fft(CudaExec*, int n, int batch, FftLayout l, double*) {
  return std::make_unique<CufftRealBatch<double>>(n, batch, l);
}
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CudaExec*, const FftShape& s, float*) {
  return std::make_unique<MakhoulFftPoisson<CudaExec, float>>(s);
}
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CudaExec*, const FftShape& s, double*) {
  return std::make_unique<MakhoulFftPoisson<CudaExec, double>>(s);
}

}  // namespace flowlua
