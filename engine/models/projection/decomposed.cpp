#include "models/projection/decomposed.hpp"

#include "core/error.hpp"

namespace flowlua::projection {

ranks::Subdomain block_of_this_rank(const ProjectionConfig& c, bool immersed) {
  const Grid& g = c.grid;
  if (!ranks::several()) return ranks::whole_grid(g.nx, g.ny);
  // The forcing of an immersed face reads velocities two faces away, beyond a halo
  // one cell wide.
  if (immersed)
    throw CaseError("kernels.bodies = 'immersed' runs on one rank only; on several MPI ranks obstacles are "
                    "staircase cells (leave kernels.bodies out, or run without mpirun)");
  const ranks::Decomposition d =
      ranks::decompose(g.nx, g.ny, ranks::size(), c.decomposition_px, c.decomposition_py, is_periodic_x(c.boundaries),
                       is_periodic_y(c.boundaries));
  return ranks::subdomain(d, g.nx, g.ny, ranks::rank());
}

Grid block_grid(const Grid& whole, const ranks::Subdomain& s) {
  if (s.whole()) return whole;
  Grid g = whole;  // the spacing exactly as the whole grid's
  g.nx = s.nx;
  g.ny = s.ny;
  g.lx = whole.dx * s.nx;
  g.ly = whole.dy * s.ny;
  return g;
}

}  // namespace flowlua::projection
