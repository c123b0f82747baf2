//===- Tile.cpp - choose each kernel's launch and tile plan ---------------===//
//
// The pass over TilePlan.h: every sol.kernel gets the #sol.plan the GPU code
// generator implements, the best of the candidates its kernel paths offer
// (KernelPath.h), and the cost of that plan; a kernel whose outermost dim is
// dynamic gets a table of plans over ranges of it instead
// (docs/dynamic-shapes.md, section 3). The decisions themselves live in the
// library so the C API and the tests can ask them directly.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Passes.h"
#include "SolDialect/PlanCache.h"
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

/// The `costs` of a dynamic kernel planned by `rows`: at each point the
/// cost model priced (else each report point), the prediction of the plan
/// of the row holding it, as sol-tile rewrites a static kernel's `cost` for
/// its plan. A point with nothing to price (M = 0: nothing runs) keeps the
/// cost model's cost, or is left out.
static ArrayAttr getCostPoints(KernelOp kernel, ArrayRef<PlanTableRow> rows,
                               TargetAttr target,
                               const PlanConstraints &constraints) {
  MLIRContext *context = kernel.getContext();
  SmallVector<std::pair<int64_t, CostAttr>> points;
  if (ArrayAttr priced = kernel.getCostsAttr())
    for (auto point : priced.getAsRange<CostPointAttr>())
      points.push_back({point.getM(), point.getCost()});
  else
    for (int64_t m : getDimReportPoints(lookupDimRange(kernel)))
      points.push_back({m, CostAttr()});
  SmallVector<Attribute> result;
  for (auto [m, cost] : points) {
    const PlanTableRow *row = llvm::find_if(rows, [&](const PlanTableRow &r) {
      return r.mMin <= m && m <= r.mMax;
    });
    if (m >= 1 && row != rows.end()) {
      std::string ignored;
      FailureOr<PlanChoice> choice = chooseKernelPlanAtDim(
          kernel, m, target, ignored, constraints.pinnedTo({row->choice.plan}));
      if (succeeded(choice))
        cost = choice->cost;
    }
    if (cost)
      result.push_back(CostPointAttr::get(context, m, cost));
  }
  return ArrayAttr::get(context, result);
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
    if (splitK < 0) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-tile: split-k must be at least 0 (0: any split; got "
          << static_cast<int64_t>(splitK) << ")";
      return signalPassFailure();
    }
    if (rank < 0) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-tile: rank must be at least 0 (0: the cost model's best "
             "plan; got "
          << static_cast<int64_t>(rank) << ")";
      return signalPassFailure();
    }
    PlanConstraints constraints;
    constraints.minCluster = minCluster;
    constraints.maxCluster = maxCluster;
    constraints.maxSplitK = maxSplitK;
    constraints.nMajorTma = nMajorTma;
    constraints.smallMTma = smallMTma;
    constraints.smallMSiblings = smallMSiblings;
    constraints.swapAbRowTile64 = swapAbRowTile64;
    constraints.blockSplitK = blockSplitK;
    constraints.hopperMmaSyncFp8 = hopperMmaSyncFp8;
    constraints.splitK = splitK;
    constraints.rank = rank;
    if (failed(parseEnumList(module, "path", "paths", paths,
                             symbolizeKernelPath, constraints.paths)) ||
        failed(parseEnumList(module, "schedule", "schedules", schedules,
                             symbolizeConsumerSchedule,
                             constraints.schedules)) ||
        failed(parseTileList(module, tiles, constraints.tiles)))
      return signalPassFailure();
    PlanCache cache;
    if (!planCache.empty()) {
      std::string error;
      FailureOr<PlanCache> loaded =
          loadPlanCache(planCache, module.getContext(), error);
      if (failed(loaded)) {
        getModuleDiagnosticAnchor(module)->emitError()
            << "sol-tile: plan-cache: " << error;
        return signalPassFailure();
      }
      cache = std::move(*loaded);
    }
    WalkResult result = module.walk([&](KernelOp kernel) {
      if (isDynamicKernel(kernel))
        return planDynamicKernel(kernel, target, constraints)
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      std::string failureReason;
      PlanConstraints kernelConstraints = constraints;
      if (!cache.empty())
        kernelConstraints.cachedPlan =
            cache.lookup(getPlanCacheKey(kernel, target));
      FailureOr<PlanChoice> choice =
          chooseKernelPlan(kernel, target, failureReason, kernelConstraints);
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

  /// A kernel with a dynamic leading dim gets a plan table (`plans`) and no
  /// `plan`; `cost` is the prediction at its range's max, `costs` (when the
  /// cost model has not priced the points) the one at each report point.
  bool planDynamicKernel(KernelOp kernel, TargetAttr target,
                         const PlanConstraints &constraints) {
    std::string failureReason;
    FailureOr<SmallVector<PlanTableRow>> rows =
        choosePlanTable(kernel, target, failureReason, constraints);
    if (failed(rows)) {
      kernel.emitError() << "sol-tile: cannot plan kernel @"
                         << kernel.getSymName() << ": " << failureReason;
      return false;
    }
    MLIRContext *context = kernel.getContext();
    SmallVector<Attribute> entries;
    for (const PlanTableRow &row : *rows)
      entries.push_back(
          PlanEntryAttr::get(context, row.mMin, row.mMax, row.choice.plan));
    kernel->removeAttr(kernel.getPlanAttrName());
    kernel.setPlansAttr(ArrayAttr::get(context, entries));
    kernel.setCostAttr(rows->back().choice.cost);
    kernel.setCostsAttr(getCostPoints(kernel, *rows, target, constraints));
    if (remarks)
      for (const PlanTableRow &row : *rows)
        kernel.emitRemark() << "plan for M in " << row.mMin << ".." << row.mMax
                            << ": " << row.choice.description
                            << " at M = " << std::max<int64_t>(row.mMax, 1)
                            << "; " << row.boundary;
    return true;
  }
};

} // namespace
