//===- DynamicShapes.h - sol's dynamic leading dim --------------*- C++ -*-===//
//
// sol compiles one kernel set for every token count: the outermost dim of a
// kernel's tensors may be dynamic (`tensor<?x2560xf16>`), every other dim is
// static (N and K are weights; the inner strides of the row-major buffers
// the generators index must be constants). docs/dynamic-shapes.md has the
// whole contract, from the IR to the launch; this header holds the facts
// every pass shares: the declared range, the points a range is priced at,
// the kernel a plan-table row becomes, and the static instance of a dynamic
// kernel at one M that the cost model and the planner price.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_DYNAMICSHAPES_H
#define SOLDIALECT_DYNAMICSHAPES_H

#include "SolDialect/SolDialect.h"

#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir::sol {

/// The range a dynamic dim takes when neither the function nor the module
/// declares one: one token to a 64k-token prefill batch.
constexpr int64_t kDefaultDimMin = 1;
constexpr int64_t kDefaultDimMax = 65536;
/// The largest value a dynamic dim may declare: the kernels take it as a
/// 64-bit parameter, but grids of 16-row tiles must stay below CUDA's
/// limits at the range's end (sol-tile checks each row's plan at its end).
constexpr int64_t kMaxDynamicDim = (int64_t(1) << 31) - 1;

/// The shaped value sol treats as dynamic: a ranked tensor whose outermost
/// dim is dynamic.
bool hasDynamicLeadingDim(Type type);
/// Empty when `type` is a shape sol compiles (static, or dynamic in the
/// outermost dim only), else why not, for a diagnostic.
std::string whyNotSupportedShape(Type type);

/// A kernel (any of its inputs or results) with a dynamic leading dim.
bool isDynamicKernel(KernelOp kernel);

/// The #sol.dim_range in effect at `op`: the nearest enclosing function's
/// or module's `sol.dim_range`, else 1..65536 without hints.
DimRangeAttr lookupDimRange(Operation *op);

/// The values of the dynamic dim a dynamic kernel is priced at, increasing
/// and unique: the range's ends, its hints, and every power of two in
/// between (where the planner's tile and wave choices change).
SmallVector<int64_t> getDimSamplePoints(DimRangeAttr range);
/// The points the cost report prints: the ends and the hints.
SmallVector<int64_t> getDimReportPoints(DimRangeAttr range);

/// `type` with its dynamic leading dim set to `dim` (other types as they
/// are).
Type getTypeAtDim(Type type, int64_t dim);

/// A copy of `kernel` with every dynamic leading dim set to `dim`, inserted
/// right after `kernel` (so lookups through its parents, the target and the
/// range, see the same module) and erased when the returned ref goes. The
/// static analyses (cost model, planner) price a dynamic kernel through it.
OwningOpRef<KernelOp> cloneKernelAtDim(KernelOp kernel, int64_t dim);

/// The name of the kernel a plan-table row generates:
/// `<kernel>__m<m_min>_<m_max>`. The GPU conversion names the gpu.module
/// and gpu.func so, the manifest writer names the binaries so.
std::string getPlanEntryKernelName(StringRef kernelName, PlanEntryAttr entry);

/// The row of `table` whose range holds `dim`, or null.
PlanEntryAttr findPlanEntry(ArrayAttr table, int64_t dim);

} // namespace mlir::sol

#endif // SOLDIALECT_DYNAMICSHAPES_H
