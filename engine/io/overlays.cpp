#include "io/overlays.hpp"

#include <algorithm>
#include <cmath>

namespace flowlua::io {

std::vector<double> even_levels(double lo, double hi, int count) {
  std::vector<double> levels;
  for (int k = 1; k <= count; ++k) levels.push_back(lo + (hi - lo) * k / (count + 1));
  return levels;
}

void draw_isolines(Raster& r, const FieldPlacement& at, const FieldSnapshot& f, const std::vector<double>& levels,
                   Rgb colour) {
  const int nx = f.nx(), ny = f.ny();
  // Over sample()'s lattice: cell centres and, half a cell further out, the sides'
  // boundary values, so that lines reach the sides (a streamline along a wall).
  auto lx = [&](int i) { return at.x0 + std::clamp(i - 0.5, 0.0, double(nx)) * at.scale; };
  auto ly = [&](int j) { return at.y0 + (ny - std::clamp(j - 0.5, 0.0, double(ny))) * at.scale; };
  auto solid = [&](int i, int j) { return f.is_solid(std::clamp(i, 1, nx), std::clamp(j, 1, ny)); };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      // Corners counter-clockwise from (i, j); edge e joins corner e and e + 1.
      const int ci[4] = {i, i + 1, i + 1, i}, cj[4] = {j, j, j + 1, j + 1};
      double v[4];
      bool skip = false;
      for (int c = 0; c < 4; ++c) {
        v[c] = f.lattice(ci[c], cj[c]);
        skip = skip || solid(ci[c], cj[c]) || !std::isfinite(v[c]);
      }
      if (skip) continue;
      for (double level : levels) {
        bool above[4];
        for (int c = 0; c < 4; ++c) above[c] = v[c] >= level;
        double ex[4], ey[4];
        bool cut[4];
        int cuts = 0;
        for (int e = 0; e < 4; ++e) {
          const int a = e, b = (e + 1) % 4;
          cut[e] = above[a] != above[b];
          if (!cut[e]) continue;
          const double t = (level - v[a]) / (v[b] - v[a]);
          ex[e] = lx(ci[a]) + t * (lx(ci[b]) - lx(ci[a]));
          ey[e] = ly(cj[a]) + t * (ly(cj[b]) - ly(cj[a]));
          ++cuts;
        }
        auto seg = [&](int a, int b) { r.line(ex[a], ey[a], ex[b], ey[b], colour); };
        if (cuts == 2) {
          int first = -1, second = -1;
          for (int e = 0; e < 4; ++e)
            if (cut[e]) (first < 0 ? first : second) = e;
          seg(first, second);
        } else if (cuts == 4) {  // a saddle: corners 0 and 2 on one side, 1 and 3 on the other
          const bool centre_above = 0.25 * (v[0] + v[1] + v[2] + v[3]) >= level;
          if (centre_above == above[0]) {
            seg(0, 1);  // cut off corner 1
            seg(2, 3);  // and corner 3
          } else {
            seg(3, 0);
            seg(1, 2);
          }
        }
      }
    }
}

void draw_arrows(Raster& r, const FieldPlacement& at, const FieldSnapshot& u, const FieldSnapshot& v, int count,
                 Rgb colour, Rgb halo) {
  const int nx = u.nx(), ny = u.ny();
  const int wpx = nx * at.scale, hpx = ny * at.scale;
  if (count <= 0) return;
  const double step = double(std::max(wpx, hpx)) / count;
  struct Arrow {
    double x, y, u, v;
  };
  std::vector<Arrow> arrows;
  double vmax = 0;
  for (double py = step / 2; py < hpx; py += step)
    for (double pxl = step / 2; pxl < wpx; pxl += step) {
      const double x = pxl / at.scale * u.grid.dx, y = (hpx - py) / at.scale * u.grid.dy;
      const int i = std::min(nx, int(pxl / at.scale) + 1), j = std::min(ny, int((hpx - py) / at.scale) + 1);
      if (u.is_solid(i, j)) continue;
      const double a = u.sample(x, y), b = v.sample(x, y);
      if (!std::isfinite(a) || !std::isfinite(b)) continue;
      arrows.push_back({at.x0 + pxl, at.y0 + py, a, b});
      vmax = std::max(vmax, std::hypot(a, b));
    }
  if (vmax <= 0) return;
  for (const Arrow& a : arrows) {
    const double speed = std::hypot(a.u, a.v);
    const double len = 0.9 * step * speed / vmax;
    if (len < 4) continue;  // too short to show a direction
    const double ux = a.u / speed, uy = -a.v / speed;  // image y points down
    const double x0 = a.x - 0.5 * len * ux, y0 = a.y - 0.5 * len * uy;
    const double x1 = a.x + 0.5 * len * ux, y1 = a.y + 0.5 * len * uy;
    const double head = std::max(3.0, 0.3 * len), c = std::cos(0.45), s = std::sin(0.45);
    const double hx[2] = {x1 - head * (c * ux - s * uy), x1 - head * (c * ux + s * uy)};
    const double hy[2] = {y1 - head * (s * ux + c * uy), y1 - head * (-s * ux + c * uy)};
    // A light halo first, so that dark arrows stay visible on the dark end of a colormap.
    auto arrow = [&](double ox, double oy, Rgb ink, double alpha) {
      r.line(x0 + ox, y0 + oy, x1 + ox, y1 + oy, ink, alpha);
      for (int k = 0; k < 2; ++k) r.line(x1 + ox, y1 + oy, hx[k] + ox, hy[k] + oy, ink, alpha);
    };
    for (int k = 0; k < 4; ++k) arrow(k < 2 ? (k ? 1.0 : -1.0) : 0.0, k < 2 ? 0.0 : (k == 2 ? 1.0 : -1.0), halo, 0.6);
    arrow(0, 0, colour, 1.0);
  }
}

void draw_solid_outline(Raster& r, const FieldPlacement& at, const FieldSnapshot& f, Rgb colour) {
  const int nx = f.nx(), ny = f.ny(), s = at.scale;
  const int t = std::max(1, s / 6);  // line width in pixels, inside the obstacle cell
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      if (!f.is_solid(i, j)) continue;
      const int x = at.x0 + (i - 1) * s, y = at.y0 + (ny - j) * s;
      if (i > 1 && !f.is_solid(i - 1, j)) r.fill_rect(x, y, x + t, y + s, colour);
      if (i < nx && !f.is_solid(i + 1, j)) r.fill_rect(x + s - t, y, x + s, y + s, colour);
      if (j < ny && !f.is_solid(i, j + 1)) r.fill_rect(x, y, x + s, y + t, colour);
      if (j > 1 && !f.is_solid(i, j - 1)) r.fill_rect(x, y + s - t, x + s, y + s, colour);
    }
}

}  // namespace flowlua::io
