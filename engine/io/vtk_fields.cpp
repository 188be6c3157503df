#include "io/vtk_fields.hpp"

#include <stdexcept>

#include "core/error.hpp"

namespace flowlua::io {

VtkImage vtk_image(const std::vector<FieldSnapshot>& fields, double time, long step) {
  if (fields.empty()) throw CaseError("VTK output needs at least one field");
  const Grid& g = fields.front().grid;
  VtkImage im;
  im.nx = g.nx;
  im.ny = g.ny;
  im.dx = g.dx;
  im.dy = g.dy;
  im.time = time;
  im.step = step;
  const std::size_t cells = std::size_t(g.nx) * std::size_t(g.ny);
  const FieldSnapshot *u = nullptr, *v = nullptr;
  for (const auto& f : fields) {
    if (f.grid.nx != g.nx || f.grid.ny != g.ny || f.grid.dx != g.dx || f.grid.dy != g.dy)
      throw std::logic_error("VTK output: field '" + f.name + "' is on another grid");
    if (im.solid.empty() && !f.solid.empty()) im.solid = f.solid;
    if (f.name == "solid") continue;
    if (f.name == "u") u = &f;
    if (f.name == "v") v = &f;
    im.arrays.push_back({f.name, 1, f.values});
  }
  if (im.solid.empty()) im.solid.assign(cells, 0);
  if (u && v) {
    VtkImage::Array vel{"velocity", 3, std::vector<double>(3 * cells, 0.0)};
    for (std::size_t c = 0; c < cells; ++c) {
      vel.values[3 * c] = u->values[c];
      vel.values[3 * c + 1] = v->values[c];
    }
    im.arrays.push_back(std::move(vel));
  }
  return im;
}

VtkImage vtk_image3(const std::vector<FieldSnapshot3>& fields, double time, long step) {
  if (fields.empty()) throw CaseError("VTK output needs at least one field");
  const Grid3& g = fields.front().grid;
  VtkImage im;
  im.nx = g.nx;
  im.ny = g.ny;
  im.nz = g.nz;
  im.dx = g.dx;
  im.dy = g.dy;
  im.dz = g.dz;
  im.time = time;
  im.step = step;
  const std::size_t cells = std::size_t(g.cells());
  const FieldSnapshot3 *u = nullptr, *v = nullptr, *w = nullptr;
  for (const auto& f : fields) {
    if (f.grid.nx != g.nx || f.grid.ny != g.ny || f.grid.nz != g.nz || f.grid.dx != g.dx || f.grid.dy != g.dy ||
        f.grid.dz != g.dz)
      throw std::logic_error("VTK output: field '" + f.name + "' is on another grid");
    if (im.solid.empty() && !f.solid.empty()) im.solid = f.solid;
    if (f.name == "solid") continue;
    if (f.name == "u") u = &f;
    if (f.name == "v") v = &f;
    if (f.name == "w") w = &f;
    im.arrays.push_back({f.name, 1, f.values});
  }
  if (im.solid.empty()) im.solid.assign(cells, 0);
  if (u && v) {
    VtkImage::Array vel{"velocity", 3, std::vector<double>(3 * cells, 0.0)};
    for (std::size_t c = 0; c < cells; ++c) {
      vel.values[3 * c] = u->values[c];
      vel.values[3 * c + 1] = v->values[c];
      vel.values[3 * c + 2] = w ? w->values[c] : 0.0;
    }
    im.arrays.push_back(std::move(vel));
  }
  return im;
}

}  // namespace flowlua::io
