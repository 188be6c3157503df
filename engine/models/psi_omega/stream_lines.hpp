// The stream-function Poisson problem by line relaxation (pressure.solver = 'adi'):
// Peaceman-Rachford ADI iteration (Peaceman & Rachford 1955; seed 001 eqs. 4 and 7
// solve the same equation line by line) for A psi = f with A = H_x + H_y,
// H_x = -d2/dx2 and H_y = -d2/dy2 (three-point), f = -rhs (lap psi = rhs, the boundary
// psi folded into rhs and the ring zero, stream_boundary.hpp):
//   (rho_k + H_x) psi*    = f + (rho_k - H_y) psi^k      (one system per x-line)
//   (rho_k + H_y) psi^k+1 = f + (rho_k - H_x) psi*       (one system per y-line)
// For commuting H_x, H_y (a rectangle) the error of mode (l, m) is multiplied by
// |(rho - l)(rho - m) / ((rho + l)(rho + m))| < 1 per iteration, whatever rho; a cycle
// of J parameters spread geometrically over the eigenvalue range [a, b] of H_x and
// H_y damps every mode (Wachspress, "The ADI Model Problem", 2013, ch. 1: J of order
// ln(b / a) parameters reduce the error by orders of magnitude per cycle), where the
// seed's line Jacobi (eq. 4 with the neighbouring lines at the old iterate) needs
// O(n^2) sweeps. Each solve starts from psi extrapolated in time (the solver's first
// guess), so one cycle or less usually reaches pressure.tol.
// An outflow side is dpsi/dn = 0: its ring value is the first interior node's. The
// nodes of a body are held at 0 (identity rows): their value is folded into rhs like
// the ring's (stream_boundary.hpp).
#pragma once
#include <cmath>
#include <vector>

#include "backend/device_array.hpp"
#include "linalg/pressure_solver.hpp"
#include "linalg/tridiagonal/line_batch.hpp"
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

// psi at (i, j) with the homogeneous ring: 0, or on the outflow side the inner value.
template <class Real>
FL_HD Real ring_or_value(const State<Real>& s, const Real* f, int outflow_side, int i, int j) {
  if (i == 0) return outflow_side == 0 && j >= 1 && j <= s.ny ? f[s.at(1, j)] : Real(0);
  if (i == s.nx + 1) return outflow_side == 1 && j >= 1 && j <= s.ny ? f[s.at(s.nx, j)] : Real(0);
  if (j == 0) return outflow_side == 2 ? f[s.at(i, 1)] : Real(0);
  if (j == s.ny + 1) return outflow_side == 3 ? f[s.at(i, s.ny)] : Real(0);
  return f[s.at(i, j)];
}

template <class Real, bool kAlongX>
struct StreamLineRows {
  State<Real> s;      // s.rhs: lap psi = rhs
  const Real* from;   // psi^k (x-lines) or psi* (y-lines)
  Real* to;
  Real rho;
  int outflow_side;
  FL_HD void row(int line, int k, Real& a, Real& b, Real& c, Real& d) const {
    const int i = kAlongX ? k + 1 : line + 1, j = kAlongX ? line + 1 : k + 1;
    if (s.is_body(i, j)) {  // a body's node: psi = 0 during the solve (its value is in rhs)
      a = 0, b = 1, c = 0, d = 0;
      return;
    }
    const Real ih2 = kAlongX ? Real(1) / (s.dx * s.dx) : Real(1) / (s.dy * s.dy);  // implicit direction
    const Real eh2 = kAlongX ? Real(1) / (s.dy * s.dy) : Real(1) / (s.dx * s.dx);  // explicit direction
    a = -ih2, b = rho + 2 * ih2, c = -ih2;
    const int n = kAlongX ? s.nx : s.ny;
    const int low = kAlongX ? 0 : 2, high = kAlongX ? 1 : 3;  // the sides at k = -1 and k = n
    if (k == 0 && outflow_side == low) b += a;   // psi_ring = psi_1
    if (k == n - 1 && outflow_side == high) b += c;
    const Real pc = from[s.at(i, j)];
    const Real pm = kAlongX ? ring_or_value(s, from, outflow_side, i, j - 1) : ring_or_value(s, from, outflow_side, i - 1, j);
    const Real pp = kAlongX ? ring_or_value(s, from, outflow_side, i, j + 1) : ring_or_value(s, from, outflow_side, i + 1, j);
    d = -s.rhs[s.at(i, j)] + rho * pc - eh2 * (2 * pc - pm - pp);
  }
  FL_HD void store(int line, int k, Real x) const {
    to[kAlongX ? s.at(k + 1, line + 1) : s.at(line + 1, k + 1)] = x;
  }
};

// (rhs - lap psi)^2 and rhs^2 at a node.
template <class Real>
struct StreamResidual {
  State<Real> s;
  int outflow_side;
  FL_HD double operator()(int i, int j) const {
    if (s.is_body(i, j)) return 0;
    const Real pc = s.psi[s.at(i, j)];
    const Real lap = (ring_or_value(s, s.psi, outflow_side, i - 1, j) - 2 * pc +
                      ring_or_value(s, s.psi, outflow_side, i + 1, j)) / (s.dx * s.dx) +
                     (ring_or_value(s, s.psi, outflow_side, i, j - 1) - 2 * pc +
                      ring_or_value(s, s.psi, outflow_side, i, j + 1)) / (s.dy * s.dy);
    const double r = double(s.rhs[s.at(i, j)]) - double(lap);
    return r * r;
  }
};

template <class Real>
struct RhsSquared {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    if (s.is_body(i, j)) return 0;
    const double r = s.rhs[s.at(i, j)];
    return r * r;
  }
};

// psi = 0 at a node (a kernel at namespace scope: CUDA launches no private types).
template <class Real>
struct ZeroInterior {
  State<Real> s;
  FL_HD void operator()(int i, int j) const { s.psi[s.at(i, j)] = Real(0); }
};

// The ADI parameters: J values geometric over [a, b], the smallest and largest
// eigenvalue of H_x and H_y (Dirichlet: (4 / h^2) sin^2(pi / (2 (n + 1))) and
// (4 / h^2) cos^2(...); a Neumann end lowers the smallest to about a quarter).
inline std::vector<double> stream_adi_parameters(int nx, int ny, double dx, double dy, int outflow_side) {
  const double pi = 3.14159265358979323846;
  auto lowest = [&](int n, double h, bool neumann) {
    const double s = std::sin(pi / (neumann ? 2.0 * (2 * n + 1) : 2.0 * (n + 1)));
    return 4 / (h * h) * s * s;
  };
  const double a = std::min(lowest(nx, dx, outflow_side == 0 || outflow_side == 1),
                            lowest(ny, dy, outflow_side == 2 || outflow_side == 3));
  const double b = std::max(4 / (dx * dx), 4 / (dy * dy));
  const int J = std::max(2, int(std::ceil(std::log(b / a) / std::log(4.0))));
  std::vector<double> rho(J);
  for (int k = 0; k < J; ++k) rho[k] = a * std::pow(b / a, (k + 0.5) / J);
  return rho;
}

template <class Exec, class Real>
class StreamLines {
 public:
  StreamLines(const PressureControl& c, int nx, int ny, double dx, double dy, int outflow_side,
              tridiag::Algorithm x, tridiag::Algorithm y)
      : c_(c), nx_(nx), ny_(ny), outflow_(outflow_side), alg_x_(x), alg_y_(y),
        rho_(stream_adi_parameters(nx, ny, dx, dy, outflow_side)), star_(std::size_t(nx + 2) * (ny + 2)),
        scratch_(scratch_size(nx, ny)) {
    star_.fill(Real(0));
  }

  // psi (interior: the first guess; ring zero) -> the solution to pressure.tol.
  SolveReport solve(const State<Real>& s) {
    SolveReport rep;
    const double bb = Exec::reduce_sum(1, nx_, 1, ny_, RhsSquared<Real>{s});
    if (!std::isfinite(bb)) {  // a blown-up vorticity: report it (the solver stops the run)
      rep.residual = bb;
      return rep;
    }
    if (!(bb > 0)) {  // no forcing: psi = 0
      Exec::for_each(1, nx_, 1, ny_, ZeroInterior<Real>{s});
      rep.converged = true;
      return rep;
    }
    const long pitch = nx_ + 2;
    const auto bx = tridiag::field_lines(tridiag::LineDir::X, nx_, ny_, pitch, pitch + 1);
    const auto by = tridiag::field_lines(tridiag::LineDir::Y, nx_, ny_, pitch, pitch + 1);
    const int J = int(rho_.size());
    for (;;) {
      rep.residual = std::sqrt(Exec::reduce_sum(1, nx_, 1, ny_, StreamResidual<Real>{s, outflow_}) / bb);
      if (!(rep.residual > c_.tol) || rep.iterations >= c_.max_iter) break;
      const Real rho = Real(rho_[next_ % J]);
      ++next_;  // the cycle continues across solves, so that every parameter is used
      tridiag::LineSolver<Exec>::solve(alg_x_, bx, StreamLineRows<Real, true>{s, s.psi, star_.data(), rho, outflow_},
                                       scratch_.data());
      tridiag::LineSolver<Exec>::solve(alg_y_, by, StreamLineRows<Real, false>{s, star_.data(), s.psi, rho, outflow_},
                                       scratch_.data());
      ++rep.iterations;
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  // Where the parameter cycle stands (checkpoints: a restart continues it bit for bit).
  long cycle_position() const { return next_; }
  void set_cycle_position(long k) { next_ = k; }

  std::string describe() const {
    return "ADI line relaxation (Peaceman-Rachford, " + std::to_string(rho_.size()) +
           " parameters from " + short_number(rho_.front()) + " to " + short_number(rho_.back()) + ", tol " +
           short_number(c_.tol) + ", max_iter " + std::to_string(c_.max_iter) + ")";
  }

 private:
  static std::size_t scratch_size(int nx, int ny) {
    const long pitch = nx + 2;
    return std::size_t(std::max(tridiag::solve_scratch(tridiag::field_lines(tridiag::LineDir::X, nx, ny, pitch)),
                                tridiag::solve_scratch(tridiag::field_lines(tridiag::LineDir::Y, nx, ny, pitch))));
  }
  static std::string short_number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
  }

  PressureControl c_;
  int nx_, ny_, outflow_;
  tridiag::Algorithm alg_x_, alg_y_;
  std::vector<double> rho_;
  long next_ = 0;
  DeviceArray<Exec, Real> star_, scratch_;
};

}  // namespace flowlua::psi_omega
