// Fractional-step cases with sides and obstacles for the unit tests
// (test_fractional_step_sides.cpp) and the CUDA-vs-CPU tests
// (tests/gpu/test_cuda_fractional_step_sides.cpp): channels with an inflow profile and
// an outflow, walls, boxes and spheres of obstacle cells, rough starts (so every
// branch of QUICK and of the pressure solve has work).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "models/fractional_step/fractional_step_config.hpp"

namespace fs_sides {

using namespace flowlua;

inline SideCondition side_of(BoundaryKind kind, const char* label) {
  SideCondition s;
  s.kind = kind;
  s.label = label;
  return s;
}
inline SideCondition periodic_side() { return side_of(BoundaryKind::Periodic, "periodic"); }
inline SideCondition outflow_side() { return side_of(BoundaryKind::Outflow, "outflow"); }
inline SideCondition wall_side(int cells) {
  SideCondition s = side_of(BoundaryKind::Dirichlet, "wall");
  s.normal.assign(std::size_t(cells), 0.0);
  s.tangential.assign(std::size_t(cells), 0.0);
  s.tangential2.assign(std::size_t(cells), 0.0);
  return s;
}

// The parabola 6 U s (1 - s) over s in (0, 1) at cell centres of n cells.
inline double parabola(double s) { return 6 * s * (1 - s); }

// 2D channel lx x 1, inflow u = parabola(y) (1 + pulse) on the left, outflow on the
// right, walls on bottom and top (the top one moving at `lid`); a rectangle of
// obstacle cells when `body`; a rough start.
inline FractionalStepConfig channel2(int nx, int ny, double lx, bool body, FsAdvection adv, double lid = 0) {
  FractionalStepConfig c;
  c.grid = Grid::make(nx, ny, lx, 1.0);
  const Grid& g = c.grid;
  c.nu = 0.02;
  c.advection = adv;
  c.backend = BackendChoice::Cpu;
  SideCondition in = side_of(BoundaryKind::Dirichlet, "inflow");
  for (int j = 1; j <= ny; ++j) {
    in.normal.push_back(parabola((j - 0.5) * g.dy));
    in.tangential.push_back(0.05 * std::sin(3.0 * j));  // a transverse inflow component too
  }
  c.boundaries[int(Side::Left)] = in;
  c.boundaries[int(Side::Right)] = outflow_side();
  c.boundaries[int(Side::Bottom)] = wall_side(nx);
  c.boundaries[int(Side::Top)] = wall_side(nx);
  if (lid != 0) {
    c.boundaries[int(Side::Top)].label = "moving wall";
    c.boundaries[int(Side::Top)].tangential.assign(std::size_t(nx), lid);
  }
  if (body) {
    c.solid.assign(std::size_t(nx) * ny, 0);
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        const double x = (i - 0.5) * g.dx, y = (j - 0.5) * g.dy;
        if (x > 0.3 * lx && x < 0.4 * lx && y > 0.3 && y < 0.62) c.solid[std::size_t(i - 1) + std::size_t(nx) * (j - 1)] = 1;
      }
  }
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      c.u0[g.at(i, j)] = parabola((j - 0.5) * g.dy) + 0.2 * std::sin(0.37 * i * j);
      c.v0[g.at(i, j)] = 0.2 * std::tanh(std::sin(3.0 * i * g.dx + j));
    }
  c.pressure.solver = PressureSolverKind::Multigrid;
  c.pressure.tol = 1e-12;
  c.time.cfl = 0.5;
  return c;
}

// 3D duct lx x 1 x 1 along x: inflow u = parabola(y) parabola(z) on the left, outflow
// on the right, walls on the other four sides; a sphere of obstacle cells when `body`.
inline FractionalStepConfig duct3(int nx, int ny, int nz, double lx, bool body, FsAdvection adv) {
  FractionalStepConfig c;
  c.dims = 3;
  c.grid3 = Grid3::make(nx, ny, nz, lx, 1.0, 1.0);
  c.grid = c.grid3.xy();
  const Grid3& g = c.grid3;
  c.nu = 0.02;
  c.advection = adv;
  c.backend = BackendChoice::Cpu;
  SideCondition in = side_of(BoundaryKind::Dirichlet, "inflow");
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j) {  // left/right: y fastest, then z
      in.normal.push_back(parabola((j - 0.5) * g.dy) * parabola((k - 0.5) * g.dz) / 1.5);
      in.tangential.push_back(0.0);
      in.tangential2.push_back(0.03 * std::sin(2.0 * j + k));
    }
  c.boundaries3[int(Side::Left)] = in;
  c.boundaries3[int(Side::Right)] = outflow_side();
  c.boundaries3[int(Side::Bottom)] = c.boundaries3[int(Side::Top)] = wall_side(nx * nz);
  c.boundaries3[int(Side::Back)] = c.boundaries3[int(Side::Front)] = wall_side(nx * ny);
  if (body) {
    c.solid.assign(std::size_t(g.cells()), 0);
    for (int k = 1; k <= nz; ++k)
      for (int j = 1; j <= ny; ++j)
        for (int i = 1; i <= nx; ++i) {
          const double x = (i - 0.5) * g.dx - 0.35 * lx, y = (j - 0.5) * g.dy - 0.5, z = (k - 0.5) * g.dz - 0.5;
          if (x * x + y * y + z * z < 0.2 * 0.2)
            c.solid[std::size_t(i - 1) + std::size_t(nx) * (std::size_t(j - 1) + std::size_t(ny) * (k - 1))] = 1;
        }
  }
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  c.w0.assign(g.size(), 0.0);
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        const std::size_t at = g.at(i, j, k);
        c.u0[at] = 0.5 + 0.2 * std::sin(0.37 * i * j * k);
        c.v0[at] = 0.1 * std::tanh(std::sin(3.0 * i * g.dx + k));
        c.w0[at] = 0.1 * std::cos(1.7 * j + i);
      }
  c.pressure.solver = PressureSolverKind::Multigrid;
  c.pressure.tol = 1e-12;
  c.time.cfl = 0.5;
  return c;
}

// A periodic 3D box with a box of obstacle cells, driven along x by a body force:
// the seed's pcg with the FFT preconditioner, or multigrid.
inline FractionalStepConfig periodic_box_with_body(int n, PressureSolverKind solver) {
  FractionalStepConfig c;
  c.dims = 3;
  c.grid3 = Grid3::make(n, n, n, 1.0, 1.0, 1.0);
  c.grid = c.grid3.xy();
  const Grid3& g = c.grid3;
  c.nu = 0.05;
  c.force[0] = 1.0;
  c.backend = BackendChoice::Cpu;
  for (Side s : kSides3) c.boundaries3[int(s)] = periodic_side();
  c.solid.assign(std::size_t(g.cells()), 0);
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        const double x = (i - 0.5) * g.dx, y = (j - 0.5) * g.dy, z = (k - 0.5) * g.dz;
        if (x > 0.3 && x < 0.6 && y > 0.25 && y < 0.5 && z > 0.2 && z < 0.7)
          c.solid[std::size_t(i - 1) + std::size_t(n) * (std::size_t(j - 1) + std::size_t(n) * (k - 1))] = 1;
      }
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  c.w0.assign(g.size(), 0.0);
  for (std::size_t k = 0; k < c.u0.size(); ++k) c.u0[k] = 0.3 + 0.1 * std::sin(0.9 * double(k));
  c.pressure.solver = solver;
  c.pressure.preconditioner = PreconditionerKind::FFT;
  c.pressure.tol = 1e-12;
  c.time.cfl = 0.5;
  return c;
}

}  // namespace fs_sides
