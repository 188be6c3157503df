// The fractional-step model's sides (walls, inflow, outflow) and obstacles:
//   - the 2D path gives the 3D path's result on a flow without z dependence (walls,
//     inflow, outflow, obstacle cells; the 2D ghost fill is the 3D one's source);
//   - the obstacle-aware kernels give the wall kernels' bits where there is no obstacle;
//   - faces beside obstacles stay at rest, flows past symmetric bodies stay symmetric,
//     mass is conserved through the outflow;
//   - the seed's pcg with the FFT preconditioner and multigrid agree around bodies;
//   - new inflow values between steps (functions of time) are applied and checked;
//   - Crank-Nicolson diffusion around obstacles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "backend/cpu/cpu_exec.hpp"
#include "fs_sides_problems.hpp"
#include "models/fractional_step/fs_solver.hpp"

using namespace flowlua;
using namespace fs_sides;
using flowlua::fractional_step::FractionalStepSolver;

namespace {

double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

// The 3D case of a 2D channel: the same sides in x and y, periodic along z (4 cells),
// every value repeated along z, w = 0.
FractionalStepConfig extruded(const FractionalStepConfig& c2) {
  const Grid& g = c2.grid;
  const int nz = 4;
  FractionalStepConfig c = c2;
  c.dims = 3;
  c.grid3 = Grid3::make(g.nx, g.ny, nz, g.lx, g.ly, 4 * g.dx);
  const Grid3& g3 = c.grid3;
  for (Side s : {Side::Left, Side::Right, Side::Bottom, Side::Top}) {
    const SideCondition& b = c2.boundaries[int(s)];
    SideCondition& o = c.boundaries3[int(s)];
    o = b;
    if (b.kind != BoundaryKind::Dirichlet) continue;
    o.normal.clear();
    o.tangential.clear();
    o.tangential2.clear();
    for (int k = 0; k < nz; ++k) {  // the side's first transverse axis fastest (y on left/right, x on bottom/top), z next
      o.normal.insert(o.normal.end(), b.normal.begin(), b.normal.end());
      o.tangential.insert(o.tangential.end(), b.tangential.begin(), b.tangential.end());
      o.tangential2.insert(o.tangential2.end(), b.normal.size(), 0.0);
    }
  }
  c.boundaries3[int(Side::Back)] = c.boundaries3[int(Side::Front)] = periodic_side();
  c.u0.assign(g3.size(), 0.0);
  c.v0.assign(g3.size(), 0.0);
  c.w0.assign(g3.size(), 0.0);
  for (int k = 0; k <= nz + 1; ++k)
    for (int j = 0; j <= g.ny + 1; ++j)
      for (int i = 0; i <= g.nx + 1; ++i) {
        c.u0[g3.at(i, j, k)] = c2.u0[g.at(i, j)];
        c.v0[g3.at(i, j, k)] = c2.v0[g.at(i, j)];
      }
  if (!c2.solid.empty()) {
    c.solid.clear();
    for (int k = 0; k < nz; ++k) c.solid.insert(c.solid.end(), c2.solid.begin(), c2.solid.end());
  }
  return c;
}

}  // namespace

// 20 steps of the 2D channel (inflow with a transverse component, outflow, a moving
// wall, with and without obstacle cells) against its extrusion in 3D, face by face.
TEST(FractionalStepSides, TwoDimensionalPathMatchesThreeDimensionalOne) {
  for (bool body : {false, true})
    for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
      FractionalStepConfig c2 = channel2(32, 16, 2.0, body, adv, 0.3);
      c2.time.dt = 0.004;
      c2.pressure.tol = 1e-13;
      const FractionalStepConfig c3 = extruded(c2);
      FractionalStepSolver<CpuExec, double> s2(c2);
      FractionalStepSolver<CpuExec, double, 3> s3(c3);
      for (int k = 0; k < 20; ++k) {
        s2.step();
        s3.step();
      }
      const auto a = s2.save_state(), b = s3.save_state();
      const Grid& g = c2.grid;
      const Grid3& g3 = c3.grid3;
      double d = 0;
      for (const char* name : {"u", "v"})
        for (int k = 1; k <= g3.nz; ++k)
          for (int j = 0; j <= g.ny + 1; ++j)
            for (int i = 0; i <= g.nx + 1; ++i)
              d = std::max(d, std::abs(a.array(name).values[g.at(i, j)] - b.array(name).values[g3.at(i, j, k)]));
      const double w = max_abs(b.array("w").values);
      std::printf("  %s, %s: max |2D - 3D| = %.2e over u, v (ghosts included), max |w| = %.1e\n",
                  body ? "obstacle" : "no obstacle", fs_advection_name(adv), d, w);
      EXPECT_LT(d, 1e-10);
      EXPECT_LT(w, 1e-12);  // the 3D pressure solve's rounding along z
    }
}

// Without obstacles the *_bodies and general momentum variants and the general
// correction compute the wall variants' bits (their extra tests find every face open).
TEST(FractionalStepSides, BodyVariantsGiveTheWallVariantsBitsWithoutObstacles) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    FractionalStepConfig c = channel2(24, 12, 2.0, false, adv);
    FractionalStepConfig b = c, g = c;
    b.kernels["momentum"] = adv == FsAdvection::Quick ? "quick_bodies" : "central_bodies";
    b.kernels["correction"] = "general";
    g.kernels["general"] = "true";
    FractionalStepSolver<CpuExec, double> s(c), sb(b), sg(g);
    EXPECT_EQ(s.kernel_plan().variant("momentum"), adv == FsAdvection::Quick ? "quick_walls" : "central_walls");
    EXPECT_EQ(s.kernel_plan().variant("correction"), "walls");
    for (int k = 0; k < 10; ++k) {
      s.step();
      sb.step();
      sg.step();
    }
    for (const char* name : {"u", "v", "R_u", "R_v"}) {
      EXPECT_EQ(s.save_state().array(name).values, sb.save_state().array(name).values) << name;
      EXPECT_EQ(s.save_state().array(name).values, sg.save_state().array(name).values) << name;
    }
  }
  FractionalStepConfig c = duct3(16, 8, 8, 2.0, false, FsAdvection::Quick), b = c;
  b.kernels["momentum"] = "quick_bodies";
  b.kernels["correction"] = "general";
  FractionalStepSolver<CpuExec, double, 3> s(c), sb(b);
  for (int k = 0; k < 5; ++k) {
    s.step();
    sb.step();
  }
  for (const char* name : {"u", "v", "w"})
    EXPECT_EQ(s.save_state().array(name).values, sb.save_state().array(name).values) << name;
}

// Around obstacle cells: every face with an obstacle cell on either side stays at 0
// (the rough start included), the velocity is divergence-free, the outflow carries
// the inflow's volume, and the plan runs the obstacle kernels.
TEST(FractionalStepSides, ObstacleFacesStayAtRestAndMassIsConserved) {
  FractionalStepConfig c = channel2(40, 20, 2.0, true, FsAdvection::Quick);
  FractionalStepSolver<CpuExec, double> s(c);
  EXPECT_EQ(s.kernel_plan().variant("momentum"), "quick_bodies");
  EXPECT_EQ(s.kernel_plan().variant("correction"), "general");
  for (int k = 0; k < 100; ++k) s.step();
  const Grid& g = c.grid;
  auto solid = [&](int i, int j) { return c.solid[std::size_t(i - 1) + std::size_t(g.nx) * (j - 1)] != 0; };
  const auto u = s.save_state().array("u").values, v = s.save_state().array("v").values;
  double body = 0;
  int faces = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (i < g.nx && (solid(i, j) || solid(i + 1, j))) {
        body = std::max(body, std::abs(u[g.at(i, j)]));
        ++faces;
      }
      if (j < g.ny && (solid(i, j) || solid(i, j + 1))) {
        body = std::max(body, std::abs(v[g.at(i, j)]));
        ++faces;
      }
    }
  const Diagnostics d = s.diagnostics();
  std::printf("  %d faces beside the obstacle, max |u| on them %.1e; max div %.1e; inflow %.12f, outflow %.12f\n",
              faces, body, d.get("max_divergence"), d.get("inflow_flux"), d.get("outflow_flux"));
  EXPECT_GT(faces, 20);
  EXPECT_EQ(body, 0.0);
  EXPECT_LT(d.get("max_divergence"), 1e-8);
  // out - in is the sum of div u over the cells times their area: at most lx ly max|div u|
  EXPECT_LE(std::abs(d.get("inflow_flux") - d.get("outflow_flux")), 2.0 * d.get("max_divergence") + 1e-13);
  EXPECT_NEAR(d.get("inflow_flux"), 1.0 + 1.0 / (2 * 20 * 20), 1e-12);  // the midpoint sum of the parabola
}

// A body symmetric about the duct's middle plane y = 1/2 in a flow symmetric about it
// keeps the flow symmetric (u even, v odd in y - 1/2): the staircase and the mirrored
// neighbours treat both sides alike. 2D rectangle and 3D sphere.
TEST(FractionalStepSides, SymmetricBodyKeepsTheFlowSymmetric) {
  FractionalStepConfig c = channel2(40, 20, 2.0, false, FsAdvection::Quick);
  const Grid& g = c.grid;
  c.boundaries[int(Side::Left)].tangential.assign(std::size_t(g.ny), 0.0);
  c.u0.clear();
  c.v0.clear();
  c.solid.assign(std::size_t(g.cells()), 0);
  for (int j = 7; j <= 14; ++j)
    for (int i = 10; i <= 13; ++i) c.solid[std::size_t(i - 1) + std::size_t(g.nx) * (j - 1)] = 1;
  FractionalStepSolver<CpuExec, double> s(c);
  for (int k = 0; k < 150; ++k) s.step();
  const auto u = s.save_state().array("u").values, v = s.save_state().array("v").values;
  double asym = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      asym = std::max(asym, std::abs(u[g.at(i, j)] - u[g.at(i, g.ny + 1 - j)]));
      if (j < g.ny) asym = std::max(asym, std::abs(v[g.at(i, j)] + v[g.at(i, g.ny - j)]));
    }
  std::printf("  2D: asymmetry %.1e, max |v| %.2f\n", asym, max_abs(v));
  EXPECT_GT(max_abs(v), 0.1);  // the body deflects the flow
  EXPECT_LT(asym, 1e-10);

  FractionalStepConfig c3 = duct3(24, 12, 12, 2.0, true, FsAdvection::Quick);
  const Grid3& g3 = c3.grid3;
  c3.boundaries3[int(Side::Left)].tangential2.assign(std::size_t(g3.ny * g3.nz), 0.0);
  c3.u0.clear();
  c3.v0.clear();
  c3.w0.clear();
  FractionalStepSolver<CpuExec, double, 3> s3(c3);
  for (int k = 0; k < 40; ++k) s3.step();
  const auto st = s3.save_state();
  const auto &u3 = st.array("u").values, &v3 = st.array("v").values, &w3 = st.array("w").values;
  asym = 0;
  for (int k = 1; k <= g3.nz; ++k)
    for (int j = 1; j <= g3.ny; ++j)
      for (int i = 1; i <= g3.nx; ++i) {
        // y -> 1 - y and z -> 1 - z
        asym = std::max(asym, std::abs(u3[g3.at(i, j, k)] - u3[g3.at(i, g3.ny + 1 - j, k)]));
        asym = std::max(asym, std::abs(u3[g3.at(i, j, k)] - u3[g3.at(i, j, g3.nz + 1 - k)]));
        if (j < g3.ny) asym = std::max(asym, std::abs(v3[g3.at(i, j, k)] + v3[g3.at(i, g3.ny - j, k)]));
        if (k < g3.nz) asym = std::max(asym, std::abs(w3[g3.at(i, j, k)] + w3[g3.at(i, j, g3.nz - k)]));
      }
  const Diagnostics d = s3.diagnostics();
  std::printf("  3D sphere: asymmetry %.1e, max |v| %.2f, max div %.1e, inflow %.10f outflow %.10f\n", asym,
              max_abs(v3), d.get("max_divergence"), d.get("inflow_flux"), d.get("outflow_flux"));
  EXPECT_GT(max_abs(v3), 0.05);
  EXPECT_LT(asym, 1e-10);
  EXPECT_LE(std::abs(d.get("inflow_flux") - d.get("outflow_flux")), 2.0 * d.get("max_divergence") + 1e-13);
}

// Bodies in the periodic box (seed 004's setting): pcg with the FFT inverse of the
// box as preconditioner needs more than its one iteration, and gives multigrid's
// velocities to the solvers' tolerance.
TEST(FractionalStepSides, PcgFftAndMultigridAgreeAroundBodies) {
  FractionalStepConfig a = periodic_box_with_body(16, PressureSolverKind::PreconditionedCG);
  FractionalStepConfig b = periodic_box_with_body(16, PressureSolverKind::Multigrid);
  a.time.dt = b.time.dt = 0.005;
  FractionalStepSolver<CpuExec, double, 3> sa(a), sb(b);
  EXPECT_EQ(sa.kernel_plan().variant("momentum"), "quick_bodies");
  for (int k = 0; k < 10; ++k) {
    sa.step();
    sb.step();
  }
  double d = 0;
  for (const char* name : {"u", "v", "w"}) {
    const auto x = sa.save_state().array(name).values, y = sb.save_state().array(name).values;
    for (std::size_t k = 0; k < x.size(); ++k) d = std::max(d, std::abs(x[k] - y[k]));
  }
  const Diagnostics da = sa.diagnostics();
  std::printf("  pcg (fft) %ld iterations, residual %.1e; max |pcg - multigrid| %.1e\n",
              long(da.get("pressure_iterations")), da.get("pressure_residual"), d);
  EXPECT_GT(da.get("pressure_iterations"), 1);
  EXPECT_LT(d, 1e-9);
  EXPECT_LT(da.get("max_divergence"), 1e-9);
}

// set_side between steps: new inflow values (a function of time re-evaluated) reach
// the flow; a change of kind or a wrong count is refused with the side named.
TEST(FractionalStepSides, NewInflowValuesBetweenSteps) {
  FractionalStepConfig c = channel2(24, 12, 2.0, false, FsAdvection::Quick);
  FractionalStepSolver<CpuExec, double> s(c);
  s.step();
  SideCondition in = c.boundaries[int(Side::Left)];
  for (double& x : in.normal) x *= 2;
  s.set_side(Side::Left, in);
  s.step();
  const Diagnostics d = s.diagnostics();
  const double q = 2 * (1.0 + 1.0 / (2 * 12 * 12));
  EXPECT_NEAR(d.get("inflow_flux"), q, 1e-12);
  EXPECT_LE(std::abs(d.get("outflow_flux") - q), 2.0 * d.get("max_divergence") + 1e-12);
  auto error = [&](const SideCondition& sc) {
    try {
      s.set_side(Side::Left, sc);
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(error(outflow_side()).find("boundaries.left: a side cannot change its kind"), std::string::npos);
  SideCondition shorter = in;
  shorter.normal.pop_back();
  EXPECT_NE(error(shorter).find("boundaries.left: expected 12 boundary values, got 11"), std::string::npos)
      << error(shorter);
}

// Crank-Nicolson around obstacle cells: the Helmholtz CG (mirrored neighbours keep
// it symmetric) converges, the body's faces stay at rest, and with dt at 4 times
// AB2's diffusive limit the flow stays bounded and divergence-free.
TEST(FractionalStepSides, CrankNicolsonAroundObstacles) {
  FractionalStepConfig c = channel2(32, 16, 2.0, true, FsAdvection::Quick);
  c.diffusion = FsDiffusion::CrankNicolson;
  c.nu = 0.2;
  const double h = c.grid.dx;
  c.time.dt = 4 / (4 * c.nu * 2 / (h * h));
  c.time.cfl = 0.5;
  FractionalStepSolver<CpuExec, double> s(c);
  for (int k = 0; k < 30; ++k) s.step();
  const Diagnostics d = s.diagnostics();
  std::printf("  %ld CG iterations in the last step, max div %.1e, max speed %.3f\n",
              long(d.get("diffusion_iterations")), d.get("max_divergence"), d.get("max_speed"));
  EXPECT_LT(d.get("diffusion_iterations"), 200);
  EXPECT_GT(d.get("diffusion_iterations"), 1);
  EXPECT_LT(d.get("max_divergence"), 1e-8);
  EXPECT_LT(d.get("max_speed"), 3.0);
  const auto u = s.save_state().array("u").values;
  const Grid& g = c.grid;
  double body = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i < g.nx; ++i)
      if (c.solid[std::size_t(i - 1) + std::size_t(g.nx) * (j - 1)] || c.solid[std::size_t(i) + std::size_t(g.nx) * (j - 1)])
        body = std::max(body, std::abs(u[g.at(i, j)]));
  EXPECT_EQ(body, 0.0);
}

// A restart continues bit for bit with sides and obstacles: the checkpoint's arrays
// hold the ghost layers and the corrected outflow faces, and u* is rebuilt each step.
TEST(FractionalStepSides, RestoredStateContinuesBitForBit) {
  FractionalStepConfig c = channel2(32, 16, 2.0, true, FsAdvection::Quick, 0.2);
  FractionalStepSolver<CpuExec, double> whole(c), first(c);
  for (int k = 0; k < 10; ++k) whole.step();
  for (int k = 0; k < 4; ++k) first.step();
  FractionalStepSolver<CpuExec, double> second(c);
  second.restore_state(first.save_state());
  for (int k = 0; k < 6; ++k) second.step();
  EXPECT_EQ(second.time(), whole.time());
  for (const char* name : {"u", "v", "R_u", "R_v", "p"})
    EXPECT_EQ(second.save_state().array(name).values, whole.save_state().array(name).values) << name;
}
