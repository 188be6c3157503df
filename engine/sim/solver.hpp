// The interface every model offers to the host: step, read and write fields,
// report diagnostics and forces, explain its kernel plan. One instance runs on one
// backend in one precision; make_solver picks the instantiation.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "core/snapshot.hpp"

namespace flowlua {

struct Diagnostics {
  long step = 0;
  double time = 0, dt = 0;
  double kinetic_energy = 0;    // 1/2 integral of |u|^2 over the fluid (per unit depth, rho = 1)
  double max_speed = 0;
  double max_divergence = 0;    // max over fluid cells of |div u|
  double cfl = 0;               // max(|u| dt/dx, |v| dt/dy)
  double gamma = 0;             // donor-cell weight used in the last step
  int pressure_iterations = 0;  // of the last step
  double pressure_residual = 0; // relative residual ||r|| / ||b|| of the last step
  double max_change = 0;        // max |u^{n+1} - u^n| / dt of the last step
  // Model-specific values by name (e.g. psi_omega's wall temperature gradients);
  // sim:diagnostics() adds them to its table.
  std::vector<std::pair<std::string, double>> extra;
};

struct Forces {
  double fx = 0, fy = 0;  // force on the obstacle per unit depth: drag (x), lift (y)
};

class Solver {
 public:
  virtual ~Solver() = default;

  virtual void step() = 0;  // one time step; throws BlowUp when a value is not finite
  virtual long steps() const = 0;
  virtual double time() const = 0;
  virtual double dt() const = 0;  // of the last step (or the next one, before the first)
  // Caps the next step's dt (e.g. to land exactly on t_end); <= 0 removes the cap.
  virtual void limit_next_dt(double max_dt) = 0;
  // max |u^{n+1} - u^n| / dt of the last step, for steady-state stops; computed
  // only when config().time.steady > 0 (0 otherwise). Costs no download.
  virtual double max_change() const = 0;
  virtual const ProjectionConfig& config() const = 0;

  // New boundary values for a side (same kind as before): inflow profiles and
  // callbacks that depend on time. Uploaded before the next step.
  virtual void set_side(Side side, const SideCondition& condition) = 0;

  virtual std::vector<std::string> field_names() const = 0;
  virtual FieldSnapshot field(const std::string& name) = 0;  // CaseError for unknown names
  virtual void set_field(const FieldSnapshot& snapshot) = 0;  // writable fields only

  virtual Diagnostics diagnostics() = 0;
  virtual Forces forces(int obstacle) = 0;
  virtual std::string plan() const = 0;  // the kernel plan, for --explain
  virtual std::string backend_name() const = 0;
};

// Builds the projection model on the requested backend; "auto" takes CUDA when a
// device is present. Throws CaseError (bad config) or BackendError (no device).
std::unique_ptr<Solver> make_projection_solver(const ProjectionConfig& config);
// The stream function-vorticity model with heat transport (models/psi_omega).
std::unique_ptr<Solver> make_psi_omega_solver(const ProjectionConfig& config);
// Either of the above, as config.model says.
std::unique_ptr<Solver> make_solver(const ProjectionConfig& config);

// Whether this build has CUDA and a device answers; `why` says what is missing.
bool cuda_available(std::string* why = nullptr);

}  // namespace flowlua
