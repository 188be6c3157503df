// The fractional-step model (seed 004, Costarelli et al.) on one backend and one
// precision, in 2D (D = 2) or 3D (D = 3): per axis periodic, or sides that are walls
// (no-slip, moving, slip), inflow or outflow; obstacle cells. Each step:
//   1. dt: fixed, or cfl * min(convective limit 1 / max sum_a |u_a| / h_a, the
//      diffusive limit of AB2 1 / (4 nu sum_a 1 / h_a^2)): one scalar copied back;
//   2. predictor: R(u^n) with QUICK or central fluxes and u* by AB2 (forward Euler on
//      the first step), R(u^n) kept as the next step's history (seed eq. 5-6, 10-12);
//      with sides: their values on u*'s boundary faces, the outflow faces' u* copied
//      from the first interior ones (fs_sides.hpp);
//   3. rhs = div u* / dt and lap (p / rho) = rhs (seed eq. 4; FFT direct, PCG or
//      multigrid);
//   4. u^{n+1} = u* - dt grad (p / rho) (seed eq. 17) on the open faces;
//   5. with sides: the ghost layers refilled (core/ghost_fill.hpp) and the outflow
//      faces corrected (fs_outflow.hpp).
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
#include "models/fractional_step/fs_diagnostics.hpp"
#include "models/fractional_step/fs_diffusion.hpp"
#include "models/fractional_step/fs_fields3.hpp"
#include "models/fractional_step/fs_kernels.hpp"
#include "models/fractional_step/fs_momentum.hpp"
#include "models/fractional_step/fs_projection.hpp"
#include "models/fractional_step/fs_side_flux.hpp"
#include "models/fractional_step/fs_sides.hpp"
#include "models/projection/derived_fields.hpp"
#include "sim/memory_check.hpp"
#include "sim/solver.hpp"

namespace flowlua::fractional_step {

// Host-side checks and flags (fs_setup.cpp): the 2D box, or the 3D box.
FlagReport prepare(const FractionalStepConfig& c);
FlagReport prepare3(const FractionalStepConfig& c);
// Whether the 3D box's axis a (0 x, 1 y, 2 z) is periodic (else it has other sides).
bool periodic_axis3(const FractionalStepConfig& c, int a);
// Whether a side may take new values `sc` (inflow functions of time): the same kind,
// one finite value per boundary cell, no net inflow without an outflow side.
void check_side_update(const FractionalStepConfig& c, Side side, const SideCondition& sc);
// Component a's initial values (grid layout) with the faces beside obstacle cells at 0.
void zero_body_faces(const FractionalStepConfig& c, const FlagReport& flags, int a, std::vector<double>& v);
// CaseError, before anything is allocated, when `cells` (ghosts included) of the model's
// arrays do not fit in the device's free memory (cuda) or the host's.
void check_memory(std::size_t cells, int dims, std::size_t real_size, bool cuda, int nx, int ny, int nz);
// A 2D host copy with the ghosts of the periodic axes wrapped, so the projection
// model's derived fields (cell-centred velocities, vorticity, divergence) read the
// wrapped neighbours; the other sides' ghosts are the solver's own.
void wrap_periodic_ghosts(const Grid& g, bool px, bool py, std::vector<double>& h);
// ", first in cell (i, j[, k]) at x = ..." for the first interior cell where one of
// `arrays` (the case's grid layout) is not finite, and that cell (1-based) in `cell`;
// "" and zeros when every value is finite.
std::string first_non_finite(const FractionalStepConfig& c, const std::vector<std::vector<double>>& arrays,
                             int* cell);
std::string describe_plan(const FractionalStepConfig& c, const char* backend, const std::string& pressure_solver,
                          const KernelPlan& plan, const FlagReport& flags);
// The time step for an inverse convective time inv_t (fs_setup.cpp).
double stable_dt(const FractionalStepConfig& c, double inv_t);

template <class Exec, class Real, int D = 2>
class FractionalStepSolver final : public Solver {
  static_assert(D == 2 || D == 3);
  using GridT = std::conditional_t<D == 2, Grid, Grid3>;

 public:
  explicit FractionalStepSolver(const FractionalStepConfig& config)
      : c_(config),
        flags_(D == 2 ? prepare(c_) : prepare3(c_)),
        g_(grid_of(c_)),
        n_(checked_size(g_)),
        p_(n_),
        rhs_(n_),
        flag_array_(n_) {
    for (int a = 0; a < D; ++a) periodic_[a] = boundaries()[2 * a].kind == BoundaryKind::Periodic;
    for (int a = 0; a < D; ++a) walls_ = walls_ || !periodic_[a];
    bodies_ = flags_.fluid_cells < g_.cells();
    if (walls_)
      sides_ = std::make_unique<BoxSides<D, Exec, Real>>(g_, boundaries(), c_.diffusion == FsDiffusion::CrankNicolson);
    if (c_.diffusion == FsDiffusion::CrankNicolson)
      for (int a = 0; a < D; ++a)
        for (auto* v : {&cg_r_[a], &cg_p_[a], &cg_q_[a]}) {
          *v = DeviceArray<Exec, Real>(n_);
          v->fill(Real(0));
        }
    for (int a = 0; a < D; ++a) {
      vel_[a] = DeviceArray<Exec, Real>(n_);
      star_[a] = DeviceArray<Exec, Real>(n_);
      hist_[a] = DeviceArray<Exec, Real>(n_);
      star_[a].fill(Real(0));
      hist_[a].fill(Real(0));
    }
    flag_array_.upload(flags_.flags);
    const std::vector<double>* initial[3] = {&c_.u0, &c_.v0, &c_.w0};
    for (int a = 0; a < D; ++a) {
      if (!bodies_ || initial[a]->empty()) {
        upload(*initial[a], vel_[a]);
        continue;
      }
      std::vector<double> v = *initial[a];  // at rest on the obstacles' faces
      zero_body_faces(c_, flags_, a, v);
      upload(v, vel_[a]);
    }
    fill_walls();
    rhs_.fill(Real(0));
    p_.fill(Real(0));
    if constexpr (D == 2)
      pressure_ = make_pressure_solver<Exec, Real>(c_.pressure, PoissonProblem{g_, neighbours(), flags_.flags});
    else
      pressure_ = make_pressure_solver<Exec, Real, 3>(c_.pressure, PoissonProblem3{g_, neighbours(), flags_.flags});
    plan_ = kernel_registry().plan(kernel_key(c_, Exec::name), c_.kernels);
    // The initial velocity made discretely divergence-free (a projection with dt = 1),
    // so that a sampled profile starts on the manifold the scheme keeps.
    if (!c_.u0.empty() || !c_.v0.empty() || (D == 3 && !c_.w0.empty())) {
      for (int a = 0; a < D; ++a) Exec::copy(star_[a].data(), vel_[a].data(), n_);
      project(1.0);
    }
    upload(c_.p0, p_);
    if (!c_.p0.empty()) scale_pressure(1 / c_.rho);
  }

  void step() override {
    dt_ = next_dt();
    predictor();
    fill_star();
    if (c_.diffusion == FsDiffusion::CrankNicolson) {
      diffuse();
      fill_star();
    }
    project(dt_);
    time_ += dt_;
    dt_prev_ = dt_;
    ++steps_;
  }

  // One stage on its own, for the benchmark harness: "dt", "momentum", "rhs",
  // "pressure", "correction". Runs the kernels the plan chose, as step() does.
  void run_stage(const std::string& stage) {
    if (stage == "dt") dt_ = dt_from(convective_rate());  // the reduction every adaptive step pays
    else if (stage == "momentum") { predictor(); fill_star(); }
    else if (stage == "diffusion") { if (c_.diffusion == FsDiffusion::CrankNicolson) diffuse(); }
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

  // New values for a side (inflow functions of time, re-evaluated between steps).
  void set_side(Side side, const SideCondition& sc) override {
    check_side_update(c_, side, sc);
    if constexpr (D == 2) c_.boundaries[int(side)] = sc;
    else c_.boundaries3[int(side)] = sc;
    sides_->set(side, sc);
    Real* c[D];
    for (int a = 0; a < D; ++a) c[a] = vel_[a].data();
    sides_->fill_side(c, side);
  }

  int dims() const override { return D; }
  std::vector<std::string> field_names() const override {
    if constexpr (D == 3) return field_names3();
    else return projection::field_names();
  }
  FieldSnapshot field(const std::string& name) override {
    if constexpr (D == 3) throw CaseError("field '" + name + "': this case is 3D; take a slice: sim:field('" + name +
                                          "'):slice{ z = ... }");
    else return projection::derived_field(host_state(), name);
  }
  FieldSnapshot3 field3(const std::string& name) override {
    if constexpr (D == 3) return derived_field3(host_state3(), name);
    else return Solver::field3(name);
  }
  void set_field3(const FieldSnapshot3& f) override {
    if constexpr (D == 3) {
      if (f.name != "p")
        throw CaseError("field '" + f.name + "' is computed from the state and cannot be set; only 'p' can");
      std::vector<Real> host = p_.download();
      for (int k = 1; k <= g_.nz; ++k)
        for (int j = 1; j <= g_.ny; ++j)
          for (int i = 1; i <= g_.nx; ++i) host[g_.at(i, j, k)] = Real(f.get(i, j, k) / c_.rho);
      p_.upload(host);
    } else {
      Solver::set_field3(f);
    }
  }

  void set_field(const FieldSnapshot& f) override {
    if constexpr (D == 3) throw CaseError("this case is 3D; set a 3D field (sim:field('p'):set(i, j, k, value))");
    if (f.name != "p") throw CaseError("field '" + f.name + "' is computed from the state and cannot be set; only 'p' can");
    if constexpr (D == 2) {
      std::vector<Real> host = p_.download();
      for (int j = 1; j <= g_.ny; ++j)
        for (int i = 1; i <= g_.nx; ++i) host[g_.at(i, j)] = Real(f.get(i, j) / c_.rho);
      p_.upload(host);
    }
  }

  Diagnostics diagnostics() override {
    Diagnostics d;
    d.step = steps_;
    d.time = time_;
    d.dt = dt();
    if constexpr (D == 3) {
      diagnostics3(d);
      return d;
    } else {
    const projection::HostState hs = host_state();
    projection::fill_flow_diagnostics(hs, d);  // kinetic_energy, max_speed, max_divergence
    double m = 0;
    for (int j = 1; j <= g_.ny; ++j)
      for (int i = 1; i <= g_.nx; ++i)
        m = std::max(m, std::abs(hs.u[g_.at(i, j)]) / g_.dx + std::abs(hs.v[g_.at(i, j)]) / g_.dy);
    d.add("cfl", m * dt());
    d.add("pressure_iterations", last_solve_.iterations, true);
    d.add("pressure_residual", last_solve_.residual);
    if (c_.diffusion == FsDiffusion::CrankNicolson) d.add("diffusion_iterations", diffusion_iterations_, true);
    add_side_fluxes<D, Exec, Real>(state(), boundaries(), spacing().data(), d);
    return d;
    }
  }

  Forces forces(int) override {
    throw CaseError("sim:forces is not available in the fractional_step model (its obstacles hold the flow, but the "
                    "forces on them are not computed); model = 'projection' has them in 2D");
  }

  std::string plan() const override { return describe_plan(c_, Exec::name, pressure_->describe(), plan_, flags_); }
  std::string backend_name() const override { return Exec::name; }

  SolverState save_state() override {
    SolverState st;
    const char* names[3] = {"u", "v", "w"};
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
    const char* names[3] = {"u", "v", "w"};
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
  // The model's memory need, checked before anything is allocated (fs_setup.cpp).
  static std::size_t checked_size(const GridT& g) {
    check_memory(g.size(), D, sizeof(Real), std::string(Exec::name) == "cuda", g.nx, g.ny, grid_nz(g));
    return g.size();
  }
  static int grid_nz(const GridT& g) {
    if constexpr (D == 3) return g.nz;
    else return 1;
  }

  static GridT grid_of(const FractionalStepConfig& c) {
    if constexpr (D == 2) return c.grid;
    else return c.grid3;
  }
  const std::array<SideCondition, 2 * D>& boundaries() const {
    if constexpr (D == 2) return c_.boundaries;
    else return c_.boundaries3;
  }
  auto neighbours() const {
    if constexpr (D == 2) return Neighbours{g_.nx, g_.ny, periodic_[0], periodic_[1]};
    else return Neighbours3{g_.nx, g_.ny, g_.nz, periodic_[0], periodic_[1], periodic_[2]};
  }

  State<D, Real> state() {
    State<D, Real> s{};
    for (int a = 0; a < D; ++a) {
      s.vel[a] = vel_[a].data();
      s.star[a] = star_[a].data();
      s.hist[a] = hist_[a].data();
      s.periodic[a] = periodic_[a];
    }
    s.p = p_.data();
    s.rhs = rhs_.data();
    s.flags = flag_array_.data();
    s.n[0] = g_.nx;
    s.n[1] = g_.ny;
    s.stride[0] = 1;
    s.stride[1] = std::size_t(g_.nx + 2);
    double h[3] = {g_.dx, g_.dy, 0};
    if constexpr (D == 3) {
      s.n[2] = g_.nz;
      s.stride[2] = g_.plane();
      h[2] = g_.dz;
    }
    for (int a = 0; a < D; ++a) {
      s.inv_h[a] = Real(1 / h[a]);
      s.inv_h2[a] = Real(1 / (h[a] * h[a]));
    }
    return s;
  }

  // Loops over the interior cells, in 2D or 3D.
  template <class F>
  void for_cells(const F& f) {
    if constexpr (D == 2) Exec::for_each(1, g_.nx, 1, g_.ny, f);
    else Exec::for_each3(1, g_.nx, 1, g_.ny, 1, g_.nz, f);
  }
  template <class F>
  double max_cells(const F& f) {
    if constexpr (D == 2) return Exec::reduce_max(1, g_.nx, 1, g_.ny, f);
    else return Exec::reduce_max3(1, g_.nx, 1, g_.ny, 1, g_.nz, f);
  }
  template <class F>
  double sum_cells(const F& f) {
    if constexpr (D == 2) return Exec::reduce_sum(1, g_.nx, 1, g_.ny, f);
    else return Exec::reduce_sum3(1, g_.nx, 1, g_.ny, 1, g_.nz, f);
  }

  // The sides' faces and the ghost layers of u^n (nothing in a periodic box).
  void fill_walls() {
    if (!walls_) return;
    Real* c[D];
    for (int a = 0; a < D; ++a) c[a] = vel_[a].data();
    sides_->fill(c);
  }
  // The same for u*: the inflow (and wall) values on the faces div u* reads, the
  // outflow faces' zero-gradient predictor.
  void fill_star() {
    if (!walls_) return;
    Real* c[D];
    for (int a = 0; a < D; ++a) c[a] = star_[a].data();
    sides_->fill(c);
  }
  // rhs, the pressure solve, the correction and the sides: u^{n+1} from u*.
  void project(double dt) {
    run_rhs(dt);
    solve_pressure();
    run_correction(dt);
    fill_walls();
    if (walls_ && sides_->has_outflow()) sides_->correct_outflow(state(), Real(dt));
  }

  double peek_dt() const {
    if (c_.time.dt > 0) return dt_cap_ > 0 ? std::min(c_.time.dt, dt_cap_) : c_.time.dt;
    return 0;
  }

  // max sum_a |u_a| / h_a: one scalar copied back; a non-finite velocity is a blow-up.
  // The sides' velocities count too (an inflow into a fluid at rest sets the first dt).
  double convective_rate() {
    const double inv_t = max_cells(InverseConvectiveTime<D, Real>{state()});
    if (!std::isfinite(inv_t)) blow_up("velocity is not finite");
    return std::max(inv_t, side_rate<D>(boundaries(), spacing().data()));
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
    auto run = [&](auto scheme, auto walls, auto bodies) {
      constexpr int k = decltype(scheme)::value;
      constexpr bool wl = decltype(walls)::value;
      constexpr bool bo = decltype(bodies)::value;
      Predictor<D, k, Real, wl, bo> p{s, Real(c_.nu), Real(dt_), Real(w.now), Real(w.before),
                                      c_.advection == FsAdvection::Quick};
      p.cn = c_.diffusion == FsDiffusion::CrankNicolson;
      p.half_nu_dt = Real(0.5 * c_.nu * dt_);
      for (int a = 0; a < D; ++a) {
        p.force[a] = Real(c_.force[a]);
        p.has_force = p.has_force || c_.force[a] != 0;
      }
      for_cells(p);
    };
    using No = std::false_type;
    using Yes = std::true_type;
    if (v == "quick") run(std::integral_constant<int, kQuick>{}, No{}, No{});
    else if (v == "central") run(std::integral_constant<int, kCentral>{}, No{}, No{});
    else if (v == "quick_walls") run(std::integral_constant<int, kQuick>{}, Yes{}, No{});
    else if (v == "central_walls") run(std::integral_constant<int, kCentral>{}, Yes{}, No{});
    else if (v == "quick_bodies") run(std::integral_constant<int, kQuick>{}, Yes{}, Yes{});
    else if (v == "central_bodies") run(std::integral_constant<int, kCentral>{}, Yes{}, Yes{});
    else run(std::integral_constant<int, kRuntime>{}, Yes{}, Yes{});
  }

  void run_rhs(double dt) {
    if (plan_.variant("rhs") == "periodic") for_cells(PressureRhs<D, Real, false>{state(), Real(1 / dt)});
    else for_cells(PressureRhs<D, Real, true>{state(), Real(1 / dt)});
  }

  auto poisson_view() {
    if constexpr (D == 2)
      return PoissonView<Real>{p_.data(), rhs_.data(), flag_array_.data(), neighbours(), Real(1 / (g_.dx * g_.dx)),
                               Real(1 / (g_.dy * g_.dy))};
    else
      return PoissonView3<Real>{p_.data(),
                                rhs_.data(),
                                flag_array_.data(),
                                neighbours(),
                                Real(1 / (g_.dx * g_.dx)),
                                Real(1 / (g_.dy * g_.dy)),
                                Real(1 / (g_.dz * g_.dz))};
  }

  void solve_pressure() {
    last_solve_ = pressure_->solve(poisson_view());
    if (!std::isfinite(last_solve_.residual)) blow_up("pressure solve diverged");
  }

  void run_correction(double dt) {
    const std::string& v = plan_.variant("correction");
    if (v == "periodic")
      for_cells(Dropped<Correction<D, Real, false>>{Correction<D, Real, false>{state(), Real(dt)}});
    else if (v == "walls")
      for_cells(Dropped<Correction<D, Real, true>>{Correction<D, Real, true>{state(), Real(dt)}});
    else
      for_cells(Dropped<Correction<D, Real, true, true>>{Correction<D, Real, true, true>{state(), Real(dt)}});
  }

  // 3D diagnostics, reduced in backend memory (fs_diagnostics.hpp).
  void diagnostics3(Diagnostics& d) {
    if constexpr (D == 3) {
      if (walls_) add_field_sums3<Exec, Real, true>(state(), g_, c_.nu, d);
      else add_field_sums3<Exec, Real, false>(state(), g_, c_.nu, d);
      d.add("cfl", convective_rate() * dt());
      d.add("pressure_iterations", last_solve_.iterations, true);
      d.add("pressure_residual", last_solve_.residual);
      if (c_.diffusion == FsDiffusion::CrankNicolson) d.add("diffusion_iterations", diffusion_iterations_, true);
      add_side_fluxes<D, Exec, Real>(state(), boundaries(), spacing().data(), d);
    }
  }

  std::array<double, 3> spacing() const {
    if constexpr (D == 3) return {g_.dx, g_.dy, g_.dz};
    else return {g_.dx, g_.dy, 1.0};
  }

  // Crank-Nicolson: (I - a L) u* = b by CG, b in u* (fs_diffusion.hpp).
  void diffuse() {
    if (bodies_) run_diffusion(std::true_type{}, std::true_type{});
    else if (walls_) run_diffusion(std::true_type{}, std::false_type{});
    else run_diffusion(std::false_type{}, std::false_type{});
  }
  template <class Walls, class Bodies>
  void run_diffusion(Walls, Bodies) {
    constexpr bool wl = Walls::value, bo = Bodies::value;
    const State<D, Real> s = state();
    CgVectors<D, Real> v{};
    for (int a = 0; a < D; ++a) {
      v.r[a] = cg_r_[a].data();
      v.p[a] = cg_p_[a].data();
      v.q[a] = cg_q_[a].data();
    }
    const Real a = Real(0.5 * c_.nu * dt_);
    fill_star();
    double rr = sum_cells(HelmholtzStart<D, Real, wl, bo>{s, v, a});
    const double tol = c_.diffusion_tol > 0 ? c_.diffusion_tol : (sizeof(Real) == 4 ? 1e-6 : 1e-12);
    const double stop = tol * tol * rr;
    int it = 0;
    for (; it < c_.diffusion_max_iter && rr > stop && rr > 0; ++it) {
      if (walls_) sides_->fill_homogeneous(v.p);
      const double pq = sum_cells(HelmholtzApply<D, Real, wl, bo>{s, v, a});
      if (!(pq > 0)) break;
      const double rr_new = sum_cells(CgStep<D, Real>{s, v, Real(rr / pq)});
      for_cells(CgDirection<D, Real>{s, v, Real(rr_new / rr)});
      rr = rr_new;
    }
    if (!std::isfinite(rr)) blow_up("Crank-Nicolson diffusion solve diverged");
    diffusion_iterations_ = it;
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

  std::vector<double> host_copy(const DeviceArray<Exec, Real>& a) const {
    const std::vector<Real> r = a.download();
    std::vector<double> h(r.begin(), r.end());
    wrap_periodic_ghosts(c_.grid, periodic_[0], periodic_[1], h);
    return h;
  }

  // Without an outflow side p is defined up to a constant: the one with zero mean over
  // the fluid cells is shown.
  bool singular() const {
    for (const SideCondition& b : boundaries())
      if (b.kind == BoundaryKind::Outflow) return false;
    return true;
  }

  projection::HostState host_state() const {
    projection::HostState h;
    h.grid = g_;
    h.nb = neighbours();
    h.u = host_copy(vel_[0]);
    h.v = host_copy(vel_[1]);
    h.p = host_copy(p_);
    if (singular()) {
      double sum = 0;
      for (int j = 1; j <= g_.ny; ++j)
        for (int i = 1; i <= g_.nx; ++i)
          if (is_fluid(flags_.flags[g_.at(i, j)])) sum += h.p[g_.at(i, j)];
      const double mean = sum / double(flags_.fluid_cells);
      for (double& x : h.p) x -= mean;
    }
    h.flags = &flags_.flags;
    if constexpr (D == 2)
      if (walls_) h.boundaries = &c_.boundaries;  // the snapshots' values on the sides
    h.rho = c_.rho;
    h.nu = c_.nu;
    return h;
  }

  // The 3D state on the host for the fields (fs_fields3.hpp); the solver keeps the
  // wall faces and ghost layers, periodic axes wrap there.
  HostState3 host_state3() const {
    HostState3 h;
    if constexpr (D == 3) {
      h.grid = g_;
      for (int a = 0; a < 3; ++a) {
        h.periodic[a] = periodic_[a];
        const std::vector<Real> r = vel_[a].download();
        h.vel[a].assign(r.begin(), r.end());
      }
      const std::vector<Real> r = p_.download();
      h.p.assign(r.begin(), r.end());
      h.rho = c_.rho;
      h.flags = &flags_.flags;
      h.singular = singular();
    }
    return h;
  }

  [[noreturn]] void blow_up(const char* what) {
    std::ostringstream msg;
    msg << what << " at step " << steps_ + 1 << ", t = " << time_;
    int cell[3] = {0, 0, 0};
    std::vector<std::vector<double>> arrays;
    for (const auto* a : {&vel_[0], &vel_[1], D == 3 ? &vel_[D - 1] : &p_, &p_}) {
      const std::vector<Real> r = a->download();
      arrays.emplace_back(r.begin(), r.end());
    }
    msg << first_non_finite(c_, arrays, cell);
    msg << " (dt = " << dt_ << "); try a smaller time.cfl or time.dt, or a finer grid";
    throw BlowUp(msg.str(), steps_ + 1, time_, cell[0], cell[1]);
  }

  FractionalStepConfig c_;
  FlagReport flags_;
  GridT g_;
  std::size_t n_;
  bool periodic_[D] = {};
  bool walls_ = false;   // some axis is not periodic
  bool bodies_ = false;  // some cell is an obstacle
  std::unique_ptr<BoxSides<D, Exec, Real>> sides_;  // walls_ only
  std::array<DeviceArray<Exec, Real>, D> cg_r_, cg_p_, cg_q_;  // Crank-Nicolson only
  long diffusion_iterations_ = 0;
  std::array<DeviceArray<Exec, Real>, D> vel_, star_, hist_;
  DeviceArray<Exec, Real> p_, rhs_;
  DeviceArray<Exec, CellFlags> flag_array_;
  std::unique_ptr<PressureSolver<Exec, Real, D>> pressure_;
  KernelPlan plan_;
  SolveReport last_solve_;
  long steps_ = 0;
  double time_ = 0, dt_ = 0, dt_prev_ = 0, dt_cap_ = 0;
};

}  // namespace flowlua::fractional_step
