//===- Fuse.cpp - group sol ops into sol.kernels --------------------------===//
//
// The pass over the fusion library (Fusion.h, lib/Transforms/Fusion.cpp): it
// reads the options and the module's target, picks the profitability
// callback (the cost model, or none under force=...) and runs the driver on
// every block that holds sol ops. The decisions themselves live in the
// library, so that other drivers can reuse them.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/FormKernels.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLFUSEPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

static_assert(kDefaultMaxKernelOps == 256,
              "max-kernel-ops' default in Passes.td must match");

namespace {
struct FusePass : sol::impl::SolFusePassBase<FusePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkNoNestedSolOps(module, "sol-fuse")))
      return signalPassFailure();
    FusionOptions fusionOptions;
    fusionOptions.fuseEpilogues = fuseEpilogues;
    fusionOptions.fuseSiblingMatmuls = fuseSiblings;
    fusionOptions.fuseElementwise = fuseElementwise;
    fusionOptions.maxEpilogueOps = maxEpilogueOps;
    fusionOptions.maxKernelOps = maxKernelOps;
    fusionOptions.emitRemarks = remarks;
    if (force == "always") {
      fusionOptions.force = FusionForce::always;
    } else if (force == "never") {
      fusionOptions.force = FusionForce::never;
    } else if (!force.empty()) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-fuse: unknown force '" << force
          << "'; expected always, never or nothing";
      return signalPassFailure();
    }

    // Only profitability needs the device; forced fusion is a pure legality
    // question.
    TargetAttr target = lookupTarget(module);
    fusionOptions.target = target;
    if (fusionOptions.force == FusionForce::none) {
      if (!target) {
        emitMissingTargetError(getModuleDiagnosticAnchor(module), "sol-fuse",
                               " to judge profitability")
            << " (or pass force=always|never)";
        return signalPassFailure();
      }
      fusionOptions.profitability = getCostModelProfitability(target);
    }

    // One namer for the pass: names stay unique across functions whose
    // sanitised names meet (`a b` and `a_b`).
    KernelNamer namer(module);
    module.walk([&](FunctionOpInterface func) {
      // Blocks holding sol compute ops outside kernels, in walk order.
      llvm::SetVector<Block *> blocks;
      func.walk([&](Operation *op) {
        if (isLoneComputeOp(op))
          blocks.insert(op->getBlock());
      });
      unsigned counter = 0;
      for (Block *block : blocks)
        fuseBlock(*block, func.getName(), fusionOptions, counter, namer);
    });
  }
};
} // namespace
