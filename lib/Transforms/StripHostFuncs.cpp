//===- StripHostFuncs.cpp - keep only the kernel functions ----------------===//
//
// sol-strip-host-funcs: the CPU numerics library (sol-lower-to-cpu) holds
// the kernel functions convert-sol-to-linalg made, nothing of the host
// program that calls them (on the GPU side, convert-sol-kernels-to-gpu drops
// the host functions itself). Erasing the host functions first also
// keeps their tensor-level calls out of bufferization. The sol.* annotations
// go too: past this point nothing reads them, and mlir-translate could not
// parse them (it does not load the sol dialect).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLSTRIPHOSTFUNCSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

/// Removes every discardable attribute in the sol namespace from `op`.
static void dropSolAttrs(Operation *op) {
  SmallVector<StringAttr> names;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("sol."))
      names.push_back(attr.getName());
  for (StringAttr name : names)
    op->removeDiscardableAttr(name);
}

namespace {
struct StripHostFuncsPass
    : sol::impl::SolStripHostFuncsPassBase<StripHostFuncsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::to_vector(module.getOps<FunctionOpInterface>())) {
      if (!func->hasAttr(SolDialect::kKernelFuncAttrName)) {
        func.erase();
        continue;
      }
      dropSolAttrs(func);
    }
    dropSolAttrs(module);
  }
};
} // namespace
