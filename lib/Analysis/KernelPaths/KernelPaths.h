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

/// The SM version of `target`'s chip (0 for one no table knows, which the
/// target's verifier refuses).
int64_t getSmVersion(TargetAttr target);

/// The rule of a grid that does not follow the dim: `extent` blocks along
/// `axis` for every M >= 1 (ceil(M / kMaxDynamicDim) is 1 there).
DynamicGridRule getFixedGridRule(unsigned axis, int64_t extent);

} // namespace mlir::sol::paths

#endif // SOL_ANALYSIS_KERNELPATHS_KERNELPATHS_H
