//===- SolDialect.cpp - sol dialect registration --------------------------===//
//
// Registers ops and attributes, materialises folded constants, and checks
// where the discardable sol.* attributes may appear.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/SolDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sol;

#include "SolDialect/SolEnums.cpp.inc"
#include "SolDialect/SolInterfaces.cpp.inc"
#include "SolDialect/SolOpsDialect.cpp.inc"

void SolDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "SolDialect/SolOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *SolDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto floatAttr = dyn_cast<FloatAttr>(value);
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!floatAttr || !tensorType || tensorType.getRank() != 0 ||
      tensorType.getElementType() != floatAttr.getType())
    return nullptr;
  return ConstantOp::create(builder, loc, floatAttr);
}

LogicalResult SolDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kTargetAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << kTargetAttrName
                             << "' may only be attached to a builtin.module";
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kTargetAttrName << "' must be a #sol.target attribute";
    return success();
  }
  if (attr.getName() == kCostSummaryAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << kCostSummaryAttrName
                             << "' may only be attached to a builtin.module";
    if (!isa<CostSummaryAttr>(attr.getValue()))
      return op->emitError() << "'" << kCostSummaryAttrName
                             << "' must be a #sol.cost_summary attribute";
    return success();
  }
  // Lowered kernels keep their annotations: the kernel functions of
  // convert-sol-to-linalg and the gpu.func kernels generated from them.
  bool isFunction = isa<FunctionOpInterface>(op);
  bool isKernelFunction = isFunction && (op->hasAttr(kKernelFuncAttrName) ||
                                         op->hasAttr("gpu.kernel"));
  if (attr.getName() == kKernelFuncAttrName) {
    if (!isFunction || !isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << kKernelFuncAttrName
                             << "' is a unit attribute of a function";
    return success();
  }
  if (attr.getName() == kPlanAttrName) {
    if (!isKernelFunction)
      return op->emitError() << "'" << kPlanAttrName
                             << "' annotates a kernel function (a sol.kernel "
                                "carries its own 'plan')";
    if (!isa<PlanAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kPlanAttrName << "' must be a #sol.plan attribute";
    return success();
  }
  if (attr.getName() == kDimRangeAttrName) {
    if (!isa<ModuleOp>(op) && !isFunction)
      return op->emitError() << "'" << kDimRangeAttrName
                             << "' may only be attached to a builtin.module "
                                "or a function";
    if (!isa<DimRangeAttr>(attr.getValue()))
      return op->emitError() << "'" << kDimRangeAttrName
                             << "' must be a #sol.dim_range attribute";
    return success();
  }
  if (attr.getName() == kPlansAttrName) {
    auto table = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isKernelFunction || !table || table.empty() ||
        !llvm::all_of(table, llvm::IsaPred<PlanEntryAttr>))
      return op->emitError() << "'" << kPlansAttrName
                             << "' is a non-empty list of #sol.plan_entry on "
                                "a kernel function (a sol.kernel carries its "
                                "own 'plans')";
    return success();
  }
  if (attr.getName() == kTensorMapsAttrName) {
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isKernelFunction || !count || count.getInt() < 1)
      return op->emitError() << "'" << kTensorMapsAttrName
                             << "' is a positive integer attribute of a "
                                "kernel function";
    return success();
  }
  if (attr.getName() == kMinPtxVersionAttrName) {
    auto version = dyn_cast<IntegerAttr>(attr.getValue());
    // By name: the dialect library does not link the GPU dialect.
    if (op->getName().getStringRef() != "gpu.module" || !version ||
        version.getInt() < 1)
      return op->emitError() << "'" << kMinPtxVersionAttrName
                             << "' is a positive integer attribute of a "
                                "gpu.module (the PTX ISA version times ten)";
    return success();
  }
  if (attr.getName() == kCostAttrName) {
    if (!isLoneComputeOp(op) && !isKernelFunction)
      return op->emitError() << "'" << kCostAttrName
                             << "' annotates a sol compute op outside a "
                                "sol.kernel or a kernel function (a kernel "
                                "carries its own 'cost')";
    if (!isa<CostAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kCostAttrName << "' must be a #sol.cost attribute";
    return success();
  }
  return op->emitError() << "unknown sol dialect attribute '"
                         << attr.getName().getValue() << "'";
}
