// The FFT Poisson cores (FFTW real-to-real, and the Makhoul pipeline the CUDA backend
// runs, here on FFTW's real FFTs) on every axis pair and on many small, odd and even
// sizes, in both precisions: the result is finite and solves the discrete problem
// (the residual of the 5-point Laplacian with each axis's ghost rule is at rounding
// level). Guards against the NaN and wrong-mode bugs that only show at some sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "linalg/fft_poisson_makhoul.hpp"

using namespace flowlua;

namespace {

// The neighbour of interior index i (1..n) across a side, with the axis's rule:
// returns the index and the sign the ghost carries (periodic: wrap; cosine: the
// mirror, +; sine: the mirror, -).
int across(FftAxis a, int i, int n, double& sign) {
  sign = 1;
  if (i >= 1 && i <= n) return i;
  if (a == FftAxis::Periodic) return i < 1 ? i + n : i - n;
  if (a == FftAxis::Sine) sign = -1;
  return i < 1 ? 1 : n;
}

template <class Real>
double relative_residual(const FftShape& s, const std::vector<Real>& f, const std::vector<Real>& p) {
  const Grid g = Grid::make(s.nx, s.ny, 1, 1);
  double r2 = 0, f2 = 0;
  for (int j = 1; j <= s.ny; ++j)
    for (int i = 1; i <= s.nx; ++i) {
      double se, sw, sn, ss;
      const int e = across(s.x, i + 1, s.nx, se), w = across(s.x, i - 1, s.nx, sw);
      const int n = across(s.y, j + 1, s.ny, sn), so = across(s.y, j - 1, s.ny, ss);
      const double c = p[g.at(i, j)];
      const double lap = (se * p[g.at(e, j)] - 2 * c + sw * p[g.at(w, j)]) / (s.dx * s.dx) +
                         (sn * p[g.at(i, n)] - 2 * c + ss * p[g.at(i, so)]) / (s.dy * s.dy);
      r2 += (lap - f[g.at(i, j)]) * (lap - f[g.at(i, j)]);
      f2 += double(f[g.at(i, j)]) * f[g.at(i, j)];
    }
  return std::sqrt(r2 / f2);
}

template <class Real>
void check_all_sizes(double tol) {
  const FftAxis kinds[3] = {FftAxis::Periodic, FftAxis::Cosine, FftAxis::Sine};
  std::vector<std::pair<int, int>> sizes;
  for (int nx = 2; nx <= 9; ++nx)
    for (int ny = 2; ny <= 9; ++ny) sizes.push_back({nx, ny});
  for (auto s : {std::pair{31, 17}, std::pair{64, 3}, std::pair{2, 65}, std::pair{100, 98}}) sizes.push_back(s);
  for (auto [nx, ny] : sizes)
    for (FftAxis ax : kinds)
      for (FftAxis ay : kinds) {
        const FftShape s{nx, ny, 1.0 / nx, 0.7 / ny, ax, ay};
        const Grid g = Grid::make(nx, ny, 1, 1);
        std::mt19937 rng(nx * 131 + ny);
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<double> fd(g.size(), 0.0);
        double mean = 0;
        for (int j = 1; j <= ny; ++j)
          for (int i = 1; i <= nx; ++i) mean += (fd[g.at(i, j)] = u(rng));
        mean /= double(nx) * ny;
        // Singular boxes (no sine axis) need a right-hand side of zero mean.
        if (ax != FftAxis::Sine && ay != FftAxis::Sine)
          for (int j = 1; j <= ny; ++j)
            for (int i = 1; i <= nx; ++i) fd[g.at(i, j)] -= mean;
        const std::vector<Real> f(fd.begin(), fd.end());
        auto fftw = make_fft_core<CpuExec, Real>(s);
        MakhoulFftPoisson<CpuExec, Real> mk(s);
        for (int which = 0; which < 2; ++which) {
          std::vector<Real> p(g.size(), Real(0));
          if (which == 0) fftw->solve(f.data(), p.data());
          else mk.solve(f.data(), p.data());
          bool finite = true;
          for (Real x : p) finite = finite && std::isfinite(double(x));
          ASSERT_TRUE(finite) << (which ? "makhoul " : "fftw ") << nx << "x" << ny << " axes " << int(ax) << ","
                              << int(ay);
          EXPECT_LT(relative_residual(s, f, p), tol)
              << (which ? "makhoul " : "fftw ") << nx << "x" << ny << " axes " << int(ax) << "," << int(ay);
        }
      }
}

}  // namespace

TEST(FftPoissonSizes, EveryAxisPairAndSizeSolvesDouble) { check_all_sizes<double>(1e-10); }
TEST(FftPoissonSizes, EveryAxisPairAndSizeSolvesFloat) { check_all_sizes<float>(2e-3); }
