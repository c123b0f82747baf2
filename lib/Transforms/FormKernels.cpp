//===- FormKernels.cpp - wrap lone sol compute ops into sol.kernels -------===//
//
// sol-form-kernels: after fusion, a sol op that joined no group is still a
// plain op. Code generation handles exactly one unit, the sol.kernel, so this
// pass (and convert-sol-to-linalg, which calls wrapLoneComputeOps first) gives
// each lone op a kernel of its own: same naming as sol-fuse, the op's cost
// moved onto the kernel, scalar constants cloned inside.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/FormKernels.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLFORMKERNELSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

SmallVector<KernelOp> mlir::sol::wrapLoneComputeOps(func::FuncOp func) {
  KernelNamer namer(func);
  SmallVector<Operation *> lone;
  unsigned counter = 0;
  func.walk([&](Operation *op) {
    if (isa<KernelOp>(op))
      ++counter;
    else if (isLoneComputeOp(op))
      lone.push_back(op);
  });

  IRRewriter rewriter(func.getContext());
  SmallVector<KernelOp> kernels;
  llvm::SetVector<ConstantOp> constantsUsed;
  for (Operation *op : lone) {
    std::string name = namer.next(func.getName(), op, counter);

    // The lone op's cost annotation describes exactly the kernel it becomes.
    auto cost = op->getAttrOfType<CostAttr>(SolDialect::kCostAttrName);
    op->removeAttr(SolDialect::kCostAttrName);
    for (Value operand : op->getOperands())
      if (auto constant = operand.getDefiningOp<ConstantOp>())
        constantsUsed.insert(constant);
    KernelOp kernel = formKernel(rewriter, {op}, name);
    if (cost)
      kernel.setCostAttr(cost);
    kernels.push_back(kernel);
  }
  // Constants cloned into kernels may have no other user left.
  for (ConstantOp constant : constantsUsed)
    if (constant->use_empty())
      rewriter.eraseOp(constant);
  return kernels;
}

/// Whether `loc` names a place in a file: not unknown, not the `file:0:0`
/// the parser gives an implicit module.
static bool isRealLocation(Location loc) {
  if (isa<UnknownLoc>(loc))
    return false;
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getLine() != 0;
  return true;
}

Operation *mlir::sol::getModuleDiagnosticAnchor(ModuleOp module) {
  if (isRealLocation(module.getLoc()))
    return module;
  Operation *first = nullptr, *firstSol = nullptr;
  module->walk([&](Operation *op) {
    if (op == module.getOperation() || !isRealLocation(op->getLoc()))
      return WalkResult::advance();
    if (!first)
      first = op;
    if (!isa_and_nonnull<SolDialect>(op->getDialect()))
      return WalkResult::advance();
    firstSol = op;
    return WalkResult::interrupt();
  });
  return firstSol ? firstSol : first ? first : module.getOperation();
}

LogicalResult mlir::sol::checkNoNestedSolOps(ModuleOp module, StringRef pass) {
  bool found = false;
  module->walk<WalkOrder::PreOrder>([&](ModuleOp nested) {
    if (nested == module)
      return WalkResult::advance();
    Operation *solOp = nullptr;
    nested->walk([&](Operation *op) {
      if (!isa_and_nonnull<SolDialect>(op->getDialect()))
        return WalkResult::advance();
      solOp = op;
      return WalkResult::interrupt();
    });
    if (solOp) {
      found = true;
      InFlightDiagnostic diag =
          nested.emitError()
          << pass
          << ": sol ops in a nested module are not compiled; move them "
             "into the top-level module";
      diag.attachNote(solOp->getLoc()) << "'" << solOp->getName() << "' here";
    }
    return WalkResult::skip();
  });
  return failure(found);
}

namespace {
struct FormKernelsPass : sol::impl::SolFormKernelsPassBase<FormKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkNoNestedSolOps(getOperation(), "sol-form-kernels")))
      return signalPassFailure();
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>()))
      wrapLoneComputeOps(func);
  }
};
} // namespace
