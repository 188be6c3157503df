// Obstacle shapes and their rasterisation onto the grid (no Lua here).
// A cell is solid when its centre is inside a shape.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/grid.hpp"
#include "core/grid3.hpp"

namespace flowlua::lua {

// A black-and-white picture: dark pixels (luminance below 50%, not transparent) are solid.
struct MaskImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> solid;  // width*height, row 0 at the top of the picture
  std::string path;
};

// 2D shapes (rect, circle, polygon, mask) in a 3D case are extruded through the
// whole depth (prisms along z); box, sphere and cylinder are 3D only.
struct Shape {
  // LevelSet: a Lua function(x, y), negative inside (flow.level_set); the function
  // itself is the shape userdata's user value (lua_shapes.cpp).
  enum class Kind { Rect, Circle, Polygon, Mask, Box, Sphere, Cylinder, LevelSet } kind = Kind::Rect;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;           // rect, box
  double z0 = 0, z1 = 0;                           // box
  double cx = 0, cy = 0, r = 0;                    // circle, sphere, cylinder
  double cz = 0;                                   // sphere
  // cylinder: its axis (0 x, 1 y, 2 z), the centre in the two other coordinates
  // (c1, c2 in x, y, z order) and its extent a0 <= along-axis coordinate <= a1.
  int axis = 2;
  double c1 = 0, c2 = 0, a0 = 0, a1 = 0;
  std::vector<std::pair<double, double>> points;   // polygon
  std::shared_ptr<const MaskImage> mask;           // mask, stretched over the domain
  double omega = 0;  // circle: turns about its centre at this rate (counter-clockwise, 1/time)

  // Rect, circle and polygon know their exact boundary: the signed distance to it
  // (negative inside), which immersed bodies use (core/immersed.hpp).
  bool has_distance() const { return kind == Kind::Rect || kind == Kind::Circle || kind == Kind::Polygon; }
  double distance(double x, double y) const;

  // Whether (x, y) is inside; lx, ly: the domain size (used by masks).
  bool contains(double x, double y, double lx, double ly) const;
  bool is_3d() const { return kind == Kind::Box || kind == Kind::Sphere || kind == Kind::Cylinder; }
  // Whether (x, y, z) is inside (2D shapes: whether (x, y) is).
  bool contains3(double x, double y, double z, double lx, double ly) const;
  std::string describe() const;  // "rect (0.2, 0.3)-(0.4, 0.5)", for messages and --explain
};

Shape make_rect(double x0, double y0, double x1, double y1);    // CaseError unless x0 < x1, y0 < y1
Shape make_circle(double x, double y, double r);                // CaseError unless r > 0
Shape make_polygon(std::vector<std::pair<double, double>> pts); // CaseError unless >= 3 points
Shape make_box(double x0, double y0, double z0, double x1, double y1, double z1);  // lower < upper
Shape make_sphere(double x, double y, double z, double r);      // r > 0
// axis 0, 1, 2; c1, c2 the centre in the other two coordinates (x, y, z order);
// a0 < a1 the extent along the axis.
Shape make_cylinder(int axis, double c1, double c2, double r, double a0, double a1);
Shape load_mask(const std::string& path);                       // CaseError if unreadable

// A grey image as elevations (flow.heightmap, model = 'lbm_swe'): black = low, white =
// high, linear in the grey value (16-bit PNGs keep their 65536 levels).
struct HeightImage {
  int width = 0, height = 0;
  std::vector<double> z;  // width*height, row 0 at the top of the picture
  std::string path;
  // Bilinear between pixel centres, the picture stretched over [0, lx] x [0, ly].
  double sample(double x, double y, double lx, double ly) const;
};
HeightImage load_heightmap(const std::string& path, double low, double high);  // CaseError if unreadable

// Even-odd rule.
bool point_in_polygon(const std::vector<std::pair<double, double>>& pts, double x, double y);

// Marks every cell whose centre satisfies `inside` as solid with obstacle id `id`
// (later obstacles take cells over from earlier ones). `solid` and `obstacle_id` are
// nx*ny, index (i-1) + (j-1)*nx; they are sized on first use. Returns the number of
// cells the shape covers.
long rasterise(const Grid& grid, const std::function<bool(double, double)>& inside, int id,
               std::vector<std::uint8_t>& solid, std::vector<int>& obstacle_id);

// The same on a 3D grid: solid and obstacle_id are nx*ny*nz, index
// (i-1) + nx ((j-1) + ny (k-1)).
long rasterise3(const Grid3& grid, const std::function<bool(double, double, double)>& inside, int id,
                std::vector<std::uint8_t>& solid, std::vector<int>& obstacle_id);

}  // namespace flowlua::lua
