// Point functions of the projection model on small host arrays: the momentum
// stencil against fields whose derivatives it must reproduce exactly, and the
// ghost-cell rules of every side kind and of obstacle faces.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "models/projection/boundary_fill.hpp"
#include "models/projection/momentum.hpp"

using namespace flowlua;
using namespace flowlua::projection;

namespace {

struct HostFields {
  Grid g;
  std::vector<double> u, v, f, gg, p, rhs;
  std::vector<CellFlags> flags;
  Boundaries b;
  HostFields(int nx, int ny, Boundaries sides, std::vector<std::uint8_t> solid = {})
      : g(Grid::make(nx, ny, 1.0, 1.0)), u(g.size()), v(g.size()), f(g.size()), gg(g.size()), p(g.size()),
        rhs(g.size()), b(sides) {
    flags = build_flags(g, b, solid).flags;
  }
  State<double> state() {
    return State<double>{u.data(), v.data(), f.data(), gg.data(), p.data(), rhs.data(), flags.data(),
                         Neighbours{g.nx, g.ny, is_periodic_x(b), is_periodic_y(b)}, g.dx, g.dy, 1 / g.dx,
                         1 / g.dy};
  }
  void set_u(std::function<double(double, double)> fn) {
    for (int j = 0; j <= g.ny + 1; ++j)
      for (int i = 0; i <= g.nx + 1; ++i) u[g.at(i, j)] = fn(i * g.dx, (j - 0.5) * g.dy);
  }
  void set_v(std::function<double(double, double)> fn) {
    for (int j = 0; j <= g.ny + 1; ++j)
      for (int i = 0; i <= g.nx + 1; ++i) v[g.at(i, j)] = fn((i - 0.5) * g.dx, j * g.dy);
  }
};

Boundaries walls(int nx, int ny) {
  Boundaries b;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    b[int(s)].kind = BoundaryKind::Dirichlet;
    b[int(s)].normal.assign(n, 0.0);
    b[int(s)].tangential.assign(n, 0.0);
  }
  return b;
}

}  // namespace

TEST(Momentum, UniformFlowIsUnchangedButForTheBodyForce) {
  HostFields h(8, 8, walls(8, 8));
  h.set_u([](double, double) { return 0.7; });
  h.set_v([](double, double) { return -0.3; });
  MomentumParams<double> m{0.01, 0.1, 0.5, 2.0, -1.0};
  EXPECT_NEAR(momentum_f(h.state(), m, 4, 4), 0.7 + 0.01 * 2.0, 1e-14);
  EXPECT_NEAR(momentum_g(h.state(), m, 4, 4), -0.3 - 0.01 * 1.0, 1e-14);
}

TEST(Momentum, CentralDifferencesAreExactForQuadraticFields) {
  // u = x, v = 0: d(u^2)/dx = 2x, lap u = 0; u = y^2: lap u = 2, d(uv)/dy = 0.
  HostFields h(8, 8, walls(8, 8));
  h.set_u([](double x, double) { return x; });
  MomentumParams<double> m{0.01, 0.0, 0.0, 0.0, 0.0};
  const int i = 3, j = 5;
  const double x = i * h.g.dx;
  EXPECT_NEAR(momentum_f(h.state(), m, i, j), x - 0.01 * 2 * x, 1e-14);
  h.set_u([](double, double y) { return y * y; });
  m.nu = 0.5;
  const double y = (j - 0.5) * h.g.dy;
  EXPECT_NEAR(momentum_f(h.state(), m, i, j), y * y + 0.01 * 0.5 * 2.0, 1e-13);
}

TEST(Momentum, DonorCellAddsUpwindDiffusion) {
  // For u = x (positive) the donor-cell part of d(u^2)/dx is (|uw| - |ue|)/4 = -dx/2.
  HostFields h(8, 8, walls(8, 8));
  h.set_u([](double x, double) { return 1.0 + x; });
  MomentumParams<double> central{0.01, 0.0, 0.0, 0.0, 0.0}, donor{0.01, 0.0, 1.0, 0.0, 0.0};
  const double diff = momentum_f(h.state(), donor, 3, 3) - momentum_f(h.state(), central, 3, 3);
  EXPECT_NEAR(diff, -0.01 * (-h.g.dx / 2), 1e-14);
}

TEST(MomentumStage, CopiesVelocityOnFacesThatAreNotUnknowns) {
  HostFields h(6, 6, walls(6, 6));
  h.set_u([](double x, double y) { return std::sin(x) + y; });
  h.set_v([](double x, double y) { return std::cos(y) - x; });
  CpuExec::for_each(0, 6, 0, 6, MomentumStage<double, false, FlagArray>{h.state(), {0.01, 0.1, 0.5, 0, 0}, FlagArray{h.state().flags, 8}});
  for (int j = 1; j <= 6; ++j) {
    EXPECT_EQ(h.f[h.g.at(0, j)], h.u[h.g.at(0, j)]);
    EXPECT_EQ(h.f[h.g.at(6, j)], h.u[h.g.at(6, j)]);
    EXPECT_NE(h.f[h.g.at(3, j)], h.u[h.g.at(3, j)]);
  }
}

namespace {
void fill(HostFields& h, const std::vector<double>& side_values) {
  // side_values: per side a constant normal and tangential value (n, t, n, t, ...).
  const int len = std::max(h.g.nx, h.g.ny) + 2;
  std::vector<double> store(8 * len);
  SideValues<double> sv;
  for (int k = 0; k < 4; ++k) {
    for (int m = 0; m < len; ++m) {
      store[2 * k * len + m] = side_values[2 * k];
      store[(2 * k + 1) * len + m] = side_values[2 * k + 1];
    }
    sv.normal[k] = store.data() + 2 * k * len;
    sv.tangential[k] = store.data() + (2 * k + 1) * len;
    sv.kind[k] = int(h.b[k].kind);
  }
  CpuExec::for_each(0, h.g.nx + 1, 0, 0, FillSidesY<double>{h.state(), sv, false});
  CpuExec::for_each(0, 0, 0, h.g.ny + 1, FillSidesX<double>{h.state(), sv, false});
  CpuExec::for_each(0, 0, 0, h.g.ny + 1, FillSidesX<double>{h.state(), sv, true});
  CpuExec::for_each(0, h.g.nx + 1, 0, 0, FillSidesY<double>{h.state(), sv, true});
}
}  // namespace

TEST(BoundaryFill, MovingLidAndNoSlipWalls) {
  HostFields h(6, 5, walls(6, 5));
  h.set_u([](double x, double y) { return 0.3 + x * y; });
  h.set_v([](double x, double y) { return 0.2 - x + y; });
  fill(h, {0, 0, 0, 0, 0, 0, 0, 1.5});  // top moves with u = 1.5
  const Grid& g = h.g;
  for (int i = 1; i < g.nx; ++i) {
    EXPECT_NEAR(0.5 * (h.u[g.at(i, g.ny)] + h.u[g.at(i, g.ny + 1)]), 1.5, 1e-14);  // lid speed on the wall
    EXPECT_NEAR(0.5 * (h.u[g.at(i, 1)] + h.u[g.at(i, 0)]), 0.0, 1e-14);
    EXPECT_EQ(h.v[g.at(i, 0)], 0.0);
    EXPECT_EQ(h.v[g.at(i, g.ny)], 0.0);
  }
  for (int j = 1; j < g.ny; ++j) {
    EXPECT_EQ(h.u[g.at(0, j)], 0.0);
    EXPECT_EQ(h.u[g.at(g.nx, j)], 0.0);
    EXPECT_NEAR(0.5 * (h.v[g.at(0, j)] + h.v[g.at(1, j)]), 0.0, 1e-14);
  }
}

TEST(BoundaryFill, InflowSlipOutflow) {
  Boundaries b = walls(6, 5);
  b[0].label = "inflow";
  b[2].kind = BoundaryKind::Slip;
  b[1].kind = BoundaryKind::Outflow;
  HostFields h(6, 5, b);
  h.set_u([](double x, double y) { return 1 + x * x + y; });
  h.set_v([](double x, double y) { return x - y * y; });
  const std::vector<double> u_before = h.u;
  fill(h, {2.0, 0.25, 0, 0, 0, 0, 0, 0});
  const Grid& g = h.g;
  for (int j = 1; j <= g.ny; ++j) {
    EXPECT_EQ(h.u[g.at(0, j)], 2.0);                          // inflow normal velocity
    EXPECT_EQ(h.u[g.at(g.nx, j)], u_before[g.at(g.nx, j)]);   // outflow face: an unknown, left alone
    EXPECT_EQ(h.v[g.at(g.nx + 1, j)], h.v[g.at(g.nx, j)]);    // zero gradient of the tangential part
  }
  for (int j = 1; j < g.ny; ++j) EXPECT_NEAR(0.5 * (h.v[g.at(0, j)] + h.v[g.at(1, j)]), 0.25, 1e-14);
  for (int i = 1; i < g.nx; ++i) {
    EXPECT_EQ(h.v[g.at(i, 0)], 0.0);                 // slip: no normal flow
    EXPECT_EQ(h.u[g.at(i, 0)], h.u[g.at(i, 1)]);     // ... and no shear
  }
}

TEST(BoundaryFill, PeriodicCopiesTheOppositeSide) {
  Boundaries b = walls(6, 4);
  b[0].kind = b[1].kind = BoundaryKind::Periodic;
  HostFields h(6, 4, b);
  h.set_u([](double x, double y) { return std::sin(7 * x) + y; });
  h.set_v([](double x, double y) { return std::cos(5 * x) * y; });
  fill(h, {0, 0, 0, 0, 0, 0, 0, 0});
  const Grid& g = h.g;
  for (int j = 0; j <= g.ny + 1; ++j) {
    EXPECT_EQ(h.u[g.at(0, j)], h.u[g.at(g.nx, j)]);
    EXPECT_EQ(h.u[g.at(g.nx + 1, j)], h.u[g.at(1, j)]);
    EXPECT_EQ(h.v[g.at(0, j)], h.v[g.at(g.nx, j)]);
    EXPECT_EQ(h.v[g.at(g.nx + 1, j)], h.v[g.at(1, j)]);
  }
}

TEST(BoundaryFill, ObstacleFacesCarryNoFlowAndMirrorTangentialVelocity) {
  // A 2x2 block in the middle of an 8x8 box.
  std::vector<std::uint8_t> solid(64, 0);
  for (int j = 4; j <= 5; ++j)
    for (int i = 4; i <= 5; ++i) solid[(i - 1) + (j - 1) * 8] = 1;
  HostFields h(8, 8, walls(8, 8), solid);
  h.set_u([](double x, double y) { return 1 + x + 2 * y; });
  h.set_v([](double x, double y) { return 2 - x * y; });
  CpuExec::for_each(1, 8, 1, 8, FillObstacleFaces<double>{h.state()});
  const Grid& g = h.g;
  EXPECT_EQ(h.u[g.at(3, 4)], 0.0);  // west face of the block
  EXPECT_EQ(h.u[g.at(5, 5)], 0.0);  // east face
  EXPECT_EQ(h.v[g.at(4, 3)], 0.0);  // south face
  EXPECT_EQ(h.v[g.at(5, 5)], 0.0);  // north face
  // Inside the block: the face between (4,5) and (5,5) mirrors the fluid face above it.
  EXPECT_EQ(h.u[g.at(4, 5)], -h.u[g.at(4, 6)]);
  EXPECT_EQ(h.u[g.at(4, 4)], -h.u[g.at(4, 3)]);
  EXPECT_EQ(h.v[g.at(4, 4)], -h.v[g.at(3, 4)]);
  EXPECT_EQ(h.v[g.at(5, 4)], -h.v[g.at(6, 4)]);
}

TEST(Flags, ThinObstacleCellsAreOpenedAndEnclosedFluidClosed) {
  // A one-cell-thick vertical wall and a fluid cell enclosed by obstacle cells.
  std::vector<std::uint8_t> solid(100, 0);
  for (int j = 2; j <= 8; ++j) solid[(3 - 1) + (j - 1) * 10] = 1;
  for (int j = 3; j <= 7; ++j)
    for (int i = 5; i <= 9; ++i) solid[(i - 1) + (j - 1) * 10] = 1;
  solid[(7 - 1) + (5 - 1) * 10] = 0;
  Grid g = Grid::make(10, 10, 1, 1);
  FlagReport r = build_flags(g, walls(10, 10), solid);
  EXPECT_EQ(r.cells_opened, 7);
  EXPECT_EQ(r.cells_closed, 1);
  EXPECT_FALSE(is_fluid(r.flags[g.at(7, 5)]));
  EXPECT_TRUE(is_fluid(r.flags[g.at(3, 5)]));
  // Couplings next to the block: Neumann towards it, coupled elsewhere.
  CellFlags f = r.flags[g.at(4, 5)];
  EXPECT_EQ(coupling(f, flag::East), unsigned(flag::Neumann));
  EXPECT_EQ(coupling(f, flag::West), unsigned(flag::Coupled));
}
