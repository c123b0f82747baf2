//===- SolDialect.cpp - sol dialect registration --------------------------===//
//
// Registers ops and attributes, materialises folded constants, and checks
// where the discardable sol.* attributes may appear.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/SolDialect.h"

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
  if (attr.getName() == kKernelFuncAttrName) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << kKernelFuncAttrName
                             << "' may only be attached to a function";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kKernelFuncAttrName << "' must be a unit attribute";
    return success();
  }
  // A kernel function carries its sol.kernel's annotations (cost, later the
  // tile plan) under the sol. prefix.
  if (isa<FunctionOpInterface>(op) && op->hasAttr(kKernelFuncAttrName)) {
    if (attr.getName() == kCostAttrName && !isa<CostAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kCostAttrName << "' must be a #sol.cost attribute";
    return success();
  }
  if (attr.getName() == kCostAttrName) {
    if (!isLoneComputeOp(op))
      return op->emitError() << "'" << kCostAttrName
                             << "' annotates a sol compute op outside a "
                                "sol.kernel (a kernel carries its own 'cost')";
    if (!isa<CostAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kCostAttrName << "' must be a #sol.cost attribute";
    return success();
  }
  return op->emitError() << "unknown sol dialect attribute '"
                         << attr.getName().getValue() << "'";
}
