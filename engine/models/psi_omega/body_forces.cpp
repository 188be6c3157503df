// Forces on the bodies of a psi-omega case (sim:forces), from a host copy of psi, w and
// the previous step's psi.
//
// The total force is a momentum balance over a box of grid lines around the body, clear
// of it, as the projection model takes it (models/projection/forces.cpp): for the fluid
// V between the box S and the body (rho = 1),
//   F = - d/dt int_V u dV - oint_S (u (u.n) + p n - tau n) dS,   tau = nu (grad u + grad u^T),
// and the moment about the reference point the same balance of angular momentum. On
// the box the flow is smooth: u, v and their gradients are central differences of psi,
// the pressure along the box follows from the momentum equation,
//   grad p = -(du/dt + (u.grad) u) + nu lap u,   lap u = (-dw/dy, dw/dx)
// (node_flow, bodies.hpp, as for the bodies' stream function),
// integrated around the box by the trapezoidal rule (its small closing error spread
// along the path; the constant drops out on a closed box), and the volume integrals are
// trapezoidal sums over the box's nodes (zero velocity on the body's). du/dt is the
// change over the last step.
//
// The body's surface is not used for the pressure: integrating dp/ds = mu dw/dn along
// it passes the singular corners of a staircase body, and the result does not converge
// (on a square at Re 20 it gave a negative drag that grew more negative with refinement). The viscous part is the
// surface integral of the wall shear, mu w (ez x n) with n out of the body (on a no-slip
// wall the shear stress is mu w along the surface; e.g. Wu, Ma & Zhou, "Vorticity and
// Vortex Dynamics", Springer 2006), w Thom's value along each surface edge's normal,
// trapezoidal over the edge; the pressure part is the rest.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "models/psi_omega/body_setup.hpp"

namespace flowlua::psi_omega {

namespace {

struct Field {
  const std::vector<double>& a;
  int pitch;
  double operator()(int i, int j) const { return a[std::size_t(j) * pitch + i]; }
};

}  // namespace

Forces body_forces(const BodySetup& b, const Grid& g, double nu, const std::vector<double>& psi,
                   const std::vector<double>& w, const std::vector<double>& psi_prev, double dt, int obstacle) {
  const std::string name = "obstacles[" + std::to_string(obstacle + 1) + "]";
  if (!b.any() || obstacle < 0 || obstacle >= b.obstacles) throw CaseError("sim:forces: no such obstacle");
  if (b.obstacle_attached[obstacle])
    throw CaseError("sim:forces: " + name + " touches a side; the psi_omega model measures forces by a "
                    "momentum balance over a box around the body, which must lie in the fluid: move the body "
                    "off the side");
  if (b.obstacle_shared[obstacle])
    throw CaseError("sim:forces: " + name + " touches another obstacle, and they form one body: give them as "
                    "one obstacle (a function(x, y) or a polygon) to measure the force on the body");
  const int pitch = g.nx + 2, NX = g.nx + 1, NY = g.ny + 1;
  const double dx = g.dx, dy = g.dy;
  Field P{psi, pitch}, Pp{psi_prev, pitch};
  State<double> s{const_cast<double*>(psi.data()), const_cast<double*>(w.data()), nullptr, nullptr, nullptr, nullptr,
                  nullptr, g.nx, g.ny, dx, dy};
  s.body = b.info.data();
  auto body = [&](int i, int j) { return (b.info[std::size_t(j) * pitch + i] & kBodyNode) != 0; };

  // The obstacle's nodes (the corners of its cells) and every other body node.
  int bi0 = NX, bi1 = 0, bj0 = NY, bj1 = 0;
  for (std::size_t e = 0; e < b.edge_count(); ++e) {
    if (b.edge_obstacle[e] != obstacle) continue;
    for (int q = 0; q < 2; ++q) {
      const int k = b.edges[4 * e + q], i = k % pitch, j = k / pitch;
      bi0 = std::min(bi0, i), bi1 = std::max(bi1, i), bj0 = std::min(bj0, j), bj1 = std::max(bj1, j);
    }
  }
  // The box: node lines i0 < i1, j0 < j1, the body strictly inside, a quarter of the
  // body's size clear of it (at least 2 nodes), every node of the frame and its
  // neighbours fluid and at least one node off the sides, no other body inside.
  auto fits = [&](int i0, int i1, int j0, int j1) {
    if (i0 < 2 || j0 < 2 || i1 > NX - 2 || j1 > NY - 2) return false;
    for (int j = j0 - 1; j <= j1 + 1; ++j)
      for (int i = i0 - 1; i <= i1 + 1; ++i) {
        const bool frame = i <= i0 + 1 || i >= i1 - 1 || j <= j0 + 1 || j >= j1 - 1;
        if (frame && body(i, j)) return false;
        if (!frame && body(i, j) && (i < bi0 || i > bi1 || j < bj0 || j > bj1)) return false;
      }
    return true;
  };
  const int size = std::max(bi1 - bi0, bj1 - bj0);
  int m = std::max(3, size / 4), i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  for (; m >= 2; --m) {
    i0 = bi0 - m, i1 = bi1 + m, j0 = bj0 - m, j1 = bj1 + m;
    if (fits(i0, i1, j0, j1)) break;
  }
  if (m < 2)
    throw CaseError("sim:forces: no box of fluid fits around " + name + " (it is within three nodes of a side "
                    "or another body); the psi_omega model measures forces by a momentum balance over such a "
                    "box: leave more room around the body, or refine the grid");

  Forces f;
  f.x_ref = b.ref_x[obstacle];
  f.y_ref = b.ref_y[obstacle];
  const bool unsteady = dt > 0 && psi_prev.size() == psi.size();

  // Momentum and angular momentum in the box (trapezoidal weights), now and a step ago.
  double mx = 0, my = 0, ml = 0, mx0 = 0, my0 = 0, ml0 = 0;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      if (body(i, j)) continue;
      const double wt = (i == i0 || i == i1 ? 0.5 : 1.0) * (j == j0 || j == j1 ? 0.5 : 1.0) * dx * dy;
      const double x = i * dx - f.x_ref, y = j * dy - f.y_ref;
      const double u = (P(i, j + 1) - P(i, j - 1)) / (2 * dy), v = -(P(i + 1, j) - P(i - 1, j)) / (2 * dx);
      mx += wt * u, my += wt * v, ml += wt * (x * v - y * u);
      if (unsteady) {
        const double u0 = (Pp(i, j + 1) - Pp(i, j - 1)) / (2 * dy), v0 = -(Pp(i + 1, j) - Pp(i - 1, j)) / (2 * dx);
        mx0 += wt * u0, my0 += wt * v0, ml0 += wt * (x * v0 - y * u0);
      }
    }

  // The box's nodes counter-clockwise from (i0, j0), with the outward normal of the
  // segment that follows each.
  struct Node { int i, j; };
  std::vector<Node> path;
  for (int i = i0; i < i1; ++i) path.push_back({i, j0});
  for (int j = j0; j < j1; ++j) path.push_back({i1, j});
  for (int i = i1; i > i0; --i) path.push_back({i, j1});
  for (int j = j1; j > j0; --j) path.push_back({i0, j});
  const std::size_t np = path.size();
  std::vector<NodeFlow<double>> fl(np);
  std::vector<double> gx(np), gy(np);  // grad p at the nodes
  for (std::size_t k = 0; k < np; ++k) {
    const int i = path[k].i, j = path[k].j;
    fl[k] = node_flow(s, s.psi, s.w, std::size_t(j) * pitch + i);
    double ut = 0, vt = 0;
    if (unsteady) {
      ut = (fl[k].u - (Pp(i, j + 1) - Pp(i, j - 1)) / (2 * dy)) / dt;
      vt = (fl[k].v + (Pp(i + 1, j) - Pp(i - 1, j)) / (2 * dx)) / dt;
    }
    gx[k] = -(ut + fl[k].u * fl[k].ux + fl[k].v * fl[k].uy) + nu * fl[k].lapu;
    gy[k] = -(vt + fl[k].u * fl[k].vx + fl[k].v * fl[k].vy) + nu * fl[k].lapv;
  }
  // p along the path; the closing error is spread in proportion to the length walked.
  std::vector<double> p(np + 1, 0.0), walked(np + 1, 0.0);
  for (std::size_t k = 0; k < np; ++k) {
    const std::size_t q = (k + 1) % np;
    const double sx = (path[q].i - path[k].i) * dx, sy = (path[q].j - path[k].j) * dy;
    p[k + 1] = p[k] + 0.5 * ((gx[k] + gx[q]) * sx + (gy[k] + gy[q]) * sy);
    walked[k + 1] = walked[k] + std::abs(sx) + std::abs(sy);
  }
  for (std::size_t k = 0; k <= np; ++k) p[k] -= p[np] * walked[k] / walked[np];

  // Flux out through each segment, trapezoidal between its two nodes.
  double fx = 0, fy = 0, mz = 0;
  for (std::size_t k = 0; k < np; ++k) {
    const std::size_t q = (k + 1) % np;
    const double sx = (path[q].i - path[k].i) * dx, sy = (path[q].j - path[k].j) * dy;
    const double len = std::abs(sx) + std::abs(sy);
    const double nx = sy / len, ny = -sx / len;  // counter-clockwise: outward is to the right
    for (int e = 0; e < 2; ++e) {
      const std::size_t a = e == 0 ? k : q;
      const NodeFlow<double>& n = fl[a];
      const double pa = e == 0 ? p[k] : p[k + 1];
      const double un = n.u * nx + n.v * ny;
      const double tx = nu * (2 * n.ux * nx + (n.uy + n.vx) * ny), ty = nu * ((n.uy + n.vx) * nx + 2 * n.vy * ny);
      const double phx = n.u * un + pa * nx - tx, phy = n.v * un + pa * ny - ty;
      const double x = path[a].i * dx - f.x_ref, y = path[a].j * dy - f.y_ref;
      fx += 0.5 * len * phx;
      fy += 0.5 * len * phy;
      mz += 0.5 * len * (x * phy - y * phx);
    }
  }
  f.fx = -fx - (unsteady ? (mx - mx0) / dt : 0.0);
  f.fy = -fy - (unsteady ? (my - my0) / dt : 0.0);
  f.moment = -mz - (unsteady ? (ml - ml0) / dt : 0.0);

  // Viscous part: the wall shear over the obstacle's surface edges.
  for (std::size_t e = 0; e < b.edge_count(); ++e) {
    if (b.edge_obstacle[e] != obstacle) continue;
    const int* ed = b.edges.data() + 4 * e;
    const int d = ed[2];
    const double nx = d == 0 ? 1 : d == 1 ? -1 : 0, ny = d == 2 ? 1 : d == 3 ? -1 : 0;
    const double ht = d < 2 ? dy : dx;
    const double wm = 0.5 * (body_wall_vorticity(s, s.psi, std::size_t(ed[0]), d) +
                             body_wall_vorticity(s, s.psi, std::size_t(ed[1]), d));
    f.fx_viscous += nu * wm * (-ny) * ht;
    f.fy_viscous += nu * wm * nx * ht;
  }
  f.fx_pressure = f.fx - f.fx_viscous;
  f.fy_pressure = f.fy - f.fy_viscous;
  f.method = "control volume";
  return f;
}

}  // namespace flowlua::psi_omega
