// The fractional-step model (seed 004, Costarelli et al.) on one backend and one
// precision, in 2D. Each step:
//   1. dt: fixed, or cfl * min(convective limit 1 / max sum_a |u_a| / h_a, the
//      diffusive limit of AB2 1 / (4 nu sum_a 1 / h_a^2)): one scalar copied back;
//   2. predictor: R(u^n) with QUICK or central fluxes and u* by AB2 (forward Euler on
//      the first step), R(u^n) kept as the next step's history (seed eq. 5-6, 10-12);
//   3. rhs = div u* / dt and lap (p / rho) = rhs (seed eq. 4; FFT direct or PCG);
//   4. u^{n+1} = u* - dt grad (p / rho) (seed eq. 17).
// The state stays in backend memory; the host sees it only through snapshots.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "core/error.hpp"
#include "core/flags.hpp"
#include "linalg/solver_factory.hpp"
#include "models/fractional_step/fs_kernels.hpp"
#include "models/fractional_step/fs_momentum.hpp"
#include "models/fractional_step/fs_projection.hpp"
#include "models/projection/derived_fields.hpp"
#include "sim/solver.hpp"

namespace flowlua::fractional_step {

// Host-side checks and flags (fs_setup.cpp).
FlagReport prepare(const FractionalStepConfig& c);
std::string describe_plan(const FractionalStepConfig& c, const char* backend, const std::string& pressure_solver,
                          const KernelPlan& plan);
// The time step for an inverse convective time inv_t (fs_setup.cpp).
double stable_dt(const FractionalStepConfig& c, double inv_t);

template <class Exec, class Real>
class FractionalStepSolver final : public Solver {
  static constexpr int D = 2;

 public:
  explicit FractionalStepSolver(const FractionalStepConfig& config)
      : c_(config), flags_(prepare(c_)), g_(c_.grid), n_(g_.size()), p_(n_), rhs_(n_), flag_array_(n_) {
    for (int a = 0; a < D; ++a) {
      vel_[a] = DeviceArray<Exec, Real>(n_);
      star_[a] = DeviceArray<Exec, Real>(n_);
      hist_[a] = DeviceArray<Exec, Real>(n_);
      star_[a].fill(Real(0));
      hist_[a].fill(Real(0));
    }
    flag_array_.upload(flags_.flags);
    upload(c_.u0, vel_[0]);
    upload(c_.v0, vel_[1]);
    rhs_.fill(Real(0));
    p_.fill(Real(0));
    pressure_ = make_pressure_solver<Exec, Real>(c_.pressure, PoissonProblem{g_, neighbours(), flags_.flags});
    plan_ = kernel_registry().plan(kernel_key(c_, Exec::name), c_.kernels);
    // The initial velocity made discretely divergence-free (a projection with dt = 1),
    // so that a sampled profile starts on the manifold the scheme keeps.
    if (!c_.u0.empty() || !c_.v0.empty()) {
      for (int a = 0; a < D; ++a) Exec::copy(star_[a].data(), vel_[a].data(), n_);
      run_rhs(1.0);
      solve_pressure();
      run_correction(1.0);
    }
    upload(c_.p0, p_);
    if (!c_.p0.empty()) scale_pressure(1 / c_.rho);
  }

  void step() override {
    dt_ = next_dt();
    predictor();
    run_rhs(dt_);
    solve_pressure();
    run_correction(dt_);
    time_ += dt_;
    dt_prev_ = dt_;
    ++steps_;
  }

  // One stage on its own, for the benchmark harness: "dt", "momentum", "rhs",
  // "pressure", "correction". Runs the kernels the plan chose, as step() does.
  void run_stage(const std::string& stage) {
    if (stage == "dt") dt_ = dt_from(convective_rate());  // the reduction every adaptive step pays
    else if (stage == "momentum") predictor();
    else if (stage == "rhs") run_rhs(dt_ > 0 ? dt_ : 1.0);
    else if (stage == "pressure") solve_pressure();
    else if (stage == "correction") run_correction(dt_ > 0 ? dt_ : 1.0);
    else throw CaseError("no stage '" + stage + "' in the fractional_step model");
  }
  const KernelPlan& kernel_plan() const { return plan_; }

  long steps() const override { return steps_; }
  double time() const override { return time_; }
  double dt() const override { return dt_ > 0 ? dt_ : peek_dt(); }
  void limit_next_dt(double max_dt) override { dt_cap_ = max_dt; }
  void steady_sample(SteadySample& out) override {
    // The face velocities of every component, scaled by the largest of them (sim/steady.hpp).
    out.groups.resize(1);
    SteadySample::Group& gr = out.groups[0];
    gr.name = "velocity";
    gr.values.clear();
    double scale = 0;
    for (int a = 0; a < D; ++a)
      for (Real x : vel_[a].download()) {
        gr.values.push_back(double(x));
        scale = std::max(scale, std::abs(double(x)));
      }
    gr.scale = scale;
  }
  const CaseCommon& common() const override { return c_; }
  const FractionalStepConfig& config() const { return c_; }

  void set_side(Side side, const SideCondition&) override {
    throw CaseError(std::string("boundaries.") + side_name(side) +
                    ": the fractional_step model's sides are periodic and have no values to change");
  }

  std::vector<std::string> field_names() const override { return projection::field_names(); }
  FieldSnapshot field(const std::string& name) override { return projection::derived_field(host_state(), name); }

  void set_field(const FieldSnapshot& f) override {
    if (f.name != "p") throw CaseError("field '" + f.name + "' is computed from the state and cannot be set; only 'p' can");
    std::vector<Real> host = p_.download();
    for (int j = 1; j <= g_.ny; ++j)
      for (int i = 1; i <= g_.nx; ++i) host[g_.at(i, j)] = Real(f.get(i, j) / c_.rho);
    p_.upload(host);
  }

  Diagnostics diagnostics() override {
    Diagnostics d;
    d.step = steps_;
    d.time = time_;
    d.dt = dt();
    const projection::HostState hs = host_state();
    projection::fill_flow_diagnostics(hs, d);  // kinetic_energy, max_speed, max_divergence
    double m = 0;
    for (int j = 1; j <= g_.ny; ++j)
      for (int i = 1; i <= g_.nx; ++i)
        m = std::max(m, std::abs(hs.u[g_.at(i, j)]) / g_.dx + std::abs(hs.v[g_.at(i, j)]) / g_.dy);
    d.add("cfl", m * dt());
    d.add("pressure_iterations", last_solve_.iterations, true);
    d.add("pressure_residual", last_solve_.residual);
    return d;
  }

  Forces forces(int) override { throw CaseError("the fractional_step model has no obstacles to take forces on"); }

  std::string plan() const override { return describe_plan(c_, Exec::name, pressure_->describe(), plan_); }
  std::string backend_name() const override { return Exec::name; }

  SolverState save_state() override {
    SolverState st;
    const char* names[D] = {"u", "v"};
    for (int a = 0; a < D; ++a) {
      save_array(st, names[a], vel_[a]);
      save_array(st, std::string("R_") + names[a], hist_[a]);
    }
    save_array(st, "p", p_);
    st.scalars = {{"step", double(steps_)}, {"time", time_},          {"dt", dt_},
                  {"dt_prev", dt_prev_},    {"dt_cap", dt_cap_}};
    return st;
  }
  void restore_state(const SolverState& st) override {
    const char* names[D] = {"u", "v"};
    for (int a = 0; a < D; ++a) {
      restore_array(st, names[a], vel_[a]);
      restore_array(st, std::string("R_") + names[a], hist_[a]);
    }
    restore_array(st, "p", p_);
    steps_ = long(st.scalar("step"));
    time_ = st.scalar("time");
    dt_ = st.scalar("dt");
    dt_prev_ = st.scalar("dt_prev");
    dt_cap_ = st.scalar("dt_cap");
  }

 private:
  Neighbours neighbours() const { return Neighbours{g_.nx, g_.ny, true, true}; }

  State<D, Real> state() {
    State<D, Real> s{};
    for (int a = 0; a < D; ++a) {
      s.vel[a] = vel_[a].data();
      s.star[a] = star_[a].data();
      s.hist[a] = hist_[a].data();
    }
    s.p = p_.data();
    s.rhs = rhs_.data();
    s.n[0] = g_.nx;
    s.n[1] = g_.ny;
    s.stride[0] = 1;
    s.stride[1] = std::size_t(g_.nx + 2);
    const double h[D] = {g_.dx, g_.dy};
    for (int a = 0; a < D; ++a) {
      s.inv_h[a] = Real(1 / h[a]);
      s.inv_h2[a] = Real(1 / (h[a] * h[a]));
    }
    return s;
  }

  double peek_dt() const {
    if (c_.time.dt > 0) return dt_cap_ > 0 ? std::min(c_.time.dt, dt_cap_) : c_.time.dt;
    return 0;
  }

  // max sum_a |u_a| / h_a: one scalar copied back; a non-finite velocity is a blow-up.
  double convective_rate() {
    const double inv_t = Exec::reduce_max(1, g_.nx, 1, g_.ny, InverseConvectiveTime<D, Real>{state()});
    if (!std::isfinite(inv_t)) blow_up("velocity is not finite");
    return inv_t;
  }

  double dt_from(double inv_t) const {
    double dt = c_.time.dt > 0 ? c_.time.dt : stable_dt(c_, inv_t);
    if (dt_cap_ > 0) dt = std::min(dt, dt_cap_);
    return dt;
  }

  // A fixed dt still checks the velocity every 16 steps, so a blow-up is caught early.
  double next_dt() {
    if (c_.time.dt <= 0 || steps_ % 16 == 0) return dt_from(convective_rate());
    return dt_from(0);
  }

  void predictor() {
    const Ab2Weights w = Ab2Weights::for_step(steps_, dt_, dt_prev_);
    const State<D, Real> s = state();
    const std::string& v = plan_.variant("momentum");
    auto run = [&](auto scheme) {
      constexpr int k = decltype(scheme)::value;
      Exec::for_each(1, g_.nx, 1, g_.ny,
                     Predictor<D, k, Real>{s, Real(c_.nu), Real(dt_), Real(w.now), Real(w.before),
                                           c_.advection == FsAdvection::Quick});
    };
    if (v == "quick") run(std::integral_constant<int, kQuick>{});
    else if (v == "central") run(std::integral_constant<int, kCentral>{});
    else run(std::integral_constant<int, kRuntime>{});
  }

  void run_rhs(double dt) { Exec::for_each(1, g_.nx, 1, g_.ny, PressureRhs<D, Real>{state(), Real(1 / dt)}); }

  PoissonView<Real> poisson_view() {
    return PoissonView<Real>{p_.data(), rhs_.data(), flag_array_.data(), neighbours(), Real(1 / (g_.dx * g_.dx)),
                             Real(1 / (g_.dy * g_.dy))};
  }

  void solve_pressure() {
    last_solve_ = pressure_->solve(poisson_view());
    if (!std::isfinite(last_solve_.residual)) blow_up("pressure solve diverged");
  }

  void run_correction(double dt) {
    const Correction<D, Real> corr{state(), Real(dt)};
    Exec::for_each(1, g_.nx, 1, g_.ny, Dropped<Correction<D, Real>>{corr});
  }

  void upload(const std::vector<double>& values, DeviceArray<Exec, Real>& a) {
    if (values.empty()) { a.fill(Real(0)); return; }
    a.upload(std::vector<Real>(values.begin(), values.end()));
  }

  void scale_pressure(double f) {
    std::vector<Real> h = p_.download();
    for (Real& x : h) x = Real(x * f);
    p_.upload(h);
  }

  // Periodic ghosts filled on the host copy, so the projection model's derived fields
  // (cell-centred velocities, vorticity, divergence) read the wrapped neighbours.
  std::vector<double> host_copy(const DeviceArray<Exec, Real>& a) const {
    const std::vector<Real> r = a.download();
    std::vector<double> h(r.begin(), r.end());
    for (int j = 1; j <= g_.ny; ++j) {
      h[g_.at(0, j)] = h[g_.at(g_.nx, j)];
      h[g_.at(g_.nx + 1, j)] = h[g_.at(1, j)];
    }
    for (int i = 0; i <= g_.nx + 1; ++i) {
      h[g_.at(i, 0)] = h[g_.at(i, g_.ny)];
      h[g_.at(i, g_.ny + 1)] = h[g_.at(i, 1)];
    }
    return h;
  }

  projection::HostState host_state() const {
    projection::HostState h;
    h.grid = g_;
    h.nb = neighbours();
    h.u = host_copy(vel_[0]);
    h.v = host_copy(vel_[1]);
    h.p = host_copy(p_);
    double sum = 0;  // p is defined up to a constant: show the one with zero mean
    for (int j = 1; j <= g_.ny; ++j)
      for (int i = 1; i <= g_.nx; ++i) sum += h.p[g_.at(i, j)];
    const double mean = sum / double(g_.cells());
    for (double& x : h.p) x -= mean;
    h.flags = &flags_.flags;
    h.rho = c_.rho;
    h.nu = c_.nu;
    return h;
  }

  [[noreturn]] void blow_up(const char* what) {
    const projection::HostState h = host_state();
    int bi = 0, bj = 0;
    for (int j = 1; j <= g_.ny && !bi; ++j)
      for (int i = 1; i <= g_.nx; ++i)
        if (!std::isfinite(h.u[g_.at(i, j)]) || !std::isfinite(h.v[g_.at(i, j)]) || !std::isfinite(h.p[g_.at(i, j)])) {
          bi = i;
          bj = j;
          break;
        }
    std::ostringstream msg;
    msg << what << " at step " << steps_ + 1 << ", t = " << time_;
    if (bi) msg << ", first in cell (" << bi << ", " << bj << ") at x = " << g_.xc(bi) << ", y = " << g_.yc(bj);
    msg << " (dt = " << dt_ << "); try a smaller time.cfl or time.dt, or a finer grid";
    throw BlowUp(msg.str(), steps_ + 1, time_, bi, bj);
  }

  FractionalStepConfig c_;
  FlagReport flags_;
  Grid g_;
  std::size_t n_;
  std::array<DeviceArray<Exec, Real>, D> vel_, star_, hist_;
  DeviceArray<Exec, Real> p_, rhs_;
  DeviceArray<Exec, CellFlags> flag_array_;
  std::unique_ptr<PressureSolver<Exec, Real>> pressure_;
  KernelPlan plan_;
  SolveReport last_solve_;
  long steps_ = 0;
  double time_ = 0, dt_ = 0, dt_prev_ = 0, dt_cap_ = 0;
};

}  // namespace flowlua::fractional_step
