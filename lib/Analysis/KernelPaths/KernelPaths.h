//===- KernelPaths.h - the registered kernel paths --------------*- C++ -*-===//
//
// Private to lib/Analysis: one accessor per path file of this directory,
// which getKernelPaths() (KernelPath.cpp) lists, and the small pieces the
// path files share.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_ANALYSIS_KERNELPATHS_KERNELPATHS_H
#define SOL_ANALYSIS_KERNELPATHS_KERNELPATHS_H

#include "SolDialect/KernelPath.h"

#include <limits>

namespace mlir::sol::paths {

const KernelPathInfo &getGemvPath();
const KernelPathInfo &getMmaSyncPath();
const KernelPathInfo &getSwapAbPath();
const KernelPathInfo &getWgmmaPath();
const KernelPathInfo &getWgmmaTmaPath();
const KernelPathInfo &getSimtPath();
const KernelPathInfo &getElementwisePath();

/// `count`, or INT64_MAX where it overflowed: a grid extent no launch takes.
inline int64_t saturate(CheckedCount count) {
  return count.getOptional().value_or(std::numeric_limits<int64_t>::max());
}

/// The blocks per SM (LaunchGeometry::minBlocksPerSm) whose register budget
/// lets each of a block's `threads` keep `vectors` 128-bit loads in flight
/// beside its `accumulators` f32 sums: for a K loop that waits on its own
/// loads. Left to itself, ptxas aims at full occupancy and issues such a
/// loop's loads a few at a time just before their uses, so one step waits
/// for several memory round trips (bench/NOTES.md section 35).
int64_t getBlocksPerSmForLoadsInFlight(int64_t threads, int64_t vectors,
                                       int64_t accumulators);

/// The SM version of `target`'s chip (0 for one no table knows, which the
/// target's verifier refuses).
int64_t getSmVersion(TargetAttr target);

/// Why `who` (a path, or a kernel's epilogue) cannot convert fp8 in
/// registers on `target`'s chip (empty where it can): cvt.rn.f16x2.{e4m3,
/// e5m2}x2 and cvt.rn.satfinite.{e4m3,e5m2}x2.f32 are PTX's from sm_89
/// (docs/fp8.md, section 5). The rule of everything that converts codes.
std::string whyNotFp8ConversionOnChip(StringRef who, TargetAttr target);

/// The rule of a grid that does not follow the dim: `extent` blocks along
/// `axis` for every M >= 1 (ceil(M / kMaxDynamicDim) is 1 there).
DynamicGridRule getFixedGridRule(unsigned axis, int64_t extent);

} // namespace mlir::sol::paths

#endif // SOL_ANALYSIS_KERNELPATHS_KERNELPATHS_H
