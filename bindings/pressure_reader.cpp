#include "pressure_reader.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "host.hpp"
#include "suggest.hpp"

namespace flowlua::lua {

// pressure = { solver = ..., ... }: the keys each solver reads; a key that the chosen
// solver ignores is an error (it would silently do nothing).
void read_pressure(const TableReader& top, PressureControl& p, const PoissonChoices& choices) {
  if (!top.has("pressure")) return;
  lua_State* L = top.state();
  top.push("pressure");
  TableReader t(L, -1, "pressure",
                {"solver", "omega", "tol", "max_iter", "check_every", "preconditioner", "cycle", "pre_smooth",
                 "post_smooth", "mixed", "multigrid_gather"});
  if (t.has("mixed") && !choices.mixed)
    throw CaseError("pressure.mixed is offered by the projection model only (model = \"projection\")");
  if (choices.mixed) *choices.mixed = t.boolean("mixed", *choices.mixed);
  const std::vector<std::string> all = {"rbsor", "cg", "pcg", "multigrid", "fft", "adi"};  // PressureSolverKind order
  const std::string current = all[int(p.solver)];  // the model's default
  const std::string s = t.choice("solver", current, all);
  if (!choices.allowed.empty() &&
      std::find(choices.allowed.begin(), choices.allowed.end(), s) == choices.allowed.end())
    throw CaseError("pressure.solver = '" + s + "' " + choices.why_not);
  p.solver = s == "cg"          ? PressureSolverKind::ConjugateGradient
             : s == "pcg"       ? PressureSolverKind::PreconditionedCG
             : s == "multigrid" ? PressureSolverKind::Multigrid
             : s == "fft"       ? PressureSolverKind::FFT
             : s == "adi"       ? PressureSolverKind::LineAdi
                                : PressureSolverKind::RedBlackSOR;
  auto only_for = [&](const char* key, const std::string& solvers) {
    if (t.has(key))
      throw CaseError(std::string("pressure.") + key + " is for solver = " + solvers + ", not '" + s + "'");
  };
  if (s != "rbsor") {
    only_for("omega", "'rbsor'");
    only_for("check_every", "'rbsor'");
  }
  if (s != "pcg") only_for("preconditioner", "'pcg'");
  // The model's default preconditioner stands for an absent key, as for every key
  // (multigrid for projection and psi_omega, fft for fractional_step).
  const std::string model_pre = p.preconditioner == PreconditionerKind::Jacobi ? "jacobi"
                                : p.preconditioner == PreconditionerKind::FFT  ? "fft"
                                                                                : "multigrid";
  std::string pre = "multigrid";
  if (s == "pcg") {
    pre = t.choice("preconditioner", model_pre, {"jacobi", "multigrid", "fft"});
    p.preconditioner = pre == "jacobi"      ? PreconditionerKind::Jacobi
                       : pre == "fft"       ? PreconditionerKind::FFT
                                            : PreconditionerKind::Multigrid;
  }
  const bool uses_mg = s == "multigrid" || (s == "pcg" && pre == "multigrid");
  if (!uses_mg)
    for (const char* k : {"cycle", "pre_smooth", "post_smooth", "multigrid_gather"})
      only_for(k, "'multigrid' (or 'pcg' with preconditioner = 'multigrid')");
  if (s != "multigrid") only_for("cycle", "'multigrid'");
  if (s == "multigrid") p.cycle = t.choice("cycle", "V", {"V", "F"}) == "F" ? MultigridCycle::F : MultigridCycle::V;
  long long ps = t.integer("pre_smooth", p.pre_smooth);
  check_int_range("pressure.pre_smooth", ps, 0, 20);
  long long qs = t.integer("post_smooth", s == "pcg" ? ps : p.post_smooth);
  check_int_range("pressure.post_smooth", qs, 0, 20);
  if (ps + qs < 1) throw CaseError("pressure.pre_smooth and pressure.post_smooth cannot both be 0");
  if (s == "pcg" && ps != qs)
    throw CaseError("pressure.pre_smooth and pressure.post_smooth must be equal with solver = 'pcg': its "
                    "multigrid preconditioner must be a symmetric V-cycle");
  p.pre_smooth = int(ps);
  p.post_smooth = int(qs);
  const long long gather = t.integer("multigrid_gather", p.multigrid_gather);
  check_int_range("pressure.multigrid_gather", gather, 1, 1LL << 40);
  p.multigrid_gather = long(gather);
  p.omega = t.number("omega", p.omega);
  check_open("pressure.omega", p.omega, 0.0, 2.0);
  p.tol = t.number("tol", p.tol);
  check_positive("pressure.tol", p.tol);
  long long mi = t.integer("max_iter", p.max_iter);
  check_int_range("pressure.max_iter", mi, 1, 1000000000);
  p.max_iter = int(mi);
  long long ce = t.integer("check_every", p.check_every);
  check_int_range("pressure.check_every", ce, 1, 1000000);
  p.check_every = int(ce);
  lua_pop(L, 1);
}

// What --explain prints for the pressure solve.
std::string describe_pressure(const PressureControl& p) {
  std::ostringstream o;
  switch (p.solver) {
    case PressureSolverKind::RedBlackSOR: o << "rbsor (omega = " << fmt(p.omega) << ", "; break;
    case PressureSolverKind::ConjugateGradient: o << "cg ("; break;
    case PressureSolverKind::PreconditionedCG:
      o << "pcg (preconditioner = "
        << (p.preconditioner == PreconditionerKind::Jacobi ? "jacobi"
            : p.preconditioner == PreconditionerKind::FFT  ? "fft"
                                                           : "multigrid")
        << ", ";
      break;
    case PressureSolverKind::Multigrid:
      o << "multigrid (cycle = " << (p.cycle == MultigridCycle::F ? "F" : "V") << ", smoothing " << p.pre_smooth
        << "+" << p.post_smooth << ", ";
      break;
    case PressureSolverKind::FFT: o << "fft ("; break;
    case PressureSolverKind::LineAdi: o << "adi (line relaxation, "; break;
  }
  o << "tol = " << fmt(p.tol) << ", max_iter = " << p.max_iter;
  if (p.solver == PressureSolverKind::RedBlackSOR) o << ", check_every = " << p.check_every;
  o << ")";
  return o.str();
}

}  // namespace flowlua::lua
