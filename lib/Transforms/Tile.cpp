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

/// Parses the comma-separated enum names of option `option` (value `text`)
/// into `values`; an unknown name is an error on `module`.
template <typename Enum>
static LogicalResult parseEnumList(ModuleOp module, StringRef what,
                                   StringRef option, StringRef text,
                                   std::optional<Enum> (*symbolize)(StringRef),
                                   SmallVectorImpl<Enum> &values) {
  SmallVector<StringRef> names;
  text.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    std::optional<Enum> value = symbolize(name.trim());
    if (!value)
      return getModuleDiagnosticAnchor(module)->emitError()
             << "sol-tile: unknown " << what << " '" << name.trim() << "' in "
             << option << "=" << text;
    values.push_back(*value);
  }
  return success();
}

/// Parses option `tiles` ("128x256,128x128") into (M, N) pairs; anything
/// else is an error on `module`.
static LogicalResult
parseTileList(ModuleOp module, StringRef text,
              SmallVectorImpl<std::pair<int64_t, int64_t>> &tiles) {
  SmallVector<StringRef> names;
  text.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    auto [m, n] = name.trim().split('x');
    int64_t tileM, tileN;
    if (m.getAsInteger(10, tileM) || n.getAsInteger(10, tileN) || tileM < 1 ||
        tileN < 1)
      return getModuleDiagnosticAnchor(module)->emitError()
             << "sol-tile: tile '" << name.trim() << "' in tiles=" << text
             << " is not MxN";
    tiles.push_back({tileM, tileN});
  }
  return success();
}

namespace {

struct TilePass : sol::impl::SolTilePassBase<TilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = lookupTarget(module);
    if (!target) {
      emitMissingTargetError(getModuleDiagnosticAnchor(module), "sol-tile");
      return signalPassFailure();
    }
    if (maxCluster < 1 || maxSplitK < 1 || minCluster < 1) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-tile: min-cluster, max-cluster and "
             "max-split-k must be at least 1 (got "
          << static_cast<int64_t>(minCluster) << ", "
          << static_cast<int64_t>(maxCluster) << " and "
          << static_cast<int64_t>(maxSplitK) << ")";
      return signalPassFailure();
    }
    PlanConstraints constraints;
    constraints.minCluster = minCluster;
    constraints.maxCluster = maxCluster;
    constraints.maxSplitK = maxSplitK;
    if (failed(parseEnumList(module, "path", "paths", paths,
                             symbolizeKernelPath, constraints.paths)) ||
        failed(parseEnumList(module, "schedule", "schedules", schedules,
                             symbolizeConsumerSchedule,
                             constraints.schedules)) ||
        failed(parseTileList(module, tiles, constraints.tiles)))
      return signalPassFailure();
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
