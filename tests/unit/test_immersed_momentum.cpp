// The momentum stage next to immersed bodies (models/projection/immersed_forcing.hpp)
// on small host arrays: plane Poiseuille flow between two walls that lie off the grid
// lines is a steady solution of the discrete equations exactly, because the viscous
// term along a line that meets a wall is the second difference over the unequal
// spacing (exact for a parabola), with the pressure gradient of the last step kept
// out of the implicit part.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/immersed.hpp"
#include "models/projection/immersed_forcing.hpp"

using namespace flowlua;
using namespace flowlua::projection;

namespace {

struct Views {
  std::vector<double> weight, value, aperture, edge_weight, edge_const, near_weight, near_value, near_t;
  ForcingView<double> view(const FaceForcing& f) {
    weight = f.weight, value = f.value, aperture = f.aperture, edge_weight = f.edge_weight;
    edge_const = f.edge_const, near_weight = f.near_weight, near_value = f.near_value, near_t = f.near_t;
    return ForcingView<double>{f.code.data(),       weight.data(),      value.data(),
                               aperture.data(),     edge_weight.data(), edge_const.data(),
                               f.edge_side.data(),  f.near.data(),      near_weight.data(),
                               near_value.data(),   near_t.data()};
  }
};

// Walls (immersed bodies) below y0 and above y1; u = A (y - y0) (y1 - y), v = 0,
// p = -2 nu A x: the residual of every free face's momentum must vanish.
double worst_residual(double y0, double y1, double dt) {
  const int n = 16;
  const Grid g = Grid::make(n, n, 1.0, 1.0);
  ImmersedBody lower, upper;
  lower.phi = [=](double, double y) { return y - y0; };
  lower.obstacle = 0;
  upper.phi = [=](double, double y) { return y1 - y; };
  upper.obstacle = 1;
  const ImmersedGeometry geo = build_immersed_geometry(g, {lower, upper});
  const double A = 3.0, nu = 0.05;
  std::vector<double> u(g.size()), v(g.size(), 0.0), f(g.size()), gg(g.size()), p(g.size()), rhs(g.size());
  std::vector<CellFlags> flags(g.size(), CellFlags(0));
  for (int j = 0; j <= n + 1; ++j)
    for (int i = 0; i <= n + 1; ++i) {
      const double y = (j - 0.5) * g.dy;
      u[g.at(i, j)] = A * (y - y0) * (y1 - y);  // continued into the walls: read only where free
      p[g.at(i, j)] = -2 * nu * A * (i - 0.5) * g.dx;
    }
  const State<double> s{u.data(), v.data(), f.data(), gg.data(), p.data(), rhs.data(), flags.data(),
                        Neighbours{n, n, false, false}, g.dx, g.dy, 1 / g.dx, 1 / g.dy};
  Views vu, vv;
  const ImmersedFaces<double> b{vu.view(geo.u), vv.view(geo.v)};
  const MomentumParams<double> m{dt, nu, 0.0, 0.0, 0.0};
  double worst = 0;
  long near = 0;
  for (int j = 2; j <= n - 1; ++j)
    for (int i = 2; i <= n - 2; ++i) {
      const std::size_t c = g.at(i, j);
      if (geo.u.code[c] == kFaceFree) {
        const double fu = b.force_u<true>(s, m, i, j, momentum_f<double, true>(s, m, i, j));
        const double un = fu - dt * (p[g.at(i + 1, j)] - p[c]) / g.dx;
        worst = std::max(worst, std::abs(un - u[c]) / (A * (y1 - y0) * (y1 - y0) / 4));
        near += geo.u.near[c] >= 0;
      }
      if (geo.v.code[c] == kFaceFree) {
        const double gv = b.force_v<true>(s, m, i, j, momentum_g<double, true>(s, m, i, j));
        worst = std::max(worst, std::abs(gv - dt * (p[g.at(i, j + 1)] - p[c]) / g.dy));
      }
    }
  EXPECT_EQ(near, 2 * (n - 3));  // both walls' first rows
  return worst;
}

}  // namespace

TEST(ImmersedMomentum, PoiseuilleBetweenOffGridWallsIsSteady) {
  // walls a small, a middling and a large fraction of a cell from the faces next to them
  for (const double y0 : {0.2 + 0.013, 0.2 + 0.04, 0.2 + 0.058})
    for (const double dt : {1e-3, 0.2}) {  // nu dt / h^2 = 0.013 and 2.6: the steady state does not depend on dt
      const double r = worst_residual(y0, 0.81 - 0.3 * (y0 - 0.2), dt);
      EXPECT_LT(r, 1e-12) << "y0 " << y0 << " dt " << dt;
    }
}
