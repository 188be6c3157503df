// The equilibrium's divisions by 3, 6, 12 and 24 as the CUDA backend computes them
// in float (models/lbm_swe/d2q9.hpp, divide_by_fma: a product and an FMA correction,
// no division) against the IEEE division x / D. Run here on the CPU, whose float
// product, FMA and division round as the GPU's do (round to nearest even, subnormals
// kept: nvcc's default -ftz=false). The promise: the same bits for every x with
// |x / D| >= 2^-121 and for 0, inf and NaN; below, at most one unit of 2^-149 off.
// A larger difference would make the CUDA step differ from what it computed before.
//
// The default test takes every 4099th bit pattern and every pattern near zero,
// 2^-121 D, FLT_MAX and a few ordinary values; LbmSweDivision.EveryFloat takes all
// 2^32 and runs only with FLOWLUA_EXHAUSTIVE=1 (FLOWLUA_EXHAUSTIVE=1 ctest -L slow;
// 4 minutes on the shared 2-core machine).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <algorithm>
#include <cstdio>

#include "models/lbm_swe/d2q9.hpp"

namespace flowlua::lbm_swe {
namespace {

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint32_t to_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Checks divide_by_on_device<D>(x) against x / D for the x that `next` yields:
// returns the number that break the promise above (first one in *first_bad) and
// counts in *tiny those that differ within it (below 2^-121, one unit of 2^-149).
template <int D, class Next>
long broken(Next next, std::uint32_t* first_bad, long* tiny) {
  long bad = 0;
  std::uint64_t u;
  while (next(u)) {
    const float x = from_bits(std::uint32_t(u));
    const float want = x / float(D), got = divide_by_on_device<D>(x);
    if (to_bits(want) == to_bits(got) || (std::isnan(want) && std::isnan(got))) continue;
    if (std::fabs(want) < 0x1p-121f && std::fabs(double(want) - double(got)) <= 0x1p-149) {
      ++*tiny;
      continue;
    }
    if (!bad) *first_bad = std::uint32_t(u);
    ++bad;
  }
  return bad;
}

template <int D>
void expect_division_sampled() {
  std::uint32_t first = 0;
  long tiny = 0;
  // every 4099th pattern (both signs, every exponent)
  std::uint64_t k = 0;
  long bad = broken<D>([&](std::uint64_t& u) { u = k; k += 4099; return u < (1ull << 32); }, &first, &tiny);
  EXPECT_EQ(bad, 0) << "D = " << D << ": first x = " << std::hexfloat << from_bits(first);
  // 65536 patterns on either side of each edge, both signs
  for (float edge : {0.0f, 0x1p-121f * D, FLT_MAX, 1e-8f, 0.5f, 1.0f, 2.0f, 3.0f}) {
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      const std::int64_t c = std::int64_t(to_bits(edge));
      std::int64_t j = std::max<std::int64_t>(0, c - 65536);
      const std::int64_t end = std::min<std::int64_t>(0x7fffffff, c + 65536);
      bad = broken<D>([&](std::uint64_t& u) { u = std::uint64_t(j++) | sign; return j - 1 <= end; }, &first, &tiny);
      EXPECT_EQ(bad, 0) << "D = " << D << " near " << std::hexfloat << edge << ": first x = " << from_bits(first);
    }
  }
}

TEST(LbmSweDivision, CudaQuotientIsTheDivision) {
  expect_division_sampled<3>();
  expect_division_sampled<6>();
  expect_division_sampled<12>();
  expect_division_sampled<24>();
}

// The edges of the promise, named: zeros keep their sign, inf and NaN pass through,
// and the one kind of difference (a tie near the subnormal range) is one unit.
TEST(LbmSweDivision, SpecialValues) {
  EXPECT_EQ(to_bits(divide_by_fma<3>(-0.0f)), to_bits(-0.0f));
  EXPECT_EQ(to_bits(divide_by_fma<12>(0.0f)), to_bits(0.0f));
  EXPECT_EQ(divide_by_fma<24>(INFINITY), INFINITY);
  EXPECT_EQ(divide_by_fma<24>(-INFINITY), -INFINITY);
  EXPECT_TRUE(std::isnan(divide_by_fma<6>(NAN)));
  EXPECT_EQ(divide_by_fma<3>(1.0f), 1.0f / 3.0f);
  EXPECT_EQ(divide_by_fma<3>(FLT_MAX), FLT_MAX / 3.0f);
  // 9 * 2^-149 / 6 = 1.5 * 2^-149: the division rounds the tie to even (2 * 2^-149),
  // the FMA quotient to the other neighbour
  const float tie = 9 * 0x1p-149f;
  EXPECT_EQ(tie / 6.0f, 2 * 0x1p-149f);
  EXPECT_EQ(divide_by_fma<6>(tie), 0x1p-149f);
}

// Double keeps the division on the device.
TEST(LbmSweDivision, DoubleKeepsTheDivision) {
  for (double x : {0.0, -0.0, 1.0, -3.5e-300, 1e300, 4.9e-324}) {
    const double want = x / 6.0, got = divide_by_on_device<6>(x);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << x;
  }
}

TEST(LbmSweDivision, EveryFloat) {
  const char* on = std::getenv("FLOWLUA_EXHAUSTIVE");
  if (!on || std::string(on) != "1") GTEST_SKIP() << "FLOWLUA_EXHAUSTIVE=1 ctest -L slow runs it (2^32 floats a divisor)";
  std::uint32_t first = 0;
  std::uint64_t k = 0;
  auto all = [&](std::uint64_t& u) { u = k++; return u < (1ull << 32); };
  long tiny3 = 0, tiny6 = 0, tiny12 = 0, tiny24 = 0;
  EXPECT_EQ(broken<3>(all, &first, &tiny3), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(broken<6>(all, &first, &tiny6), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(broken<12>(all, &first, &tiny12), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(broken<24>(all, &first, &tiny24), 0) << std::hexfloat << from_bits(first);
  std::printf("ties below 2^-121 rounded to the other neighbour: D = 3: %ld, 6: %ld, 12: %ld, 24: %ld\n", tiny3, tiny6,
              tiny12, tiny24);
}

}  // namespace
}  // namespace flowlua::lbm_swe
