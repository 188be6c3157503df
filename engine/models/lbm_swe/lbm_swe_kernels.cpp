#include "models/lbm_swe/lbm_swe_kernels.hpp"

namespace flowlua::lbm_swe {

namespace {

bool always(const KernelKey&) { return true; }
bool flat(const KernelKey& k) { return k.scheme == "flat"; }
bool open(const KernelKey& k) { return !k.obstacles; }
bool flat_open(const KernelKey& k) { return flat(k) && open(k); }

KernelRegistry build() {
  KernelRegistry r;
  r.add({"stream_collide", "flat_open",
         "pull, sources, collide in one pass; no bed-slope force, no obstacle flags (18 values a cell)",
         "a flat bed and no obstacles", flat_open, 3});
  r.add({"stream_collide", "flat", "pull, sources, collide in one pass; no bed-slope force (18 values + flags)",
         "a flat bed", flat, 2});
  r.add({"stream_collide", "bed_open",
         "pull, bed-slope force, sources, collide in one pass; no obstacle flags (21 values a cell)",
         "no obstacles", open, 1});
  r.add({"stream_collide", "bed", "pull, bed-slope force, sources, collide in one pass, obstacle flags", "nothing",
         always, 0});
  r.add({"depth_guard", "sum_every_16", "every 16 steps: one reduction of 'h = sum f is positive and finite'",
         "nothing", always, 0});
  return r;
}

}  // namespace

const KernelRegistry& kernel_registry() {
  static const KernelRegistry r = build();
  return r;
}

KernelKey kernel_key(const LbmSweConfig& c, bool bed, bool solid, const char* backend) {
  KernelKey k;
  k.model = "lbm_swe";
  k.backend = backend;
  k.precision = c.precision;
  k.scheme = bed ? "bed" : "flat";
  k.pressure = "none";
  k.obstacles = solid;
  k.periodic = c.sides[0].kind == SweSide::Periodic || c.sides[2].kind == SweSide::Periodic;
  return k;
}

}  // namespace flowlua::lbm_swe
