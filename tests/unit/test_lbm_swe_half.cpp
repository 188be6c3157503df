// The CPU's 16-bit conversions of the lbm_swe storage (models/lbm_swe/storage.hpp),
// which must give the bits the GPU's hardware conversions give: every one of the
// 65536 half patterns converts to its exact value, and back to itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "models/lbm_swe/storage.hpp"

namespace flowlua::lbm_swe {
namespace {

TEST(LbmSweHalf, EveryHalfConvertsExactlyAndBack) {
  int wrong = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const int e = int(h >> 10) & 31, m = int(h & 0x3ff);
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    const float f = half_bits_to_float(std::uint16_t(h));
    if (e == 31) {
      if (m == 0 ? !(std::isinf(f) && std::signbit(f) == bool(h & 0x8000)) : !std::isnan(f)) ++wrong;
      continue;
    }
    const double exact = sign * (e == 0 ? std::ldexp(double(m), -24) : std::ldexp(1024.0 + m, e - 25));
    if (double(f) != exact || std::signbit(f) != bool(h & 0x8000)) ++wrong;
    if (float_to_half_bits(f) != h) ++wrong;
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace flowlua::lbm_swe
