//===- Compare.h - kernel output against the reference ----------*- C++ -*-===//
//
// The pass rule is SOL-ExecBench's: at least 99% of the elements within
// atol + rtol * |ref|, and no NaN or infinity where the reference is finite.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_COMPARE_H
#define SOL_RUNTIME_COMPARE_H

#include "runtime/DType.h"

#include <cstdint>
#include <vector>

namespace sol {
namespace runtime {

struct Tolerance {
  double atol = 1e-2;
  double rtol = 1e-2;
};

/// 1e-2 / 1e-2 for f16 and bf16 outputs, 1e-4 / 1e-4 for f32, 0.07 for
/// e4m3fn and 0.13 for e5m2 (half an ulp and slack).
Tolerance getDefaultTolerance(DType dtype);

struct CompareStats {
  int64_t count = 0;
  int64_t withinTolerance = 0;
  /// NaN or infinity in the output where the reference is finite.
  int64_t nonFinite = 0;
  double maxAbsError = 0;
  /// |out - ref| / max(|ref|, atol).
  double maxRelError = 0;
  double cosine = 1;
  /// ||out - ref|| / ||ref|| (absolute when the reference is all zeros).
  double relL2Error = 0;
  double share = 1; // withinTolerance / count
  bool pass = true;
};

/// Accumulates element pairs so that a sampled check never holds whole
/// outputs in memory.
class Comparator {
public:
  explicit Comparator(Tolerance tolerance) : tolerance(tolerance) {}

  void add(double out, double ref);
  CompareStats finish() const;

private:
  Tolerance tolerance;
  CompareStats stats;
  double dot = 0, outNormSq = 0, refNormSq = 0, diffNormSq = 0;
};

CompareStats compare(const std::vector<double> &out,
                     const std::vector<double> &ref, Tolerance tolerance);

/// The pass rule on counts, kept exact in integers: share >= 0.99.
bool meetsShare(int64_t withinTolerance, int64_t count);

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_COMPARE_H
