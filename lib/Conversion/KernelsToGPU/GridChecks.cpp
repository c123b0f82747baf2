//===- GridChecks.cpp - the plan's grid against the shapes ----------------===//
//
// The plan carries its launch grid; a matmul path checks that the grid
// covers the output with the path's tiles before it emits code for it.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// A grid that does not cover the output would leave it partly unwritten:
/// the plan must match the shapes it is applied to. A dynamic kernel's
/// plan is checked at its row's m_max, the shapes it was built for (the
/// launch computes the grid for the actual M, never larger).
LogicalResult checkGrid(GpuKernel &kernel, const MatmulGeometry &g,
                        int64_t tileM, int64_t tileN, int64_t kSplits) {
  ArrayRef<int64_t> grid = kernel.spec.plan.getGrid();
  int64_t slices = 1;
  if (kernel.spec.batchedB)
    for (size_t d = 0; d + 2 < kernel.spec.outShape.size(); ++d)
      slices *= kernel.spec.outShape[d];
  if (grid.size() != 3 || grid[0] != llvm::divideCeilSigned(g.n, tileN) ||
      grid[1] != llvm::divideCeilSigned(g.rows, tileM) ||
      grid[2] != slices * kSplits)
    return kernel.spec.func.emitError("sol kernel: the plan's grid does not "
                                      "cover the output with its tiles");
  return success();
}

} // namespace mlir::sol::codegen
