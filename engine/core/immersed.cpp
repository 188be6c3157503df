#include "core/immersed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/boundary.hpp"

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
  out.aperture.assign(n, 1.0);
  out.near.assign(n, -1);
  out.near_weight.clear();
  out.near_value.clear();
  out.near_t.clear();
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
  auto unknown_outside = [&](int i, int j) {
    return i >= i0 && i <= i1 && j >= j0 && j <= j1 && !(lv[g.at(i, j)].phi < 0);
  };
  const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};  // west, east, south, north
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const std::size_t c = g.at(i, j);
      double x, y;
      pos(i, j, x, y);
      if (wall && lv[c].body >= 0) (*wall)[c] = velocity(lv[c].body, x, y);
      if (lv[c].phi < 0) {
        out.code[c] = kFaceInside;
        out.value[c] = velocity(lv[c].body, x, y);
        // A ghost when a neighbour is in the fluid: the crossing nearest to it, with
        // the partner two cells on (outside every body, an unknown).
        int best = -1;
        double dbest = 2, xb = 0, yb = 0;
        for (int k = 0; k < 4; ++k) {
          const int in = i - di[k], jn = j - dj[k];  // fluid at -d[k]: the body lies at +d[k]
          if (!unknown_outside(in, jn) || !unknown_outside(i - 2 * di[k], j - 2 * dj[k])) continue;
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
          out.code[c] = ghost[best];
          out.value[c] = velocity(lv[c].body, xb, yb);
          out.weight[c] = -dbest / (2 - dbest);
          ++out.ghost;
        } else {
          ++out.inside;
        }
        continue;
      }
      // A free face next to a body: for each neighbour inside, the value that continues
      // this grid line's profile through the surface crossing from the face on the
      // other side, one per line, so that every stencil that reaches into the body sees
      // the wall where it is along its own line.
      double w[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, tk[4] = {-1, -1, -1, -1};
      bool near = false;
      for (int k = 0; k < 4; ++k) {
        const int in = i + di[k], jn = j + dj[k];
        const Level& l = lv[g.at(in, jn)];
        if (!(l.phi < 0)) continue;
        near = true;
        double xn, yn;
        pos(in, jn, xn, yn);
        const double t = crossing(bodies[std::size_t(l.body)], x, y, xn, yn);  // fraction of h from this face
        b[k] = velocity(l.body, x + t * (xn - x), y + t * (yn - y));
        // Through (surface, opposite face): at distances t and 1 + t from the crossing
        // lie this face and the opposite one, the neighbour at 1 - t beyond it. With no
        // fluid face opposite (a gap one face wide), the neighbour takes the body's.
        const bool opposite = unknown_outside(i - di[k], j - dj[k]);
        w[k] = opposite ? -(1 - t) / (1 + t) : 0.0;
        tk[k] = opposite ? t : -1.0;
      }
      if (!near) continue;
      out.near[c] = std::int32_t(out.near_weight.size() / 4);
      for (int k = 0; k < 4; ++k) {
        out.near_weight.push_back(w[k]);
        out.near_value.push_back(b[k]);
        out.near_t.push_back(tk[k]);
      }
      ++out.near_wall;
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

// Fluid fraction of the segment between two corners with level sets a and b.
double edge_fluid(double a, double b) {
  if (a >= 0 && b >= 0) return 1;
  if (a < 0 && b < 0) return 0;
  return a >= 0 ? a / (a - b) : b / (b - a);
}

// Apertures and cut-edge fluxes of every face, and the surface flux of every cut cell.
void apertures(const Grid& g, const std::vector<ImmersedBody>& bodies, ImmersedGeometry& geo) {
  const int nx = g.nx, ny = g.ny;
  std::vector<Level> corner(std::size_t(nx + 1) * (ny + 1));
  auto C = [&](int i, int j) -> const Level& { return corner[std::size_t(j) * (nx + 1) + i]; };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) corner[std::size_t(j) * (nx + 1) + i] = level(bodies, i * g.dx, j * g.dy);
  // The edge of face c runs from corner lo to corner hi (+y for u, +x for v), from
  // (x0, y0) by (ex, ey); the next faces along it are (i, j) -+ (di, dj), unknowns
  // when `next_lo` / `next_hi` hold.
  // `closed`: an edge between two cells with no free face (sources, which keep no
  // mass balance of their own) where the surface clips it: the fluid there moves with
  // the body (flux a u_body). A source cell with fluid next to a cell that keeps its
  // balance is merged into that balance (ImmersedGeometry::merge).
  auto edge = [&](FaceForcing& f, bool u_comp, std::size_t c, const Level& lo, const Level& hi, double x0, double y0,
                  double ex, double ey, bool unknown, bool next_lo, bool next_hi, std::size_t clo, std::size_t chi,
                  bool closed) {
    const double raw = edge_fluid(lo.phi, hi.phi);
    const bool free_face = f.code[c] == kFaceFree;  // (faces on the domain's sides are never classified)
    const double a = free_face && unknown ? std::max(raw, 0.5) : raw;
    f.aperture[c] = a;
    if (!unknown || !(raw > 0) || !(raw < 1)) return;
    // The crossing, the body's velocity there, and the next face on the fluid side,
    // which lies (a + 1/2) h from the crossing (this face (a - 1/2) h).
    const bool up = hi.phi >= 0;  // the fluid end
    const double t = lo.phi / (lo.phi - hi.phi);
    const Level& in = up ? lo : hi;
    const RigidMotion& m = bodies[std::size_t(in.body)].motion;
    const double xb = x0 + t * ex, yb = y0 + t * ey;
    const double ub = u_comp ? m.u(xb, yb) : m.v(xb, yb);
    const bool next_ok = up ? next_hi : next_lo;
    const std::size_t cn = up ? chi : clo;
    if (closed || !next_ok || f.code[cn] != kFaceFree) {
      // no next face in the fluid: the face's own value (free) or the body's
      f.edge_const[c] = free_face ? 0.0 : a * ub;
      return;
    }
    f.edge_side[c] = up ? 1 : -1;
    // A linear profile ub + s (u_next - ub) / (a + 1/2) integrated over the fluid part
    // (s from 0 to a): a^2 / (2 a + 1) of (u_next - ub); a free face counts a u
    // itself, which the profile makes ub + (a - 1/2) / (a + 1/2) (u_next - ub), and
    // the next face the rest, a (1 - a) / (2 a + 1).
    const double w = free_face ? a * (1 - a) / (2 * a + 1) : a * a / (2 * a + 1);
    f.edge_weight[c] = w;
    f.edge_const[c] = free_face ? -w * ub : (a - w) * ub;
  };
  for (FaceForcing* f : {&geo.u, &geo.v}) {
    f->edge_weight.assign(g.size(), 0.0);
    f->edge_const.assign(g.size(), 0.0);
    f->edge_side.assign(g.size(), 0);
  }
  for (int j = 1; j <= ny; ++j)  // u(i, j): the edge x = i dx, (j - 1) dy .. j dy
    for (int i = 0; i <= nx; ++i) {
      const bool unknown = i >= 1 && i <= nx - 1;
      const bool closed = unknown && geo.source[g.at(i, j)] && geo.source[g.at(i + 1, j)];
      edge(geo.u, true, g.at(i, j), C(i, j - 1), C(i, j), i * g.dx, (j - 1) * g.dy, 0.0, g.dy, unknown, j > 1,
           j < ny, g.at(i, j - 1), g.at(i, j + 1), closed);
    }
  for (int j = 0; j <= ny; ++j)  // v(i, j): the edge y = j dy, (i - 1) dx .. i dx
    for (int i = 1; i <= nx; ++i) {
      const bool unknown = j >= 1 && j <= ny - 1;
      const bool closed = unknown && geo.source[g.at(i, j)] && geo.source[g.at(i, j + 1)];
      edge(geo.v, false, g.at(i, j), C(i - 1, j), C(i, j), (i - 1) * g.dx, j * g.dy, g.dx, 0.0, unknown, i > 1,
           i < nx, g.at(i - 1, j), g.at(i + 1, j), closed);
    }

  geo.surface_flux.assign(g.size(), 0.0);
  for (const SurfaceSegment& sg : geo.surface) {
    const int i = std::clamp(int(std::floor(sg.x / g.dx)) + 1, 1, nx);
    const int j = std::clamp(int(std::floor(sg.y / g.dy)) + 1, 1, ny);
    for (const ImmersedBody& b : bodies)
      if (b.obstacle == sg.obstacle) {
        const double un = b.motion.u(sg.x, sg.y) * sg.nx + b.motion.v(sg.x, sg.y) * sg.ny;
        geo.surface_flux[g.at(i, j)] -= un * sg.ds / (g.dx * g.dy);
        break;
      }
  }
}

// The sides of the domain a body reaches (ImmersedGeometry::sides_reached): phi <= 0
// at a point of the side (every half cell along it, corners included) or phi < 0 at
// the centre of a cell of the row or column beside it.
int sides_reached(const Grid& g, const ImmersedBody& b) {
  int bits = 0;
  auto side = [&](int bit, bool vertical, double at, double centre) {
    const int n = vertical ? g.ny : g.nx;
    const double h = vertical ? g.dy : g.dx;
    for (int k = 0; k <= 2 * n && !(bits & bit); ++k) {
      const double s = 0.5 * k * h;
      const double on = vertical ? b.phi(at, s) : b.phi(s, at);
      const bool beside = k % 2 == 1 && (vertical ? b.phi(centre, s) : b.phi(s, centre)) < 0;
      if (on <= 0 || beside) bits |= bit;
    }
  };
  side(1 << int(Side::Left), true, 0.0, 0.5 * g.dx);
  side(1 << int(Side::Right), true, g.lx, g.lx - 0.5 * g.dx);
  side(1 << int(Side::Bottom), false, 0.0, 0.5 * g.dy);
  side(1 << int(Side::Top), false, g.ly, g.ly - 0.5 * g.dy);
  return bits;
}

}  // namespace

ImmersedGeometry build_immersed_geometry(const Grid& g, const std::vector<ImmersedBody>& bodies) {
  ImmersedGeometry geo;
  if (bodies.empty()) return geo;
  bool moving = false;
  geo.all_on_grid_lines = true;
  for (const ImmersedBody& b : bodies) {
    geo.obstacles.push_back(b.obstacle);
    geo.sides_reached.push_back(sides_reached(g, b));
    moving = moving || b.motion.omega != 0;
    geo.all_on_grid_lines = geo.all_on_grid_lines && b.on_grid_lines;
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
  apertures(g, bodies, geo);
  // A source cell that the surface clips (fluid on an edge toward a cell that keeps
  // its balance) joins the balance of the first such neighbour, west, east, south,
  // north: the flow through its edges then passes through a balanced volume.
  geo.merge.assign(g.size(), 0);
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!geo.source[g.at(i, j)]) continue;
      const double ap[4] = {geo.u.aperture[g.at(i - 1, j)], geo.u.aperture[g.at(i, j)], geo.v.aperture[g.at(i, j - 1)],
                            geo.v.aperture[g.at(i, j)]};
      const int ni[4] = {i - 1, i + 1, i, i}, nj[4] = {j, j, j - 1, j + 1};
      for (int k = 0; k < 4; ++k) {
        if (!(ap[k] > 0) || ni[k] < 1 || ni[k] > g.nx || nj[k] < 1 || nj[k] > g.ny) continue;
        if (geo.source[g.at(ni[k], nj[k])]) continue;
        // seen from the neighbour, this cell lies the other way: bit (k ^ 1)
        geo.merge[g.at(ni[k], nj[k])] |= std::int8_t(1 << (k ^ 1));
        ++geo.merged;
        break;
      }
    }
  geo.near_body.assign(g.size(), 0);
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!(level(bodies, g.xc(i), g.yc(j)).phi < 0)) continue;
      for (int b = std::max(1, j - 2); b <= std::min(g.ny, j + 2); ++b)
        for (int a = std::max(1, i - 2); a <= std::min(g.nx, i + 2); ++a) geo.near_body[g.at(a, b)] = 1;
    }
  return geo;
}

}  // namespace flowlua
