// How distributions are stored: in the arithmetic precision (float or double), or as
// 16-bit halves with the arithmetic in float (`storage = "fp16"`, as FluidX3D's
// FP16S: Lehmann et al., Comput. Phys. Commun. 2022). A half keeps 11 significant
// bits, so it stores the departure from the rest state at a reference depth,
// (f_a - f_a^eq(h_ref, 0)) / h_ref, which is small where the water is calm.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/hd.hpp"
#include "models/lbm_swe/d2q9.hpp"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace flowlua::lbm_swe {

struct Half {
  std::uint16_t bits;
};

// IEEE binary16 <-> binary32, round to nearest even (the device uses the hardware
// conversion, which rounds the same way, so both backends store the same bits).
FL_HD std::uint16_t float_to_half_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __half_as_ushort(__float2half_rn(f));
#else
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return std::uint16_t(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));  // NaN, inf
  if (abs >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // rounds to >= 65520: inf
  if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    if (abs < 0x33000000u) return std::uint16_t(sign);  // below half the smallest subnormal
    const std::uint32_t e = abs >> 23, m = (abs & 0x7fffffu) | 0x800000u;
    const int shift = int(126 - e);  // value = (m >> shift) 2^-24
    std::uint32_t r = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return std::uint16_t(sign | r);
  }
  std::uint32_t r = ((abs >> 13) - (112u << 10));
  const std::uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
  return std::uint16_t(sign | r);
#endif
}

FL_HD float half_bits_to_float(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(h));
#else
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0) {
    if (m == 0) x = sign;
    else {  // subnormal: normalise
      int k = 0;
      while (!(m & 0x400u)) { m <<= 1; ++k; }
      x = sign | (std::uint32_t(113 - k) << 23) | ((m & 0x3ffu) << 13);
    }
  } else if (e == 31) {
    x = sign | 0x7f800000u | (m << 13);
  } else {
    x = sign | ((e + 112u) << 23) | (m << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
#endif
}

// Load and store one distribution. `shift` and `scale` are used by the 16-bit
// storage only (shift = f_a^eq(h_ref, 0), scale = h_ref).
template <class Real, class Store>
struct Codec {
  Real shift[kQ];
  Real scale, inv_scale;
  FL_HD Real load(const Store& s, int) const { return Real(s); }
  FL_HD Store store(Real v, int) const { return Store(v); }
};

template <>
struct Codec<float, Half> {
  float shift[kQ];
  float scale, inv_scale;
  FL_HD float load(const Half& s, int a) const { return half_bits_to_float(s.bits) * scale + shift[a]; }
  FL_HD Half store(float v, int a) const { return Half{float_to_half_bits((v - shift[a]) * inv_scale)}; }
};

template <class Real, class Store>
Codec<Real, Store> make_codec(double h_ref, double G_ref) {
  Codec<Real, Store> c{};
  for (int a = 0; a < kQ; ++a) c.shift[a] = Real(equilibrium<double>(a, h_ref, G_ref, 0.0, 0.0));
  c.scale = Real(h_ref);
  c.inv_scale = Real(1 / h_ref);
  return c;
}

}  // namespace flowlua::lbm_swe
