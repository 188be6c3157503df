// The stream function-vorticity model with Boussinesq heat transport (seed 000) on
// one backend and one precision. Each step:
//   1. dt from the convective (CFL) and diffusive limits, and for central and
//      second-order upwind convection the cell-Peclet limit of forward Euler;
//   2. explicit transport of w and T at the interior nodes (transport.hpp), or with
//      time.scheme = 'adi' Peaceman-Rachford ADI along the grid lines (adi.hpp; dt
//      then from the CFL number only);
//   3. -lap psi = w with Dirichlet psi on walls and inflows, Neumann on an outflow,
//      solved by the project's Poisson solvers (make_pressure_solver), starting from
//      psi extrapolated linearly in time (cuts Jacobi-CG from ~85 to ~6 iterations a
//      step on the 64^2 cavity at Re 1000);
//   4. boundary vorticity by Thom's formula and boundary temperatures (wall_vorticity.hpp),
//      on the bodies too (body_device.hpp, bodies.hpp: psi_B of each free body from the
//      single-valued pressure around it, Kelvin's theorem on a box: a correction by
//      precomputed harmonic fields after the solve).
// The state stays in backend memory; the host sees it only through snapshots.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "backend/device_array.hpp"
#include "core/error.hpp"
#include "linalg/solver_factory.hpp"
#include "linalg/tridiagonal/line_batch.hpp"
#include "linalg/tridiagonal/solve_cpu.hpp"  // LineSolver<CpuExec>; the CUDA one comes with solve_cuda.cuh
#include "linalg/tridiagonal/tridiagonal_kernels.hpp"
#include "models/psi_omega/adi.hpp"
#include "models/psi_omega/body_device.hpp"
#include "models/psi_omega/psi_omega_setup.hpp"
#include "models/psi_omega/stream_boundary.hpp"
#include "models/psi_omega/stream_lines.hpp"
#include "models/psi_omega/transport.hpp"
#include "models/psi_omega/psi_omega_kernels.hpp"
#include "models/psi_omega/wall_vorticity.hpp"
#include "sim/solver.hpp"

namespace flowlua::psi_omega {

template <class Exec, class Real>
class PsiOmegaSolver final : public Solver {
 public:
  explicit PsiOmegaSolver(const PsiOmegaConfig& config)
      : c_(config), setup_(prepare(c_)), nx_(setup_.nodes.nx), ny_(setup_.nodes.ny), n_(setup_.nodes.size()),
        heat_(c_.heat.enabled), psi_(n_), psi_prev_(n_), w_(n_), w2_(n_), rhs_(n_), psib_(n_), T_(heat_ ? n_ : 0),
        T2_(heat_ ? n_ : 0), flags_(n_), side_len_(std::max(nx_, ny_) + 2), sides_(8 * side_len_),
        adi_(c_.time.scheme == TimeScheme::Adi), star_(adi_ ? n_ : 0),
        line_scratch_(adi_ ? line_scratch_size() : 0) {
    flags_.upload(setup_.flags);
    if (setup_.bodies.any()) bodies_ = std::make_unique<BodyDevice<Exec, Real>>(setup_.bodies, n_);
    for (auto* a : {&psi_, &w_, &w2_, &rhs_, &psib_}) a->fill(Real(0));
    if (heat_) {
      if (c_.heat.T0.empty()) T_.fill(Real(0));
      else T_.upload(std::vector<Real>(c_.heat.T0.begin(), c_.heat.T0.end()));
      T2_.fill(Real(0));
    }
    for (Side s : kSides) upload_side(s);
    upload_stream_boundary();
    const bool stream_lines = c_.pressure.solver == PressureSolverKind::LineAdi;
    plan_ = kernel_registry(adi_, stream_lines).plan(kernel_key(c_, Exec::name), c_.kernels);
    if (adi_ || stream_lines) {
      lines_x_ = tridiag::algorithm_named(plan_.variant("lines_x"));
      lines_y_ = tridiag::algorithm_named(plan_.variant("lines_y"));
    }
    if (adi_) side_speed_ = max_side_speed();
    const std::string& tv = adi_ ? std::string("any_scheme") : plan_.variant("transport");
    transport_ = tv == "upwind"    ? ScalarAdvection::Upwind
                 : tv == "central" ? ScalarAdvection::Central
                 : tv == "upwind2" ? ScalarAdvection::Upwind2
                                   : kRunTimeScheme;
    if (stream_lines)
      stream_lines_ = std::make_unique<StreamLines<Exec, Real>>(c_.pressure, nx_, ny_, c_.grid.dx, c_.grid.dy,
                                                                setup_.outflow_side, lines_x_, lines_y_);
    else
      pressure_ = make_pressure_solver<Exec, Real>(
          c_.pressure, PoissonProblem{setup_.nodes, Neighbours{nx_, ny_, false, false}, setup_.flags});
    if (bodies_ && bodies_->has_free()) {
      bodies_->harmonics(state(), psib_.data(), flags_.data(), setup_.nodes, setup_.flags, setup_.outflow_side,
                         c_.nu);
      upload_stream_boundary();
    }
    solve_stream();
    Exec::synchronize();
    psi_prev_.upload(psi_.download());
    boundary_values();
  }

  void step() override {
    const State<Real> s = state();
    // 1. Time step.
    const bool central = c_.psi_omega.advection != ScalarAdvection::Upwind;
    double inv_t = 0, speed2 = 0;
    if (c_.time.dt <= 0 || steps_ % 16 == 0) {
      inv_t = Exec::reduce_max(1, nx_, 1, ny_, InverseConvectiveTime<Real>{s});
      if (!std::isfinite(inv_t)) blow_up("velocity is not finite");
      if (c_.time.dt <= 0 && central && !adi_) speed2 = Exec::reduce_max(1, nx_, 1, ny_, SpeedSquared<Real>{s});
    }
    dt_ = next_dt(inv_t, speed2);
    if (bodies_ && bodies_->has_free()) bodies_->kelvin_target(s, c_.nu, dt_);
    // 2. Transport.
    TransportParams<Real> m{Real(dt_), Real(c_.nu), Real(c_.heat.kappa), Real(c_.heat.beta),
                            Real(c_.gx), Real(c_.gy), int(c_.psi_omega.advection)};
    if (adi_) adi_transport(s);
    else switch (transport_) {  // the plan's variant: the scheme compiled in, or chosen at run time
      case ScalarAdvection::Upwind: transport<int(ScalarAdvection::Upwind)>(s, m); break;
      case ScalarAdvection::Central: transport<int(ScalarAdvection::Central)>(s, m); break;
      case ScalarAdvection::Upwind2: transport<int(ScalarAdvection::Upwind2)>(s, m); break;
      default: transport<kAnyScheme>(s, m);
    }
    std::swap(w_, w2_);
    if (heat_) std::swap(T_, T2_);
    // 3. Stream function; 4. boundary values.
    Exec::for_each(1, nx_, 1, ny_, ExtrapolateGuess<Real>{state(), psi_prev_.data()});
    solve_stream();
    if (!std::isfinite(last_solve_.residual)) blow_up("stream-function solve diverged");
    boundary_values();
    time_ += dt_;
    ++steps_;
  }

  long steps() const override { return steps_; }
  double time() const override { return time_; }
  double dt() const override { return dt_; }
  void limit_next_dt(double max_dt) override { dt_cap_ = max_dt; }
  void steady_sample(SteadySample& out) override { fill_steady_sample(host_nodes(), out); }
  double poisson_tolerance() const override { return c_.pressure.tol; }
  // ADI steps are 10-100 times the explicit ones: the steady test compares over 50 of
  // them (the run loop's 500 would be t = 50 apart at dt = 0.1 on the Re 1000 cavity).
  double steady_interval_steps() const override { return adi_ ? 50 : 0; }
  const CaseCommon& common() const override { return c_; }
  const PsiOmegaConfig& config() const { return c_; }

  void set_side(Side side, const SideCondition& sc) override {
    check_side(c_, side, sc);
    c_.boundaries[int(side)] = sc;
    upload_side(side);
    upload_stream_boundary();
    Exec::for_each(0, std::max(nx_, ny_) + 1, 0, 0, StreamRing<Real>{state(), setup_.outflow_side, true});
    boundary_values();
  }

  std::vector<std::string> field_names() const override { return psi_omega::field_names(heat_); }
  // psi and omega are the same arrays as stream and vorticity: written once.
  std::vector<std::string> output_field_names() const override {
    std::vector<std::string> names;
    for (auto& n : field_names())
      if (n != "psi" && n != "omega") names.push_back(n);
    return names;
  }
  FieldSnapshot field(const std::string& name) override {
    HostNodes h = host_nodes();
    return node_field(h, name);
  }
  void set_field(const FieldSnapshot& f) override {
    throw CaseError("field '" + f.name + "' cannot be set in the psi_omega model: its fields live on the "
                    "grid nodes and are computed from psi, omega and T; start from initial = { T = ... }");
  }

  Diagnostics diagnostics() override {
    Diagnostics d;
    d.step = steps_;
    d.time = time_;
    d.dt = dt_;
    HostNodes h = host_nodes();
    fill_diagnostics(h, d);  // kinetic_energy, max_speed, stream_min/max, dTdn_<side>
    const State<Real> s = state();
    d.add("cfl", Exec::reduce_max(1, nx_, 1, ny_, InverseConvectiveTime<Real>{s}) * dt_);
    d.add("pressure_iterations", last_solve_.iterations, true);
    d.add("pressure_residual", last_solve_.residual);
    return d;
  }

  Forces forces(int k) override {
    if (!bodies_) throw CaseError("sim:forces: this simulation has no obstacles");
    HostNodes h = host_nodes();
    const std::vector<Real> prev = psi_prev_.download();
    return body_forces(setup_.bodies, setup_.nodes, c_.nu, h.psi, h.w, std::vector<double>(prev.begin(), prev.end()),
                       steps_ > 0 ? dt_ : 0.0, k);
  }
  std::string plan() const override {
    return describe_plan(c_, setup_, Exec::name, stream_lines_ ? stream_lines_->describe() : pressure_->describe()) +
           "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n" + plan_.describe();
  }
  std::string backend_name() const override { return Exec::name; }

  // Every node array (the previous psi is the next solve's extrapolated first guess),
  // the side data and the step's scalars.
  SolverState save_state() override {
    SolverState st;
    const std::pair<const char*, DeviceArray<Exec, Real>*> arrays[] = {
        {"psi", &psi_}, {"psi_prev", &psi_prev_}, {"omega", &w_}, {"omega_next", &w2_}, {"rhs", &rhs_},
        {"psi_boundary", &psib_}, {"T", &T_}, {"T_next", &T2_}};
    const std::size_t rows = std::size_t(ny_) + 2, cols = std::size_t(nx_) + 2;
    for (const auto& [name, a] : arrays)
      save_array(st, name, *a, rows, cols,
                 "[j][i]: grid node (i, j), i = 0..nx, j = 0..ny (the boundary ring included)");
    save_array(st, "sides", sides_, 8, std::size_t(side_len_),
               "[2 k + c][s]: side k (left, right, bottom, top), c = 0 tangential velocity, 1 T data, at node s");
    for (Side sd : kSides) {
      const SideCondition& sc = c_.boundaries[int(sd)];
      st.arrays.push_back({std::string("side_normal_") + side_name(sd), false, sc.normal, 0, 0, "normal velocity"});
      st.arrays.push_back({std::string("side_tangential_") + side_name(sd), false, sc.tangential, 0, 0,
                           "tangential velocity"});
      st.arrays.push_back({std::string("side_T_") + side_name(sd), false, sc.T.values, 0, 0, "temperature data"});
    }
    st.scalars = {{"step", double(steps_)}, {"time", time_}, {"dt", dt_}, {"dt_cap", dt_cap_},
                  {"pressure_iterations", double(last_solve_.iterations)},
                  {"pressure_residual", last_solve_.residual}};
    if (stream_lines_) st.scalars.push_back({"stream_lines_cycle", double(stream_lines_->cycle_position())});
    if (bodies_) bodies_->save(st);
    return st;
  }

  void restore_state(const SolverState& st) override {
    const std::pair<const char*, DeviceArray<Exec, Real>*> arrays[] = {
        {"psi", &psi_}, {"psi_prev", &psi_prev_}, {"omega", &w_}, {"omega_next", &w2_}, {"rhs", &rhs_},
        {"psi_boundary", &psib_}, {"T", &T_}, {"T_next", &T2_}, {"sides", &sides_}};
    for (const auto& [name, a] : arrays) restore_array(st, name, *a);
    for (Side sd : kSides) {
      SideCondition& sc = c_.boundaries[int(sd)];
      sc.normal = st.array(std::string("side_normal_") + side_name(sd)).values;
      sc.tangential = st.array(std::string("side_tangential_") + side_name(sd)).values;
      sc.T.values = st.array(std::string("side_T_") + side_name(sd)).values;
    }
    steps_ = long(st.scalar("step"));
    time_ = st.scalar("time");
    dt_ = st.scalar("dt");
    dt_cap_ = st.scalar("dt_cap");
    last_solve_.iterations = int(st.scalar("pressure_iterations"));
    last_solve_.residual = st.scalar("pressure_residual");
    if (stream_lines_)
      for (const auto& [name, v] : st.scalars)
        if (name == "stream_lines_cycle") stream_lines_->set_cycle_position(long(v));
    if (bodies_) bodies_->restore(st);
  }

  // For tests: the node arrays as they are now (ring included).
  HostNodes host_nodes() const {
    HostNodes h;
    h.config = &c_;
    h.setup = &setup_;
    auto down = [](const DeviceArray<Exec, Real>& a) {
      std::vector<Real> v = a.download();
      return std::vector<double>(v.begin(), v.end());
    };
    h.psi = down(psi_);
    h.w = down(w_);
    if (heat_) h.T = down(T_);
    return h;
  }

 private:
  // Peaceman-Rachford ADI (adi.hpp) for w, then T (w's buoyancy reads T^n): phi -> star_
  // implicit along x, star_ -> next implicit along y; the rings of star_ and next start
  // as phi's (the step's boundary values).
  void adi_transport(const State<Real>& s) {
    const int scheme = int(c_.psi_omega.advection);
    const bool buoyancy = heat_ && c_.heat.beta != 0 && (c_.gx != 0 || c_.gy != 0);
    adi_field(s, w_, w2_, AdiParams<Real>{Real(dt_ / 2), Real(c_.nu), Real(c_.heat.beta), Real(c_.gx), Real(c_.gy),
                                          buoyancy, scheme});
    if (heat_)
      adi_field(s, T_, T2_, AdiParams<Real>{Real(dt_ / 2), Real(c_.heat.kappa), 0, 0, 0, false, scheme});
  }

  void adi_field(const State<Real>& s, DeviceArray<Exec, Real>& phi, DeviceArray<Exec, Real>& next,
                 const AdiParams<Real>& m) {
    Exec::copy(star_.data(), phi.data(), n_);
    Exec::copy(next.data(), phi.data(), n_);
    const long pitch = nx_ + 2;
    const auto bx = tridiag::field_lines(tridiag::LineDir::X, nx_, ny_, pitch, pitch + 1);
    const auto by = tridiag::field_lines(tridiag::LineDir::Y, nx_, ny_, pitch, pitch + 1);
    tridiag::LineSolver<Exec>::solve(lines_x_, bx, AdiRows<Real, true>{s, phi.data(), star_.data(), m},
                                     line_scratch_.data());
    tridiag::LineSolver<Exec>::solve(lines_y_, by, AdiRows<Real, false>{s, star_.data(), next.data(), m},
                                     line_scratch_.data());
  }

  // The wall vorticity lags the implicit interior by a step; beyond r = nu dt (1/dx^2 +
  // 1/dy^2) of about 1 that feedback grows (measured on the cavity: stable at r = 1,
  // blow-up at r = 2.5; E & Liu, J. Comput. Phys. 124 (1996), on Thom's formula with
  // implicit diffusion), so ADI under-relaxes it: w_wall = a Thom + (1 - a) w_wall_old
  // with a = min(1, 1 / r). Explicit steps (r <= 1/2) and small ADI steps keep a = 1.
  double wall_relaxation() const {
    if (!adi_ || dt_ <= 0) return 1;
    const Grid& g = c_.grid;
    const double r = c_.nu * dt_ * (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy));
    return r > 1 ? 1 / r : 1;
  }

  // Scratch for either direction's line solve (linalg/tridiagonal).
  std::size_t line_scratch_size() const {
    const long pitch = nx_ + 2;
    return std::size_t(std::max(tridiag::solve_scratch(tridiag::field_lines(tridiag::LineDir::X, nx_, ny_, pitch)),
                                tridiag::solve_scratch(tridiag::field_lines(tridiag::LineDir::Y, nx_, ny_, pitch))));
  }

  // The largest velocity the sides impose: with the fluid at rest it sets the first ADI steps.
  double max_side_speed() const {
    double m = 0;
    for (Side sd : kSides) {
      for (double v : c_.boundaries[int(sd)].tangential) m = std::max(m, std::abs(v));
      for (double v : c_.boundaries[int(sd)].normal) m = std::max(m, std::abs(v));
    }
    return m;
  }

  template <int kScheme>
  void transport(const State<Real>& s, const TransportParams<Real>& m) {
    const TransportStage<Real, kScheme> ts{s, m};
    Exec::for_each(1, nx_, 1, ny_, DropValue<TransportStage<Real, kScheme>>{ts});
  }

  State<Real> state() {
    State<Real> s{psi_.data(), w_.data(), heat_ ? T_.data() : nullptr, w2_.data(),
                  heat_ ? T2_.data() : nullptr, rhs_.data(), psib_.data(), nx_, ny_,
                  Real(c_.grid.dx), Real(c_.grid.dy)};
    s.body = bodies_ ? bodies_->info() : nullptr;
    return s;
  }

  SideData<Real> side_data() {
    SideData<Real> b;
    for (int k = 0; k < 4; ++k) {
      b.tangential[k] = sides_.data() + (2 * k) * side_len_;
      b.scalar[k] = sides_.data() + (2 * k + 1) * side_len_;
      b.kind[k] = side_kind(c_.boundaries[k]);
      b.scalar_kind[k] = scalar_kind(c_.boundaries[k]);
    }
    return b;
  }

  double next_dt(double inv_t, double speed2) const {
    double dt = c_.time.dt;
    if (dt <= 0 && adi_) {
      // ADI is stable beyond the diffusion limit: dt = cfl / (|u|/dx + |v|/dy), the
      // speed at least what the sides impose; the diffusive limit only while nothing moves.
      const Grid& g = c_.grid;
      const double inv = std::max(inv_t, side_speed_ / std::min(g.dx, g.dy));
      const double D = heat_ ? std::max(c_.nu, c_.heat.kappa) : c_.nu;
      dt = c_.time.cfl / (inv > 0 ? inv : 2 * D * (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy)));
    } else if (dt <= 0) {
      const Grid& g = c_.grid;
      const double d_max = heat_ ? std::max(c_.nu, c_.heat.kappa) : c_.nu;
      const double d_min = heat_ ? std::min(c_.nu, c_.heat.kappa) : c_.nu;
      const double inv_diff = 2 * d_max * (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy));
      if (c_.psi_omega.advection == ScalarAdvection::Upwind) {
        dt = 1 / (inv_t + inv_diff);  // forward-Euler upwind stays monotone (positive coefficients)
      } else {
        dt = 1 / std::max(inv_t, inv_diff);
        // Forward Euler with central (or second-order upwind) convection is stable for
        // dt <= 2 D / |u|^2 (Hindmarsh, Gresho & Griffiths 1984), D the smaller diffusivity.
        if (speed2 > 0 && d_min > 0) dt = std::min(dt, 2 * d_min / speed2);
      }
      dt *= c_.time.cfl;
    }
    if (dt_cap_ > 0) dt = std::min(dt, dt_cap_);
    return dt;
  }

  void solve_stream() {
    const State<Real> s = state();
    const int ring = std::max(nx_, ny_) + 1;
    Exec::for_each(1, nx_, 1, ny_, StreamRhs<Real>{s});
    Exec::for_each(0, ring, 0, 0, StreamRing<Real>{s, setup_.outflow_side, false});
    PoissonView<Real> pv{psi_.data(), rhs_.data(), flags_.data(), Neighbours{nx_, ny_, false, false},
                         Real(1 / (c_.grid.dx * c_.grid.dx)), Real(1 / (c_.grid.dy * c_.grid.dy))};
    if (bodies_) bodies_->stream(s, psib_.data(), false);
    last_solve_ = stream_lines_ ? stream_lines_->solve(s) : pressure_->solve(pv);
    Exec::for_each(0, ring, 0, 0, StreamRing<Real>{s, setup_.outflow_side, true});
    if (bodies_) {
      bodies_->stream(s, psib_.data(), true);
      if (bodies_->has_free()) bodies_->correct(s, psib_.data(), c_.nu);
    }
  }

  void boundary_values() {
    const State<Real> s = state();
    const SideData<Real> b = side_data();
    Exec::for_each(1, std::max(nx_, ny_), 0, 0,
                   BoundaryValues<Real>{s, b, c_.psi_omega.wall == WallVorticity::Jensen, Real(wall_relaxation())});
    Exec::for_each(0, 3, 0, 0, BoundaryCorners<Real>{s, b});
    if (bodies_) bodies_->values(s, Real(wall_relaxation()), c_.psi_omega.wall == WallVorticity::Jensen);
  }

  void upload_side(Side side) {
    const SideCondition& sc = c_.boundaries[int(side)];
    const int nodes = (side == Side::Left || side == Side::Right) ? ny_ + 2 : nx_ + 2;
    std::vector<double> t = side_tangential(sc, nodes), q = side_scalar(sc, nodes);
    std::vector<Real> tr(side_len_, Real(0)), qr(side_len_, Real(0));
    for (int k = 0; k < nodes; ++k) { tr[k] = Real(t[k]); qr[k] = Real(q[k]); }
    Exec::upload(sides_.data() + 2 * int(side) * side_len_, tr.data(), side_len_);
    Exec::upload(sides_.data() + (2 * int(side) + 1) * side_len_, qr.data(), side_len_);
  }

  void upload_stream_boundary() {
    std::vector<double> pb = boundary_stream(c_, setup_);
    psib_.upload(std::vector<Real>(pb.begin(), pb.end()));
    if (bodies_) bodies_->follow_sides(state(), psib_.data(), pb);
  }

  [[noreturn]] void blow_up(const char* what) {
    std::ostringstream msg;
    msg << what << " at step " << steps_ + 1 << ", t = " << time_ << " (dt = " << dt_
        << "); try a smaller time.cfl or time.dt, a finer grid, or kernels = { advection = 'upwind' }";
    throw BlowUp(msg.str(), steps_ + 1, time_, 0, 0);
  }

  PsiOmegaConfig c_;
  Setup setup_;
  int nx_, ny_;
  std::size_t n_;
  bool heat_;
  DeviceArray<Exec, Real> psi_, psi_prev_, w_, w2_, rhs_, psib_, T_, T2_;
  DeviceArray<Exec, CellFlags> flags_;
  int side_len_;
  DeviceArray<Exec, Real> sides_;  // tangential velocity and T data of the four sides
  bool adi_;
  DeviceArray<Exec, Real> star_, line_scratch_;  // ADI: the half-step field, the line solvers' scratch
  tridiag::Algorithm lines_x_ = tridiag::Algorithm::Thomas, lines_y_ = tridiag::Algorithm::Thomas;
  double side_speed_ = 0;
  std::unique_ptr<PressureSolver<Exec, Real>> pressure_;  // or, with pressure.solver = 'adi':
  std::unique_ptr<StreamLines<Exec, Real>> stream_lines_;
  KernelPlan plan_;
  static constexpr ScalarAdvection kRunTimeScheme = ScalarAdvection(-1);  // the any_scheme variant
  ScalarAdvection transport_ = kRunTimeScheme;
  long steps_ = 0;
  double time_ = 0, dt_ = 0, dt_cap_ = 0;
  SolveReport last_solve_;
  std::unique_ptr<BodyDevice<Exec, Real>> bodies_;  // obstacles (body_device.hpp); null without
};

}  // namespace flowlua::psi_omega
