// The part of every case that does not depend on the model: the grid, the time
// control, the precision, the backend and the kernel variants a case forces. Each
// model's config (engine/models/<model>/<model>_config.hpp) is a CaseCommon plus its
// own physics and numerics; the Lua host fills the shared part once (bindings/
// case_reader.cpp) and each model's reader the rest (bindings/<model>_reader.cpp).
#pragma once
#include <map>
#include <string>

#include "core/grid.hpp"
#include "core/grid3.hpp"

namespace flowlua {

enum class Precision { Float, Double };
enum class BackendChoice { Auto, Cpu, Cuda };

inline const char* precision_name(Precision p) { return p == Precision::Float ? "float" : "double"; }

// How a model advances in time: its explicit step, or (psi_omega) Peaceman-Rachford
// ADI with the transport implicit along grid lines (time = { scheme = "adi" }).
enum class TimeScheme { Explicit, Adi };

struct TimeControl {
  double t_end = 1.0;     // stop at this simulated time ...
  long max_steps = -1;    // ... or after this many steps (-1: no limit)
  double dt = 0;          // fixed step; 0 means adaptive
  double cfl = 0.5;       // safety factor tau of Griebel eq. (3.50)
  double steady = 0;      // stop when the change over steady_interval, per time unit
                          // and relative to the velocity scale, is below this (0: off;
                          // sim/steady.hpp)
  double steady_interval = 0;  // time between the samples compared; 0: 500 current dt
  TimeScheme scheme = TimeScheme::Explicit;
};

struct CaseCommon {
  // dims = 2: `grid` is the case's grid. dims = 3 (grid.nz given, > 1): `grid3` is,
  // and `grid` is its x-y plane (grid3.xy()), for what only needs nx, ny, lx, ly.
  int dims = 2;
  Grid grid;
  Grid3 grid3;
  TimeControl time;
  Precision precision = Precision::Double;
  BackendChoice backend = BackendChoice::Auto;
  // Kernel variants the case forces, stage -> variant (kernels = { momentum = ... });
  // empty: the model's plan chooses (core/kernel_registry.hpp).
  std::map<std::string, std::string> kernels;
  // Blocks across x and y when several MPI ranks share the case (mpirun -np N;
  // decomposition = { px, py }); 0, 0: chosen (parallel/decomposition.hpp).
  int decomposition_px = 0, decomposition_py = 0;
};

}  // namespace flowlua
