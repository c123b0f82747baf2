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
#include "llvm/ADT/StringSet.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLFORMKERNELSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

/// Every symbol name a new kernel must not reuse: the symbols of the
/// outermost symbol table and the names of all kernels under it.
static llvm::StringSet<> collectTakenNames(Operation *root) {
  llvm::StringSet<> taken;
  root->walk([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op))
      taken.insert(kernel.getSymName());
    else if (auto name = op->getAttrOfType<StringAttr>(
                 SymbolTable::getSymbolAttrName()))
      taken.insert(name.getValue());
  });
  return taken;
}

SmallVector<KernelOp> mlir::sol::wrapLoneComputeOps(func::FuncOp func) {
  Operation *root = func;
  while (Operation *parent = root->getParentOp())
    root = parent;
  llvm::StringSet<> taken = collectTakenNames(root);

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
    std::string name;
    do
      name = getKernelName(func.getName(), op, counter++);
    while (taken.contains(name));
    taken.insert(name);

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

namespace {
struct FormKernelsPass : sol::impl::SolFormKernelsPassBase<FormKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>()))
      wrapLoneComputeOps(func);
  }
};
} // namespace
