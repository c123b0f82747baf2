//===- Compare.cpp - kernel output against the reference ------------------===//

#include "runtime/Compare.h"

#include <algorithm>
#include <cmath>

using namespace sol::runtime;

Tolerance sol::runtime::getDefaultTolerance(DType dtype) {
  Tolerance tolerance;
  if (dtype == DType::F32)
    tolerance.atol = tolerance.rtol = 1e-4;
  // An fp8 output is the reference rounded once to 3 (e4m3fn) or 2 (e5m2)
  // mantissa bits: half an ulp is 2^-4 (2^-3) of the value, plus slack for
  // the f32 accumulation moving a value across a rounding boundary.
  if (dtype == DType::F8E4M3FN)
    tolerance.atol = tolerance.rtol = 0.07;
  if (dtype == DType::F8E5M2)
    tolerance.atol = tolerance.rtol = 0.13;
  return tolerance;
}

bool sol::runtime::meetsShare(int64_t withinTolerance, int64_t count) {
  return withinTolerance * 100 >= count * 99;
}

void Comparator::add(double out, double ref) {
  ++stats.count;
  if (!std::isfinite(ref)) {
    // The reference itself overflowed (e.g. a cast to f16 of a huge value):
    // the kernel matches when it produced the same special value.
    bool same = (std::isnan(ref) && std::isnan(out)) || out == ref;
    stats.withinTolerance += same;
    return;
  }
  if (!std::isfinite(out)) {
    ++stats.nonFinite;
    return;
  }
  double error = std::fabs(out - ref);
  stats.maxAbsError = std::max(stats.maxAbsError, error);
  stats.maxRelError = std::max(
      stats.maxRelError, error / std::max(std::fabs(ref), tolerance.atol));
  stats.withinTolerance +=
      error <= tolerance.atol + tolerance.rtol * std::fabs(ref);
  dot += out * ref;
  outNormSq += out * out;
  refNormSq += ref * ref;
  diffNormSq += error * error;
}

CompareStats Comparator::finish() const {
  CompareStats result = stats;
  if (outNormSq > 0 && refNormSq > 0)
    result.cosine = dot / (std::sqrt(outNormSq) * std::sqrt(refNormSq));
  else
    result.cosine = outNormSq == refNormSq ? 1.0 : 0.0; // both zero: equal
  result.relL2Error =
      refNormSq > 0 ? std::sqrt(diffNormSq / refNormSq) : std::sqrt(diffNormSq);
  result.share =
      result.count ? static_cast<double>(result.withinTolerance) / result.count
                   : 1.0;
  result.pass =
      result.nonFinite == 0 && meetsShare(result.withinTolerance, result.count);
  return result;
}

CompareStats sol::runtime::compare(const std::vector<double> &out,
                                   const std::vector<double> &ref,
                                   Tolerance tolerance) {
  Comparator comparator(tolerance);
  size_t count = std::min(out.size(), ref.size());
  for (size_t i = 0; i < count; ++i)
    comparator.add(out[i], ref[i]);
  return comparator.finish();
}
