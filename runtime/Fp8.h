//===- Fp8.h - the float64 reference of sol's fp8 semantics ----*- C++ -*-===//
//
// What an fp8 kernel must compute, evaluated in double, independently of any
// kernel (docs/fp8.md): the two encodings sol takes (e4m3fn: 4 exponent
// bits, bias 7, no infinity, 448 the largest finite value; e5m2: 5 exponent
// bits, bias 15, IEEE-style infinities, 57344 the largest), sol.cast's
// conversion to them (round to nearest even, saturating to the largest
// finite value, NaN staying NaN), and the scaled matmul's f32 accumulator
// before its epilogue, `sum_k A[m, k] B[n, k] * scale_a * scale_b`, from the
// stored codes. No generator emits fp8 yet, so nothing runs this against a
// kernel; the GPU step's reference (Reference.cpp) is to read fp8 inputs and
// apply the scales through it.
//
// Header-only, in plain C++: the runner links no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_FP8_H
#define SOL_RUNTIME_FP8_H

#include "runtime/DType.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sol {
namespace runtime {

enum class Fp8Kind { E4M3FN, E5M2 };

/// The kind of an fp8 runtime dtype (isFp8DType).
inline Fp8Kind getFp8Kind(DType dtype) {
  assert(isFp8DType(dtype) && "an fp8 dtype");
  return dtype == DType::F8E4M3FN ? Fp8Kind::E4M3FN : Fp8Kind::E5M2;
}

/// The bit layout of one kind: exponent and mantissa widths, bias.
struct Fp8Format {
  int exponentBits, mantissaBits, bias;
  /// e5m2 has IEEE infinities and NaNs (exponent all ones); e4m3fn spends
  /// that exponent on finite values and keeps only S.1111.111 for NaN.
  bool ieeeSpecials;
};

inline Fp8Format getFp8Format(Fp8Kind kind) {
  return kind == Fp8Kind::E4M3FN ? Fp8Format{4, 3, 7, false}
                                 : Fp8Format{5, 2, 15, true};
}

/// The value of the code `bits` (NaN for NaN codes, +-inf for e5m2's).
inline double decodeFp8(uint8_t bits, Fp8Kind kind) {
  Fp8Format f = getFp8Format(kind);
  bool negative = bits & 0x80;
  int exponent = (bits >> f.mantissaBits) & ((1 << f.exponentBits) - 1);
  int mantissa = bits & ((1 << f.mantissaBits) - 1);
  int maxExponent = (1 << f.exponentBits) - 1;
  double value;
  if (f.ieeeSpecials && exponent == maxExponent)
    value = mantissa == 0 ? std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::quiet_NaN();
  else if (!f.ieeeSpecials && exponent == maxExponent &&
           mantissa == (1 << f.mantissaBits) - 1)
    value = std::numeric_limits<double>::quiet_NaN();
  else if (exponent == 0) // subnormal
    value = std::ldexp(mantissa, 1 - f.bias - f.mantissaBits);
  else
    value = std::ldexp((1 << f.mantissaBits) + mantissa,
                       exponent - f.bias - f.mantissaBits);
  return negative ? -value : value;
}

/// Every code's value (decodeFp8), computed once per kind: the runner
/// decodes and encodes every element of its fp8 inputs, and decodeFp8's
/// ldexp made a 26 M-code weight take ~15 s (perf, 2026-12-07).
inline const std::array<double, 256> &getFp8Values(Fp8Kind kind) {
  auto make = [](Fp8Kind k) {
    std::array<double, 256> values;
    for (int code = 0; code < 256; ++code)
      values[code] = decodeFp8(static_cast<uint8_t>(code), k);
    return values;
  };
  static const std::array<double, 256> e4m3 = make(Fp8Kind::E4M3FN);
  static const std::array<double, 256> e5m2 = make(Fp8Kind::E5M2);
  return kind == Fp8Kind::E4M3FN ? e4m3 : e5m2;
}

/// The largest finite value: 448 (e4m3fn), 57344 (e5m2).
inline double getFp8MaxFinite(Fp8Kind kind) {
  return decodeFp8(kind == Fp8Kind::E4M3FN ? 0x7E : 0x7B, kind);
}

/// The code of a NaN (positive sign).
inline uint8_t getFp8NaN(Fp8Kind kind) { return 0x7F; }

/// sol.cast's conversion to fp8: round to nearest, ties to the even code,
/// every magnitude past the largest finite value (infinities included)
/// saturating to it with its sign, NaN to NaN, the sign of zero kept.
inline uint8_t encodeFp8(double x, Fp8Kind kind) {
  if (std::isnan(x))
    return getFp8NaN(kind);
  uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  double magnitude = std::fabs(x);
  // The non-negative finite codes in increasing value: 0x00 up to the
  // largest finite one (0x7E, 0x7B), each one ulp above the last.
  uint8_t maxCode = kind == Fp8Kind::E4M3FN ? 0x7E : 0x7B;
  const std::array<double, 256> &values = getFp8Values(kind);
  if (magnitude >= values[maxCode])
    return sign | maxCode;
  // The largest code not above the magnitude (the non-negative finite
  // codes 0x00..maxCode increase with their value), then the nearer of it
  // and the next; a tie goes to the even code.
  uint8_t low = static_cast<uint8_t>(
      std::upper_bound(values.begin(), values.begin() + maxCode + 1,
                       magnitude) -
      values.begin() - 1);
  double below = values[low], above = values[low + 1];
  double toBelow = magnitude - below, toAbove = above - magnitude;
  uint8_t nearest = toBelow < toAbove   ? low
                    : toAbove < toBelow ? static_cast<uint8_t>(low + 1)
                    : (low % 2 == 0)    ? low
                                        : static_cast<uint8_t>(low + 1);
  return sign | nearest;
}

/// A dequantisation scale of a matmul operand or result (docs/fp8.md,
/// "Scales"): one value, or one per row of A (per token) or per column of
/// the output (per channel of B).
struct Fp8Scale {
  std::vector<double> values = {1.0};

  bool isPerTensor() const { return values.size() == 1; }
  double at(int64_t i) const { return values[isPerTensor() ? 0 : i]; }
};

/// The scaled matmul's accumulator, `acc[m, n] * scale_a[m] * scale_b[n]`
/// with `acc[m, n] = sum_k A[m, k] * B[n, k]` over the decoded codes, in
/// double: A is [M, K] and B [N, K] (the weight K-major, as the verifier
/// requires), row-major. What the epilogue then reads (f32 in a kernel:
/// compare within the accumulation's f32 error, docs/fp8.md).
inline std::vector<double>
referenceScaledMatmul(const std::vector<uint8_t> &a, Fp8Kind aKind,
                      const std::vector<uint8_t> &b, Fp8Kind bKind, int64_t m,
                      int64_t n, int64_t k, const Fp8Scale &scaleA,
                      const Fp8Scale &scaleB) {
  assert(static_cast<int64_t>(a.size()) == m * k &&
         static_cast<int64_t>(b.size()) == n * k && "operand sizes");
  assert((scaleA.isPerTensor() ||
          static_cast<int64_t>(scaleA.values.size()) == m) &&
         (scaleB.isPerTensor() ||
          static_cast<int64_t>(scaleB.values.size()) == n) &&
         "scale sizes");
  std::array<double, 256> aValue, bValue;
  for (int code = 0; code < 256; ++code) {
    aValue[code] = decodeFp8(static_cast<uint8_t>(code), aKind);
    bValue[code] = decodeFp8(static_cast<uint8_t>(code), bKind);
  }
  std::vector<double> out(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t l = 0; l < k; ++l)
        acc += aValue[a[i * k + l]] * bValue[b[j * k + l]];
      out[i * n + j] = acc * scaleA.at(i) * scaleB.at(j);
    }
  return out;
}

/// The code an fp8 result stores for `value` (the scaled accumulator after
/// the epilogue) under its per-tensor scale: encodeFp8(value / scaleOut).
inline uint8_t quantiseFp8Result(double value, double scaleOut, Fp8Kind kind) {
  return encodeFp8(value / scaleOut, kind);
}

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_FP8_H
