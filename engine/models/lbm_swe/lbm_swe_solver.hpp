// The lattice-Boltzmann shallow-water model (seed 003, Zhou's LABSWE with the bed
// and friction sources the seed leaves out) on one backend, one arithmetic precision
// and one storage type. A step is one launch of the fused kernel (stream_collide.hpp)
// from one distribution buffer into the other; every 16 steps a reduction checks
// that every depth is positive and finite (the NaN guard). On several MPI ranks each
// steps its block of the grid (decomposed.hpp): the cells beside a neighbour first,
// whose new values then travel while the rest of the block is stepped.
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
#include "models/lbm_swe/decomposed.hpp"
#include "models/lbm_swe/lbm_swe_kernels.hpp"
#include "models/lbm_swe/lbm_swe_setup.hpp"
#include "models/lbm_swe/stream_collide.hpp"
#include "models/lbm_swe/swe_fields.hpp"
#include "parallel/halo.hpp"
#include "parallel/ranks.hpp"
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
      : global_(config), setup_(prepare(global_)), block_(block_of_this_rank(global_)), c_(local_case(global_, block_)),
        nx_(c_.grid.nx), ny_(c_.grid.ny), n_(long(nx_) * ny_),
        f_(std::size_t(kQ) * n_), g_(std::size_t(kQ) * n_), h_(setup_.bed ? n_ : 0), h2_(setup_.bed ? n_ : 0),
        z_(setup_.bed ? n_ : 0), solid_(setup_.solid ? n_ : 0), side_len_(std::max(nx_, ny_)),
        sides_(4 * std::size_t(side_len_)) {
    codec_ = make_codec<Real, Store>(setup_.h_ref, c_.gravity * setup_.h_ref / (setup_.e * setup_.e));
    plan_ = kernel_registry().plan(kernel_key(global_, setup_.bed, setup_.solid, Exec::name), c_.kernels);
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
    plan_ranges();
    halo_f_ = ranks::HaloExchange<Exec, Store>(block_, kQ, 0);
    if (variant_bed_) halo_h_ = ranks::HaloExchange<Exec, Real>(block_, 1, 1);
  }

  void step() override {
    if (!halo_f_.any()) {
      stream_collide(owned_);
    } else {
      // The rim (the cells beside a neighbouring block) first; its new values go to
      // the neighbours while the interior, which reads no halo, is stepped.
      for (const Range& r : rim_) stream_collide(r);
      halo_f_.begin(g_.data());
      if (variant_bed_) halo_h_.begin(h2_.data());
      if (interior_.i0 <= interior_.i1 && interior_.j0 <= interior_.j1) stream_collide(interior_);
      halo_f_.finish(g_.data());
      if (variant_bed_) halo_h_.finish(h2_.data());
    }
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
  const CaseCommon& common() const override { return global_; }
  const LbmSweConfig& config() const { return global_; }
  const ranks::Subdomain& block() const { return block_; }
  const Setup& setup() const { return setup_; }
  const std::string& kernel_variant() const { return plan_.variant("stream_collide"); }

  // New values for an open side (inflow q or u, outflow h), as the host evaluates
  // them: SideCondition::normal holds one value per boundary cell.
  void set_side(Side side, const SideCondition& sc) override {
    SweSideCondition& s = global_.sides[int(side)];
    if (!swe_side_open(s.kind) || s.kind == SweSide::OutflowFree) return;
    if (sc.normal.size() != s.values.size())
      throw CaseError(std::string("lbm_swe: wrong number of values for the ") + side_name(side) + " side");
    s.values = sc.normal;
    upload_side(int(side));
  }
  void set_swe_side(Side side, const std::vector<double>& values) {
    global_.sides[int(side)].values = values;
    upload_side(int(side));
  }

  // Checkpoints (sim/solver_state.hpp): the distributions as stored (fp16 as its bit
  // patterns, so a restart continues bit for bit), the depth the bed variants carry,
  // the open sides' values, the step and the time. g and h2 are rewritten every step.
  // save_state holds the whole grid (gathered on several ranks: a collective call);
  // save_block_state this rank's block with its halo (a piece on several ranks).
  SolverState save_state() override { return state(true); }
  SolverState save_block_state() override { return state(false); }
  void restore_state(const SolverState& st) override { restore(st, true); }
  void restore_block_state(const SolverState& st) override { restore(st, false); }

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
    std::string ranks_line;
    if (!block_.whole())
      ranks_line = "ranks      " + std::to_string(ranks::size()) + " (" + std::to_string(block_.decomposition.px) + " x " +
                   std::to_string(block_.decomposition.py) + " blocks); rank " + std::to_string(block_.rank) + " steps " + block_.describe() + "\n" +
                   ranks::halo_plan<Exec>(block_);
    return describe_setup(global_, setup_) + ranks_line +
           "kernels    (stage, variant: what it runs; kernels = { stage = variant } forces one)\n" + plan_.describe();
  }
  std::string backend_name() const override { return Exec::name; }
  ranks::Subdomain rank_block() const override { return block_; }

  // The state on the host: depth and velocity (m/s) of every cell (of the whole grid,
  // gathered from every rank: a collective call on several ranks).
  HostState host() const {
    std::vector<Store> raw = f_.download();
    std::vector<double> f(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) f[k] = double(codec_.load(raw[k], int(k / std::size_t(n_))));
    HostState s = host_state(c_, setup_.e, f);
    if (block_.whole()) return s;
    s.config = &global_;
    s.h = gather_planes(s.h, 1, block_);
    s.u = gather_planes(s.u, 1, block_);
    s.v = gather_planes(s.v, 1, block_);
    return s;
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
  SolverState state(bool whole) {
    SolverState st;
    const bool gather = whole && !block_.whole();
    const std::vector<Store> raw = gather ? gather_planes(f_.download(), kQ, block_) : f_.download();
    const std::size_t cells = whole ? std::size_t(global_.grid.cells()) : std::size_t(block_.nxa()) * block_.nya();
    const SolverState::Tile tile = whole ? SolverState::Tile::None : SolverState::Tile::Planes;
    SolverState::Array f;
    f.name = "f";
    f.single = !std::is_same_v<Store, double>;
    f.values.resize(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) f.values[k] = stored_as_double(raw[k]);
    f.rows = kQ;
    f.cols = cells;
    f.layout = std::is_same_v<Store, Half>
                   ? "[a][j nx + i]: distribution a of cell (i, j), its fp16 bit pattern (storage = \"fp16\")"
                   : "[a][j nx + i]: distribution a of cell (i, j), as the codec stores it";
    if (!whole) f.layout += "; cells of the rank's block with its halo, nx = its local width";
    f.tile = tile;
    st.arrays.push_back(std::move(f));
    if (h_.size()) {
      const std::vector<Real> h = gather ? gather_planes(h_.download(), 1, block_) : h_.download();
      SolverState::Array a{"h", !std::is_same_v<Real, double>, std::vector<double>(h.begin(), h.end()),
                           whole ? std::size_t(global_.grid.ny) : std::size_t(block_.nya()),
                           whole ? std::size_t(global_.grid.nx) : std::size_t(block_.nxa()), "[j][i]: depth of cell (i, j)"};
      a.tile = tile;
      st.arrays.push_back(std::move(a));
    }
    for (Side sd : kSides)
      st.arrays.push_back({std::string("side_values_") + side_name(sd), false, global_.sides[int(sd)].values, 0, 0,
                           "the side's values (q, u or h) as last evaluated"});
    st.scalars = {{"step", double(steps_)}, {"time", time_}, {"dt", setup_.dt}};
    return st;
  }
  // `whole`: the arrays are the whole grid's (cut to the block here); otherwise the block's.
  void restore(const SolverState& st, bool whole) {
    if (st.scalar("dt") != setup_.dt)
      throw CaseError("the checkpoint was written with dt = " + std::to_string(st.scalar("dt")) +
                      " and this case has dt = " + std::to_string(setup_.dt) +
                      " (lbm_swe's dt fixes the lattice speed for the whole run)");
    const SolverState::Array& f = st.array("f");
    const std::size_t cells = whole ? std::size_t(global_.grid.cells()) : std::size_t(block_.nxa()) * block_.nya();
    if (f.values.size() != kQ * cells)
      throw CaseError("the checkpoint's distributions have " + std::to_string(f.values.size()) +
                      " values where this simulation has " + std::to_string(kQ * cells));
    std::vector<Store> raw(f.values.size());
    for (std::size_t k = 0; k < raw.size(); ++k) raw[k] = stored_from_double(f.values[k]);
    f_.upload(whole ? cut_planes(raw, kQ, block_) : raw);
    if (h_.size()) {
      const SolverState::Array& h = st.array("h");
      if (h.values.size() != cells) throw CaseError("the checkpoint's depth array has the wrong size");
      const std::vector<Real> hv(h.values.begin(), h.values.end());
      h_.upload(whole ? cut_planes(hv, 1, block_) : hv);
    }
    for (Side sd : kSides) {
      global_.sides[int(sd)].values = st.array(std::string("side_values_") + side_name(sd)).values;
      upload_side(int(sd));
    }
    steps_ = long(st.scalar("step"));
    time_ = st.scalar("time");
  }

  // Cells [i0, i1] x [j0, j1] of the local arrays.
  struct Range {
    int i0, i1, j0, j1;
  };

  // The owned cells, and with neighbours the rim beside them and the interior.
  void plan_ranges() {
    const ranks::Subdomain& b = block_;
    owned_ = {b.ox(), b.ox() + b.nx - 1, b.oy(), b.oy() + b.ny - 1};
    interior_ = {owned_.i0 + b.halo[0], owned_.i1 - b.halo[1], owned_.j0 + b.halo[2], owned_.j1 - b.halo[3]};
    if (b.halo[2]) rim_.push_back({owned_.i0, owned_.i1, owned_.j0, owned_.j0});
    if (b.halo[3]) rim_.push_back({owned_.i0, owned_.i1, owned_.j1, owned_.j1});
    if (b.halo[0]) rim_.push_back({owned_.i0, owned_.i0, interior_.j0, interior_.j1});
    if (b.halo[1]) rim_.push_back({owned_.i1, owned_.i1, interior_.j0, interior_.j1});
  }

  void stream_collide(const Range& r) {
    const std::string& v = plan_.variant("stream_collide");
    if (v == "flat_open") launch<false, false>(r);
    else if (v == "flat") launch<false, true>(r);
    else if (v == "bed_open") launch<true, false>(r);
    else launch<true, true>(r);
  }

  template <bool kBed, bool kSolid>
  void launch(const Range& r) {
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
    Exec::template for_each_bounded<min_blocks<kBed>()>(r.i0, r.i1, r.j0, r.j1,
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
    const double bad = ranks::max(Exec::reduce_max(owned_.i0, owned_.i1, owned_.j0, owned_.j1,
                                                   BadDepth<Real, Store>{f_.data(), solid, codec_, nx_, n_}));
    if (bad == 0) return;
    // Find the first bad cell on the host for the message (the same on every rank).
    HostState st = host();
    const long n = global_.grid.cells();
    for (long k = 0; k < n; ++k) {
      if (!global_.solid.empty() && global_.solid[k]) continue;
      const double h = st.h[k];
      if (h > 0 && h < 1e30) continue;
      const int i = int(k % global_.grid.nx), j = int(k / global_.grid.nx);
      std::ostringstream msg;
      msg << "lbm_swe: depth h = " << h << " in cell (" << i + 1 << ", " << j + 1 << ") at x = "
          << (i + 0.5) * global_.grid.dx << ", y = " << (j + 0.5) * global_.grid.dy << " by step " << steps_ << ", t = "
          << time_ << " (the guard checks every 16 steps); try a smaller time.dt or time.cfl, a larger fluid.nu, "
          << "collision = 'trt' or smagorinsky (this model has no wetting and drying)";
      throw BlowUp(msg.str(), steps_, time_, i + 1, j + 1);
    }
  }

  // The side's values as the block sees them (decomposed.hpp), in the arithmetic's type.
  void upload_side(int k) {
    std::vector<Real> v(side_len_, Real(0));
    const std::vector<double> vals = block_.halo[k] ? std::vector<double>{} : local_side_values(global_.sides[k].values, k, block_);
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

  LbmSweConfig global_;      // the case
  Setup setup_;
  ranks::Subdomain block_;   // the cells this rank steps (the whole grid on one rank)
  LbmSweConfig c_;           // the case cut to the block and its halo
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
  Range owned_{}, interior_{};
  std::vector<Range> rim_;
  ranks::HaloExchange<Exec, Store> halo_f_;  // distributions (all nine)
  ranks::HaloExchange<Exec, Real> halo_h_;   // the depth the bed's slope force reads
  long steps_ = 0;
  double time_ = 0;
};

}  // namespace flowlua::lbm_swe
