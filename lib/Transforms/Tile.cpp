//===- Tile.cpp - choose each kernel's launch and tile plan ---------------===//
//
// The pass over TilePlan.h: every sol.kernel gets the #sol.plan the GPU code
// generator will implement, and the cost of that plan. The decision itself
// lives in the library so the C API and the tests can ask it directly.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLTILEPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {

struct TilePass : sol::impl::SolTilePassBase<TilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = lookupTarget(module);
    if (!target) {
      emitMissingTargetError(module, "sol-tile");
      return signalPassFailure();
    }
    PlanConstraints constraints;
    constraints.maxCluster = maxCluster;
    constraints.maxSplitK = maxSplitK;
    SmallVector<StringRef> names;
    StringRef(paths).split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef name : names) {
      std::optional<KernelPath> path = symbolizeKernelPath(name.trim());
      if (!path) {
        module.emitError() << "sol-tile: unknown path '" << name.trim()
                           << "' in paths=" << paths;
        return signalPassFailure();
      }
      constraints.paths.push_back(*path);
    }
    SmallVector<StringRef> scheduleNames;
    StringRef(schedules).split(scheduleNames, ',', /*MaxSplit=*/-1,
                               /*KeepEmpty=*/false);
    for (StringRef name : scheduleNames) {
      std::optional<ConsumerSchedule> schedule =
          symbolizeConsumerSchedule(name.trim());
      if (!schedule) {
        module.emitError() << "sol-tile: unknown schedule '" << name.trim()
                           << "' in schedules=" << schedules;
        return signalPassFailure();
      }
      constraints.schedules.push_back(*schedule);
    }
    WalkResult result = module.walk([&](KernelOp kernel) {
      std::string failureReason;
      FailureOr<PlanChoice> choice =
          chooseKernelPlan(kernel, target, failureReason, constraints);
      if (failed(choice)) {
        kernel.emitError() << "sol-tile: cannot plan kernel @"
                           << kernel.getSymName() << ": " << failureReason;
        return WalkResult::interrupt();
      }
      kernel.setPlanAttr(choice->plan);
      kernel.setCostAttr(choice->cost);
      if (remarks)
        kernel.emitRemark() << "plan " << choice->reason;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
