// fill_ghosts3 on a chosen backend and precision from host arrays: what the CUDA-vs-
// CPU tests need without instantiating the backend templates themselves. The CPU
// instances are compiled in ghost_fill3_run.cpp, the CUDA ones in ghost_fill3_run.cu.
#pragma once
#include <vector>

#include "core/boundary.hpp"
#include "core/config.hpp"
#include "core/ghost_fill3.hpp"

namespace flowlua {

// u, v, w in the Grid3 layout, filled in place.
void run_ghost_fill3(BackendChoice backend, Precision precision, const Grid3& g, const Boundaries3& sides,
                     std::vector<double>& u, std::vector<double>& v, std::vector<double>& w);
void run_ghost_fill3_cuda(Precision precision, const Grid3& g, const Boundaries3& sides, std::vector<double>& u,
                          std::vector<double>& v, std::vector<double>& w);

template <class Exec, class Real>
void run_ghost_fill3_on(const Grid3& g, const Boundaries3& sides, std::vector<double>& u, std::vector<double>& v,
                        std::vector<double>& w) {
  std::vector<double>* host[3] = {&u, &v, &w};
  DeviceArray<Exec, Real> d[3];
  for (int c = 0; c < 3; ++c) {
    d[c] = DeviceArray<Exec, Real>(g.size());
    d[c].upload(std::vector<Real>(host[c]->begin(), host[c]->end()));
  }
  SideArrays3<Exec, Real> arrays(g, sides);
  fill_ghosts3<Exec, Real>(Velocity3<Real>{{d[0].data(), d[1].data(), d[2].data()}, {g.nx, g.ny, g.nz}},
                           arrays.values());
  for (int c = 0; c < 3; ++c) {
    std::vector<Real> back = d[c].download();
    host[c]->assign(back.begin(), back.end());
  }
}

}  // namespace flowlua
