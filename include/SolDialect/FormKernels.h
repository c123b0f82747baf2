//===- FormKernels.h - one sol.kernel per lone compute op -------*- C++ -*-===//
//
// Fusion leaves an op that fuses with nothing as a plain sol op. Code
// generators want one unit kind, a sol.kernel; this wraps each lone op into a
// kernel of its own, the way sol-fuse would have outlined a group of one.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_FORMKERNELS_H
#define SOLDIALECT_FORMKERNELS_H

#include "SolDialect/SolDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::sol {

/// Wraps every sol compute op of `func` that is not inside a sol.kernel
/// (isLoneComputeOp) into a single-op `sol.kernel` named
/// `<func>_<op kind>_<n>` (getKernelName), n counting on from the kernels the
/// function already holds and skipping names taken anywhere in the enclosing
/// module. The op's `sol.cost` moves onto the kernel as `cost`; scalar
/// sol.constant operands are cloned into the kernel, not passed in. Returns
/// the kernels formed, in program order.
SmallVector<KernelOp> wrapLoneComputeOps(func::FuncOp func);

/// Refuses sol ops inside a module nested in `module`: the passes that
/// compile kernels (sol-form-kernels, convert-sol-to-linalg, the GPU
/// lowering) take the functions of the top-level module only, so such ops
/// would silently compile to nothing. The error, prefixed with `pass`, is at
/// the nested module, with a note at its first sol op.
LogicalResult checkNoNestedSolOps(ModuleOp module, StringRef pass);

} // namespace mlir::sol

#endif // SOLDIALECT_FORMKERNELS_H
