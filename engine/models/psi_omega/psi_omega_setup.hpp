// Host-side parts of the psi-omega model shared by every instantiation: checks,
// cell (node) flags, the boundary stream function, the --explain plan, and the fields
// and diagnostics computed from a download of the node values.
#pragma once
#include <string>
#include <vector>

#include "models/psi_omega/body_setup.hpp"
#include "models/psi_omega/psi_omega_config.hpp"
#include "core/flags.hpp"
#include "core/snapshot.hpp"
#include "sim/solver.hpp"

namespace flowlua::psi_omega {

struct Setup {
  Grid nodes;                    // interior nodes as "cells": (grid.nx - 1) x (grid.ny - 1), spacing dx, dy
  std::vector<CellFlags> flags;  // nodes.size(): interior nodes fluid, Neumann towards an outflow side
  int outflow_side = -1;         // Side index of the (only) outflow side, -1 none
  BodySetup bodies;              // obstacles (body_setup.hpp); their nodes are not fluid
};

// Checks what the numerics rely on (CaseError otherwise) and builds the flags.
Setup prepare(const PsiOmegaConfig& c);
void check_side(const PsiOmegaConfig& c, Side side, const SideCondition& sc);

// psi on the boundary ring (nodes.size() values, 0 inside and on the outflow side):
// psi falls by the inflow flux integrated (trapezoidal rule over the node values)
// counter-clockwise along the boundary, starting after the outflow side (or at the
// bottom-left corner with psi = 0 when there is none).
std::vector<double> boundary_stream(const PsiOmegaConfig& c, const Setup& s);

// Node values of side k (0..n, n = cells along the side) as the kernels read them.
std::vector<double> side_tangential(const SideCondition& sc, int nodes);
std::vector<double> side_scalar(const SideCondition& sc, int nodes);
int side_kind(const SideCondition& sc);
int scalar_kind(const SideCondition& sc);

std::string describe_plan(const PsiOmegaConfig& c, const Setup& s, const char* backend,
                          const std::string& poisson_solver);

// A download of the node values (ring included), for snapshots and diagnostics.
struct HostNodes {
  const PsiOmegaConfig* config;
  const Setup* setup;
  std::vector<double> psi, w, T;  // T empty without heat
};

std::vector<std::string> field_names(bool heat);
FieldSnapshot node_field(const HostNodes& h, const std::string& name);
// Kinetic energy, max speed, and the model's extra values (wall temperature
// gradients per side, stream-function extremes).
void fill_diagnostics(const HostNodes& h, Diagnostics& d);
void fill_steady_sample(const HostNodes& h, SteadySample& out);

}  // namespace flowlua::psi_omega
