// Immersed bodies (core/immersed.hpp): the face classification and the interpolation
// of Fadlun et al. (2000) on exact fields.
#include <gtest/gtest.h>

#include <cmath>

#include "core/immersed.hpp"

using namespace flowlua;

namespace {

// Circular Couette flow between r = R1 (turning at omega) and R2 (at rest), centred
// in the unit square.
struct Couette {
  double xc = 0.5, yc = 0.5, R1 = 0.15, R2 = 0.45, omega = 1.0;
  double ut(double r) const {
    if (r <= R1) return omega * r;
    if (r >= R2) return 0;
    const double A = -omega * R1 * R1 / (R2 * R2 - R1 * R1), B = omega * R1 * R1 * R2 * R2 / (R2 * R2 - R1 * R1);
    return A * r + B / r;
  }
  double u(double x, double y) const {
    const double r = std::hypot(x - xc, y - yc);
    return r > 0 ? -ut(r) * (y - yc) / r : 0;
  }
  double v(double x, double y) const {
    const double r = std::hypot(x - xc, y - yc);
    return r > 0 ? ut(r) * (x - xc) / r : 0;
  }
  std::vector<ImmersedBody> bodies() const {
    ImmersedBody in, out;
    in.phi = [this](double x, double y) { return std::hypot(x - xc, y - yc) - R1; };
    in.motion = RigidMotion{xc, yc, omega};
    in.obstacle = 0;
    out.phi = [this](double x, double y) { return R2 - std::hypot(x - xc, y - yc); };
    out.obstacle = 1;
    return {in, out};
  }
};

// Root-mean-square error of the values interpolated at the forcing faces, with the
// exact field at the partners.
double forcing_error(int n) {
  const Couette cf;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
  double sum = 0;
  long count = 0;
  for (int comp = 0; comp < 2; ++comp) {
    const FaceForcing& f = comp ? geo.v : geo.u;
    const double ox = comp ? -0.5 : 0.0, oy = comp ? 0.0 : -0.5;
    auto exact = [&](int i, int j) {
      const double x = (i + ox) * g.dx, y = (j + oy) * g.dy;
      return comp ? cf.v(x, y) : cf.u(x, y);
    };
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        const std::size_t c = g.at(i, j);
        const std::int8_t code = f.code[c];
        if (code < kFaceWest || code >= kGhostWest) continue;
        int di, dj;
        forcing_partner(code, di, dj);
        const double val = forced_velocity(code, f.weight[c], f.value[c], exact(i + di, j + dj), 0.0);
        sum += (val - exact(i, j)) * (val - exact(i, j));
        ++count;
      }
  }
  return std::sqrt(sum / double(count));
}

}  // namespace

TEST(Immersed, ClassifiesCouetteFaces) {
  const Couette cf;
  const int n = 40;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
  EXPECT_GT(geo.u.forcing, 0);
  EXPECT_GT(geo.u.inside, 0);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i < n; ++i) {
      const double r = std::hypot(i * g.dx - cf.xc, (j - 0.5) * g.dy - cf.yc);
      const std::int8_t code = geo.u.code[g.at(i, j)];
      const bool inside = code == kFaceInside || code >= kGhostWest;
      if (r < cf.R1 || r > cf.R2) EXPECT_TRUE(inside) << i << " " << j;
      else EXPECT_FALSE(inside) << i << " " << j;
      // Ghosts only next to the surface.
      if (code >= kGhostWest) EXPECT_TRUE(r > cf.R1 - 1.01 * g.dx || r < cf.R2 + 1.01 * g.dx) << i << " " << j;
      // A face more than a cell clear of both surfaces is free.
      if (r > cf.R1 + 1.01 * g.dx && r < cf.R2 - 1.01 * g.dx) EXPECT_EQ(code, kFaceFree) << i << " " << j;
    }
  // The surface segments add up to the two perimeters (to second order).
  double len[2] = {0, 0};
  for (const SurfaceSegment& s : geo.surface) len[s.obstacle] += s.ds;
  EXPECT_NEAR(len[0], 2 * M_PI * cf.R1, 0.01 * 2 * M_PI * cf.R1);
  EXPECT_NEAR(len[1], 2 * M_PI * cf.R2, 0.01 * 2 * M_PI * cf.R2);
  EXPECT_GT(geo.sources, 0);
}

// Linear interpolation along a grid line is second order: halving h quarters the
// error of the forced values (rms over the forcing faces; the set of faces changes
// with h, so the ratio scatters about 4).
TEST(Immersed, InterpolationIsSecondOrder) {
  const double e1 = forcing_error(80), e2 = forcing_error(160), e3 = forcing_error(320);
  std::printf("  rms forcing error: %.3e %.3e %.3e (ratios %.2f %.2f)\n", e1, e2, e3, e1 / e2, e2 / e3);
  EXPECT_GT(e1 / e3, 12.0);  // two halvings: 16 for exact second order, 4 for first
  EXPECT_GT(e2 / e3, 3.0);
}

// Ghost faces continue the fluid's profile through the surface: against the Couette
// formula continued inside the inner cylinder (A r + B / r), they are second order too.
TEST(Immersed, GhostValuesContinueTheProfile) {
  auto ghost_error = [](int n) {
    const Couette cf;
    const Grid g = Grid::make(n, n, 1.0, 1.0);
    const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
    const double A = -cf.omega * cf.R1 * cf.R1 / (cf.R2 * cf.R2 - cf.R1 * cf.R1);
    const double B = cf.omega * cf.R1 * cf.R1 * cf.R2 * cf.R2 / (cf.R2 * cf.R2 - cf.R1 * cf.R1);
    auto cont = [&](double x, double y) {  // the continued u
      const double r = std::hypot(x - cf.xc, y - cf.yc);
      return -(A * r + B / r) * (y - cf.yc) / r;
    };
    double sum = 0;
    long count = 0;
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i < n; ++i) {
        const std::size_t c = g.at(i, j);
        const std::int8_t code = geo.u.code[c];
        const double x = i * g.dx, y = (j - 0.5) * g.dy;
        if (code < kGhostWest || std::hypot(x - cf.xc, y - cf.yc) > cf.R1) continue;  // inner ghosts
        int di, dj;
        forcing_partner(code, di, dj);
        const double partner = cf.u((i + di) * g.dx, (j + dj - 0.5) * g.dy);
        const double val = forced_velocity(code, geo.u.weight[c], geo.u.value[c], partner, 0.0);
        sum += (val - cont(x, y)) * (val - cont(x, y));
        ++count;
      }
    EXPECT_GT(count, 0);
    return std::sqrt(sum / double(count));
  };
  const double e1 = ghost_error(80), e2 = ghost_error(160), e3 = ghost_error(320);
  std::printf("  rms ghost error: %.3e %.3e %.3e (ratios %.2f %.2f)\n", e1, e2, e3, e1 / e2, e2 / e3);
  EXPECT_GT(e1 / e3, 12.0);
}
