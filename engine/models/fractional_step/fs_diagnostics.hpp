// The 3D fractional-step model's diagnostics as reductions in backend memory, so a
// 256^3 run on the GPU reports its energy without copying the fields back:
//   kinetic energy   1/2 sum_a sum_faces u_a^2 dV   (the MAC grid's discrete energy,
//                    the one the central scheme conserves without viscosity)
//   dissipation      nu sum_a sum_b sum (D_b u_a)^2 dV, D_b the face difference along
//                    b: minus the rate at which the discrete Laplacian removes that
//                    energy (for periodic incompressible flow the continuous
//                    counterpart is nu <|omega|^2> V, the viscous part of -dE/dt)
//   max |div u|      at cell centres (seed eq. 13)
//   max speed^2      of the cell-centred velocity (mean of a cell's two faces)
// Point functions for both backends; D = 3 only (2D keeps the projection model's
// host diagnostics).
#pragma once
#include <cmath>

#include "core/grid3.hpp"
#include "models/fractional_step/fs_projection.hpp"
#include "models/fractional_step/fs_state.hpp"
#include "sim/solver.hpp"

namespace flowlua::fractional_step {

template <class Real, bool kWalls>
struct EnergySum {
  State<3, Real> s;
  double dv;
  FL_HD double operator()(int i, int j, int k) const {
    const Cell<3> x{{i, j, k}};
    const std::size_t c = s.at(x);
    double e = 0;
    for (int a = 0; a < 3; ++a) {
      if (s.template wall_face<kWalls>(x, a)) continue;
      const double u = double(s.vel[a][c]);
      e += u * u;
    }
    return 0.5 * e * dv;
  }
};

template <class Real, bool kWalls>
struct DissipationSum {
  State<3, Real> s;
  double nu_dv;
  FL_HD double operator()(int i, int j, int k) const {
    const Cell<3> x{{i, j, k}};
    const std::size_t c = s.at(x);
    double e = 0;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        // the difference across the "+" side of face (a, x) along b; on a wall axis the
        // last one reaches the ghost (tangential) or is skipped (the normal wall face)
        if (s.template wall_face<kWalls>(x, a) && b == a) continue;
        const double d = (double(s.vel[a][s.template at<kWalls>(x, b, 1)]) - double(s.vel[a][c])) * double(s.inv_h[b]);
        e += d * d;
      }
    return e * nu_dv;
  }
};

template <class Real, bool kWalls>
struct AbsDivergence {
  State<3, Real> s;
  FL_HD double operator()(int i, int j, int k) const {
    const double d = double(divergence<3, Real, kWalls>(s, s.vel, Cell<3>{{i, j, k}}));
    return d < 0 ? -d : d;
  }
};

template <class Real, bool kWalls>
struct CentreSpeed2 {
  State<3, Real> s;
  FL_HD double operator()(int i, int j, int k) const {
    const Cell<3> x{{i, j, k}};
    const std::size_t c = s.at(x);
    double q = 0;
    for (int a = 0; a < 3; ++a) {
      const double u = 0.5 * (double(s.vel[a][c]) + double(s.vel[a][s.template at<kWalls>(x, a, -1)]));
      q += u * u;
    }
    return q;
  }
};

// kinetic_energy, dissipation, max_speed and max_divergence of the 3D state into d.
template <class Exec, class Real, bool kWalls>
void add_field_sums3(const State<3, Real>& s, const Grid3& g, double nu, Diagnostics& d) {
  const double dv = g.dx * g.dy * g.dz;
  d.add("kinetic_energy", Exec::reduce_sum3(1, g.nx, 1, g.ny, 1, g.nz, EnergySum<Real, kWalls>{s, dv}));
  d.add("dissipation", Exec::reduce_sum3(1, g.nx, 1, g.ny, 1, g.nz, DissipationSum<Real, kWalls>{s, nu * dv}));
  d.add("max_speed", std::sqrt(Exec::reduce_max3(1, g.nx, 1, g.ny, 1, g.nz, CentreSpeed2<Real, kWalls>{s})));
  d.add("max_divergence", Exec::reduce_max3(1, g.nx, 1, g.ny, 1, g.nz, AbsDivergence<Real, kWalls>{s}));
}

}  // namespace flowlua::fractional_step
