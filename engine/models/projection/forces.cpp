// Forces on obstacles by a momentum balance over a control volume: a box of grid
// faces around the body, a few cells clear of it. For the fluid between the box S
// and the body B (incompressible, rho constant),
//   F_body = - d/dt int_V rho u dV - oint_S (rho u (u.n) + p n - tau n) dS,
// tau = mu (grad u + grad u^T), n the box's outward normal; the moment about a point
// r0 is the same balance of angular momentum, with (r - r0) x ... under the integrals.
// On the box the flow is smooth, so the midpoint rule on the staggered values is
// second order, whatever the body's surface looks like on the grid (staircase or
// immersed); the time derivative is the change over the last step. This is the
// control-volume method of, e.g., Noca, Shiels & Jeon (1999, J. Fluids Struct. 13,
// 551-578) in its plain momentum form.
//
// The pressure part is -oint_B p n dS over the body's exact surface (marching-squares
// segments, core/immersed.cpp), with p extrapolated linearly along the normal from
// one and two cells out; the viscous part is the rest of the balance. Obstacles with
// no exact shape (masks, predicate functions) take the pressure on their staircase
// faces. Where no box fits (a body touching a side or another body), the whole
// force falls back to the staircase face sum, first order (method "faces").
//
// Host-side on a snapshot: sim:forces already downloads u, v and p to the host; the
// balance adds u and v of the previous step and touches only the box's frame and
// interior, O(box cells), so a device reduction would save one copy at most.
#include <algorithm>
#include <cmath>
#include <limits>

#include "models/projection/derived_fields.hpp"

namespace flowlua::projection {

namespace {

struct Ctx {
  const HostState& s;
  const ProjectionConfig& c;
  const Grid& g;
  int obstacle;
  // Obstacle owning cell (i, j) by its centre (-1: none or outside the grid).
  int owner(int i, int j) const {
    if (i < 1 || i > g.nx || j < 1 || j > g.ny || c.solid.empty()) return -1;
    const std::size_t k = std::size_t(i - 1) + std::size_t(j - 1) * g.nx;
    if (!c.solid[k]) return -1;
    return c.obstacle_id.empty() ? 0 : c.obstacle_id[k];
  }
  // Fluid for the solver and inside no body.
  bool clear(int i, int j) const {
    if (i < 1 || i > g.nx || j < 1 || j > g.ny) return false;
    return fluid_cell(s, i, j) && owner(i, j) < 0;
  }
  double U(int i, int j) const { return s.u[g.at(i, j)]; }
  double V(int i, int j) const { return s.v[g.at(i, j)]; }
  double P(int i, int j) const { return s.rho * s.p[g.at(i, j)]; }
};

// The box: u-face columns i0 < i1 and v-face rows j0 < j1; it holds cells i0+1..i1,
// j0+1..j1. The quadrature reads two cells either side of each edge, so that frame
// must be fluid and clear of bodies; the obstacle's cells must lie inside, and no
// other obstacle's.
struct Box {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
};

bool box_fits(const Ctx& x, const Box& b) {
  const Grid& g = x.g;
  if (b.i0 < 1 || b.j0 < 1 || b.i1 > g.nx - 1 || b.j1 > g.ny - 1) return false;
  for (int j = b.j0 - 1; j <= b.j1 + 2; ++j)
    for (int i = b.i0 - 1; i <= b.i1 + 2; ++i) {
      const bool frame = i <= b.i0 + 2 || i >= b.i1 - 1 || j <= b.j0 + 2 || j >= b.j1 - 1;
      if (frame && !x.clear(i, j)) return false;
      const int o = x.owner(i, j);
      if (o >= 0 && o != x.obstacle) return false;
    }
  return true;
}

bool find_box(const Ctx& x, Box& out) {
  const Grid& g = x.g;
  int ia = g.nx + 1, ib = 0, ja = g.ny + 1, jb = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i)
      if (x.owner(i, j) == x.obstacle) {
        ia = std::min(ia, i); ib = std::max(ib, i);
        ja = std::min(ja, j); jb = std::max(jb, j);
      }
  if (ib < ia) return false;
  // A margin of a quarter of the body's size (at least 3 cells): the edges sit in
  // resolved flow, away from the forced faces; shrink it where the room ends.
  const int start = std::max(3, std::max(ib - ia + 1, jb - ja + 1) / 4);
  for (int m = start; m >= 2; --m) {
    Box b{ia - m - 1, ib + m, ja - m - 1, jb + m};
    if (box_fits(x, b)) {
      out = b;
      return true;
    }
  }
  return false;
}

void reference_point(const Ctx& x, double& xr, double& yr) {
  const std::size_t k = std::size_t(x.obstacle);
  if (k < x.c.obstacle_xc.size() && std::isfinite(x.c.obstacle_xc[k]) && std::isfinite(x.c.obstacle_yc[k])) {
    xr = x.c.obstacle_xc[k];
    yr = x.c.obstacle_yc[k];
    return;
  }
  double sx = 0, sy = 0;
  long n = 0;
  for (int j = 1; j <= x.g.ny; ++j)
    for (int i = 1; i <= x.g.nx; ++i)
      if (x.owner(i, j) == x.obstacle) {
        sx += x.g.xc(i);
        sy += x.g.yc(j);
        ++n;
      }
  xr = n ? sx / double(n) : 0;
  yr = n ? sy / double(n) : 0;
}

// The box balance: total force and moment.
void control_volume(const Ctx& x, const Box& b, double xr, double yr, Forces& f) {
  const Grid& g = x.g;
  const double dx = g.dx, dy = g.dy, rho = x.s.rho, nu = x.s.nu;
  // Momentum flux tensor Pi = rho u u + p I - tau at the four edges' midpoints.
  double flux_x = 0, flux_y = 0, flux_m = 0;
  for (int side = 0; side < 2; ++side) {  // left (x = i0 dx, n = -x), right (x = i1 dx, n = +x)
    const int i = side ? b.i1 : b.i0;
    const double sign = side ? 1.0 : -1.0, xe = i * dx;
    for (int j = b.j0 + 1; j <= b.j1; ++j) {
      const double ye = (j - 0.5) * dy;
      const double u = x.U(i, j);
      const double v = 0.25 * (x.V(i, j - 1) + x.V(i, j) + x.V(i + 1, j - 1) + x.V(i + 1, j));
      const double p = 0.5 * (x.P(i, j) + x.P(i + 1, j));
      const double ux = (x.U(i + 1, j) - x.U(i - 1, j)) / (2 * dx);
      const double uy = (x.U(i, j + 1) - x.U(i, j - 1)) / (2 * dy);
      const double vx = (x.V(i + 1, j) + x.V(i + 1, j - 1) - x.V(i, j) - x.V(i, j - 1)) / (2 * dx);
      const double pxx = rho * u * u + p - 2 * rho * nu * ux;  // Pi_xx
      const double pxy = rho * u * v - rho * nu * (uy + vx);   // Pi_xy = Pi_yx
      const double tx = sign * pxx * dy, ty = sign * pxy * dy;  // (Pi n) dS
      flux_x += tx;
      flux_y += ty;
      flux_m += (xe - xr) * ty - (ye - yr) * tx;
    }
  }
  for (int side = 0; side < 2; ++side) {  // bottom (y = j0 dy, n = -y), top (y = j1 dy, n = +y)
    const int j = side ? b.j1 : b.j0;
    const double sign = side ? 1.0 : -1.0, ye = j * dy;
    for (int i = b.i0 + 1; i <= b.i1; ++i) {
      const double xe = (i - 0.5) * dx;
      const double v = x.V(i, j);
      const double u = 0.25 * (x.U(i - 1, j) + x.U(i, j) + x.U(i - 1, j + 1) + x.U(i, j + 1));
      const double p = 0.5 * (x.P(i, j) + x.P(i, j + 1));
      const double vy = (x.V(i, j + 1) - x.V(i, j - 1)) / (2 * dy);
      const double vx = (x.V(i + 1, j) - x.V(i - 1, j)) / (2 * dx);
      const double uy = (x.U(i - 1, j + 1) + x.U(i, j + 1) - x.U(i - 1, j) - x.U(i, j)) / (2 * dy);
      const double pyy = rho * v * v + p - 2 * rho * nu * vy;
      const double pxy = rho * u * v - rho * nu * (uy + vx);
      const double tx = sign * pxy * dx, ty = sign * pyy * dx;
      flux_x += tx;
      flux_y += ty;
      flux_m += (xe - xr) * ty - (ye - yr) * tx;
    }
  }
  // Rate of change of the momentum (and angular momentum) of the fluid in the box
  // (the trapezoid rule across the box, half weight on the edge faces): the faces
  // between fluid cells; with immersed bodies every face whose position is in the
  // fluid, each the unknown of a whole cell's momentum in the discrete balance, also
  // those next to the surface whose cells a body cuts (leaving those out moved the
  // DFG 2D-2 cl max at D = 10 cells by 0.2%).
  auto fluid_u = [&](int i, int j) {
    if (x.s.immersed) return x.s.immersed->u.code[g.at(i, j)] == kFaceFree;
    return x.clear(i, j) && x.clear(i + 1, j);
  };
  auto fluid_v = [&](int i, int j) {
    if (x.s.immersed) return x.s.immersed->v.code[g.at(i, j)] == kFaceFree;
    return x.clear(i, j) && x.clear(i, j + 1);
  };
  double dmx = 0, dmy = 0, dmm = 0;
  if (!x.s.u_prev.empty() && x.s.dt_prev > 0) {
    const double w = rho * dx * dy / x.s.dt_prev;
    for (int j = b.j0 + 1; j <= b.j1; ++j)
      for (int i = b.i0; i <= b.i1; ++i) {
        if (!fluid_u(i, j)) continue;
        const double half = (i == b.i0 || i == b.i1) ? 0.5 : 1.0;
        const double du = x.s.u[g.at(i, j)] - x.s.u_prev[g.at(i, j)];
        dmx += half * w * du;
        dmm -= half * w * ((j - 0.5) * dy - yr) * du;
      }
    for (int j = b.j0; j <= b.j1; ++j)
      for (int i = b.i0 + 1; i <= b.i1; ++i) {
        if (!fluid_v(i, j)) continue;
        const double half = (j == b.j0 || j == b.j1) ? 0.5 : 1.0;
        const double dv = x.s.v[g.at(i, j)] - x.s.v_prev[g.at(i, j)];
        dmy += half * w * dv;
        dmm += half * w * ((i - 0.5) * dx - xr) * dv;
      }
  }
  f.fx = -dmx - flux_x;
  f.fy = -dmy - flux_y;
  f.moment = -dmm - flux_m;
}

// Bilinear pressure at (px, py) from the centres of clear cells (weights of the
// others dropped and the rest renormalised); false when none is near.
bool pressure_at(const Ctx& x, double px, double py, double& out) {
  const Grid& g = x.g;
  const double fx = px / g.dx + 0.5, fy = py / g.dy + 0.5;  // cell (i, j) has its centre at i - 0.5
  const int i = int(std::floor(fx)), j = int(std::floor(fy));
  const double tx = fx - i, ty = fy - j;
  double sum = 0, wsum = 0;
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) {
      const int ii = i + a, jj = j + b;
      if (!x.clear(ii, jj)) continue;
      const double w = (a ? tx : 1 - tx) * (b ? ty : 1 - ty);
      sum += w * x.P(ii, jj);
      wsum += w;
    }
  if (!(wsum > 1e-12)) return false;
  out = sum / wsum;
  return true;
}

// Pressure on the exact surface; false when the obstacle has none.
bool surface_pressure(const Ctx& x, double& fxp, double& fyp) {
  const double h = std::max(x.g.dx, x.g.dy);
  bool any = false;
  fxp = fyp = 0;
  for (const SurfaceSegment& sg : x.c.immersed.surface) {
    if (sg.obstacle != x.obstacle) continue;
    any = true;
    double p1, p2, p;
    const bool a = pressure_at(x, sg.x + h * sg.nx, sg.y + h * sg.ny, p1);
    const bool b = pressure_at(x, sg.x + 2 * h * sg.nx, sg.y + 2 * h * sg.ny, p2);
    if (a && b) p = 2 * p1 - p2;
    else if (a) p = p1;
    else if (b) p = p2;
    else continue;
    fxp -= p * sg.nx * sg.ds;
    fyp -= p * sg.ny * sg.ds;
  }
  return any;
}

// The staircase face sum: pressure at the fluid cell centre on each face between
// fluid and the obstacle, and (total only) wall shear mu u_t / (h / 2). First order.
void face_sum(const Ctx& x, double xr, double yr, bool with_shear, Forces& f) {
  const Grid& g = x.g;
  const double mu = x.s.rho * x.s.nu;
  double fx = 0, fy = 0, m = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!fluid_cell(x.s, i, j) || x.owner(i, j) >= 0) continue;
      const double p = x.P(i, j);
      const double uc = u_centre(x.s, i, j), vc = v_centre(x.s, i, j);
      const double sx = with_shear ? mu * vc / (0.5 * g.dx) * g.dy : 0.0;  // shear on x faces, along y
      const double sy = with_shear ? mu * uc / (0.5 * g.dy) * g.dx : 0.0;
      auto add = [&](double ax, double ay, double px, double py) {
        fx += ax;
        fy += ay;
        m += (px - xr) * ay - (py - yr) * ax;
      };
      if (x.owner(i + 1, j) == x.obstacle) add(p * g.dy, sx, i * g.dx, g.yc(j));
      if (x.owner(i - 1, j) == x.obstacle) add(-p * g.dy, sx, (i - 1) * g.dx, g.yc(j));
      if (x.owner(i, j + 1) == x.obstacle) add(sy, p * g.dx, g.xc(i), j * g.dy);
      if (x.owner(i, j - 1) == x.obstacle) add(sy, -p * g.dx, g.xc(i), (j - 1) * g.dy);
    }
  f.fx = fx;
  f.fy = fy;
  f.moment = m;
}

}  // namespace

Forces obstacle_forces(const HostState& s, const ProjectionConfig& c, int obstacle) {
  const Ctx x{s, c, s.grid, obstacle};
  Forces f;
  reference_point(x, f.x_ref, f.y_ref);
  Box b;
  if (find_box(x, b)) {
    control_volume(x, b, f.x_ref, f.y_ref, f);
    f.method = "control volume";
  } else {
    face_sum(x, f.x_ref, f.y_ref, true, f);
    f.method = "faces";
  }
  if (!surface_pressure(x, f.fx_pressure, f.fy_pressure)) {
    Forces p;
    face_sum(x, f.x_ref, f.y_ref, false, p);
    f.fx_pressure = p.fx;
    f.fy_pressure = p.fy;
  }
  f.fx_viscous = f.fx - f.fx_pressure;
  f.fy_viscous = f.fy - f.fy_pressure;
  return f;
}

}  // namespace flowlua::projection
