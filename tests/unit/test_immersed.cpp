// Immersed bodies (core/immersed.hpp): the face classification, the apertures of the
// cut-cell continuity, and the values continued through the surface on exact fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

// The inner cylinder's Couette profile continued inside it (A r + B / r), the value
// a neighbour inside the body should take for a free face's stencil.
double continued(const Couette& cf, bool u_component, double x, double y) {
  const double A = -cf.omega * cf.R1 * cf.R1 / (cf.R2 * cf.R2 - cf.R1 * cf.R1);
  const double B = cf.omega * cf.R1 * cf.R1 * cf.R2 * cf.R2 / (cf.R2 * cf.R2 - cf.R1 * cf.R1);
  const double r = std::hypot(x - cf.xc, y - cf.yc);
  const double ut = A * r + B / r;
  return u_component ? -ut * (y - cf.yc) / r : ut * (x - cf.xc) / r;
}

// Root-mean-square error of the values that the stencils of free faces next to the
// inner cylinder read in place of their neighbours inside it (FaceForcing::near),
// with the exact field at the opposite faces, against the profile continued inside.
double near_wall_error(int n) {
  const Couette cf;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
  double sum = 0;
  long count = 0;
  for (int comp = 0; comp < 2; ++comp) {
    const FaceForcing& f = comp ? geo.v : geo.u;
    const double ox = comp ? -0.5 : 0.0, oy = comp ? 0.0 : -0.5;
    auto pos = [&](int i, int j, double& x, double& y) {
      x = (i + ox) * g.dx;
      y = (j + oy) * g.dy;
    };
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        const std::size_t c = g.at(i, j);
        if (f.near[c] < 0) continue;
        double x, y;
        pos(i, j, x, y);
        if (std::hypot(x - cf.xc, y - cf.yc) > 0.5 * (cf.R1 + cf.R2)) continue;  // the inner cylinder's
        const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; ++k) {
          if (f.code[g.at(i + di[k], j + dj[k])] == kFaceFree) continue;
          double xn, yn, xo, yo;
          pos(i + di[k], j + dj[k], xn, yn);
          pos(i - di[k], j - dj[k], xo, yo);
          const double opposite = comp ? cf.v(xo, yo) : cf.u(xo, yo);
          const double w = f.near_weight[4 * std::size_t(f.near[c]) + k];
          const double b = f.near_value[4 * std::size_t(f.near[c]) + k];
          const double e = b + w * (opposite - b) - continued(cf, comp == 0, xn, yn);
          sum += e * e;
          ++count;
        }
      }
  }
  EXPECT_GT(count, 0);
  return std::sqrt(sum / double(count));
}

}  // namespace

TEST(Immersed, ClassifiesCouetteFaces) {
  const Couette cf;
  const int n = 40;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
  EXPECT_GT(geo.u.near_wall, 0);
  EXPECT_GT(geo.u.inside, 0);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i < n; ++i) {
      const double r = std::hypot(i * g.dx - cf.xc, (j - 0.5) * g.dy - cf.yc);
      const std::int8_t code = geo.u.code[g.at(i, j)];
      // A free face has a near-wall record exactly when a neighbour is inside a body.
      bool next_to_body = false;
      for (int k = 0; k < 4; ++k) {
        const int ii = i + (k == 0 ? -1 : k == 1 ? 1 : 0), jj = j + (k == 2 ? -1 : k == 3 ? 1 : 0);
        next_to_body = next_to_body || (ii >= 1 && ii < n && jj >= 1 && jj <= n && geo.u.code[g.at(ii, jj)] != kFaceFree);
      }
      if (code == kFaceFree) EXPECT_EQ(geo.u.near[g.at(i, j)] >= 0, next_to_body) << i << " " << j;
      else EXPECT_LT(geo.u.near[g.at(i, j)], 0) << i << " " << j;
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

// The apertures and the surface segments close every cut cell: the outward normals
// of the fluid parts of its edges and of its surface segments add up to zero, so a
// uniform velocity has no net flux through any cell (the geometric conservation that
// the cut-cell continuity needs). Free faces keep at least 1/2 (their midpoint is
// fluid) where the corners' linear level set says less: there the closure is off by
// the difference, which the test counts (rare: a concave surface curved within a cell).
// An edge between two cells that keep no continuity, which the surface may clip,
// carries the body's velocity.
TEST(Immersed, AperturesAndSurfaceCloseEveryCell) {
  const Couette cf;
  const int n = 50;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const std::vector<ImmersedBody> bodies = cf.bodies();
  const ImmersedGeometry geo = build_immersed_geometry(g, bodies);
  auto phi = [&](double x, double y) { return std::min(bodies[0].phi(x, y), bodies[1].phi(x, y)); };
  auto raw = [](double a, double b) {  // the fluid fraction of a segment, linear between its ends
    if (a >= 0 && b >= 0) return 1.0;
    if (a < 0 && b < 0) return 0.0;
    return a >= 0 ? a / (a - b) : b / (b - a);
  };
  std::vector<double> au(g.size(), 1.0), av(g.size(), 1.0);
  long raised = 0, partial = 0, shut = 0;
  for (int j = 0; j <= n + 1; ++j)
    for (int i = 0; i <= n + 1; ++i) {
      const std::size_t c = g.at(i, j);
      if (j >= 1 && j <= n && i <= n) au[c] = raw(phi(i * g.dx, (j - 1) * g.dy), phi(i * g.dx, j * g.dy));
      if (i >= 1 && i <= n && j <= n) av[c] = raw(phi((i - 1) * g.dx, j * g.dy), phi(i * g.dx, j * g.dy));
      for (int comp = 0; comp < 2; ++comp) {
        const FaceForcing& f = comp ? geo.v : geo.u;
        const double r = comp ? av[c] : au[c];
        const bool unknown = comp ? (i >= 1 && i <= n && j >= 1 && j <= n - 1) : (i >= 1 && i <= n - 1 && j >= 1 && j <= n);
        const bool closed = unknown && geo.source[c] && geo.source[comp ? g.at(i, j + 1) : g.at(i + 1, j)];
        const double want = unknown && f.code[c] == kFaceFree ? std::max(r, 0.5) : r;
        EXPECT_DOUBLE_EQ(f.aperture[c], want) << comp << " " << i << " " << j;
        // an edge between two cells with no mass balance moves with the body: no next face
        if (closed) EXPECT_EQ(f.edge_side[c], 0) << comp << " " << i << " " << j;
        raised += want != r;
        shut += closed && r > 0;
        partial += r > 0 && r < 1;
      }
    }
  std::printf("  partial apertures %ld, raised to 1/2 %ld, closed %ld\n", partial, raised, shut);
  EXPECT_LT(raised * 20, partial);  // rare: on the concave outer wall only
  EXPECT_LT(shut * 10, partial);
  std::vector<double> sx(g.size(), 0.0), sy(g.size(), 0.0);
  for (const SurfaceSegment& s : geo.surface) {
    const int i = int(std::floor(s.x / g.dx)) + 1, j = int(std::floor(s.y / g.dy)) + 1;
    // the fluid part's outward normal on the surface is the body's inward one
    sx[g.at(i, j)] -= s.nx * s.ds;
    sy[g.at(i, j)] -= s.ny * s.ds;
  }
  long cut = 0;
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) {
      const std::size_t c = g.at(i, j);
      const double ax = (au[c] - au[g.at(i - 1, j)]) * g.dy + sx[c];
      const double ay = (av[c] - av[g.at(i, j - 1)]) * g.dx + sy[c];
      EXPECT_NEAR(ax, 0.0, 1e-12) << i << " " << j;
      EXPECT_NEAR(ay, 0.0, 1e-12) << i << " " << j;
      if (sx[c] != 0 || sy[c] != 0) ++cut;
    }
  EXPECT_GT(cut, 0);
}

// The flux through the fluid part of a cut edge (FaceForcing::edge_weight) is exact
// for a velocity linear along the edge that takes the body's value at the crossing:
// a turning half-plane body, tilted, and each component its rigid velocity plus a
// multiple of the level set (linear, and the body's on the surface).
TEST(Immersed, CutEdgeFluxIsExactForLinearProfiles) {
  const int n = 24;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const double nx = std::cos(0.4), ny = std::sin(0.4), d = 0.47;
  ImmersedBody half;
  half.phi = [=](double x, double y) { return x * nx + y * ny - d; };  // the body where x.n < d
  half.motion = RigidMotion{0.3, 0.2, 0.7};
  const ImmersedGeometry geo = build_immersed_geometry(g, {half});
  const double beta[2] = {2.5, -1.5};
  auto field = [&](int comp, double x, double y) {
    return (comp ? half.motion.v(x, y) : half.motion.u(x, y)) + beta[comp] * half.phi(x, y);
  };
  long cut = 0;
  for (int comp = 0; comp < 2; ++comp) {
    const FaceForcing& f = comp ? geo.v : geo.u;
    const double ox = comp ? -0.5 : 0.0, oy = comp ? 0.0 : -0.5;
    auto value = [&](int i, int j) { return field(comp, (i + ox) * g.dx, (j + oy) * g.dy); };
    for (int j = 1; j <= n - comp; ++j)
      for (int i = 1; i <= n - 1 + comp; ++i) {
        const std::size_t c = g.at(i, j);
        const double a = f.aperture[c];
        if (!(a > 0) || !(a < 1) || !f.edge_side[c]) continue;  // cut, with a next face (not at a side)
        // the edge from (x0, y0) along (ex, ey), length h
        const double x0 = comp ? (i - 1) * g.dx : i * g.dx, y0 = comp ? j * g.dy : (j - 1) * g.dy;
        const double ex = comp ? g.dx : 0.0, ey = comp ? 0.0 : g.dy;
        // exact: the mean of a linear function over the fluid part is its value at the middle
        const double p0 = half.phi(x0, y0), p1 = half.phi(x0 + ex, y0 + ey);
        const double t = p0 / (p0 - p1);  // the crossing
        const double mid = p1 >= 0 ? 0.5 * (t + 1) : 0.5 * t;
        const double exact = a * field(comp, x0 + mid * ex, y0 + mid * ey);
        double flux = f.edge_const[c] + (f.code[c] == kFaceFree ? a * value(i, j) : 0.0);
        flux += f.edge_weight[c] * value(comp ? i + f.edge_side[c] : i, comp ? j : j + f.edge_side[c]);
        EXPECT_NEAR(flux, exact, 1e-12) << comp << " " << i << " " << j << " a " << a;
        ++cut;
      }
  }
  EXPECT_GT(cut, n / 2);
}

// The cells that keep no continuity are exactly those with no free face, every free
// face enters the continuity of both its cells (aperture >= 1/2), and a source cell
// that the surface clips joins the balance of one neighbour that keeps its own.
TEST(Immersed, SourceCellsHaveNoFreeFace) {
  const Couette cf;
  const int n = 40;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  const ImmersedGeometry geo = build_immersed_geometry(g, cf.bodies());
  long sources = 0;
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) {
      auto free_u = [&](int ii) { return ii >= 1 && ii <= n - 1 && geo.u.code[g.at(ii, j)] == kFaceFree; };
      auto free_v = [&](int jj) { return jj >= 1 && jj <= n - 1 && geo.v.code[g.at(i, jj)] == kFaceFree; };
      const bool any = free_u(i - 1) || free_u(i) || free_v(j - 1) || free_v(j);
      EXPECT_EQ(geo.source[g.at(i, j)] != 0, !any) << i << " " << j;
      sources += !any;
      if (free_u(i)) EXPECT_GE(geo.u.aperture[g.at(i, j)], 0.5);
      if (free_v(j)) EXPECT_GE(geo.v.aperture[g.at(i, j)], 0.5);
    }
  EXPECT_EQ(sources, geo.sources);
  EXPECT_GT(sources, 0);
  // A source cell with fluid on an edge toward a cell that keeps its balance (the
  // surface clips a corner of it) is merged into exactly one such neighbour.
  long merged = 0;
  for (int j = 2; j < n; ++j)
    for (int i = 2; i < n; ++i) {
      const std::size_t c = g.at(i, j);
      const double ap[4] = {geo.u.aperture[g.at(i - 1, j)], geo.u.aperture[c], geo.v.aperture[g.at(i, j - 1)],
                            geo.v.aperture[c]};
      const int ni[4] = {i - 1, i + 1, i, i}, nj[4] = {j, j, j - 1, j + 1};
      int open = 0, into = 0;
      for (int k = 0; k < 4; ++k) {
        const std::size_t nb = g.at(ni[k], nj[k]);
        const bool bit = geo.merge[nb] & (1 << (k ^ 1));  // the neighbour takes this cell in
        if (bit) EXPECT_TRUE(geo.source[c] && !geo.source[nb] && ap[k] > 0) << i << " " << j << " " << k;
        into += bit;
        open += geo.source[c] && !geo.source[nb] && ap[k] > 0;
      }
      EXPECT_EQ(into, open > 0 ? 1 : 0) << i << " " << j;
      merged += into;
    }
  EXPECT_EQ(merged, geo.merged);
  EXPECT_GT(merged, 0);
}

// The values that free faces' stencils read inside the body continue the profile
// through the surface to second order: halving h quarters their error (rms; the set
// of faces changes with h, so the ratio scatters about 4; measured 3.30 and 3.52, the
// strongly curved profile A r + B / r near R1 = 0.15 still pre-asymptotic at n = 80).
TEST(Immersed, NearWallValuesAreSecondOrder) {
  const double e1 = near_wall_error(80), e2 = near_wall_error(160), e3 = near_wall_error(320);
  std::printf("  rms near-wall error: %.3e %.3e %.3e (ratios %.2f %.2f)\n", e1, e2, e3, e1 / e2, e2 / e3);
  EXPECT_GT(e1 / e3, 10.0);  // two halvings: 16 for exact second order, 4 for first
  EXPECT_GT(e2 / e3, 3.3);
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
        ghost_partner(code, di, dj);
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
