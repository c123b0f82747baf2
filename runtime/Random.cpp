//===- Random.cpp - seeded inputs and f16/bf16 conversions ----------------===//

#include "runtime/Random.h"
#include "runtime/Fp8.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace sol::runtime;

uint64_t sol::runtime::deriveSeed(uint64_t seed, uint64_t index) {
  Random mixer(seed ^ (index * 0xD1B54A32D192ED03ull));
  mixer.next();
  return mixer.next();
}

/// Encodes `value` in a binary format with `mantissaBits` stored fraction bits
/// and `exponentBits` exponent bits (IEEE layout, subnormals, infinities).
/// Scaling by a power of two is exact in double, so rounding the scaled value
/// to an integer with nearbyint (ties to even in the default rounding mode)
/// rounds the significand exactly once.
static uint32_t encodeBinary(double value, int mantissaBits, int exponentBits) {
  const int bias = (1 << (exponentBits - 1)) - 1;
  const uint32_t exponentAllOnes = (1u << exponentBits) - 1;
  const uint32_t sign =
      std::signbit(value) ? 1u << (mantissaBits + exponentBits) : 0;
  const uint32_t infinity = sign | (exponentAllOnes << mantissaBits);
  if (std::isnan(value))
    return infinity | (1u << (mantissaBits - 1));
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude))
    return infinity;
  if (magnitude == 0)
    return sign;

  const int minNormalExponent = 1 - bias;
  int frexpExponent;
  std::frexp(magnitude, &frexpExponent);
  int exponent = frexpExponent - 1; // magnitude in [2^exponent, 2^(exponent+1))
  if (exponent < minNormalExponent)
    exponent = minNormalExponent; // subnormal: fixed quantum 2^(min - mant)
  double significand =
      std::nearbyint(std::ldexp(magnitude, mantissaBits - exponent));
  uint64_t integer = static_cast<uint64_t>(significand);
  if (integer >= (1ull << (mantissaBits + 1))) { // rounded up to 2^(e+1)
    integer >>= 1;
    ++exponent;
  }
  bool isNormal = integer >= (1ull << mantissaBits);
  if (isNormal && exponent + bias >= static_cast<int>(exponentAllOnes))
    return infinity;
  uint32_t biasedExponent = isNormal ? exponent + bias : 0;
  return sign | (biasedExponent << mantissaBits) |
         static_cast<uint32_t>(integer & ((1ull << mantissaBits) - 1));
}

static double decodeBinary(uint32_t bits, int mantissaBits, int exponentBits) {
  const int bias = (1 << (exponentBits - 1)) - 1;
  const uint32_t exponentAllOnes = (1u << exponentBits) - 1;
  bool negative = (bits >> (mantissaBits + exponentBits)) & 1;
  uint32_t biasedExponent = (bits >> mantissaBits) & exponentAllOnes;
  uint32_t fraction = bits & ((1u << mantissaBits) - 1);
  double magnitude;
  if (biasedExponent == exponentAllOnes)
    magnitude = fraction ? NAN : INFINITY;
  else if (biasedExponent == 0)
    magnitude = std::ldexp(fraction, 1 - bias - mantissaBits);
  else
    magnitude =
        std::ldexp(fraction | (1u << mantissaBits),
                   static_cast<int>(biasedExponent) - bias - mantissaBits);
  return negative ? -magnitude : magnitude;
}

/// encodeBinary for a value whose result is a normal number, by rounding
/// the double's own bits (ties to even on the dropped fraction bits), with
/// no libm call; everything else (subnormal results, overflow, zero,
/// infinities, NaN) goes to encodeBinary. The same result: the runner draws
/// every input value through one of these, and encodeBinary's frexp and
/// ldexp were most of a large check's time.
static uint32_t encodeNormalBinary(double value, int mantissaBits,
                                   int exponentBits) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const int bias = (1 << (exponentBits - 1)) - 1;
  int exponent = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  if (exponent < 1 - bias || exponent > bias)
    return encodeBinary(value, mantissaBits, exponentBits);
  const int dropped = 52 - mantissaBits;
  uint64_t fraction = bits & ((1ull << 52) - 1);
  uint64_t kept = fraction >> dropped;
  uint64_t rest = fraction & ((1ull << dropped) - 1);
  uint64_t half = 1ull << (dropped - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (kept >> mantissaBits) { // rounded up to the next power of two
    kept = 0;
    if (++exponent > bias)
      return encodeBinary(value, mantissaBits, exponentBits);
  }
  uint32_t sign = static_cast<uint32_t>(bits >> 63)
                  << (mantissaBits + exponentBits);
  return sign | (static_cast<uint32_t>(exponent + bias) << mantissaBits) |
         static_cast<uint32_t>(kept);
}

uint16_t sol::runtime::doubleToF16Bits(double value) {
  return static_cast<uint16_t>(encodeNormalBinary(value, 10, 5));
}

uint16_t sol::runtime::doubleToBF16Bits(double value) {
  return static_cast<uint16_t>(encodeNormalBinary(value, 7, 8));
}

// The runner decodes every element of its inputs (and every value it
// draws): through a table of each 16-bit pattern's value, computed once by
// decodeBinary (ldexp per element was most of a large check's time).
static std::vector<double> makeDecodeTable(int mantissaBits, int exponentBits) {
  std::vector<double> table(1 << 16);
  for (uint32_t bits = 0; bits < table.size(); ++bits)
    table[bits] = decodeBinary(bits, mantissaBits, exponentBits);
  return table;
}

double sol::runtime::f16BitsToDouble(uint16_t bits) {
  static const std::vector<double> values = makeDecodeTable(10, 5);
  return values[bits];
}

double sol::runtime::bf16BitsToDouble(uint16_t bits) {
  static const std::vector<double> values = makeDecodeTable(7, 8);
  return values[bits];
}

double sol::runtime::roundToDType(double value, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return f16BitsToDouble(doubleToF16Bits(value));
  case DType::BF16:
    return bf16BitsToDouble(doubleToBF16Bits(value));
  case DType::F32:
    return static_cast<double>(static_cast<float>(value));
  case DType::F8E4M3FN:
  case DType::F8E5M2: {
    // sol.cast's conversion: saturating, so a drawn value never becomes a
    // NaN code (e4m3fn has no infinity).
    Fp8Kind kind = getFp8Kind(dtype);
    return getFp8Values(kind)[encodeFp8(value, kind)];
  }
  }
  return value;
}

double sol::runtime::loadElement(const void *buffer, DType dtype,
                                 size_t index) {
  switch (dtype) {
  case DType::F16:
    return f16BitsToDouble(static_cast<const uint16_t *>(buffer)[index]);
  case DType::BF16:
    return bf16BitsToDouble(static_cast<const uint16_t *>(buffer)[index]);
  case DType::F32:
    return static_cast<const float *>(buffer)[index];
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return getFp8Values(getFp8Kind(dtype))[static_cast<const uint8_t *>(
        buffer)[index]];
  }
  return 0;
}

void sol::runtime::storeElement(void *buffer, DType dtype, size_t index,
                                double value) {
  switch (dtype) {
  case DType::F16:
    static_cast<uint16_t *>(buffer)[index] = doubleToF16Bits(value);
    return;
  case DType::BF16:
    static_cast<uint16_t *>(buffer)[index] = doubleToBF16Bits(value);
    return;
  case DType::F32:
    static_cast<float *>(buffer)[index] = static_cast<float>(value);
    return;
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    static_cast<uint8_t *>(buffer)[index] = encodeFp8(value, getFp8Kind(dtype));
    return;
  }
}
