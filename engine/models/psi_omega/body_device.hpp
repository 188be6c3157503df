// The bodies of a psi-omega case in backend memory, and their part of each step
// (PsiOmegaSolver): the node bits and the body list (body_setup.hpp builds them on the
// host), psi_B per connected body, and for the free bodies the Kelvin condition of
// bodies.hpp: the segments of their boxes, the harmonic fields phi_k and the K x K
// matrix A_jk = Gamma_j(phi_k), computed once, and per step the target circulation and
// the correction of psi_B after the stream-function solve.
#pragma once
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/device_array.hpp"
#include "core/error.hpp"
#include "linalg/solver_factory.hpp"
#include "models/psi_omega/bodies.hpp"
#include "models/psi_omega/body_setup.hpp"
#include "models/psi_omega/stream_boundary.hpp"
#include "sim/solver_state.hpp"

namespace flowlua::psi_omega {

template <class Exec, class Real>
class BodyDevice {
 public:
  // b must outlive this object (the solver's Setup holds it); n: nodes in the layout.
  BodyDevice(const BodySetup& b, std::size_t n)
      : b_(b), n_(n), info_(n), node_(b.entries()), comp_(b.entries()), thermal_(b.entries()), T_(b.entries()),
        psi_dev_(std::size_t(b.components)), psi_body_(std::size_t(b.components), 0.0) {
    info_.upload(b.info);
    node_.upload(b.node);
    comp_.upload(b.component);
    thermal_.upload(b.thermal);
    T_.upload(std::vector<Real>(b.T.begin(), b.T.end()));
    if (b.free_count > 0) {
      segments_ = DeviceArray<Exec, int>(b.segments.size());
      segments_.upload(b.segments);
      segment_out_ = DeviceArray<Exec, double>(2 * b.segment_count());
      delta_ = DeviceArray<Exec, Real>(std::size_t(b.free_count));
      kelvin_target_.assign(std::size_t(b.free_count), 0.0);  // from rest: no circulation
    }
  }

  const std::uint16_t* info() const { return info_.data(); }
  bool has_free() const { return b_.free_count > 0; }

  // psi at the body nodes: zero (restore false) or psi_B, also into psi_b; from_b:
  // psi_B is psi_b's own value at the node (the harmonic fields' set-up).
  void stream(const State<Real>& s, Real* psi_b, bool restore, bool from_b = false) {
    Exec::for_each(0, int(b_.entries()) - 1, 0, 0,
                   BodyStream<Real>{s, list(), from_b ? nullptr : psi_dev_.data(), psi_b, restore});
  }

  // psi_B of the attached bodies from the ring's psi (a side's value may change); the
  // free ones keep theirs. Then into psi and psi_b.
  void follow_sides(const State<Real>& s, Real* psi_b, const std::vector<double>& ring_psi) {
    psi_body_ = body_stream_values(b_, ring_psi, psi_body_);
    upload_psi_body();
    stream(s, psi_b, true);
  }

  // Wall vorticity and temperature on the body nodes (BodyValues).
  void values(const State<Real>& s, Real relax, bool jensen) {
    Exec::for_each(0, int(b_.entries()) - 1, 0, 0, BodyValues<Real>{s, list(), relax, jensen});
  }

  // The harmonic fields phi_k (-lap phi = 0, 1 on free body k, 0 on every other
  // Dirichlet node, dphi/dn = 0 on an outflow) and the condition's matrix
  // A_jk = Gamma_j(phi_k), the circulation of phi_k around body j's box (bodies.hpp).
  // Once, at set-up, by CG to a tight tolerance, in the solver's arrays (s: psi, w,
  // rhs; psi_b; the flags), which it leaves zero: the caller restores psi_b.
  void harmonics(const State<Real>& s, Real* psi_b, const CellFlags* flags, const Grid& nodes,
                 const std::vector<CellFlags>& host_flags, int outflow_side, double nu) {
    const int K = b_.free_count, nx = s.nx, ny = s.ny;
    phi_ = DeviceArray<Exec, Real>(std::size_t(K) * n_);
    PressureControl pc;
    pc.solver = PressureSolverKind::ConjugateGradient;
    pc.tol = std::is_same_v<Real, float> ? 1e-5 : 1e-12;
    pc.max_iter = 100000;
    auto cg = make_pressure_solver<Exec, Real>(pc, PoissonProblem{nodes, Neighbours{nx, ny, false, false}, host_flags});
    const int ring = std::max(nx, ny) + 1;
    const std::vector<Real> zero(n_, Real(0));
    std::vector<std::vector<Real>> phi(K);
    for (int k = 0; k < K; ++k) {
      std::vector<Real> ind(n_, Real(0));
      for (std::size_t q = 0; q < b_.entries(); ++q)
        if (b_.free_index[std::size_t(b_.component[q])] == k) ind[std::size_t(b_.node[q])] = Real(1);
      Exec::upload(psi_b, ind.data(), n_);
      Exec::upload(s.w, zero.data(), n_);
      Exec::upload(s.psi, zero.data(), n_);
      Exec::for_each(1, nx, 1, ny, StreamRhs<Real>{s});
      Exec::for_each(0, ring, 0, 0, StreamRing<Real>{s, outflow_side, false});
      stream(s, psi_b, false);
      PoissonView<Real> pv{s.psi, s.rhs, flags, Neighbours{nx, ny, false, false}, Real(1 / (s.dx * s.dx)),
                           Real(1 / (s.dy * s.dy))};
      const SolveReport rep = cg->solve(pv);
      if (!rep.converged && !(rep.residual <= pc.tol * 100))
        throw CaseError("obstacles: the harmonic stream function of a body did not converge (residual " +
                        std::to_string(rep.residual) + "); check the geometry");
      Exec::for_each(0, ring, 0, 0, StreamRing<Real>{s, outflow_side, true});
      stream(s, psi_b, true, true);
      Exec::copy(phi_.data() + std::size_t(k) * n_, s.psi, n_);
      phi[k].resize(n_);
      Exec::download(phi[k].data(), s.psi, n_);
    }
    State<Real> hs = s;  // host arrays of the same layout
    hs.body = b_.info.data();
    A_.assign(std::size_t(K) * K, 0.0);
    for (int k = 0; k < K; ++k) {
      std::vector<double> gamma, kk;
      kelvin_sums(b_, hs, phi[k].data(), zero.data(), nu, gamma, kk);
      for (int j = 0; j < K; ++j) A_[std::size_t(j) * K + k] = gamma[j];
    }
    std::vector<double> probe(K, 1.0);
    if (!solve_dense(A_, probe))
      throw CaseError("obstacles: the pressure condition of the bodies is singular; check the geometry");
    Exec::upload(s.w, zero.data(), n_);
    Exec::upload(s.psi, zero.data(), n_);
  }

  // Before the step: the circulation the boxes must have after it, Gamma^n + dt K^n.
  void kelvin_target(const State<Real>& s, double nu, double dt) {
    std::vector<double> gamma, k;
    kelvin(s, nu, gamma, k);
    for (std::size_t j = 0; j < gamma.size(); ++j) kelvin_target_[j] = gamma[j] + dt * k[j];
  }

  // After the solve: psi_B of the free bodies so that their boxes have that circulation
  // (bodies.hpp): psi += sum delta_k phi_k with A delta = target - Gamma(psi).
  void correct(const State<Real>& s, Real* psi_b, double nu) {
    if (phi_.size() == 0) return;  // before harmonics()
    const int K = b_.free_count;
    std::vector<double> gamma, k;
    kelvin(s, nu, gamma, k);
    std::vector<double> r(K);
    for (int j = 0; j < K; ++j) r[j] = kelvin_target_[j] - gamma[j];
    if (!std::isfinite(std::accumulate(r.begin(), r.end(), 0.0))) return;  // the step's blow-up check reports it
    solve_dense(A_, r);
    delta_.upload(std::vector<Real>(r.begin(), r.end()));
    Exec::for_each(0, s.nx + 1, 0, s.ny + 1, AddHarmonics<Real>{s, phi_.data(), delta_.data(), K});
    for (int cp = 0; cp < b_.components; ++cp)
      if (b_.free_index[cp] >= 0) psi_body_[cp] += r[std::size_t(b_.free_index[cp])];
    upload_psi_body();
    stream(s, psi_b, true);
  }

  // Checkpoints: psi_B of each connected body.
  void save(SolverState& st) const {
    for (std::size_t k = 0; k < psi_body_.size(); ++k)
      st.scalars.push_back({"psi_body_" + std::to_string(k), psi_body_[k]});
  }
  void restore(const SolverState& st) {
    for (std::size_t k = 0; k < psi_body_.size(); ++k) psi_body_[k] = st.scalar("psi_body_" + std::to_string(k));
    upload_psi_body();
  }

 private:
  BodyList<Real> list() { return BodyList<Real>{node_.data(), comp_.data(), thermal_.data(), T_.data()}; }
  void upload_psi_body() { psi_dev_.upload(std::vector<Real>(psi_body_.begin(), psi_body_.end())); }

  // Gamma_j (only: K is not needed after the solve, but the kernel gives both) and K_j
  // around the box of each free body (bodies.hpp), summed on the host.
  void kelvin(const State<Real>& s, double nu, std::vector<double>& gamma, std::vector<double>& k) {
    const int S = int(b_.segment_count());
    Exec::for_each(0, S - 1, 0, 0, KelvinTerms<Real>{s, segments_.data(), segment_out_.data(), Real(nu)});
    segment_out_.download_into(segment_host_);
    gamma.assign(std::size_t(b_.free_count), 0.0);
    k.assign(std::size_t(b_.free_count), 0.0);
    for (int q = 0; q < S; ++q) {
      gamma[std::size_t(b_.segments[4 * q + 3])] += segment_host_[2 * q];
      k[std::size_t(b_.segments[4 * q + 3])] += segment_host_[2 * q + 1];
    }
  }

  const BodySetup& b_;
  std::size_t n_;
  DeviceArray<Exec, std::uint16_t> info_;
  DeviceArray<Exec, int> node_, comp_, thermal_, segments_;
  DeviceArray<Exec, Real> T_, psi_dev_, phi_, delta_;
  DeviceArray<Exec, double> segment_out_;
  std::vector<double> psi_body_, A_, segment_host_, kelvin_target_;
};

}  // namespace flowlua::psi_omega
