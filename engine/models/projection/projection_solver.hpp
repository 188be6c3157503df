// The projection model (seed 002; Griebel, Dornseifer & Neunhoeffer 1998) on one
// backend and one precision. Each step:
//   1. dt from the CFL and diffusion limits (eq. 9, with the squares; dt_rule.hpp),
//      gamma from Griebel's rule when automatic: with kernels.dt = "host" the maxima
//      are copied back and dt computed on the host; with "device" (the default on one
//      rank) a kernel computes dt there and the step's kernels read it from backend
//      memory, and the host reads dt and the time back a few steps late (reports);
//      with kernels.pressure_stop = "device" the SOR solve decides its stop there too
//      (linalg/sor_device.hpp), and with kernels.launch = "graph" (CUDA) such a step,
//      which needs nothing from the host, is recorded into a CUDA graph and replayed;
//   2. F, G: explicit momentum (eqs. 4-5), one fused pass;
//   3. rhs = div(F, G) / dt and the pressure Poisson solve (eq. 8);
//   4. u, v = F, G - dt grad p (eqs. 6-7);
//   5. ghost cells and obstacle faces for the next step and for snapshots.
// The state stays in backend memory; the host sees it only through snapshots.
// On several MPI ranks each steps its block of the grid (decomposed.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <type_traits>
#include <stdexcept>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "backend/lagged_read.hpp"
#include "backend/launch.hpp"
#include "backend/step_graph.hpp"
#include "core/error.hpp"
#include "core/flags.hpp"
#include "linalg/refinement.hpp"
#include "linalg/solver_factory.hpp"
#include "models/projection/boundary_fill.hpp"
#include "models/projection/decomposed.hpp"
#include "models/projection/derived_fields.hpp"
#include "models/projection/dt_rule.hpp"
#include "models/projection/momentum.hpp"
#include "models/projection/projection_kernels.hpp"
#include "models/projection/projection_stages.hpp"
#include "sim/batch.hpp"
#include "sim/solver.hpp"

namespace flowlua::projection {

// Host-side checks and flag construction shared by every instantiation.
struct Setup {
  FlagReport flags;
  bool singular = false;  // no outflow side: pressure fixed only up to a constant
};
// immersed: obstacles of exact shape are immersed bodies (their cells stay fluid).
Setup prepare(const ProjectionConfig& c, bool immersed);
std::string describe_plan(const ProjectionConfig& c, const Setup& setup, const char* backend,
                          const std::string& pressure_solver, const KernelPlan& kernels, bool immersed);
void check_side(const ProjectionConfig& c, Side side, const SideCondition& sc);

// Runs a reduction functor as a plain launch, dropping its value.
template <class F>
struct DropValue {
  F f;
  FL_HD void operator()(int i, int j) const { (void)f(i, j); }
};

template <class Exec, class Real>
class ProjectionBatch;  // projection_batch.hpp: steps several solvers together

template <class Exec, class Real>
class ProjectionSolver final : public Solver {
 public:
  explicit ProjectionSolver(const ProjectionConfig& config)
      : c_(config), immersed_(immersed_bodies(c_, Exec::name)), setup_(prepare(c_, immersed_)),
        link_(block_of_this_rank(c_, immersed_)), g_(block_grid(c_.grid, link_.block())), n_(g_.size()),
        u_(n_), v_(n_), f_(n_), gg_(n_), p_(n_), rhs_(n_), flags_(n_),
        side_len_(std::max(g_.nx, g_.ny) + (link_.on() ? 3 : 2)), sides_(8 * side_len_), scalars_(kScalars),
        reports_(kScalars) {
    scal_ = scalars_.data();
    scalars_.fill(0.0);
    rule_.fixed = c_.time.dt;
    rule_.diffusive = 0.5 / (c_.nu * (1 / (g_.dx * g_.dx) + 1 / (g_.dy * g_.dy)));
    rule_.cfl = c_.time.cfl;
    rule_.gamma = c_.advection.gamma;
    rule_.nu = c_.nu;
    rule_.h = std::min(g_.dx, g_.dy);
    dt_max_ = rule_.next(0, 0);  // no step is longer (the other limits and caps only shorten it)
    flags_.upload(link_.cut(setup_.flags.flags));
    upload_bodies();
    upload_initial(c_.u0, u_);
    upload_initial(c_.v0, v_);
    upload_initial(c_.p0, p_);
    f_.fill(Real(0));
    gg_.fill(Real(0));
    rhs_.fill(Real(0));
    for (Side s : kSides) upload_side(s);
    pressure_ = make_pressure_solver<Exec, Real>(c_.pressure, poisson_problem());
    if (c_.pressure_mixed) setup_mixed();
    for (Side sd : kSides) has_outflow_ = has_outflow_ || c_.boundaries[int(sd)].kind == BoundaryKind::Outflow;
    choose_kernels();
    fill_boundaries(direct_);
    fill_boundaries(direct_);  // obstacle ghosts mirror faces that the first pass zeroed
    keep_velocity();
    if (dt_device_) upload_step_slots();
  }

  void step() override {
    if (!dt_device_) { host_step(); return; }
    // kernels.dt = "device": the step's launches (a graph's replay), then a report of
    // its scalars queued for the host, which takes the report of a step kLag steps
    // later (or at once on the CPU backend).
    upload_caps();
    const bool speed = need_speed();
    if (!launch_graph()) enqueue_step();
    ++steps_;
    post_report(speed);
  }

  // kernels.dt = "host": dt comes back to the host each step (the path before issue 12,
  // and every step of a batch, projection_batch.hpp).
  void host_step() {
    keep_velocity();
    // 1. Time step and donor-cell weight: the one scalar the host needs.
    update_dt();
    // 2. Momentum: F and G.
    momentum(direct_);
    link_.exchange_predictor(f_.data(), gg_.data());
    // 3. Pressure: rhs = div(F, G) / dt, then lap p = rhs.
    pressure_rhs(direct_);
    solve_pressure();
    link_.exchange_pressure(p_.data());
    // 4. Correction: u, v = F, G - dt grad p.
    correct(direct_);
    // 5. Boundaries for the next step and for snapshots.
    fill_boundaries(direct_);
    time_ += dt_;
    ++steps_;
  }

  // flow.batch: solvers that step together (projection_batch.hpp); every member is a
  // ProjectionSolver of this backend and precision with this grid and kernel plan.
  std::string batch_key() const override;
  std::unique_ptr<BatchStepper> make_batch_stepper(const std::vector<Solver*>& members, bool shared_dt) override;

  // One stage on its own, for the benchmark harness (engine/bench): "dt",
  // "momentum", "rhs", "pressure" (one full solve), "sweep_pair" (two red-black
  // sweeps, rbsor only), "residual", "correction", "boundaries". Runs the kernels
  // the plan chose, exactly as step() does.
  void run_stage(const std::string& stage) {
    if (stage == "dt") {
      if (dt_device_) device_dt();
      else update_dt();
    }
    else if (stage == "momentum") momentum(direct_);
    else if (stage == "rhs") pressure_rhs(direct_);
    else if (stage == "pressure") solve_pressure();
    else if (stage == "sweep_pair") {
      auto* sor = dynamic_cast<RedBlackSOR<Exec, Real>*>(pressure_.get());
      if (!sor) throw CaseError("the sweep stage needs the rbsor pressure solver");
      sor->sweeps(poisson_view(), 2);
    } else if (stage == "residual") (void)linalg::residual_norm<Exec>(poisson_view());
    else if (stage == "correction") correct(direct_);
    else if (stage == "boundaries") fill_boundaries(direct_);
    else throw CaseError("no stage '" + stage + "' in the projection model");
  }
  const KernelPlan& kernel_plan() const { return plan_; }
  // How the steps so far were launched, for the harness's rows: "graph" (every step
  // since the recordings replayed; "graph+pdl" with programmatic edges), "direct", or
  // "direct (graph refused)" when CUDA refused a recording (plan() says why).
  std::string launch_used() const {
    for (const StepGraph<Exec>& g : graphs_)
      if (graph_ && g.failed()) return "direct (graph refused)";
    if (!graph_ || graph_replays_ == 0) return "direct";
    return programmatic_edges() > 0 ? "graph+pdl" : "graph";
  }
  // The programmatic edges of the recorded graphs (kernels.pdl; StepGraph::capture).
  long programmatic_edges() const {
    long n = 0;
    for (const StepGraph<Exec>& g : graphs_) n += g.programmatic_edges();
    return n;
  }

  long steps() const override { return steps_; }
  // In device mode the time and dt of the last step come from its report: these wait
  // for the steps still in flight.
  double time() const override {
    settle();
    return time_;
  }
  double dt() const override {
    settle();
    return dt_;
  }
  // In device mode: the last time read plus the longest dt the steps since may have
  // taken (a fixed dt, or the diffusive limit times cfl; no bound without viscosity).
  double time_upper_bound() const override {
    const long ahead = steps_ - known_step_;
    if (!dt_device_ || ahead <= 0) return time_;
    if (!(dt_max_ < std::numeric_limits<double>::infinity())) return time();
    const double span = double(ahead) * dt_max_;
    return time_ + span + 1e-12 * (std::abs(time_) + span);  // the sums' rounding
  }
  void limit_next_dt(double max_dt) override {
    dt_cap_ = max_dt;
    end_time_ = std::numeric_limits<double>::infinity();
    caps_dirty_ = true;
  }
  // In device mode the cap is taken on the device from the end time (DeviceDt), so
  // the host need not know the time; uploaded only when it changes.
  void limit_end_time(double t_end) override {
    if (!dt_device_) {
      limit_next_dt(std::isfinite(t_end) ? t_end - time_ : 0);
      return;
    }
    if (t_end == end_time_ && dt_cap_ == 0) return;
    end_time_ = t_end;
    dt_cap_ = 0;
    caps_dirty_ = true;
  }
  void steady_sample(SteadySample& out) override {
    settle();
    // Interior faces of u and v (obstacle faces are zero); the scale includes the
    // boundary values, which a moving lid or an inflow sets.
    out.groups.resize(1);
    SteadySample::Group& gr = out.groups[0];
    gr.name = "velocity";
    u_.download_into(host_u_);
    v_.download_into(host_v_);
    if (link_.on()) {  // the whole grid's faces
      host_u_ = link_.whole(host_u_);
      host_v_ = link_.whole(host_v_);
    }
    const Grid& g = c_.grid;
    gr.values.resize(std::size_t(g.nx + 1) * g.ny + std::size_t(g.nx) * (g.ny + 1));
    std::size_t k = 0;
    double scale = 0;
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 0; i <= g.nx; ++i) gr.values[k++] = double(host_u_[g.at(i, j)]);
    for (int j = 0; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i) gr.values[k++] = double(host_v_[g.at(i, j)]);
    for (double x : gr.values) scale = std::max(scale, std::abs(x));
    for (const SideCondition& sc : c_.boundaries) {
      for (double x : sc.normal) scale = std::max(scale, std::abs(x));
      for (double x : sc.tangential) scale = std::max(scale, std::abs(x));
    }
    gr.scale = scale;
  }
  double poisson_tolerance() const override { return c_.pressure.tol; }
  const CaseCommon& common() const override { return c_; }
  const ProjectionConfig& config() const { return c_; }

  void set_side(Side side, const SideCondition& sc) override {
    check_side(c_, side, sc);
    c_.boundaries[int(side)] = sc;
    upload_side(side);
    fill_boundaries(direct_);
  }

  std::vector<std::string> field_names() const override { return projection::field_names(); }
  FieldSnapshot field(const std::string& name) override {
    settle();
    return derived_field(host_state(), name);
  }

  void set_field(const FieldSnapshot& f) override {
    if (f.name != "p") throw CaseError("field '" + f.name + "' is computed from the state and cannot be set; only 'p' can");
    std::vector<Real> host = link_.whole(p_);
    const Grid& g = c_.grid;
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i) host[g.at(i, j)] = Real(f.get(i, j) / c_.rho);
    p_.upload(link_.cut(host));
    if (refined_) pd_from_p();
  }

  Diagnostics diagnostics() override {
    settle();
    Diagnostics d;
    d.step = steps_;
    d.time = time_;
    d.dt = dt_;
    HostState hs = host_state();
    fill_flow_diagnostics(hs, d);  // kinetic_energy, max_speed, max_divergence
    double m = 0;
    const Grid& g = c_.grid;
    for (int j = 0; j <= g.ny; ++j)
      for (int i = 0; i <= g.nx; ++i)
        m = std::max({m, std::abs(hs.u[g.at(i, j)]) / g.dx, std::abs(hs.v[g.at(i, j)]) / g.dy});
    d.add("cfl", m * dt_);
    d.add("gamma", gamma_);
    d.add("pressure_iterations", last_solve_.iterations, true);
    d.add("pressure_residual", last_solve_.residual);
    // Several ranks: the halo exchanges of the last pressure solve (docs/mpi.md).
    if (link_.on()) d.add("pressure_exchanges", double(last_exchanges_), true);
    return d;
  }

  Forces forces(int obstacle) override {
    settle();
    HostState h = host_state();
    if (keep_previous() && steps_ > 0) {
      h.u_prev = to_double(link_.whole(up_));
      h.v_prev = to_double(link_.whole(vp_));
      h.dt_prev = dt_;
    }
    return obstacle_forces(h, c_, obstacle);
  }

  std::string plan() const override {
    std::string blocks;
    if (link_.on()) {
      const ranks::Subdomain& b = link_.block();
      blocks = "ranks      " + std::to_string(ranks::size()) + " (" + std::to_string(b.decomposition.px) + " x " +
               std::to_string(b.decomposition.py) + " blocks); rank " + std::to_string(b.rank) + " steps " +
               b.describe() + "\n" + ranks::halo_plan<Exec>(b);
    }
    return describe_plan(c_, setup_, Exec::name, refined_ ? refined_->describe() : pressure_->describe(), plan_,
                         immersed_) + step_line() + blocks;
  }
  std::string backend_name() const override { return Exec::name; }
  ranks::Subdomain rank_block() const override { return link_.block(); }

  // Every array (F, G and the right-hand side too: scratch today, but a restart must
  // not depend on which stage overwrites what), the side values and the step's scalars.
  // save_state: the whole grid's arrays (gathered on several ranks: collective);
  // save_block_state: the block's, ghost ring included (a checkpoint piece).
  SolverState save_state() override { return state(true); }
  SolverState save_block_state() override { return state(false); }
  void restore_block_state(const SolverState& st) override { restore(st, false); }
  void restore_state(const SolverState& st) override { restore(st, true); }

  SolverState state(bool whole) {
    settle();
    SolverState st;
    const Grid& g = whole ? c_.grid : g_;
    const std::size_t rows = std::size_t(g.ny) + 2, cols = std::size_t(g.nx) + 2;
    const std::string cell = whole ? "[j][i]: cell (i, j) of the grid with its ghost ring, i = 0..nx+1, j = 0..ny+1; "
                                   : "[j][i]: cell (i, j) of the rank's block with its ghost ring; ";
    save_ring(st, "u", u_, rows, cols, cell + "x velocity on the cell's right face", whole);
    save_ring(st, "v", v_, rows, cols, cell + "y velocity on the cell's top face", whole);
    save_ring(st, "F", f_, rows, cols, cell + "momentum predictor F (right face)", whole);
    save_ring(st, "G", gg_, rows, cols, cell + "momentum predictor G (top face)", whole);
    save_ring(st, "p", p_, rows, cols, cell + "kinematic pressure p / rho at the centre (next solve's first guess)", whole);
    save_ring(st, "rhs", rhs_, rows, cols, cell + "pressure right-hand side div(F, G) / dt", whole);
    if (keep_previous()) {
      save_ring(st, "u_prev", up_, rows, cols, cell + "u before the last step (the forces' time derivative)", whole);
      save_ring(st, "v_prev", vp_, rows, cols, cell + "v before the last step", whole);
    }
    const std::string sides_layout =
        "[2 k + c][s]: side k (left, right, bottom, top), c = 0 normal, 1 tangential velocity, at s = 0..n+1";
    if (link_.on()) {  // as one rank holds them: each side's values on the whole side
      const int len = std::max(c_.grid.nx, c_.grid.ny) + 2;
      std::vector<Real> all;
      for (Side sd : kSides)
        for (int c = 0; c < 2; ++c) {
          const std::vector<Real> row = whole_side(sd, c == 1, len);
          all.insert(all.end(), row.begin(), row.end());
        }
      st.arrays.push_back({"sides", sizeof(Real) == sizeof(float), std::vector<double>(all.begin(), all.end()), 8,
                           std::size_t(len), sides_layout});
    } else {
      save_array(st, "sides", sides_, 8, std::size_t(side_len_), sides_layout);
    }
    for (Side sd : kSides) {
      const SideCondition& sc = c_.boundaries[int(sd)];
      st.arrays.push_back({std::string("side_normal_") + side_name(sd), false, sc.normal, 0, 0,
                           "normal velocity of the side's cells (boundary functions evaluated last)"});
      st.arrays.push_back({std::string("side_tangential_") + side_name(sd), false, sc.tangential, 0, 0,
                           "tangential velocity of the side's cells"});
    }
    // dt_cap as the host path has it: the time left to an end time in device mode.
    const double cap = dt_device_ && std::isfinite(end_time_) ? end_time_ - time_ : dt_cap_;
    st.scalars = {{"step", double(steps_)},       {"time", time_},   {"dt", dt_},
                  {"dt_cap", cap},                {"gamma", gamma_},
                  {"pressure_iterations", double(last_solve_.iterations)},
                  {"pressure_residual", last_solve_.residual}};
    // How bodies of exact shape entered: the default depends on the rank count
    // (projection_kernels.hpp, immersed_fallback), and a restart must not switch.
    if (!c_.immersed.empty()) st.scalars.push_back({"immersed_bodies", immersed_ ? 1.0 : 0.0});
    return st;
  }

  // `whole`: the ring arrays are the whole grid's (cut to the block here), otherwise
  // the block's.
  void restore(const SolverState& st, bool whole) {
    for (const auto& [name, value] : st.scalars)  // absent from checkpoints written before it was
      if (name == "immersed_bodies" && (value != 0) != immersed_) {
        auto as = [](bool immersed) { return immersed ? "immersed boundaries" : "staircase cells"; };
        const std::string& why = plan_.stages.at("bodies").note;
        throw CaseError(std::string("the checkpoint was written with its bodies of exact shape as ") + as(value != 0) +
                        " and this run has them as " + as(immersed_) + " (" +
                        (why.empty() ? "kernels.bodies" : why) +
                        "): restart with the kernels.bodies and the number of MPI ranks that wrote it");
      }
    discard_reports();  // the steps in flight belong to the state being replaced
    restore_ring(st, "u", u_, whole);
    restore_ring(st, "v", v_, whole);
    restore_ring(st, "F", f_, whole);
    restore_ring(st, "G", gg_, whole);
    restore_ring(st, "p", p_, whole);
    if (refined_) pd_from_p();  // the double pressure restarts from the float one
    restore_ring(st, "rhs", rhs_, whole);
    if (!link_.on()) restore_array(st, "sides", sides_);  // on several ranks: from the sides' values below
    if (keep_previous()) {
      restore_ring(st, "u_prev", up_, whole);
      restore_ring(st, "v_prev", vp_, whole);
    }
    for (Side sd : kSides) {
      SideCondition& sc = c_.boundaries[int(sd)];
      sc.normal = st.array(std::string("side_normal_") + side_name(sd)).values;
      sc.tangential = st.array(std::string("side_tangential_") + side_name(sd)).values;
      if (link_.on()) upload_side(sd);
    }
    steps_ = long(st.scalar("step"));
    time_ = st.scalar("time");
    dt_ = st.scalar("dt");
    dt_cap_ = st.scalar("dt_cap");
    gamma_ = st.scalar("gamma");
    last_solve_.iterations = int(st.scalar("pressure_iterations"));
    last_solve_.residual = st.scalar("pressure_residual");
    end_time_ = std::numeric_limits<double>::infinity();
    if (dt_device_) upload_step_slots();
  }

 private:
  friend class ProjectionBatch<Exec, Real>;

  // Checkpoint arrays of the ghost-ring layout, as the whole grid's (gathered on
  // several ranks, so a run restarts on any number of ranks) or as the block's.
  void save_ring(SolverState& st, const std::string& name, const DeviceArray<Exec, Real>& a, std::size_t rows,
                 std::size_t cols, const std::string& layout, bool whole) {
    if (!whole) {
      save_array(st, name, a, rows, cols, layout);
      st.arrays.back().tile = SolverState::Tile::Ring;
      return;
    }
    if (!link_.on()) return save_array(st, name, a, rows, cols, layout);
    const std::vector<Real> w = link_.whole(a);
    st.arrays.push_back({name, sizeof(Real) == sizeof(float), std::vector<double>(w.begin(), w.end()), rows, cols, layout});
  }
  void restore_ring(const SolverState& st, const std::string& name, DeviceArray<Exec, Real>& a, bool whole) {
    if (!link_.on() || !whole) return restore_array(st, name, a);
    const SolverState::Array& in = st.array(name);
    if (in.values.size() != c_.grid.size())
      throw CaseError("the checkpoint's array '" + name + "' has " + std::to_string(in.values.size()) +
                      " values where this simulation has " + std::to_string(c_.grid.size()));
    a.upload(link_.cut(std::vector<Real>(in.values.begin(), in.values.end())));
  }

  // The problem the pressure solvers are built for: the block's, with the whole one
  // on several ranks (linalg/block_halo.hpp).
  PoissonProblem poisson_problem() {
    PoissonProblem pr{g_, state().nb, link_.cut(setup_.flags.flags)};
    if (link_.on()) {
      const Grid& g = c_.grid;
      pr.blocks = std::make_shared<PoissonBlocks>(PoissonBlocks{
          link_.block(), g, Neighbours{g.nx, g.ny, is_periodic_x(c_.boundaries), is_periodic_y(c_.boundaries)},
          setup_.flags.flags});
    }
    return pr;
  }

  // The plan (projection_kernels.cpp) and what it means for the launches below.
  void choose_kernels() {
    // On several ranks whether the whole domain is open (no obstacle) decides the
    // boundary fill; the position-computed flags do not know the blocks (the plan's
    // key says so: kernel_key's blocks).
    open_ = link_.on() ? open_domain_flags(c_.grid, setup_.flags, open_flags_)
                       : open_domain_flags(g_, setup_.flags, open_flags_);
    plan_ = kernel_registry().plan(kernel_key(c_, Exec::name, open_, ranks_of_plan()), c_.kernels);
    // `general = true` forces the general kernels, which compute the same as the
    // chosen ones; the bodies stage changes what is computed, so it keeps its choice.
    if (c_.kernels.count("general") && !c_.kernels.count("bodies")) {
      std::map<std::string, std::string> forced;
      KernelPlan p = kernel_registry().plan(kernel_key(c_, Exec::name, open_, ranks_of_plan()), forced);
      plan_.stages["bodies"] = p.stages["bodies"];
    }
    if ((plan_.variant("bodies") == "immersed") != immersed_)
      throw std::logic_error("projection: the bodies variant changed between setup and plan");
    // Bodies of exact shape left as cells by default: why (the plan and --explain say).
    if (!immersed_ && !c_.kernels.count("bodies"))
      plan_.stages["bodies"].note = immersed_fallback(c_, ranks_of_plan());
    dt_device_ = plan_.variant("dt") == "device";
    const std::string& p = plan_.variant("pressure");
    RedBlackSOR<Exec, Real>* sor = this->sor();
    if (sor) {
      sor->use_variant(p == "rbsor_block_open" ? SorVariant::BlockOpen
                       : p == "rbsor_block"    ? SorVariant::Block
                       : p == "rbsor_fused_open" ? SorVariant::FusedOpen
                       : p == "rbsor_fused"    ? SorVariant::Fused
                       : p == "rbsor_tile_open" ? SorVariant::TiledOpen
                       : p == "rbsor_tile"     ? SorVariant::Tiled
                       : p == "rbsor_open"     ? SorVariant::TwoColourOpen
                                               : SorVariant::TwoColour,
                       open_flags_);
    }
    // The stop on the device needs the device's dt (the report that carries it) and
    // the case's own SOR solve (pressure.mixed refines on the host).
    sor_device_ = dt_device_ && sor && !refined_ && sor->device_stop() && plan_.variant("pressure_stop") == "device";
    // A graph needs a step that reads nothing back.
    graph_ = false;
    if (plan_.variant("launch") == "graph") {
      if (!dt_device_) graph_off_ = "the step reads dt back (kernels.dt = \"host\")";
      else if (refined_) graph_off_ = "pressure.mixed reads its residuals back";
      else if (!sor_device_) graph_off_ = "the pressure solver reads its residual back";
      else graph_ = true;
    }
    pdl_ = graph_ && plan_.variant("pdl") == "on";
  }
  RedBlackSOR<Exec, Real>* sor() const { return dynamic_cast<RedBlackSOR<Exec, Real>*>(pressure_.get()); }

  // kernels.launch = "graph": the steps whose count is a multiple of 16 (they reduce
  // the velocity maxima of a fixed dt and remove the pressure's mean) and the others
  // are two graphs, each recorded the second time such a step comes (the first runs
  // directly: the buffers it allocates on first use must exist before a recording).
  // False: launch the step directly (no graph, or its recording failed).
  bool launch_graph() {
    if (!graph_) return false;
    const int k = steps_ % 16 == 0 ? 0 : 1;
    StepGraph<Exec>& g = graphs_[k];
    if (!g.ready()) {
      if (g.failed()) return false;
      if (!graph_seen_[k]) {
        graph_seen_[k] = true;
        return false;
      }
      if (!g.capture([&] { enqueue_step(); }, pdl_)) return false;
      ++graphs_captured_;
    }
    g.launch();
    ++graph_replays_;
    return true;
  }
  // The plan's line on how a step runs (for --explain and the tests).
  std::string step_line() const {
    std::ostringstream s;
    s << "step       dt on the " << (dt_device_ ? "device" : "host") << "; pressure stop on the "
      << (dt_device_ && sor_device_ ? "device" : "host") << "; ";
    if (graph_) {
      s << "CUDA graphs: graphs captured " << graphs_captured_ << ", steps replayed " << graph_replays_
        << ", programmatic edges " << programmatic_edges();
      if (pdl_ && graphs_captured_ > 0 && programmatic_edges() == 0) s << " (the GPU has no programmatic launch)";
      for (const StepGraph<Exec>& g : graphs_)
        if (g.failed()) s << "; a recording failed, direct launches instead: " << g.why();
    } else {
      s << "direct launches" << (graph_off_.empty() ? "" : " (" + graph_off_ + ")");
    }
    if (fold_rhs_mean()) s << "; the rhs's mean removed in the pressure solve's first reduction";
    s << "\n";
    return s.str();
  }
  int ranks_of_plan() const { return link_.on() ? ranks::size() : 1; }
  bool open_variant(const char* stage) const {
    const std::string& v = plan_.variant(stage);
    return v == "open" || v == "central_open" || v == "hybrid_open" || v == "sides" || v == "central_tile_open" ||
           v == "hybrid_tile_open";
  }
  // Calls f with the flag source the stage's variant reads.
  template <class F>
  void with_cells(const char* stage, F&& f) {
    if (open_variant(stage)) f(open_flags_);
    else f(FlagArray{flags_.data(), g_.nx + 2});
  }

  // Both maxima are reduced into backend memory and come back in one copy: the one
  // host round trip of a step with an adaptive dt. launch_dt starts the reductions
  // (returns whether it did); finish_dt turns the maxima into dt and gamma.
  bool need_speed() const { return c_.time.dt <= 0 || c_.advection.gamma < 0 || steps_ % 16 == 0; }
  bool need_peclet() const { return c_.time.dt <= 0 && c_.advection.gamma < 1; }
  template <class L>
  bool launch_dt(L& l) {
    if (!need_speed()) return false;
    const State<Real> s = state();
    l.reduce_max_into(0, g_.nx, 0, g_.ny, InverseConvectiveTime<Real>{s}, scal_ + kInverseTime);
    if (need_peclet()) l.reduce_max_into(0, g_.nx, 0, g_.ny, SpeedSquared<Real>{s}, scal_ + kSpeedSquared);
    return true;
  }
  // host: the scalars (slot order) when launch_dt ran, else nullptr. `shared`, when
  // > 0, is the batch's common dt before this solver's own cap.
  void finish_dt(const double* host, double shared = 0) {
    double inv_t = 0, speed2 = 0;
    if (host) {
      inv_t = host[kInverseTime];
      if (need_peclet()) speed2 = host[kSpeedSquared];
      if (!std::isfinite(inv_t)) blow_up("velocity is not finite");
    }
    dt_ = shared > 0 ? (dt_cap_ > 0 ? std::min(shared, dt_cap_) : shared) : next_dt(inv_t, speed2);
    gamma_ = rule_.weight(dt_, inv_t);
  }
  void update_dt() {
    double host[kScalars] = {};
    const bool speed = launch_dt(direct_);
    if (speed) Exec::read_scalars(host + kInverseTime, scal_ + kInverseTime, need_peclet() ? 2 : 1);
    if (speed && link_.on()) {  // the maxima of every block
      host[kInverseTime] = link_.max(host[kInverseTime]);
      if (need_peclet()) host[kSpeedSquared] = link_.max(host[kSpeedSquared]);
    }
    finish_dt(speed ? host : nullptr);
  }

  // kernels.dt = "device": the maxima, then DeviceDt (dt_rule.hpp) in backend memory,
  // run by the last block of the reduction: one launch on CUDA (both maxima in one
  // pass), the same values as launch_dt's.
  void device_dt() {
    const State<Real> s = state();
    const DeviceDt dt{scal_, rule_, need_speed(), need_peclet()};
    if (!dt.speed) {
      Exec::for_each(0, 0, 0, 0, dt);
    } else if (dt.peclet) {  // both maxima in one pass
      Exec::reduce_max2_into_then(0, g_.nx, 0, g_.ny, InverseConvectiveTime<Real>{s}, SpeedSquared<Real>{s},
                                  scal_ + kInverseTime, scal_ + kSpeedSquared, dt);
    } else {
      Exec::reduce_max_into_then(0, g_.nx, 0, g_.ny, InverseConvectiveTime<Real>{s}, scal_ + kInverseTime, dt);
    }
  }
  // Where the kernels read dt, 1/dt and gamma in device mode (nullptr: their own values).
  const double* step_ptr() const { return dt_device_ ? scal_ + kDt : nullptr; }

  // One step's launches in device mode. Nothing here reads back from the device
  // unless the pressure solver does (solve_pressure).
  void enqueue_step() {
    keep_velocity();
    device_dt();
    momentum(direct_);
    link_.exchange_predictor(f_.data(), gg_.data());
    const bool fold = fold_rhs_mean();
    pressure_rhs(direct_, fold);
    solve_pressure(fold);
    link_.exchange_pressure(p_.data());
    correct(direct_);
    fill_boundaries(direct_);
  }

  // Reports: after each step in device mode a copy of the scalar slots is queued
  // (LaggedRead); the host takes them in order, kLag steps behind (at once on the CPU
  // backend), and keeps the last one's time, dt and gamma (known_step_: whose they are).
  struct Pending {
    long step;   // the step count after the step
    bool speed;  // its velocity maxima were reduced (a NaN there is a blow-up)
    bool sor;    // its pressure solve reports in the SOR slots (kSor)
  };
  void post_report(bool speed) {
    pending_.push_back(Pending{steps_, speed, sor_device_});
    reports_.post(scal_);
    while (reports_.pending() > LaggedRead<Exec>::kLag) take_report(reports_.take(true));
  }
  void take_report(const double* r) {
    const Pending p = pending_.front();
    pending_.pop_front();
    if (p.speed && !std::isfinite(r[kInverseTime])) fail_at(p, r, "velocity is not finite", dt_);
    if (p.sor) {
      last_solve_ = RedBlackSOR<Exec, Real>::report(r + kSor, c_.pressure.tol);
      if (!std::isfinite(last_solve_.residual)) fail_at(p, r, "pressure solve diverged", r[kDt]);
    }
    dt_ = r[kDt];
    gamma_ = r[kGamma];
    time_ = r[kTime];
    known_step_ = p.step;
  }
  // Takes every report still in flight: the host's time, dt and gamma are then those
  // of the last step (a blow-up among them is thrown here).
  void settle() {
    while (reports_.pending()) take_report(reports_.take(true));
  }
  // The const accessors (time(), dt()) read too; the solver is never a const object.
  void settle() const { const_cast<ProjectionSolver*>(this)->settle(); }
  void discard_reports() {
    reports_.discard();
    pending_.clear();
    known_step_ = steps_;
  }
  // A failed step seen in its report, kLag steps late: the message names that step,
  // the time before it and the dt the host path would name (the one before it for a
  // velocity that is not finite); the first bad cell is searched in the state now,
  // which the failure may have spread through since.
  [[noreturn]] void fail_at(const Pending& p, const double* r, const char* what, double dt) {
    const double t = r[kTimeBefore];
    discard_reports();
    steps_ = p.step - 1;
    time_ = t;
    dt_ = dt;
    known_step_ = steps_;
    blow_up(what);
  }
  // A failure the host sees during the step (a pressure solver that reads its residual
  // back): in device mode the time before the step and its dt first.
  [[noreturn]] void fail_now(const char* what) {
    if (dt_device_) {
      settle();
      Exec::read_scalars(&dt_, scal_ + kDt, 1);
    }
    blow_up(what);
  }
  // The device's slots from the host's values: at the start, after a restart and when
  // a batch gives the member back (device mode).
  void upload_step_slots() {
    const double v[5] = {dt_, 1 / dt_, gamma_, time_, time_};  // kDt, kInvDt, kGamma, kTime, kTimeBefore
    Exec::upload(scal_ + kDt, v, 5);
    known_step_ = steps_;
    caps_dirty_ = true;
  }
  void upload_caps() {
    if (!caps_dirty_) return;
    const double caps[2] = {end_time_, dt_cap_};  // kEndTime, kDtCap
    Exec::upload(scal_ + kEndTime, caps, 2);
    caps_dirty_ = false;
  }
  // flow.batch steps its members with the host's dt (projection_batch.hpp): a member in
  // device mode switches to the host path while in a batch, and back after.
  void enter_batch() {
    if (!dt_device_) return;
    settle();
    if (std::isfinite(end_time_)) dt_cap_ = end_time_ - time_;
    end_time_ = std::numeric_limits<double>::infinity();
    dt_device_ = false;
    device_after_batch_ = true;
  }
  void leave_batch() {
    if (!device_after_batch_) return;
    device_after_batch_ = false;
    dt_device_ = true;
    upload_step_slots();
  }

  // kernels.momentum = "*_tile_open" (momentum_tile.cuh): the tile kernel where it
  // exists and the step launches directly; false otherwise (a batch records the
  // for_each kernel, which computes the same bits).
  template <class L, class Cells>
  bool momentum_tile(L&, const State<Real>& s, const MomentumParams<Real>& m, const Cells& cells, const double* step,
                     bool central) {
    if constexpr (std::is_same_v<L, DirectLaunch<Exec>> && MomentumTile<Exec>::available) {
      const std::string& v = plan_.variant("momentum");
      if (v != "central_tile_open" && v != "hybrid_tile_open") return false;
      if (central) MomentumTile<Exec>::template run<Real, true>(s, m, cells, step);
      else MomentumTile<Exec>::template run<Real, false>(s, m, cells, step);
      return true;
    }
    return false;
  }

  template <class L>
  void momentum(L& l) {
    const State<Real> s = state();
    const MomentumParams<Real> m{Real(dt_), Real(c_.nu), Real(gamma_), Real(c_.gx), Real(c_.gy)};
    const double* step = step_ptr();
    const bool central = plan_.variant("momentum").rfind("central", 0) == 0;
    // The block's faces: a halo's faces are the neighbour's (0 and 0 on one rank).
    const int i0 = link_.first_face_i(), j0 = link_.first_face_j();
    with_cells("momentum", [&](auto cells) {
      using Cells = decltype(cells);
      if (immersed_) {
        const ImmersedFaces<Real> b{forcing_view(true), forcing_view(false)};
        if (central) l.for_each(i0, g_.nx, j0, g_.ny, MomentumStage<Real, true, Cells, ImmersedFaces<Real>>{s, m, cells, b, step});
        else l.for_each(i0, g_.nx, j0, g_.ny, MomentumStage<Real, false, Cells, ImmersedFaces<Real>>{s, m, cells, b, step});
      } else if (momentum_tile(l, s, m, cells, step, central)) {
      } else if (central) {
        l.for_each(i0, g_.nx, j0, g_.ny, MomentumStage<Real, true, Cells>{s, m, cells, {}, step});
      } else {
        l.for_each(i0, g_.nx, j0, g_.ny, MomentumStage<Real, false, Cells>{s, m, cells, {}, step});
      }
    });
    if (has_outflow_)
      l.for_each(1, std::max(g_.nx, g_.ny), 0, 0, OutflowFaces<Real>{s, side_values(), false, Real(dt_), step});
  }

  // Without an outflow the rhs's mean is removed (a sum over the fluid cells, then a
  // subtraction). fold (fold_rhs_mean): the rhs and its sum in one launch, the
  // subtraction left to the SOR solve's first reduction (solve_pressure(true)).
  template <class L>
  void pressure_rhs(L& l, bool fold = false) {
    const State<Real> s = state();
    const double* step = step_ptr();
    auto run = [&](const auto& rhs) {
      if (!fold) {
        l.for_each(1, g_.nx, 1, g_.ny, rhs);
        return;
      }
      using F = std::remove_cv_t<std::remove_reference_t<decltype(rhs)>>;
      Exec::reduce_sum_into_then(1, g_.nx, 1, g_.ny, WithFluidValue<Real, F>{rhs, rhs_.data(), flags_.data(), g_.nx + 2},
                                 scal_ + kRhsSum, NothingAfter{});
    };
    with_cells("rhs", [&](auto cells) {
      using Cells = decltype(cells);
      if (immersed_)
        run(PressureRhs<Real, Cells, true>{s, Real(1 / dt_), cells, source_.data(),
                                           ImmersedMass<Real>{forcing_view(true), forcing_view(false), sflux_.data(),
                                                              merge_.data()},
                                           step});
      else
        run(PressureRhs<Real, Cells>{s, Real(1 / dt_), cells, nullptr, {}, step});
    });
    if (setup_.singular && !fold) remove_fluid_mean(l, rhs_.data(), kRhsSum);
  }
  // Whether a step in device mode folds the rhs's mean removal into its neighbours
  // (pressure_rhs, solve_pressure): two launches fewer, the same bits. It needs the
  // SOR solve with the stop on the device (one rank: the sum is this block's).
  bool fold_rhs_mean() const { return setup_.singular && sor_device_ && dt_device_ && !link_.on(); }

  PoissonView<Real> poisson_view() {
    return PoissonView<Real>{p_.data(), rhs_.data(), flags_.data(), state().nb, Real(1 / (g_.dx * g_.dx)),
                             Real(1 / (g_.dy * g_.dy))};
  }

  // pressure.mixed (float fields; linalg/refinement.hpp): the pressure is kept in
  // double (pd_) and solved by refinement around a float solve of the case's solver
  // to mixed_gain; the float p is its rounding, the correction reads pd_.
  void setup_mixed() {
    PressureControl inner = c_.pressure, outer = c_.pressure;
    inner.tol = c_.mixed_gain;
    outer.max_iter = 50;  // refinement steps; each gains mixed_gain until the double floor
    const PoissonProblem pr = poisson_problem();
    refined_ = std::make_unique<RefinedPoissonSolver<Exec>>(outer, make_pressure_solver<Exec, float>(inner, pr), pr);
    pd_ = DeviceArray<Exec, double>(n_);
    bd_ = DeviceArray<Exec, double>(n_);
    bd_.fill(0.0);
    pd_from_p();
  }
  void pd_from_p() { Exec::for_each(0, g_.nx + 1, 0, g_.ny + 1, CopyAs<Real, double>{p_.data(), pd_.data(), g_.nx + 2}); }
  void solve_mixed() {
    const int st = g_.nx + 2;
    Exec::for_each(0, g_.nx + 1, 0, g_.ny + 1, CopyAs<Real, double>{rhs_.data(), bd_.data(), st});
    last_solve_ = refined_->solve(PoissonView<double>{pd_.data(), bd_.data(), flags_.data(), state().nb,
                                                      1 / (g_.dx * g_.dx), 1 / (g_.dy * g_.dy)});
    if (!std::isfinite(last_solve_.residual)) fail_now("pressure solve diverged");
    if (setup_.singular && steps_ % 16 == 0) {
      double* sum = scal_ + kPressureSum;
      Exec::reduce_sum_into(1, g_.nx, 1, g_.ny, FluidSum<double>{pd_.data(), flags_.data(), st, false}, sum);
      sum_over_ranks(sum);
      Exec::for_each(1, g_.nx, 1, g_.ny,
                     SubtractFluidMean<double>{pd_.data(), flags_.data(), st, sum, 1.0 / double(setup_.flags.fluid_cells)});
      link_.exchange_double(pd_.data());  // the correction reads pd across the block's faces
    }
    Exec::for_each(0, g_.nx + 1, 0, g_.ny + 1, CopyAs<double, Real>{pd_.data(), p_.data(), st});
  }

  // rhs_mean: the rhs's mean is still to be removed (pressure_rhs with fold).
  void solve_pressure(bool rhs_mean = false) {
    const long exchanges = ranks::exchanges_done;
    solve_pressure_counted(rhs_mean);
    last_exchanges_ = ranks::exchanges_done - exchanges;
  }
  void solve_pressure_counted(bool rhs_mean) {
    if (refined_) { solve_mixed(); return; }
    if (sor_device_ && dt_device_) {
      // The report comes with the step's (take_report), a NaN residual too.
      if (rhs_mean)
        sor()->solve_device(poisson_view(), scal_ + kSor,
                            SubtractFluidMeanSquared<Real>{rhs_.data(), flags_.data(), g_.nx + 2, scal_ + kRhsSum,
                                                           1.0 / double(setup_.flags.fluid_cells)});
      else
        sor()->solve_device(poisson_view(), scal_ + kSor);
    } else {
      last_solve_ = pressure_->solve(poisson_view());
      if (!std::isfinite(last_solve_.residual)) fail_now("pressure solve diverged");
    }
    // Without an outflow p is fixed up to a constant that only drifts by round-off:
    // keep it near zero every 16 steps (snapshots remove the mean exactly).
    if (setup_.singular && steps_ % 16 == 0) remove_fluid_mean(direct_, p_.data(), kPressureSum);
  }

  template <class L>
  void correct(L& l) {
    const State<Real> s = state();
    const double* step = step_ptr();
    with_cells("correction", [&](auto cells) {
      if (refined_) {
        const VelocityCorrection<Real, decltype(cells), double> corr{s, Real(dt_), cells, pd_.data(), step};
        l.for_each(1, g_.nx, 1, g_.ny, DropValue<std::remove_const_t<decltype(corr)>>{corr});
        return;
      }
      const VelocityCorrection<Real, decltype(cells)> corr{s, Real(dt_), cells, nullptr, step};
      l.for_each(1, g_.nx, 1, g_.ny, DropValue<std::remove_const_t<decltype(corr)>>{corr});
    });
    if (has_outflow_)
      l.for_each(1, std::max(g_.nx, g_.ny), 0, 0, OutflowFaces<Real>{s, side_values(), true, Real(dt_), step});
    // The obstacle faces mirror the faces beside them, which may lie in the halo.
    if (obstacle_faces()) link_.exchange_velocity(u_.data(), v_.data());
  }

  State<Real> state() {
    // A periodic side wraps within the block only when no block boundary cuts the
    // period (across one the halo holds the cells of the other side).
    const ranks::Decomposition& d = link_.block().decomposition;
    return State<Real>{u_.data(), v_.data(), f_.data(), gg_.data(), p_.data(), rhs_.data(), flags_.data(),
                       Neighbours{g_.nx, g_.ny, is_periodic_x(c_.boundaries) && d.px == 1,
                                  is_periodic_y(c_.boundaries) && d.py == 1},
                       Real(g_.dx), Real(g_.dy), Real(1 / g_.dx), Real(1 / g_.dy)};
  }

  // capped: with the limit of limit_next_dt (a batch's shared dt applies it later).
  // The rule is DeviceDt's (dt_rule.hpp): the same bits on both paths.
  double next_dt(double inv_t, double speed2, bool capped = true) const {
    double dt = rule_.next(inv_t, speed2);
    if (capped && dt_cap_ > 0) dt = lesser(dt, dt_cap_);
    return dt;
  }

  SideValues<Real> side_values() {
    SideValues<Real> b;
    const ranks::Subdomain& blk = link_.block();
    for (int k = 0; k < 4; ++k) {
      b.normal[k] = sides_.data() + (2 * k) * side_len_;
      b.tangential[k] = sides_.data() + (2 * k + 1) * side_len_;
      // A side of the block where a neighbour lies is no side of the domain: the halo.
      b.kind[k] = blk.halo[k] ? kHaloSide : int(c_.boundaries[k].kind);
    }
    b.first_i = blk.i0;
    b.first_j = blk.j0;
    b.whole_nx = c_.grid.nx;
    b.whole_ny = c_.grid.ny;
    return b;
  }
  bool obstacle_faces() const { return plan_.variant("boundaries") != "sides"; }

  template <class L>
  void fill_boundaries(L& l) {
    const State<Real> s = state();
    const SideValues<Real> b = side_values();
    // Periodic sides last: their copies carry the other direction's ghosts along.
    const bool py = is_periodic_y(c_.boundaries);
    auto fill_x = [&](bool periodic) { l.for_each(0, 0, 0, g_.ny + 1, FillSidesX<Real>{s, b, periodic}); };
    auto fill_y = [&](bool periodic) { l.for_each(0, g_.nx + 1, 0, 0, FillSidesY<Real>{s, b, periodic}); };
    if constexpr (std::is_same_v<L, DirectLaunch<Exec>>) {
      // The first two lines in one launch (Exec::for_each_in_turn: the same order).
      const FillSidesX<Real> x{s, b, false};
      const FillSidesY<Real> y{s, b, false};
      if (py) Exec::for_each_in_turn(0, 0, 0, g_.ny + 1, x, 0, g_.nx + 1, 0, 0, y);
      else Exec::for_each_in_turn(0, g_.nx + 1, 0, 0, y, 0, 0, 0, g_.ny + 1, x);
    } else if (py) {
      fill_x(false);
      fill_y(false);
    } else {
      fill_y(false);
      fill_x(false);
    }
    if (is_periodic_x(c_.boundaries)) fill_x(true);
    if (py) fill_y(true);
    // Obstacle faces: skipped by the "sides" variant, which needs no obstacle.
    if (obstacle_faces()) {
      const bool walls = !immersed_ && c_.immersed.moving();
      const ranks::Subdomain& blk = link_.block();
      l.for_each(1, g_.nx, 1, g_.ny,
                 FillObstacleFaces<Real>{s, walls ? wallu_.data() : nullptr, walls ? wallv_.data() : nullptr,
                                         blk.halo[1], blk.halo[3]});
    }
    // The neighbours' faces and ghosts, as they filled them, into the halo.
    link_.exchange_velocity(u_.data(), v_.data());
  }

  // The side's normal or tangential values at s = 0..n+1 of the whole side (the ends
  // repeat the first and last cell's), zero beyond, in a row of `len`.
  std::vector<Real> whole_side(Side side, bool tangential, int len) const {
    const SideCondition& sc = c_.boundaries[int(side)];
    const int n = (side == Side::Left || side == Side::Right) ? c_.grid.ny : c_.grid.nx;
    std::vector<Real> row(std::size_t(len), Real(0));
    const std::vector<double>& v = tangential ? sc.tangential : sc.normal;
    if (sc.kind == BoundaryKind::Dirichlet) {
      for (int k = 1; k <= n; ++k) row[k] = Real(v.empty() ? 0.0 : v[k - 1]);
      row[0] = row[1];
      row[n + 1] = row[n];
    }
    return row;
  }
  void upload_side(Side side) {
    std::vector<Real> nrm, tan;
    if (link_.on()) {  // the block's stretch of the side (decomposed.hpp)
      const int len = std::max(c_.grid.nx, c_.grid.ny) + 2;
      nrm = block_side(whole_side(side, false, len), int(side), link_.block(), side_len_);
      tan = block_side(whole_side(side, true, len), int(side), link_.block(), side_len_);
    } else {
      nrm = whole_side(side, false, side_len_);
      tan = whole_side(side, true, side_len_);
    }
    Exec::upload(sides_.data() + 2 * int(side) * side_len_, nrm.data(), side_len_);
    Exec::upload(sides_.data() + (2 * int(side) + 1) * side_len_, tan.data(), side_len_);
  }

  bool keep_previous() const { return !c_.solid.empty(); }
  // The velocity before the step, for the time derivative in the forces' momentum
  // balance (cases with obstacles only); step() and the batch (projection_batch.hpp)
  // call it first thing in a step.
  void keep_velocity() {
    if (!keep_previous()) return;
    Exec::copy(up_.data(), u_.data(), n_);
    Exec::copy(vp_.data(), v_.data(), n_);
  }

  // One velocity component's immersed faces on the device (core/immersed.hpp, FaceForcing).
  struct BodyFaces {
    DeviceArray<Exec, std::int8_t> code, edge_side;
    DeviceArray<Exec, Real> weight, value, aperture, edge_weight, edge_const, near_weight, near_value, near_t;
    DeviceArray<Exec, std::int32_t> near;
  };
  ForcingView<Real> forcing_view(bool u_component) {
    BodyFaces& b = u_component ? ubody_ : vbody_;
    return ForcingView<Real>{b.code.data(),        b.weight.data(),      b.value.data(),
                             b.aperture.data(),    b.edge_weight.data(), b.edge_const.data(),
                             b.edge_side.data(),   b.near.data(),        b.near_weight.data(),
                             b.near_value.data(),  b.near_t.data()};
  }
  template <class T>
  static void upload_as(const std::vector<T>& a, DeviceArray<Exec, T>& d) {
    d = DeviceArray<Exec, T>(a.size());
    d.upload(a);
  }
  static void upload_faces(const FaceForcing& f, BodyFaces& b) {
    auto real = [](const std::vector<double>& a, DeviceArray<Exec, Real>& d) {
      d = DeviceArray<Exec, Real>(a.size());
      d.upload(std::vector<Real>(a.begin(), a.end()));
    };
    upload_as(f.code, b.code);
    upload_as(f.near, b.near);
    upload_as(f.edge_side, b.edge_side);
    real(f.weight, b.weight);
    real(f.value, b.value);
    real(f.aperture, b.aperture);
    real(f.edge_weight, b.edge_weight);
    real(f.edge_const, b.edge_const);
    real(f.near_weight, b.near_weight);
    real(f.near_value, b.near_value);
    real(f.near_t, b.near_t);
  }

  // The forced faces of immersed bodies, or the surface velocity of turning bodies
  // for the staircase, and the velocity before the step for the forces.
  void upload_bodies() {
    auto real = [&](const std::vector<double>& a, DeviceArray<Exec, Real>& d) {
      const std::vector<double> mine = link_.cut(a);
      d = DeviceArray<Exec, Real>(mine.size());
      d.upload(std::vector<Real>(mine.begin(), mine.end()));
    };
    if (immersed_) {
      const ImmersedGeometry& geo = c_.immersed;
      source_ = DeviceArray<Exec, std::int8_t>(n_);
      source_.upload(geo.source);
      merge_ = DeviceArray<Exec, std::int8_t>(n_);
      merge_.upload(geo.merge);
      upload_faces(geo.u, ubody_);
      upload_faces(geo.v, vbody_);
      real(geo.surface_flux, sflux_);
    } else if (c_.immersed.moving()) {
      real(c_.immersed.wall_u, wallu_);
      real(c_.immersed.wall_v, wallv_);
    }
    if (keep_previous()) {
      up_ = DeviceArray<Exec, Real>(n_);
      vp_ = DeviceArray<Exec, Real>(n_);
    }
  }

  void upload_initial(const std::vector<double>& values, DeviceArray<Exec, Real>& a) {
    if (values.empty()) { a.fill(Real(0)); return; }
    const std::vector<double> mine = link_.cut(values);
    a.upload(std::vector<Real>(mine.begin(), mine.end()));
  }

  template <class L>
  void remove_fluid_mean(L& l, Real* x, int slot) {
    const int stride = g_.nx + 2;
    double* sum = scal_ + slot;
    // In device mode the sum is one launch (reduce_*_into_then; the same bits).
    if (dt_device_ && std::is_same_v<L, DirectLaunch<Exec>>)
      Exec::reduce_sum_into_then(1, g_.nx, 1, g_.ny, FluidSum<Real>{x, flags_.data(), stride, false}, sum,
                                 NothingAfter{});
    else
      l.reduce_sum_into(1, g_.nx, 1, g_.ny, FluidSum<Real>{x, flags_.data(), stride, false}, sum);
    sum_over_ranks(sum);
    l.for_each(1, g_.nx, 1, g_.ny,
                   SubtractFluidMean<Real>{x, flags_.data(), stride, sum, 1.0 / double(setup_.flags.fluid_cells)});
  }

  // A sum a reduction left in backend memory, over every block (nothing on one rank).
  void sum_over_ranks(double* sum) {
    if (!link_.on()) return;
    double mine = 0;
    Exec::read_scalars(&mine, sum, 1);
    const double all = link_.sum(mine);
    Exec::upload(sum, &all, 1);
  }

  static std::vector<double> to_double(const std::vector<Real>& a) { return std::vector<double>(a.begin(), a.end()); }
  static std::vector<Real> to_real(const std::vector<Real>& a) { return a; }

  // The whole grid's state (gathered from every rank on several: a collective call).
  HostState host_state() const {
    HostState h;
    const Grid& g = c_.grid;
    h.grid = g;
    h.boundaries = &c_.boundaries;
    h.nb = Neighbours{g.nx, g.ny, is_periodic_x(c_.boundaries), is_periodic_y(c_.boundaries)};
    h.u = to_double(link_.whole(u_));
    h.v = to_double(link_.whole(v_));
    h.p = to_double(link_.whole(p_));
    if (setup_.singular) {  // p is defined up to a constant: show the one with zero mean
      double sum = 0;
      for (int j = 1; j <= g.ny; ++j)
        for (int i = 1; i <= g.nx; ++i)
          if (is_fluid(setup_.flags.flags[g.at(i, j)])) sum += h.p[g.at(i, j)];
      const double mean = sum / double(setup_.flags.fluid_cells);
      for (int j = 1; j <= g.ny; ++j)
        for (int i = 1; i <= g.nx; ++i)
          if (is_fluid(setup_.flags.flags[g.at(i, j)])) h.p[g.at(i, j)] -= mean;
    }
    h.flags = &setup_.flags.flags;
    if (immersed_ && !c_.solid.empty()) h.body_cells = &c_.solid;
    if (immersed_) h.immersed = &c_.immersed;
    h.rho = c_.rho;
    h.nu = c_.nu;
    return h;
  }

  [[noreturn]] void blow_up(const char* what) {
    HostState h = host_state();
    const Grid& g = c_.grid;
    int bi = 0, bj = 0;
    for (int j = 0; j <= g.ny + 1 && !bi; ++j)
      for (int i = 0; i <= g.nx + 1; ++i)
        if (!std::isfinite(h.u[g.at(i, j)]) || !std::isfinite(h.v[g.at(i, j)]) || !std::isfinite(h.p[g.at(i, j)])) {
          bi = std::clamp(i, 1, g.nx);
          bj = std::clamp(j, 1, g.ny);
          break;
        }
    std::ostringstream msg;
    msg << what << " at step " << steps_ + 1 << ", t = " << time_;
    if (bi) msg << ", first in cell (" << bi << ", " << bj << ") at x = " << g.xc(bi) << ", y = " << g.yc(bj);
    msg << " (dt = " << dt_ << "); try a smaller time.cfl or time.dt, or a finer grid";
    throw BlowUp(msg.str(), steps_ + 1, time_, bi, bj);
  }

  ProjectionConfig c_;  // the case (the whole grid)
  bool immersed_;  // obstacles of exact shape are immersed bodies (kernels.bodies)
  Setup setup_;    // checks and flags of the whole grid
  BlockLink<Exec, Real> link_;  // this rank's block and its exchanges (off on one rank)
  Grid g_;         // the block's grid (the whole grid on one rank): the kernels' layout
  std::size_t n_;
  DeviceArray<Exec, Real> u_, v_, f_, gg_, p_, rhs_;
  DeviceArray<Exec, CellFlags> flags_;
  // Immersed bodies: face codes, weights and body velocities (core/immersed.hpp);
  // staircase turning bodies: their velocity at the faces; the previous velocity.
  DeviceArray<Exec, std::int8_t> source_, merge_;
  BodyFaces ubody_, vbody_;
  DeviceArray<Exec, Real> sflux_, wallu_, wallv_, up_, vp_;
  int side_len_;
  DeviceArray<Exec, Real> sides_;  // normal and tangential values of the four sides
  // Scalars in backend memory: the reductions' results and the step's (dt_rule.hpp,
  // StepSlot); kRhsNorm2 and kResidual2: the batch's pressure solve (projection_batch.hpp).
  static constexpr int kSor = kStepSlots;  // the SOR solve's slots (linalg/sor_device.hpp)
  static constexpr int kScalars = kSor + sor_slot::kCount;
  DeviceArray<Exec, double> scalars_;
  double* scal_ = nullptr;  // scalars_, or this member's slots in a batch's array
  // kernels.dt = "device" (dt_device_): the reports of the steps in flight, whose they
  // are, and the step the host's time_, dt_, gamma_ belong to; the caps as uploaded.
  DtRule rule_;
  double dt_max_ = 0;  // no dt is longer (time_upper_bound)
  bool dt_device_ = false, device_after_batch_ = false;
  LaggedRead<Exec> reports_;
  std::deque<Pending> pending_;
  long known_step_ = 0;
  double end_time_ = std::numeric_limits<double>::infinity();
  bool caps_dirty_ = true;
  bool sor_device_ = false;  // kernels.pressure_stop = "device" in effect
  // kernels.launch = "graph": in effect (graph_), or why not; the two graphs.
  bool graph_ = false, pdl_ = false;  // pdl_: kernels.pdl = "on" with the graph
  std::string graph_off_;
  StepGraph<Exec> graphs_[2];
  bool graph_seen_[2] = {false, false};
  long graphs_captured_ = 0, graph_replays_ = 0;
  DirectLaunch<Exec> direct_;
  std::unique_ptr<PressureSolver<Exec, Real>> pressure_;
  std::unique_ptr<RefinedPoissonSolver<Exec>> refined_;  // pressure.mixed
  DeviceArray<Exec, double> pd_, bd_;                    // its pressure and rhs in double
  long steps_ = 0;
  double time_ = 0, dt_ = 0, dt_cap_ = 0, gamma_ = 0;
  std::vector<Real> host_u_, host_v_;  // steady_sample's downloads, reused
  SolveReport last_solve_;
  long last_exchanges_ = 0;  // halo exchanges of the last pressure solve (several ranks)
  bool has_outflow_ = false;
  bool open_ = false;              // flags computable from the position (no obstacles)
  OpenDomainFlags open_flags_{};
  KernelPlan plan_;
};

}  // namespace flowlua::projection

#include "models/projection/projection_batch.hpp"  // defines batch_key and make_batch_stepper
