// The lattice-Boltzmann shallow-water model (seed 003, Zhou's LABSWE with the bed
// and friction sources the seed leaves out) on one backend, one arithmetic precision
// and one storage type. A step is one launch of the fused kernel (stream_collide.hpp)
// from one distribution buffer into the other; every 16 steps a reduction checks
// that every depth is positive and finite (the NaN guard).
#pragma once
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/device_array.hpp"
#include "core/error.hpp"
#include "models/lbm_swe/lbm_swe_kernels.hpp"
#include "models/lbm_swe/lbm_swe_setup.hpp"
#include "models/lbm_swe/stream_collide.hpp"
#include "models/lbm_swe/swe_fields.hpp"
#include "sim/solver.hpp"

namespace flowlua::lbm_swe {

// 1 where the depth of a cell (sum of its distributions) is not positive and finite.
template <class Real, class Store>
struct BadDepth {
  const Store* f;
  const std::uint8_t* solid;
  Codec<Real, Store> codec;
  int nx;
  long n;
  FL_HD double operator()(int i, int j) const {
    const long c = long(i) + long(j) * nx;
    if (solid && solid[c]) return 0.0;
    Real h = 0;
    for (int a = 0; a < kQ; ++a) h += codec.load(f[a * n + c], a);
    return (h > Real(0) && h < Real(1e30)) ? 0.0 : 1.0;
  }
};

template <class Exec, class Real, class Store>
class LbmSweSolver final : public Solver {
 public:
  explicit LbmSweSolver(const LbmSweConfig& config)
      : c_(config), setup_(prepare(c_)), nx_(c_.grid.nx), ny_(c_.grid.ny), n_(long(nx_) * ny_),
        f_(std::size_t(kQ) * n_), g_(std::size_t(kQ) * n_), h_(setup_.bed ? n_ : 0), h2_(setup_.bed ? n_ : 0),
        z_(setup_.bed ? n_ : 0), solid_(setup_.solid ? n_ : 0), side_len_(std::max(nx_, ny_)),
        sides_(4 * std::size_t(side_len_)) {
    codec_ = make_codec<Real, Store>(setup_.h_ref, c_.gravity * setup_.h_ref / (setup_.e * setup_.e));
    plan_ = kernel_registry().plan(kernel_key(c_, setup_.bed, setup_.solid, Exec::name), c_.kernels);
    const std::string& v = plan_.variant("stream_collide");
    variant_bed_ = v == "bed" || v == "bed_open";
    variant_solid_ = v == "bed" || v == "flat";
    if (variant_bed_ && !setup_.bed) {  // the bed variant forced on a flat bed: it needs its arrays
      h_ = DeviceArray<Exec, Real>(n_);
      h2_ = DeviceArray<Exec, Real>(n_);
      z_ = DeviceArray<Exec, Real>(n_);
    }
    if (variant_solid_ && !setup_.solid) solid_ = DeviceArray<Exec, std::uint8_t>(n_);
    if (solid_.size()) solid_.upload(c_.solid.empty() ? std::vector<std::uint8_t>(n_, 0) : c_.solid);
    if (z_.size()) {
      std::vector<Real> z(n_, Real(0));
      for (long k = 0; k < n_ && !c_.bed.empty(); ++k) z[k] = Real(c_.bed[k]);
      z_.upload(z);
    }
    // f = f^eq of the initial state (as HONEI's code does; seed sec. 9).
    std::vector<Store> f(std::size_t(kQ) * n_);
    std::vector<Real> h(n_);
    const double e = setup_.e;
    for (long k = 0; k < n_; ++k) {
      const bool solid = !c_.solid.empty() && c_.solid[k];
      const double hk = solid ? setup_.h_ref : c_.h0[k];
      const double U = solid || c_.u0.empty() ? 0 : c_.u0[k] / e, V = solid || c_.v0.empty() ? 0 : c_.v0[k] / e;
      for (int a = 0; a < kQ; ++a)
        f[a * n_ + k] = codec_.store(Real(equilibrium<double>(a, hk, c_.gravity * hk / (e * e), U, V)), a);
      h[k] = solid ? Real(0) : Real(hk);
    }
    f_.upload(f);
    g_.upload(f);
    if (h_.size()) {
      h_.upload(h);
      h2_.upload(h);
    }
    for (Side s : kSides) upload_side(int(s));
  }

  void step() override {
    const std::string& v = plan_.variant("stream_collide");
    if (v == "flat_open") launch<false, false>();
    else if (v == "flat") launch<false, true>();
    else if (v == "bed_open") launch<true, false>();
    else launch<true, true>();
    std::swap(f_, g_);
    if (variant_bed_) std::swap(h_, h2_);
    ++steps_;
    time_ += setup_.dt;
    if (steps_ % 16 == 0) check_depth();
  }

  long steps() const override { return steps_; }
  double time() const override { return time_; }
  double dt() const override { return setup_.dt; }
  // The lattice speed e = dx / dt is fixed for the run: the last step may end past t_end.
  void limit_next_dt(double) override {}
  void steady_sample(SteadySample& out) override { fill_steady_sample(host(), out); }
  const CaseCommon& common() const override { return c_; }
  const LbmSweConfig& config() const { return c_; }
  const Setup& setup() const { return setup_; }
  const std::string& kernel_variant() const { return plan_.variant("stream_collide"); }

  // New values for an open side (inflow q or u, outflow h), as the host evaluates
  // them: SideCondition::normal holds one value per boundary cell.
  void set_side(Side side, const SideCondition& sc) override {
    SweSideCondition& s = c_.sides[int(side)];
    if (!swe_side_open(s.kind) || s.kind == SweSide::OutflowFree) return;
    if (sc.normal.size() != s.values.size())
      throw CaseError(std::string("lbm_swe: wrong number of values for the ") + side_name(side) + " side");
    s.values = sc.normal;
    upload_side(int(side));
  }
  void set_swe_side(Side side, const std::vector<double>& values) {
    c_.sides[int(side)].values = values;
    upload_side(int(side));
  }

  // Checkpoints (sim/solver_state.hpp): the distributions as stored (fp16 as its bit
  // patterns, so a restart continues bit for bit), the depth the bed variants carry,
  // the open sides' values, the step and the time. g and h2 are rewritten every step.
  SolverState save_state() override {
    SolverState st;
    const std::vector<Store> raw = f_.download();
    SolverState::Array f;
    f.name = "f";
    f.single = !std::is_same_v<Store, double>;
    f.values.resize(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) f.values[k] = stored_as_double(raw[k]);
    f.rows = kQ;
    f.cols = std::size_t(n_);
    f.layout = std::is_same_v<Store, Half>
                   ? "[a][j nx + i]: distribution a of cell (i, j), its fp16 bit pattern (storage = \"fp16\")"
                   : "[a][j nx + i]: distribution a of cell (i, j), as the codec stores it";
    st.arrays.push_back(std::move(f));
    if (h_.size()) save_array(st, "h", h_, std::size_t(ny_), std::size_t(nx_), "[j][i]: depth of cell (i, j)");
    save_array(st, "sides", sides_, 4, std::size_t(side_len_), "[k][s]: values of side k (left, right, bottom, top)");
    for (Side sd : kSides)
      st.arrays.push_back({std::string("side_values_") + side_name(sd), false, c_.sides[int(sd)].values, 0, 0,
                           "the side's values (q, u or h) as last evaluated"});
    st.scalars = {{"step", double(steps_)}, {"time", time_}, {"dt", setup_.dt}};
    return st;
  }
  void restore_state(const SolverState& st) override {
    if (st.scalar("dt") != setup_.dt)
      throw CaseError("the checkpoint was written with dt = " + std::to_string(st.scalar("dt")) +
                      " and this case has dt = " + std::to_string(setup_.dt) +
                      " (lbm_swe's dt fixes the lattice speed for the whole run)");
    const SolverState::Array& f = st.array("f");
    if (f.values.size() != f_.size())
      throw CaseError("the checkpoint's distributions have " + std::to_string(f.values.size()) +
                      " values where this simulation has " + std::to_string(f_.size()));
    std::vector<Store> raw(f.values.size());
    for (std::size_t k = 0; k < raw.size(); ++k) raw[k] = stored_from_double(f.values[k]);
    f_.upload(raw);
    if (h_.size()) restore_array(st, "h", h_);
    restore_array(st, "sides", sides_);
    for (Side sd : kSides) c_.sides[int(sd)].values = st.array(std::string("side_values_") + side_name(sd)).values;
    steps_ = long(st.scalar("step"));
    time_ = st.scalar("time");
  }

  std::vector<std::string> field_names() const override { return lbm_swe::field_names(); }
  FieldSnapshot field(const std::string& name) override { return make_field(host(), name); }
  void set_field(const FieldSnapshot& f) override {
    throw CaseError("field '" + f.name + "' cannot be set in the lbm_swe model; give initial = { h = ..., u = ... }");
  }

  Diagnostics diagnostics() override {
    Diagnostics d;
    d.step = steps_;
    d.time = time_;
    d.dt = setup_.dt;
    add_diagnostics(host(), d);
    d.add("tau", setup_.tau);
    d.add("lattice_speed", setup_.e);
    return d;
  }

  Forces forces(int) override { throw CaseError("the lbm_swe model does not compute forces on obstacles"); }
  std::string plan() const override {
    return describe_setup(c_, setup_) +
           "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n" + plan_.describe();
  }
  std::string backend_name() const override { return Exec::name; }

  // The state on the host: depth and velocity (m/s) of every cell.
  HostState host() const {
    std::vector<Store> raw = f_.download();
    std::vector<double> f(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) f[k] = double(codec_.load(raw[k], int(k / std::size_t(n_))));
    return host_state(c_, setup_.e, f);
  }

  // Bytes the fused step moves per cell (distributions read and written, depth and
  // bed read, depth written, obstacle flags), for the benchmark harness.
  double bytes_per_cell() const {
    double b = 2.0 * kQ * sizeof(Store);
    if (variant_bed_) b += 3.0 * sizeof(Real);
    if (variant_solid_) b += 1.0;
    return b;
  }

 private:
  template <bool kBed, bool kSolid>
  void launch() {
    StepArrays<Real, Store> m{f_.data(), g_.data(), h_.data(), h2_.data(), z_.data(), solid_.data(), nx_, ny_, n_};
    const double tau = setup_.tau, tau_minus = 0.5 + 0.25 / (tau - 0.5);
    const double e = setup_.e, dt = setup_.dt;
    StepParams<Real> p;
    p.omega = Real(1 / tau);
    p.omega_minus = Real(1 / tau_minus);
    p.tau = Real(tau);
    p.trt = c_.collision == SweCollision::Trt ? 1 : 0;
    p.smag = Real(18 * std::sqrt(2.0) * c_.smagorinsky * c_.smagorinsky);
    p.ge2 = Real(c_.gravity / (e * e));
    p.friction = int(c_.friction);
    const double cf = c_.friction_coefficient;
    p.friction_k = Real(c_.friction == SweFriction::Manning ? dt * c_.gravity * cf * cf * e
                        : c_.friction == SweFriction::Chezy ? dt * c_.gravity * e / (cf * cf)
                                                            : 0.0);
    p.inv_e = Real(1 / e);
    SideView<Real> s;
    for (int k = 0; k < 4; ++k) {
      s.kind[k] = int(c_.sides[k].kind);
      s.value[k] = sides_.data() + std::size_t(k) * side_len_;
    }
    Exec::template for_each_bounded<min_blocks<kBed>()>(0, nx_ - 1, 0, ny_ - 1,
                                                        StreamCollide<Real, Store, kBed, kSolid>{m, p, s, codec_});
  }

  // Blocks of 256 threads the fused step keeps resident per multiprocessor on CUDA
  // (a register budget). Measured on the H100 at 8192^2 (docs/performance.md): 16-bit
  // storage gains 14% from 4 blocks over none and 6% more from 6 on a flat bed (5 with
  // the bed, where 6 is slower); float gains nothing; double gains 4% on the bed from
  // 2 and loses from 4 up (spills).
  template <bool kBed>
  static constexpr int min_blocks() {
    if constexpr (!std::is_same_v<Real, Store>) return kBed ? 5 : 6;
    return std::is_same_v<Real, double> ? 2 : 4;
  }

  void check_depth() {
    const std::uint8_t* solid = solid_.size() ? solid_.data() : nullptr;
    const double bad = Exec::reduce_max(0, nx_ - 1, 0, ny_ - 1, BadDepth<Real, Store>{f_.data(), solid, codec_, nx_, n_});
    if (bad == 0) return;
    // Find the first bad cell on the host for the message.
    HostState st = host();
    for (long k = 0; k < n_; ++k) {
      if (!c_.solid.empty() && c_.solid[k]) continue;
      const double h = st.h[k];
      if (h > 0 && h < 1e30) continue;
      const int i = int(k % nx_), j = int(k / nx_);
      std::ostringstream msg;
      msg << "lbm_swe: depth h = " << h << " in cell (" << i + 1 << ", " << j + 1 << ") at x = "
          << (i + 0.5) * c_.grid.dx << ", y = " << (j + 0.5) * c_.grid.dy << " by step " << steps_ << ", t = "
          << time_ << " (the guard checks every 16 steps); try a smaller time.dt or time.cfl, a larger fluid.nu, "
          << "collision = 'trt' or smagorinsky (this model has no wetting and drying)";
      throw BlowUp(msg.str(), steps_, time_, i + 1, j + 1);
    }
  }

  void upload_side(int k) {
    std::vector<Real> v(side_len_, Real(0));
    const auto& vals = c_.sides[k].values;
    for (std::size_t q = 0; q < vals.size() && q < std::size_t(side_len_); ++q) v[q] = Real(vals[q]);
    Exec::upload(sides_.data() + std::size_t(k) * side_len_, v.data(), std::size_t(side_len_));
  }

  static double stored_as_double(Store x) {
    if constexpr (std::is_same_v<Store, Half>) return double(x.bits);
    else return double(x);
  }
  static Store stored_from_double(double x) {
    if constexpr (std::is_same_v<Store, Half>) return Half{std::uint16_t(x)};
    else return Store(x);
  }

  LbmSweConfig c_;
  Setup setup_;
  int nx_, ny_;
  long n_;
  DeviceArray<Exec, Store> f_, g_;
  DeviceArray<Exec, Real> h_, h2_, z_;
  DeviceArray<Exec, std::uint8_t> solid_;
  int side_len_;
  DeviceArray<Exec, Real> sides_;
  Codec<Real, Store> codec_;
  KernelPlan plan_;
  bool variant_bed_ = false, variant_solid_ = false;
  long steps_ = 0;
  double time_ = 0;
};

}  // namespace flowlua::lbm_swe
