//===- Random.h - seeded inputs and f16/bf16 conversions --------*- C++ -*-===//
//
// Inputs must be reproducible from a seed on any machine, so the generator is
// specified here (splitmix64) rather than taken from <random>, whose
// distributions differ between standard libraries.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_RANDOM_H
#define SOL_RUNTIME_RANDOM_H

#include "runtime/DType.h"

#include <cstdint>

namespace sol {
namespace runtime {

/// splitmix64: tiny, fast, and passes BigCrush; good enough for test data.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return (next() >> 11) * 0x1.0p-53; }

  /// Uniform in [low, high).
  double uniform(double low, double high) {
    return low + (high - low) * uniform();
  }

  /// Uniform integer in [0, bound).
  uint64_t below(uint64_t bound) { return bound ? next() % bound : 0; }

private:
  uint64_t state;
};

/// Derives an independent seed for stream `index` of `seed` (input set,
/// argument), so that adding an argument does not shift the others' values.
uint64_t deriveSeed(uint64_t seed, uint64_t index);

/// IEEE binary16 / bfloat16 encodings of `value`, rounded to nearest with ties
/// to even directly from double (going through float would round twice).
/// Overflow gives infinity; NaN stays a (quiet) NaN with its sign.
uint16_t doubleToF16Bits(double value);
uint16_t doubleToBF16Bits(double value);
double f16BitsToDouble(uint16_t bits);
double bf16BitsToDouble(uint16_t bits);

/// Rounds `value` to the nearest value of `dtype` (ties to even).
double roundToDType(double value, DType dtype);

/// Reads element `index` of a dense buffer of `dtype` as a double.
double loadElement(const void *buffer, DType dtype, size_t index);
/// Writes `value` rounded to `dtype` into element `index`.
void storeElement(void *buffer, DType dtype, size_t index, double value);

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_RANDOM_H
