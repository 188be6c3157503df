// The 3D core: flags from a solid mask and six sides, the velocity ghost fill on
// each kind of side, and 3D snapshots (get, trilinear sample, slices).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "core/error.hpp"
#include "core/flags.hpp"
#include "core/ghost_fill3.hpp"
#include "core/snapshot3.hpp"

using namespace flowlua;

namespace {

Boundaries3 sides3(BoundaryKind x, BoundaryKind y, BoundaryKind z) {
  Boundaries3 s;
  s[0].kind = s[1].kind = x;
  s[2].kind = s[3].kind = y;
  s[4].kind = s[5].kind = z;
  return s;
}

}  // namespace

TEST(Flags3, SidesAndObstacleCoupling) {
  const Grid3 g = Grid3::make(6, 5, 4, 1, 1, 1);
  std::vector<std::uint8_t> solid(6 * 5 * 4, 0);
  auto at = [&](int i, int j, int k) -> std::uint8_t& { return solid[(i - 1) + 6 * ((j - 1) + 5 * (k - 1))]; };
  // a 2x2x2 block: thick in every direction, so the thin-wall rule keeps it
  for (int k = 2; k <= 3; ++k)
    for (int j = 2; j <= 3; ++j)
      for (int i = 3; i <= 4; ++i) at(i, j, k) = 1;
  FlagReport r = build_flags3(g, sides3(BoundaryKind::Periodic, BoundaryKind::Dirichlet, BoundaryKind::Outflow), solid);
  EXPECT_EQ(r.fluid_cells, 6 * 5 * 4 - 8);
  EXPECT_EQ(r.cells_opened, 0);
  EXPECT_FALSE(is_fluid(r.flags[g.at(3, 2, 2)]));
  const CellFlags corner = r.flags[g.at(1, 1, 1)];
  EXPECT_EQ(coupling(corner, flag::West), unsigned(flag::Coupled));   // periodic x
  EXPECT_EQ(coupling(corner, flag::South), unsigned(flag::Neumann));  // wall
  EXPECT_EQ(coupling(corner, flag::Back), unsigned(flag::Dirichlet)); // outflow: p = 0
  EXPECT_EQ(coupling(r.flags[g.at(6, 5, 4)], flag::Front), unsigned(flag::Dirichlet));
  // next to the block in z and in x
  EXPECT_EQ(coupling(r.flags[g.at(3, 2, 1)], flag::Front), unsigned(flag::Neumann));
  EXPECT_EQ(coupling(r.flags[g.at(2, 2, 2)], flag::East), unsigned(flag::Neumann));
  EXPECT_EQ(coupling(r.flags[g.at(2, 2, 2)], flag::West), unsigned(flag::Coupled));
  for (int j = 0; j <= 6; ++j) EXPECT_EQ(r.flags[g.at(0, j, 1)], 0);  // ghosts never fluid
}

TEST(Flags3, ThinObstacleInZIsOpened) {
  const Grid3 g = Grid3::make(4, 4, 5, 1, 1, 1);
  std::vector<std::uint8_t> solid(4 * 4 * 5, 0);
  // one layer in z (k = 3), fluid above and below: NaSt2D's rules cannot treat it
  for (int j = 1; j <= 4; ++j)
    for (int i = 1; i <= 4; ++i) solid[(i - 1) + 4 * ((j - 1) + 4 * 2)] = 1;
  FlagReport r = build_flags3(g, sides3(BoundaryKind::Dirichlet, BoundaryKind::Dirichlet, BoundaryKind::Dirichlet), solid);
  EXPECT_EQ(r.cells_opened, 16);
  EXPECT_EQ(r.fluid_cells, 80);
  EXPECT_THROW(build_flags3(g, sides3(BoundaryKind::Dirichlet, BoundaryKind::Dirichlet, BoundaryKind::Dirichlet),
                            std::vector<std::uint8_t>(80, 1)),
               CaseError);
}

// Every side kind, checked against its rule on every boundary face of the box.
TEST(GhostFill3, RulesOnEverySide) {
  const int nx = 5, ny = 4, nz = 6;
  const Grid3 g = Grid3::make(nx, ny, nz, 1, 1, 1);
  Boundaries3 s = sides3(BoundaryKind::Dirichlet, BoundaryKind::Slip, BoundaryKind::Periodic);
  s[1].kind = BoundaryKind::Outflow;
  // left: an inflow profile u = 1 + y z, and a moving wall v = 0.5, w = -0.25
  s[0].normal.resize(ny * nz);
  s[0].tangential.assign(ny * nz, 0.5);
  s[0].tangential2.assign(ny * nz, -0.25);
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j) s[0].normal[(j - 1) + ny * (k - 1)] = 1 + g.yc(j) * g.zc(k);
  std::vector<double> u(g.size()), v(g.size()), w(g.size());
  for (std::size_t c = 0; c < g.size(); ++c) {
    u[c] = std::sin(0.1 * c);
    v[c] = std::cos(0.07 * c);
    w[c] = std::sin(0.05 * c + 1);
  }
  SideArrays3<CpuExec, double> arrays(g, s);
  Velocity3<double> vel{{u.data(), v.data(), w.data()}, {nx, ny, nz}};
  fill_ghosts3<CpuExec, double>(vel, arrays.values());
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j) {
      EXPECT_DOUBLE_EQ(u[g.at(0, j, k)], 1 + g.yc(j) * g.zc(k));                       // inflow face
      if (j < ny) EXPECT_NEAR(0.5 * (v[g.at(0, j, k)] + v[g.at(1, j, k)]), 0.5, 1e-15);   // wall average
      if (k < nz) EXPECT_NEAR(0.5 * (w[g.at(0, j, k)] + w[g.at(1, j, k)]), -0.25, 1e-15);
      EXPECT_EQ(u[g.at(nx, j, k)], u[g.at(nx - 1, j, k)]);  // outflow: zero gradient
      EXPECT_EQ(v[g.at(nx + 1, j, k)], v[g.at(nx, j, k)]);
      EXPECT_EQ(w[g.at(nx + 1, j, k)], w[g.at(nx, j, k)]);
    }
  for (int k = 1; k <= nz; ++k)
    for (int i = 1; i <= nx; ++i) {
      EXPECT_EQ(v[g.at(i, 0, k)], 0.0);  // slip: no normal flow, tangential mirrored
      EXPECT_EQ(v[g.at(i, ny, k)], 0.0);
      EXPECT_EQ(u[g.at(i, 0, k)], u[g.at(i, 1, k)]);
      EXPECT_EQ(w[g.at(i, ny + 1, k)], w[g.at(i, ny, k)]);
    }
  for (int j = 0; j <= ny + 1; ++j)  // periodic z, ghosts of the other sides included
    for (int i = 0; i <= nx + 1; ++i) {
      EXPECT_EQ(w[g.at(i, j, 0)], w[g.at(i, j, nz)]);
      EXPECT_EQ(u[g.at(i, j, nz + 1)], u[g.at(i, j, 1)]);
      EXPECT_EQ(v[g.at(i, j, 0)], v[g.at(i, j, nz)]);
    }
}

TEST(Snapshot3, GetSampleAndSlices) {
  FieldSnapshot3 f;
  f.name = "p";
  f.grid = Grid3::make(4, 5, 6, 2.0, 1.0, 3.0);
  f.values.resize(4 * 5 * 6);
  auto lin = [](double x, double y, double z) { return 1 + 2 * x - 3 * y + 0.5 * z; };
  for (int k = 1; k <= 6; ++k)
    for (int j = 1; j <= 5; ++j)
      for (int i = 1; i <= 4; ++i) f.set(i, j, k, lin(f.grid.xc(i), f.grid.yc(j), f.grid.zc(k)));
  EXPECT_DOUBLE_EQ(f.get(2, 3, 4), lin(0.75, 0.5, 1.75));
  // trilinear: exact for a linear field between the centres
  EXPECT_NEAR(f.sample(0.9, 0.37, 2.2), lin(0.9, 0.37, 2.2), 1e-13);
  // clamped to the outermost centres
  EXPECT_NEAR(f.sample(0.0, 0.5, 1.5), lin(0.25, 0.5, 1.5), 1e-13);
  const FieldSnapshot z = f.slice(2, 1.3);  // (x, y) plane
  EXPECT_EQ(z.nx(), 4);
  EXPECT_EQ(z.ny(), 5);
  EXPECT_DOUBLE_EQ(z.grid.lx, 2.0);
  EXPECT_NEAR(z.get(3, 2), lin(f.grid.xc(3), f.grid.yc(2), 1.3), 1e-13);
  EXPECT_NEAR(z.sample(1.1, 0.6), f.sample(1.1, 0.6, 1.3), 1e-13);
  const FieldSnapshot x = f.slice(0, 0.6);  // (y, z) plane
  EXPECT_EQ(x.nx(), 5);
  EXPECT_EQ(x.ny(), 6);
  EXPECT_DOUBLE_EQ(x.grid.ly, 3.0);
  EXPECT_NEAR(x.get(2, 5), lin(0.6, f.grid.yc(2), f.grid.zc(5)), 1e-13);
  const FieldSnapshot y = f.slice(1, 0.5);  // (x, z) plane
  EXPECT_EQ(y.nx(), 4);
  EXPECT_EQ(y.ny(), 6);
  EXPECT_NEAR(y.mean(), lin(1.0, 0.5, 1.5), 1e-13);
  EXPECT_THROW(f.slice(2, 3.5), CaseError);
  // solid cells are left out of the statistics, and a slice keeps the nearer layer's
  f.solid.assign(f.values.size(), 0);
  f.solid[f.index(1, 1, 1)] = 1;
  EXPECT_DOUBLE_EQ(f.min(), lin(f.grid.xc(1), f.grid.yc(5), f.grid.zc(1)));
  EXPECT_TRUE(f.slice(2, 0.3).is_solid(1, 1));
  EXPECT_FALSE(f.slice(2, 0.6).is_solid(1, 1));
}
