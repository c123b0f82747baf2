//===- DynamicShapes.cpp - sol's dynamic leading dim ----------------------===//
//
// The shared facts of dynamic-M compilation (DynamicShapes.h): the range in
// effect, the points it is priced at, and the static instance of a dynamic
// kernel at one M, through which the cost model and the planner reuse their
// static analyses unchanged.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/DynamicShapes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sol;

bool mlir::sol::hasDynamicLeadingDim(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0);
}

std::string mlir::sol::whyNotSupportedShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "";
  for (int64_t d = 1; d < tensor.getRank(); ++d)
    if (tensor.isDynamicDim(d))
      return "only the outermost dim may be dynamic (dim " +
             std::to_string(d) + " of " + formatShape(tensor.getShape()) +
             " is not): sol's kernels index row-major buffers whose inner "
             "strides must be constants; reshape the leading dims into one";
  return "";
}

bool mlir::sol::isDynamicKernel(KernelOp kernel) {
  return llvm::any_of(kernel.getInputs().getTypes(), hasDynamicLeadingDim) ||
         llvm::any_of(kernel.getResultTypes(), hasDynamicLeadingDim);
}

DimRangeAttr mlir::sol::lookupDimRange(Operation *op) {
  for (Operation *scope = op; scope; scope = scope->getParentOp()) {
    if (!isa<FunctionOpInterface, ModuleOp>(scope))
      continue;
    if (auto range =
            scope->getAttrOfType<DimRangeAttr>(SolDialect::kDimRangeAttrName))
      return range;
  }
  return DimRangeAttr::get(op->getContext(), kDefaultDimMin, kDefaultDimMax,
                           {});
}

SmallVector<int64_t> mlir::sol::getDimSamplePoints(DimRangeAttr range) {
  SmallVector<int64_t> points = getDimReportPoints(range);
  for (int64_t p = 1; p > 0 && p <= range.getMax(); p *= 2)
    if (p >= range.getMin())
      points.push_back(p);
  llvm::sort(points);
  points.erase(llvm::unique(points), points.end());
  return points;
}

SmallVector<int64_t> mlir::sol::getDimReportPoints(DimRangeAttr range) {
  SmallVector<int64_t> points = {range.getMin(), range.getMax()};
  llvm::append_range(points, range.getHints());
  llvm::sort(points);
  points.erase(llvm::unique(points), points.end());
  return points;
}

Type mlir::sol::getTypeAtDim(Type type, int64_t dim) {
  if (!hasDynamicLeadingDim(type))
    return type;
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[0] = dim;
  return tensor.clone(shape);
}

OwningOpRef<KernelOp> mlir::sol::cloneKernelAtDim(KernelOp kernel,
                                                  int64_t dim) {
  OpBuilder builder(kernel->getContext());
  builder.setInsertionPointAfter(kernel);
  auto clone = cast<KernelOp>(builder.clone(*kernel));
  // sol ops carry no attribute that depends on a shape: retyping every value
  // gives the static kernel at `dim`.
  auto retype = [&](Value value) {
    value.setType(getTypeAtDim(value.getType(), dim));
  };
  llvm::for_each(clone->getResults(), retype);
  clone.walk([&](Operation *op) {
    llvm::for_each(op->getResults(), retype);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::for_each(block.getArguments(), retype);
  });
  // The clone's operands are the original's (dynamic) values; the analyses
  // read types off the body and the results, which are now static.
  clone->removeAttr(clone.getCostsAttrName());
  clone->removeAttr(clone.getPlansAttrName());
  return OwningOpRef<KernelOp>(clone);
}

std::string mlir::sol::getPlanEntryKernelName(StringRef kernelName,
                                              PlanEntryAttr entry) {
  return (kernelName + "__m" + std::to_string(entry.getMMin()) + "_" +
          std::to_string(entry.getMMax()))
      .str();
}

PlanEntryAttr mlir::sol::findPlanEntry(ArrayAttr table, int64_t dim) {
  for (auto entry : table.getAsRange<PlanEntryAttr>())
    if (entry.getMMin() <= dim && dim <= entry.getMMax())
      return entry;
  return {};
}
