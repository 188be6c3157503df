#include "core/immersed.hpp"

#include <cmath>
#include <limits>

namespace flowlua {

namespace {

struct Level {
  double phi;
  int body;  // index into the bodies, -1 none
};

Level level(const std::vector<ImmersedBody>& bodies, double x, double y) {
  Level l{std::numeric_limits<double>::infinity(), -1};
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const double d = bodies[b].phi(x, y);
    if (d < l.phi) l = {d, int(b)};
  }
  return l;
}

// Fraction t in (0, 1] of the segment from a (outside, phi >= 0) to b (inside body
// `body`) where phi of that body changes sign: bisection, robust for any level set.
double crossing(const ImmersedBody& body, double ax, double ay, double bx, double by) {
  double lo = 0, hi = 1;
  for (int k = 0; k < 48; ++k) {
    const double t = 0.5 * (lo + hi);
    if (body.phi(ax + t * (bx - ax), ay + t * (by - ay)) < 0) hi = t;
    else lo = t;
  }
  return 0.5 * (lo + hi);
}

// One component's faces. (ox, oy): the face position is ((i + ox) dx, (j + oy) dy);
// unknown faces are i = i0..i1, j = j0..j1 (the boundary faces belong to the sides).
void classify(const Grid& g, const std::vector<ImmersedBody>& bodies, double ox, double oy, int i0, int i1, int j0,
              int j1, bool u_component, FaceForcing& out, std::vector<double>* wall) {
  const std::size_t n = g.size();
  out.code.assign(n, kFaceFree);
  out.weight.assign(n, 0.0);
  out.value.assign(n, 0.0);
  if (wall) wall->assign(n, 0.0);
  std::vector<Level> lv(n, Level{std::numeric_limits<double>::infinity(), -1});
  auto pos = [&](int i, int j, double& x, double& y) {
    x = (i + ox) * g.dx;
    y = (j + oy) * g.dy;
  };
  // Levels at every face the stencils may look at: unknowns and the boundary ring.
  for (int j = j0 - 1; j <= j1 + 1; ++j)
    for (int i = i0 - 1; i <= i1 + 1; ++i) {
      double x, y;
      pos(i, j, x, y);
      lv[g.at(i, j)] = level(bodies, x, y);
    }
  auto velocity = [&](int b, double x, double y) {
    const RigidMotion& m = bodies[std::size_t(b)].motion;
    return u_component ? m.u(x, y) : m.v(x, y);
  };
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const std::size_t c = g.at(i, j);
      double x, y;
      pos(i, j, x, y);
      if (wall && lv[c].body >= 0) (*wall)[c] = velocity(lv[c].body, x, y);
      const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
      if (lv[c].phi < 0) {
        out.code[c] = kFaceInside;
        out.value[c] = velocity(lv[c].body, x, y);
        // A ghost when a neighbour is in the fluid: the crossing nearest to it, with
        // the partner two cells on (outside every body, an unknown).
        int best = -1;
        double dbest = 2, xb = 0, yb = 0;
        for (int k = 0; k < 4; ++k) {
          const int in = i - di[k], jn = j - dj[k];  // fluid at -di: the body lies at +di
          if (in < i0 || in > i1 || jn < j0 || jn > j1 || lv[g.at(in, jn)].phi < 0) continue;
          const int ip = i - 2 * di[k], jp = j - 2 * dj[k];
          if (ip < i0 || ip > i1 || jp < j0 || jp > j1 || lv[g.at(ip, jp)].phi < 0) continue;
          double xn, yn;
          pos(in, jn, xn, yn);
          const double t = crossing(bodies[std::size_t(lv[c].body)], xn, yn, x, y);  // from the fluid face
          const double d = 1 - t;  // distance of this face from the surface, in cells
          if (d < dbest) {
            dbest = d;
            best = k;
            xb = xn + t * (x - xn);
            yb = yn + t * (y - yn);
          }
        }
        if (best >= 0) {
          const std::int8_t ghost[4] = {kGhostWest, kGhostEast, kGhostSouth, kGhostNorth};
          // best = k: the fluid lies at -d[k], so the body is at +d[k]: the "east" ghost
          // of k = 1 has its partner at -2x, as kFaceEast's is at -x.
          out.code[c] = ghost[best];
          out.value[c] = velocity(lv[c].body, xb, yb);
          out.weight[c] = -dbest / (2 - dbest);
          ++out.ghost;
        } else {
          ++out.inside;
        }
        continue;
      }
      // The nearest crossing along the four grid lines (in units of the spacing).
      const std::int8_t codes[4] = {kFaceWest, kFaceEast, kFaceSouth, kFaceNorth};
      int best = -1;
      double tbest = 2, xb = 0, yb = 0;
      int bbest = -1;
      for (int k = 0; k < 4; ++k) {
        const int in = i + di[k], jn = j + dj[k];
        const Level& l = lv[g.at(in, jn)];
        if (!(l.phi < 0)) continue;
        double xn, yn;
        pos(in, jn, xn, yn);
        const double t = crossing(bodies[std::size_t(l.body)], x, y, xn, yn);
        if (t < tbest) {
          tbest = t;
          best = k;
          bbest = l.body;
          xb = x + t * (xn - x);
          yb = y + t * (yn - y);
        }
      }
      if (best < 0) continue;
      out.code[c] = codes[best];
      out.value[c] = velocity(bbest, xb, yb);
      ++out.forcing;
      // The partner: one cell away from the body. It must be an unknown outside
      // every body; where it is not (a gap of one cell), the face takes the body
      // velocity (weight 0).
      const int ip = i - di[best], jp = j - dj[best];
      const bool ok = ip >= i0 && ip <= i1 && jp >= j0 && jp <= j1 && !(lv[g.at(ip, jp)].phi < 0);
      out.weight[c] = ok ? tbest / (1 + tbest) : 0.0;
    }
}

// Marching squares of the union's phi on the cell corners: one segment per cut cell
// (two for a saddle), with the outward normal.
void surface(const Grid& g, const std::vector<ImmersedBody>& bodies, std::vector<SurfaceSegment>& out) {
  const int nx = g.nx, ny = g.ny;
  std::vector<Level> c(std::size_t(nx + 1) * (ny + 1));
  auto C = [&](int i, int j) -> Level& { return c[std::size_t(j) * (nx + 1) + i]; };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) C(i, j) = level(bodies, i * g.dx, j * g.dy);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      // Corners counter-clockwise from the lower left, and the edges between them.
      const Level* k[4] = {&C(i - 1, j - 1), &C(i, j - 1), &C(i, j), &C(i - 1, j)};
      const double px[4] = {(i - 1) * g.dx, i * g.dx, i * g.dx, (i - 1) * g.dx};
      const double py[4] = {(j - 1) * g.dy, (j - 1) * g.dy, j * g.dy, j * g.dy};
      double cx[4], cy[4];
      int ncut = 0, owner = -1;
      for (int e = 0; e < 4; ++e) {
        const Level& a = *k[e];
        const Level& b = *k[(e + 1) % 4];
        if ((a.phi < 0) == (b.phi < 0)) continue;
        const double t = a.phi / (a.phi - b.phi);
        cx[ncut] = px[e] + t * (px[(e + 1) % 4] - px[e]);
        cy[ncut] = py[e] + t * (py[(e + 1) % 4] - py[e]);
        owner = a.phi < 0 ? a.body : b.body;
        ++ncut;
      }
      if (ncut < 2) continue;
      // Gradient of phi over the cell: the outward direction.
      const double gx = (k[1]->phi + k[2]->phi - k[0]->phi - k[3]->phi) / (2 * g.dx);
      const double gy = (k[2]->phi + k[3]->phi - k[0]->phi - k[1]->phi) / (2 * g.dy);
      for (int s = 0; s + 1 < ncut; s += 2) {
        const double ex = cx[s + 1] - cx[s], ey = cy[s + 1] - cy[s];
        const double len = std::hypot(ex, ey);
        if (!(len > 0)) continue;
        double nxv = ey / len, nyv = -ex / len;
        if (nxv * gx + nyv * gy < 0) { nxv = -nxv; nyv = -nyv; }
        out.push_back({0.5 * (cx[s] + cx[s + 1]), 0.5 * (cy[s] + cy[s + 1]), nxv, nyv, len,
                       bodies[std::size_t(owner)].obstacle});
      }
    }
}

}  // namespace

ImmersedGeometry build_immersed_geometry(const Grid& g, const std::vector<ImmersedBody>& bodies) {
  ImmersedGeometry geo;
  if (bodies.empty()) return geo;
  bool moving = false;
  for (const ImmersedBody& b : bodies) {
    geo.obstacles.push_back(b.obstacle);
    moving = moving || b.motion.omega != 0;
  }
  // u(i, j) at (i dx, (j - 1/2) dy), unknown for i = 1..nx-1; v(i, j) at ((i - 1/2) dx, j dy).
  classify(g, bodies, 0.0, -0.5, 1, g.nx - 1, 1, g.ny, true, geo.u, moving ? &geo.wall_u : nullptr);
  classify(g, bodies, -0.5, 0.0, 1, g.nx, 1, g.ny - 1, false, geo.v, moving ? &geo.wall_v : nullptr);
  geo.source.assign(g.size(), 0);
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      // A face on the domain's side counts as prescribed.
      auto forced_u = [&](int ii) { return ii <= 0 || ii >= g.nx || geo.u.code[g.at(ii, j)] != kFaceFree; };
      auto forced_v = [&](int jj) { return jj <= 0 || jj >= g.ny || geo.v.code[g.at(i, jj)] != kFaceFree; };
      if (forced_u(i - 1) && forced_u(i) && forced_v(j - 1) && forced_v(j)) {
        geo.source[g.at(i, j)] = 1;
        ++geo.sources;
      }
    }
  surface(g, bodies, geo.surface);
  return geo;
}

}  // namespace flowlua
