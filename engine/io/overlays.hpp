// What is drawn over a field image: isolines (marching squares over the cell
// centres and the sides), velocity arrows and the outline of obstacles. The field occupies pixels
// [x0, x0 + nx * scale) x [y0, y0 + ny * scale) of the raster, row 0 at the top (j = ny).
#pragma once
#include <vector>

#include "core/snapshot.hpp"
#include "io/raster.hpp"

namespace flowlua::io {

struct FieldPlacement {
  int x0 = 0, y0 = 0, scale = 1;
};

// Each level's isoline over FieldSnapshot::lattice (cell centres, and the boundary
// values on the sides, so lines reach the sides), linear along the lattice's edges;
// quads that touch an obstacle or a non-finite value are skipped; saddles are split
// by the quad's mean value.
void draw_isolines(Raster& r, const FieldPlacement& at, const FieldSnapshot& f, const std::vector<double>& levels,
                   Rgb colour);

// `count` evenly spaced levels strictly inside (lo, hi): lo + (hi - lo) k / (count + 1).
std::vector<double> even_levels(double lo, double hi, int count);

// About `count` arrows along the longer side, on a square lattice of pixel points;
// length proportional to the speed there (the fastest as long as the lattice step);
// none inside obstacles or shorter than 4 pixels. Drawn in `colour` over a thin
// `halo` (a lighter colour keeps them visible on the dark end of a colormap).
void draw_arrows(Raster& r, const FieldPlacement& at, const FieldSnapshot& u, const FieldSnapshot& v, int count,
                 Rgb colour, Rgb halo);

// A dark line on every obstacle cell face that borders fluid.
void draw_solid_outline(Raster& r, const FieldPlacement& at, const FieldSnapshot& f, Rgb colour);

}  // namespace flowlua::io
