// The equilibrium's divisions by 3, 6, 12 and 24 as the CUDA backend computes them
// (models/lbm_swe/d2q9.hpp, divide_by_on_device: a product and an FMA correction in
// float, no division for a zero dividend) give the bits of the IEEE division x / D.
// Run here on the CPU, whose float product, FMA and division round as the GPU's do
// (round to nearest even, subnormals kept: nvcc's default -ftz=false). A quotient
// one bit off would make the CUDA step differ from what it computed before.
//
// The default test takes every 4099th bit pattern and every pattern near the
// boundaries of the product-and-FMA range (zero, 2^-120, FLT_MAX, the powers of two
// around 1); LbmSweDivision.EveryFloat takes all 2^32 and runs only with
// FLOWLUA_EXHAUSTIVE=1 (ctest label slow; 4 minutes on the shared 2-core machine).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

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

// Counts the x among `patterns` whose device quotient differs in its bits from
// x / D (two NaNs count as equal: the GPU's NaN is canonical either way).
template <int D, class Next>
long mismatches(Next next, std::uint32_t* first_bad) {
  long bad = 0;
  std::uint64_t u;
  while (next(u)) {
    const float x = from_bits(std::uint32_t(u));
    const float want = x / float(D), got = divide_by_on_device<D>(x);
    if (to_bits(want) == to_bits(got) || (std::isnan(want) && std::isnan(got))) continue;
    if (!bad) *first_bad = std::uint32_t(u);
    ++bad;
  }
  return bad;
}

template <int D>
void expect_same_bits_sampled() {
  std::uint32_t first = 0;
  // every 4099th pattern (both signs, every exponent)
  std::uint64_t k = 0;
  long bad = mismatches<D>([&](std::uint64_t& u) { u = k; k += 4099; return u < (1ull << 32); }, &first);
  EXPECT_EQ(bad, 0) << "D = " << D << ": first x = " << std::hexfloat << from_bits(first);
  // 65536 patterns on either side of each boundary, both signs
  for (float edge : {0.0f, 0x1p-120f, FLT_MAX, 0.5f, 1.0f, 2.0f, 3.0f, 1e-8f}) {
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      const std::int64_t c = std::int64_t(to_bits(edge));
      std::int64_t j = std::max<std::int64_t>(0, c - 65536);
      const std::int64_t end = std::min<std::int64_t>(0x7fffffff, c + 65536);
      bad = mismatches<D>([&](std::uint64_t& u) { u = std::uint64_t(j++) | sign; return j - 1 <= end; }, &first);
      EXPECT_EQ(bad, 0) << "D = " << D << " near " << std::hexfloat << edge << ": first x = " << from_bits(first);
    }
  }
}

TEST(LbmSweDivision, DeviceQuotientHasTheDivisionsBits) {
  expect_same_bits_sampled<3>();
  expect_same_bits_sampled<6>();
  expect_same_bits_sampled<12>();
  expect_same_bits_sampled<24>();
}

// The product-and-FMA quotient alone is not the division everywhere: without the
// range test a zero dividend's sign and ties near the subnormal range would come
// out wrong. This is what the range test in divide_by_on_device is for.
TEST(LbmSweDivision, FmaQuotientNeedsItsRange) {
  EXPECT_EQ(to_bits(quotient_by_fma<3>(-0.0f)), to_bits(0.0f));  // -0 / 3 is -0
  EXPECT_FALSE(quotient_by_fma_is_exact(0.0f));
  EXPECT_FALSE(quotient_by_fma_is_exact(-0.0f));
  // 9 * 2^-149 / 6 = 1.5 * 2^-149, a tie the division rounds to even (2 * 2^-149)
  const float tie = 9 * 0x1p-149f;
  EXPECT_NE(to_bits(quotient_by_fma<6>(tie)), to_bits(tie / 6.0f));
  EXPECT_EQ(to_bits(divide_by_on_device<6>(tie)), to_bits(tie / 6.0f));
  EXPECT_EQ(to_bits(divide_by_on_device<3>(-0.0f)), to_bits(-0.0f));
  EXPECT_TRUE(std::isinf(divide_by_on_device<12>(INFINITY)));
  EXPECT_TRUE(std::isnan(divide_by_on_device<12>(NAN)));
}

// Double keeps the division on the device; only a zero dividend is taken apart.
TEST(LbmSweDivision, DoubleKeepsTheDivision) {
  for (double x : {0.0, -0.0, 1.0, -3.5e-300, 1e300, 4.9e-324}) {
    const double want = x / 6.0, got = divide_by_on_device<6>(x);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << x;
  }
}

TEST(LbmSweDivision, EveryFloat) {
  const char* on = std::getenv("FLOWLUA_EXHAUSTIVE");
  if (!on || std::string(on) != "1") GTEST_SKIP() << "set FLOWLUA_EXHAUSTIVE=1 (ctest -L slow): 2^32 floats a divisor";
  std::uint32_t first = 0;
  std::uint64_t k = 0;
  auto all = [&](std::uint64_t& u) { u = k++; return u < (1ull << 32); };
  EXPECT_EQ(mismatches<3>(all, &first), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(mismatches<6>(all, &first), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(mismatches<12>(all, &first), 0) << std::hexfloat << from_bits(first);
  k = 0;
  EXPECT_EQ(mismatches<24>(all, &first), 0) << std::hexfloat << from_bits(first);
}

}  // namespace
}  // namespace flowlua::lbm_swe
