// Manufactured Poisson problems for the pressure-solver tests: lap p = f on the unit
// square with a choice of side conditions and an optional cell-aligned obstacle, built
// through build_flags like the projection model builds them.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "linalg/solver_factory.hpp"

namespace flowlua::testing {

constexpr double kPi = 3.14159265358979323846;
constexpr BoundaryKind kWall = BoundaryKind::Dirichlet;  // velocity wall: dp/dn = 0
constexpr BoundaryKind kOut = BoundaryKind::Outflow;     // p = 0 on the face
constexpr BoundaryKind kPer = BoundaryKind::Periodic;

struct Manufactured {
  std::string name;
  BoundaryKind left, right, bottom, top;
  std::function<double(double, double)> exact, lap;
  // Obstacle [x0, x1] x [y0, y1] (cell-aligned for n a multiple of 4); none when x1 <= x0.
  double ox0 = 0, ox1 = 0, oy0 = 0, oy1 = 0;
};

struct Built {
  Grid grid;
  PoissonProblem problem;
  std::vector<double> rhs;
  bool singular = false;
};

inline Built build(const Manufactured& m, int n) {
  Built b;
  b.grid = Grid::make(n, n, 1.0, 1.0);
  const Grid& g = b.grid;
  Boundaries sides;
  sides[0].kind = m.left;
  sides[1].kind = m.right;
  sides[2].kind = m.bottom;
  sides[3].kind = m.top;
  std::vector<std::uint8_t> solid;
  if (m.ox1 > m.ox0) {
    solid.assign(std::size_t(n) * n, 0);
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        if (g.xc(i) > m.ox0 && g.xc(i) < m.ox1 && g.yc(j) > m.oy0 && g.yc(j) < m.oy1)
          solid[std::size_t(i - 1) + std::size_t(j - 1) * n] = 1;
  }
  FlagReport fl = build_flags(g, sides, solid);
  b.problem = PoissonProblem{g, Neighbours{n, n, m.left == kPer, m.bottom == kPer}, fl.flags};
  b.singular = b.problem.singular();
  b.rhs.assign(g.size(), 0.0);
  double sum = 0;
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i)
      if (is_fluid(fl.flags[g.at(i, j)])) {
        b.rhs[g.at(i, j)] = m.lap(g.xc(i), g.yc(j));
        sum += b.rhs[g.at(i, j)];
      }
  if (b.singular) {  // make the discrete problem consistent, as the projection model does
    const double mean = sum / double(fl.fluid_cells);
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        if (is_fluid(fl.flags[g.at(i, j)])) b.rhs[g.at(i, j)] -= mean;
  }
  return b;
}

struct Outcome {
  double error = 0;  // max over fluid cells, means removed when singular
  SolveReport report;
};

// Solves from p = 0 on the CPU backend in precision Real.
template <class Real>
Outcome solve(const Manufactured& m, int n, const PressureControl& c) {
  Built b = build(m, n);
  const Grid& g = b.grid;
  std::vector<Real> p(g.size(), Real(0)), rhs(b.rhs.begin(), b.rhs.end());
  PoissonView<Real> v{p.data(), rhs.data(), b.problem.flags.data(), b.problem.nb, Real(1 / (g.dx * g.dx)),
                      Real(1 / (g.dy * g.dy))};
  auto solver = make_pressure_solver<CpuExec, Real>(c, b.problem);
  Outcome o;
  o.report = solver->solve(v);
  double mp = 0, me = 0;
  long cells = 0;
  auto fluid = [&](int i, int j) { return is_fluid(b.problem.flags[g.at(i, j)]); };
  if (b.singular) {
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        if (fluid(i, j)) {
          mp += p[g.at(i, j)];
          me += m.exact(g.xc(i), g.yc(j));
          ++cells;
        }
    mp /= double(cells);
    me /= double(cells);
  }
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i)
      if (fluid(i, j))
        o.error = std::max(o.error, std::abs((double(p[g.at(i, j)]) - mp) - (m.exact(g.xc(i), g.yc(j)) - me)));
  return o;
}

// The problems: each exact solution meets its side conditions.
inline Manufactured walls() {
  return {"walls", kWall, kWall, kWall, kWall,
          [](double x, double y) { return std::cos(kPi * x) * std::cos(kPi * y); },
          [](double x, double y) { return -2 * kPi * kPi * std::cos(kPi * x) * std::cos(kPi * y); }};
}
inline Manufactured outflow_all() {
  return {"outflow on every side", kOut, kOut, kOut, kOut,
          [](double x, double y) { return std::sin(kPi * x) * std::sin(kPi * y); },
          [](double x, double y) { return -2 * kPi * kPi * std::sin(kPi * x) * std::sin(kPi * y); }};
}
inline Manufactured periodic_both() {
  return {"periodic both ways", kPer, kPer, kPer, kPer,
          [](double x, double y) { return std::sin(2 * kPi * x) * std::cos(2 * kPi * y); },
          [](double x, double y) { return -8 * kPi * kPi * std::sin(2 * kPi * x) * std::cos(2 * kPi * y); }};
}
// Periodic x, wall at the bottom, outflow at the top.
inline Manufactured mixed_periodic_wall_outflow() {
  return {"periodic x, wall bottom, outflow top", kPer, kPer, kWall, kOut,
          [](double x, double y) { return std::sin(2 * kPi * x) * std::cos(kPi * y / 2); },
          [](double x, double y) {
            return -(4 * kPi * kPi + kPi * kPi / 4) * std::sin(2 * kPi * x) * std::cos(kPi * y / 2);
          }};
}
// Walls left and right, outflow top and bottom (the FFT's cosine x sine case).
inline Manufactured walls_x_outflow_y() {
  return {"walls x, outflow y", kWall, kWall, kOut, kOut,
          [](double x, double y) { return std::cos(kPi * x) * std::sin(kPi * y); },
          [](double x, double y) { return -2 * kPi * kPi * std::cos(kPi * x) * std::sin(kPi * y); }};
}
// Periodic x, outflow top and bottom (Fourier x sine).
inline Manufactured periodic_x_outflow_y() {
  return {"periodic x, outflow y", kPer, kPer, kOut, kOut,
          [](double x, double y) { return std::sin(2 * kPi * x) * std::sin(kPi * y); },
          [](double x, double y) { return -5 * kPi * kPi * std::sin(2 * kPi * x) * std::sin(kPi * y); }};
}
// Wall on the left, outflow on the right (the channel and step layout), walls y.
inline Manufactured wall_left_outflow_right() {
  return {"wall left, outflow right", kWall, kOut, kWall, kWall,
          [](double x, double y) { return std::cos(kPi * x / 2) * std::cos(kPi * y); },
          [](double x, double y) {
            return -(kPi * kPi / 4 + kPi * kPi) * std::cos(kPi * x / 2) * std::cos(kPi * y);
          }};
}
// cos(4 pi x) cos(4 pi y) has dp/dn = 0 on every line x, y = k/4: on the walls and on
// the faces of the block [1/4, 1/2] x [1/2, 3/4].
inline Manufactured walls_with_block() {
  Manufactured m{"walls with a block", kWall, kWall, kWall, kWall,
                 [](double x, double y) { return std::cos(4 * kPi * x) * std::cos(4 * kPi * y); },
                 [](double x, double y) { return -32 * kPi * kPi * std::cos(4 * kPi * x) * std::cos(4 * kPi * y); }};
  m.ox0 = 0.25; m.ox1 = 0.5; m.oy0 = 0.5; m.oy1 = 0.75;
  return m;
}
inline Manufactured periodic_x_with_block() {
  Manufactured m = walls_with_block();
  m.name = "periodic x, walls y, a block";
  m.left = m.right = kPer;
  return m;
}

inline PressureControl control(PressureSolverKind s, double tol) {
  PressureControl c;
  c.solver = s;
  c.tol = tol;
  c.max_iter = 100000;
  c.omega = 1.9;
  return c;
}

}  // namespace flowlua::testing
