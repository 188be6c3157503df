#include "shapes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO_WARNINGS
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

namespace flowlua::lua {

static std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool point_in_polygon(const std::vector<std::pair<double, double>>& pts, double x, double y) {
  bool in = false;
  std::size_t n = pts.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    double xi = pts[i].first, yi = pts[i].second, xj = pts[j].first, yj = pts[j].second;
    if ((yi > y) != (yj > y)) {
      double xcross = xi + (y - yi) * (xj - xi) / (yj - yi);
      if (x < xcross) in = !in;
    }
  }
  return in;
}

bool Shape::contains(double x, double y, double lx, double ly) const {
  switch (kind) {
    case Kind::Rect: return x >= x0 && x <= x1 && y >= y0 && y <= y1;
    case Kind::Circle: return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
    case Kind::Polygon: return point_in_polygon(points, x, y);
    case Kind::Box:
    case Kind::Sphere:
    case Kind::Cylinder: return false;  // 3D shapes: read_obstacles refuses them in 2D
    case Kind::LevelSet: return false;  // a Lua function: read_obstacles calls it
    case Kind::Mask: {
      if (!mask || mask->width <= 0 || mask->height <= 0) return false;
      int px = int(std::floor(x / lx * mask->width));
      int py = int(std::floor((1.0 - y / ly) * mask->height));
      px = std::clamp(px, 0, mask->width - 1);
      py = std::clamp(py, 0, mask->height - 1);
      return mask->solid[std::size_t(py) * mask->width + px] != 0;
    }
  }
  return false;
}

bool Shape::contains3(double x, double y, double z, double lx, double ly) const {
  switch (kind) {
    case Kind::Box: return x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1;
    case Kind::Sphere: return (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) <= r * r;
    case Kind::Cylinder: {
      const double p[3] = {x, y, z};
      const double along = p[axis];
      const double t1 = axis == 0 ? y : x, t2 = axis == 2 ? y : z;  // transverse, in x, y, z order
      return along >= a0 && along <= a1 && (t1 - c1) * (t1 - c1) + (t2 - c2) * (t2 - c2) <= r * r;
    }
    default: return contains(x, y, lx, ly);  // 2D shapes: prisms through the depth
  }
}

std::string Shape::describe() const {
  static const char* axes[3] = {"x", "y", "z"};
  static const char* trans[3][2] = {{"y", "z"}, {"x", "z"}, {"x", "y"}};
  switch (kind) {
    case Kind::Box:
      return "box (" + num(x0) + ", " + num(y0) + ", " + num(z0) + ")-(" + num(x1) + ", " + num(y1) + ", " +
             num(z1) + ")";
    case Kind::Sphere: return "sphere at (" + num(cx) + ", " + num(cy) + ", " + num(cz) + ") r = " + num(r);
    case Kind::Cylinder:
      return std::string("cylinder along ") + axes[axis] + " at " + trans[axis][0] + " = " + num(c1) + ", " +
             trans[axis][1] + " = " + num(c2) + ", r = " + num(r) + ", " + axes[axis] + " from " + num(a0) +
             " to " + num(a1);
    case Kind::Rect:
      return "rect (" + num(x0) + ", " + num(y0) + ")-(" + num(x1) + ", " + num(y1) + ")";
    case Kind::Circle:
      return "circle at (" + num(cx) + ", " + num(cy) + ") r = " + num(r) +
             (omega != 0 ? ", turning at omega = " + num(omega) : std::string());
    case Kind::Polygon: return "polygon of " + std::to_string(points.size()) + " points";
    case Kind::LevelSet: return "level set function(x, y)";
    case Kind::Mask:
      return "mask '" + (mask ? mask->path : std::string("?")) + "' (" +
             std::to_string(mask ? mask->width : 0) + " x " +
             std::to_string(mask ? mask->height : 0) + " pixels)";
  }
  return "?";
}

namespace {
// Distance from (x, y) to the segment a-b.
double segment_distance(double x, double y, double ax, double ay, double bx, double by) {
  const double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
  double t = l2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / l2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(x - ax - t * ex, y - ay - t * ey);
}
}  // namespace

double Shape::distance(double x, double y) const {
  switch (kind) {
    case Kind::Circle: return std::hypot(x - cx, y - cy) - r;
    case Kind::Rect: {
      const double dx = std::max(x0 - x, x - x1), dy = std::max(y0 - y, y - y1);
      if (dx <= 0 && dy <= 0) return std::max(dx, dy);
      return std::hypot(std::max(dx, 0.0), std::max(dy, 0.0));
    }
    case Kind::Polygon: {
      double d = std::numeric_limits<double>::infinity();
      const std::size_t n = points.size();
      for (std::size_t i = 0, j = n - 1; i < n; j = i++)
        d = std::min(d, segment_distance(x, y, points[j].first, points[j].second, points[i].first, points[i].second));
      return point_in_polygon(points, x, y) ? -d : d;
    }
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

Shape make_rect(double x0, double y0, double x1, double y1) {
  if (!(x1 > x0) || !(y1 > y0))
    throw CaseError("flow.rect needs x0 < x1 and y0 < y1 (got x0 = " + num(x0) + ", x1 = " +
                    num(x1) + ", y0 = " + num(y0) + ", y1 = " + num(y1) + ")");
  Shape s;
  s.kind = Shape::Kind::Rect;
  s.x0 = x0; s.y0 = y0; s.x1 = x1; s.y1 = y1;
  return s;
}

Shape make_circle(double x, double y, double r) {
  if (!(r > 0)) throw CaseError("flow.circle needs r > 0 (got " + num(r) + ")");
  Shape s;
  s.kind = Shape::Kind::Circle;
  s.cx = x; s.cy = y; s.r = r;
  return s;
}

Shape make_polygon(std::vector<std::pair<double, double>> pts) {
  if (pts.size() < 3)
    throw CaseError("flow.polygon needs at least 3 points {x, y} (got " +
                    std::to_string(pts.size()) + ")");
  Shape s;
  s.kind = Shape::Kind::Polygon;
  s.points = std::move(pts);
  return s;
}

Shape make_box(double x0, double y0, double z0, double x1, double y1, double z1) {
  if (!(x1 > x0) || !(y1 > y0) || !(z1 > z0))
    throw CaseError("flow.box needs x0 < x1, y0 < y1 and z0 < z1 (got x0 = " + num(x0) + ", x1 = " + num(x1) +
                    ", y0 = " + num(y0) + ", y1 = " + num(y1) + ", z0 = " + num(z0) + ", z1 = " + num(z1) + ")");
  Shape s;
  s.kind = Shape::Kind::Box;
  s.x0 = x0; s.y0 = y0; s.z0 = z0; s.x1 = x1; s.y1 = y1; s.z1 = z1;
  return s;
}

Shape make_sphere(double x, double y, double z, double r) {
  if (!(r > 0)) throw CaseError("flow.sphere needs r > 0 (got " + num(r) + ")");
  Shape s;
  s.kind = Shape::Kind::Sphere;
  s.cx = x; s.cy = y; s.cz = z; s.r = r;
  return s;
}

Shape make_cylinder(int axis, double c1, double c2, double r, double a0, double a1) {
  if (!(r > 0)) throw CaseError("flow.cylinder needs r > 0 (got " + num(r) + ")");
  if (!(a1 > a0)) throw CaseError("flow.cylinder needs its start below its end along the axis (got " + num(a0) +
                                  " and " + num(a1) + ")");
  Shape s;
  s.kind = Shape::Kind::Cylinder;
  s.axis = axis; s.c1 = c1; s.c2 = c2; s.r = r; s.a0 = a0; s.a1 = a1;
  return s;
}

Shape load_mask(const std::string& path) {
  int w = 0, h = 0, n = 0;
  if (!stbi_info(path.c_str(), &w, &h, &n))
    throw CaseError("flow.mask: cannot read the image '" + path + "': " +
                    (stbi_failure_reason() ? stbi_failure_reason() : "unknown reason"));
  if (w <= 0 || h <= 0 || double(w) * double(h) > double(1 << 28))
    throw CaseError("flow.mask: the image '" + path + "' is too large (" + std::to_string(w) +
                    " x " + std::to_string(h) + " pixels)");
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
  if (!data)
    throw CaseError("flow.mask: cannot decode the image '" + path + "': " +
                    (stbi_failure_reason() ? stbi_failure_reason() : "unknown reason"));
  auto img = std::make_shared<MaskImage>();
  img->width = w;
  img->height = h;
  img->path = path;
  img->solid.resize(std::size_t(w) * h);
  for (std::size_t k = 0; k < img->solid.size(); ++k) {
    const unsigned char* px = data + 4 * k;
    double lum = (0.299 * px[0] + 0.587 * px[1] + 0.114 * px[2]) / 255.0;
    img->solid[k] = (lum < 0.5 && px[3] >= 128) ? 1 : 0;
  }
  stbi_image_free(data);
  Shape s;
  s.kind = Shape::Kind::Mask;
  s.mask = std::move(img);
  return s;
}

HeightImage load_heightmap(const std::string& path, double low, double high) {
  int w = 0, h = 0, n = 0;
  if (!stbi_info(path.c_str(), &w, &h, &n))
    throw CaseError("flow.heightmap: cannot read the image '" + path + "': " +
                    (stbi_failure_reason() ? stbi_failure_reason() : "unknown reason"));
  if (w <= 0 || h <= 0 || double(w) * double(h) > double(1 << 28))
    throw CaseError("flow.heightmap: the image '" + path + "' is too large (" + std::to_string(w) + " x " +
                    std::to_string(h) + " pixels)");
  // 16 bits a channel whatever the file has (8-bit greys are scaled by 257).
  stbi_us* data = stbi_load_16(path.c_str(), &w, &h, &n, 1);
  if (!data)
    throw CaseError("flow.heightmap: cannot decode the image '" + path + "': " +
                    (stbi_failure_reason() ? stbi_failure_reason() : "unknown reason"));
  HeightImage img;
  img.width = w;
  img.height = h;
  img.path = path;
  img.z.resize(std::size_t(w) * h);
  for (std::size_t k = 0; k < img.z.size(); ++k) img.z[k] = low + (high - low) * (data[k] / 65535.0);
  stbi_image_free(data);
  return img;
}

double HeightImage::sample(double x, double y, double lx, double ly) const {
  // pixel (c, r) has its centre at ((c + 1/2) lx / w, ly - (r + 1/2) ly / h)
  const double fc = std::clamp(x / lx * width - 0.5, 0.0, double(width - 1));
  const double fr = std::clamp((ly - y) / ly * height - 0.5, 0.0, double(height - 1));
  const int c0 = int(fc), r0 = int(fr), c1 = std::min(c0 + 1, width - 1), r1 = std::min(r0 + 1, height - 1);
  const double a = fc - c0, b = fr - r0;
  auto at = [&](int c, int r) { return z[std::size_t(c) + std::size_t(r) * width]; };
  return (1 - b) * ((1 - a) * at(c0, r0) + a * at(c1, r0)) + b * ((1 - a) * at(c0, r1) + a * at(c1, r1));
}

long rasterise(const Grid& grid, const std::function<bool(double, double)>& inside, int id,
               std::vector<std::uint8_t>& solid, std::vector<int>& obstacle_id) {
  std::size_t n = std::size_t(grid.nx) * std::size_t(grid.ny);
  if (solid.size() != n) solid.assign(n, 0);
  if (obstacle_id.size() != n) obstacle_id.assign(n, -1);
  long count = 0;
  for (int j = 1; j <= grid.ny; ++j) {
    double y = grid.yc(j);
    for (int i = 1; i <= grid.nx; ++i) {
      if (!inside(grid.xc(i), y)) continue;
      std::size_t k = std::size_t(i - 1) + std::size_t(j - 1) * grid.nx;
      solid[k] = 1;
      obstacle_id[k] = id;
      ++count;
    }
  }
  return count;
}

}  // namespace flowlua::lua

namespace flowlua::lua {

long rasterise3(const Grid3& grid, const std::function<bool(double, double, double)>& inside, int id,
                std::vector<std::uint8_t>& solid, std::vector<int>& obstacle_id) {
  const std::size_t n = std::size_t(grid.nx) * grid.ny * grid.nz;
  if (solid.size() != n) solid.assign(n, 0);
  if (obstacle_id.size() != n) obstacle_id.assign(n, -1);
  long count = 0;
  for (int k = 1; k <= grid.nz; ++k)
    for (int j = 1; j <= grid.ny; ++j)
      for (int i = 1; i <= grid.nx; ++i) {
        if (!inside(grid.xc(i), grid.yc(j), grid.zc(k))) continue;
        const std::size_t c = std::size_t(i - 1) + std::size_t(grid.nx) * (std::size_t(j - 1) + std::size_t(grid.ny) * (k - 1));
        solid[c] = 1;
        obstacle_id[c] = id;
        ++count;
      }
  return count;
}

}  // namespace flowlua::lua
