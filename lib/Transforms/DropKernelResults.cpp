//===- DropKernelResults.cpp - kernels write their outs, return nothing ---===//
//
// sol-drop-kernel-results: after bufferization a kernel function returns the
// out buffers it was handed (destination-passing style bufferizes in place).
// The kernel C ABI is `void name(void *in..., void *out...)`, so those results
// go. Upstream drop-equivalent-buffer-results does the same but skips public
// functions (their external callers might read the results); a kernel
// library's functions are public by definition. A result that is not an out
// argument would need a copy into the caller's buffer: that is an error, not
// something to paper over.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLDROPKERNELRESULTSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

/// Drops every result of `func`, each of which must be one of its arguments.
static LogicalResult dropResults(func::FuncOp func) {
  if (func.isExternal() || func.getNumResults() == 0)
    return success();
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "kernel function @" << func.getSymName()
                            << " has more than one block; expected the "
                               "straight-line kernel form";
  auto ret = cast<func::ReturnOp>(func.front().getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &func.front())
      return ret.emitError()
             << "kernel function @" << func.getSymName() << " result #" << i
             << " is not one of its arguments; the kernel would have to copy "
                "it into the caller's buffer";
  }
  if (auto uses = func.getSymbolUses(func->getParentOp());
      uses && !uses->empty())
    return func.emitError() << "kernel function @" << func.getSymName()
                            << " has callers; run sol-strip-host-funcs first";
  ret->setOperands({});
  llvm::BitVector all(func.getNumResults(), true);
  return func.eraseResults(all);
}

namespace {
struct DropKernelResultsPass
    : sol::impl::SolDropKernelResultsPassBase<DropKernelResultsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(dropResults(func)))
        return signalPassFailure();
  }
};
} // namespace
