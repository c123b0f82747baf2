//===- AnnotateCosts.cpp - sol-cost-model: kernels' speed of light --------===//
//
// The pass over the cost-model library (lib/Analysis/CostModel.cpp): every
// kernel of the module gets its #sol.cost, the module its summary, and the
// user, on request, a report. Keeping the judgement in the library lets
// fusion ask the same questions of kernels that do not exist yet. sol-to-ptx
// runs it twice: after sol-fuse, on what fusion formed, and after sol-tile,
// on the plans chosen.
//
// A kernel whose outermost dim is dynamic is priced at every report point
// of its #sol.dim_range (its ends and hints) through its static clone at
// that M, with the plan of the row holding M when sol-tile has run: it
// gets `costs` (one #sol.cost_point per point) and `cost` (the one at the
// range's max, which the module's totals count). M = 0 runs nothing and is
// priced nowhere. A lone dynamic op is priced the same way; it keeps the
// `sol.cost` at the max (the points are in the report).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

#include <limits>

namespace mlir::sol {
#define GEN_PASS_DEF_SOLCOSTMODELPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {

struct CostModelPass : sol::impl::SolCostModelPassBase<CostModelPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (report != "none" && report != "table" && report != "json") {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-cost-model: unknown report kind '" << report
          << "'; expected none, table or json";
      return signalPassFailure();
    }
    TargetAttr target = lookupTarget(module);
    if (!target) {
      emitMissingTargetError(getModuleDiagnosticAnchor(module),
                             "sol-cost-model");
      return signalPassFailure();
    }

    SmallVector<CostRecord> records;
    // Checked: each kernel's counts fit int64 (countKernelWork refuses
    // those that do not), their sums over the module need not.
    CheckedCount unfusedBytes = 0, fusedBytes = 0;
    llvm::StringMap<unsigned> loneOpCounts;
    WalkResult result = module.walk([&](Operation *op) {
      if (auto kernel = dyn_cast<KernelOp>(op)) {
        if (isDynamicKernel(kernel))
          return priceDynamicKernel(kernel, target, unfusedBytes, fusedBytes,
                                    records);
        KernelWork work = countKernelWork(kernel);
        if (!work.invalidReason.empty()) {
          kernel.emitError()
              << "sol-cost-model: cannot cost kernel @" << kernel.getSymName()
              << ": " << work.invalidReason;
          return WalkResult::interrupt();
        }
        // Price the plan sol-tile chose, when it has run.
        std::optional<MatmulTiling> tiling;
        if (PlanAttr plan = kernel.getPlanAttr()) {
          FailureOr<LaunchSizes> sizes = failure();
          std::string reason =
              lookupKernelPath(plan.getPath()).whyNotWellFormed(plan);
          if (reason.empty())
            sizes = getKernelLaunchSizes(kernel, target, reason);
          if (failed(sizes)) {
            kernel.emitError() << "sol-cost-model: cannot cost kernel @"
                               << kernel.getSymName() << ": " << reason;
            return WalkResult::interrupt();
          }
          tiling = getMatmulTiling(plan, *sizes);
        }
        CostAttr cost = estimateCost(work, target, tiling ? &*tiling : nullptr);
        kernel.setCostAttr(cost);
        SmallVector<Operation *> body;
        for (Operation &inner : kernel.getBodyBlock().without_terminator())
          body.push_back(&inner);
        unfusedBytes += countUnfusedBytes(body);
        fusedBytes += cost.getBytes();
        record(op, kernel.getSymName().str(), cost, records);
        return WalkResult::advance();
      }
      if (!isLoneComputeOp(op))
        return WalkResult::advance();
      if (isDynamicLoneOp(op))
        return priceDynamicLoneOp(op, target, unfusedBytes, fusedBytes,
                                  records, loneOpCounts);
      KernelWork work = countOpWork(op);
      if (!work.invalidReason.empty()) {
        op->emitError() << "sol-cost-model: cannot cost '" << op->getName()
                        << "': " << work.invalidReason;
        return WalkResult::interrupt();
      }
      CostAttr cost = estimateCost(work, target);
      op->setAttr(SolDialect::kCostAttrName, cost);
      unfusedBytes += cost.getBytes();
      fusedBytes += cost.getBytes();
      std::string name = loneOpName(op, loneOpCounts);
      record(op, name, cost, records);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // countUnfusedBytes saturates at INT64_MAX: that is an overflow too.
    if (unfusedBytes.overflowed() || fusedBytes.overflowed() ||
        unfusedBytes.get() == std::numeric_limits<int64_t>::max()) {
      getModuleDiagnosticAnchor(module)->emitError(
          "sol-cost-model: the module's kernels move more than "
          "2^63 - 1 bytes together; the totals overflow int64");
      return signalPassFailure();
    }

    CostSummaryAttr summary =
        summarizeCosts(&getContext(), records, unfusedBytes.get());
    module->setAttr(SolDialect::kCostSummaryAttrName, summary);

    if (report == "none")
      return;
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(reportFile, &error);
    if (!out) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-cost-model: cannot write report: " << error;
      return signalPassFailure();
    }
    if (report == "table")
      printCostTable(out->os(), target, records, summary);
    else
      printCostJSON(out->os(), target, records, summary);
    out->keep();
  }

  static void record(Operation *op, std::string name, CostAttr cost,
                     SmallVectorImpl<CostRecord> &records) {
    if (cost.getBound() == Bound::unknown)
      op->emitWarning() << "cost of '" << name
                        << "' is unknown: " << cost.getReason();
    records.push_back({std::move(name), cost});
  }

  /// A lone op with a dynamic leading dim among its operands or results.
  static bool isDynamicLoneOp(Operation *op) {
    return llvm::any_of(op->getOperandTypes(), hasDynamicLeadingDim) ||
           llvm::any_of(op->getResultTypes(), hasDynamicLeadingDim);
  }

  /// The points a dynamic kernel is priced at: the report points but M = 0,
  /// where nothing runs.
  static SmallVector<int64_t> getPricedPoints(DimRangeAttr range) {
    SmallVector<int64_t> points = getDimReportPoints(range);
    llvm::erase(points, 0);
    return points;
  }

  /// The tiling a dynamic kernel runs at `dim`: its plan-table row's plan
  /// as built at the row's m_max, with the grid that row's rule launches at
  /// `dim`. Failure with `reason` where the row's sizes cannot be read.
  static FailureOr<std::optional<MatmulTiling>>
  getTilingAtDim(KernelOp kernel, int64_t dim, TargetAttr target,
                 std::string &reason) {
    ArrayAttr table = kernel.getPlansAttr();
    if (!table)
      return std::optional<MatmulTiling>();
    PlanEntryAttr entry = findPlanEntry(table, dim);
    if (!entry)
      return std::optional<MatmulTiling>();
    PlanAttr plan = entry.getPlan();
    reason = lookupKernelPath(plan.getPath()).whyNotWellFormed(plan);
    if (!reason.empty())
      return failure();
    FailureOr<LaunchSizes> sizes = getKernelLaunchSizes(
        kernel, target, reason, getPlanEntryBuildDim(entry));
    if (failed(sizes))
      return failure();
    MatmulTiling tiling = getMatmulTiling(plan, *sizes);
    LaunchGeometry atMax = getPlanLaunchGeometry(plan, *sizes);
    SmallVector<int64_t, 3> grid = evaluateDynamicGridRule(
        plan, atMax, getDynamicGridRule(kernel, plan, atMax), dim);
    CheckedCount blocks = countElements(grid);
    tiling.blocks = blocks.getOptional().value_or(0);
    return std::optional<MatmulTiling>(tiling);
  }

  /// `costs` at each priced point and `cost` at the range's max.
  WalkResult priceDynamicKernel(KernelOp kernel, TargetAttr target,
                                CheckedCount &unfusedBytes,
                                CheckedCount &fusedBytes,
                                SmallVectorImpl<CostRecord> &records) {
    DimRangeAttr range = lookupDimRange(kernel);
    SmallVector<int64_t> points = getPricedPoints(range);
    std::string name = kernel.getSymName().str();
    if (points.empty()) {
      // A range of 0 alone: the kernel never runs.
      CostAttr cost = CostAttr::get(
          &getContext(), Bound::unknown, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          Limiter::unknown, "the dim range is 0..0: the kernel never runs");
      kernel.setCostAttr(cost);
      kernel->removeAttr(kernel.getCostsAttrName());
      record(kernel, name, cost, records);
      return WalkResult::advance();
    }
    SmallVector<Attribute> costPoints;
    CostRecord rec{name, {}};
    for (int64_t m : points) {
      OwningOpRef<KernelOp> clone = cloneKernelAtDim(kernel, m);
      KernelWork work = countKernelWork(*clone);
      if (!work.invalidReason.empty()) {
        kernel.emitError() << "sol-cost-model: cannot cost kernel @" << name
                           << " at m = " << m << ": " << work.invalidReason;
        return WalkResult::interrupt();
      }
      std::string reason;
      FailureOr<std::optional<MatmulTiling>> tiling =
          getTilingAtDim(kernel, m, target, reason);
      if (failed(tiling)) {
        kernel.emitError() << "sol-cost-model: cannot cost kernel @" << name
                           << " at m = " << m << ": " << reason;
        return WalkResult::interrupt();
      }
      CostAttr cost = estimateCost(work, target, *tiling ? &**tiling : nullptr);
      costPoints.push_back(CostPointAttr::get(&getContext(), m, cost));
      rec.points.push_back({m, cost});
      if (m == points.back()) {
        SmallVector<Operation *> body;
        for (Operation &inner : clone->getBodyBlock().without_terminator())
          body.push_back(&inner);
        unfusedBytes += countUnfusedBytes(body);
        fusedBytes += cost.getBytes();
        rec.cost = cost;
      }
    }
    kernel.setCostAttr(rec.cost);
    kernel.setCostsAttr(ArrayAttr::get(&getContext(), costPoints));
    for (auto [m, cost] : rec.points)
      if (cost.getBound() == Bound::unknown)
        kernel.emitWarning() << "cost of '" << name << "' at m = " << m
                             << " is unknown: " << cost.getReason();
    records.push_back(std::move(rec));
    return WalkResult::advance();
  }

  /// A lone dynamic op runs as a kernel of its own: priced like a dynamic
  /// kernel, its `sol.cost` the one at the range's max (a lone op carries
  /// no `costs`; the report lists the points).
  WalkResult priceDynamicLoneOp(Operation *op, TargetAttr target,
                                CheckedCount &unfusedBytes,
                                CheckedCount &fusedBytes,
                                SmallVectorImpl<CostRecord> &records,
                                llvm::StringMap<unsigned> &loneOpCounts) {
    SmallVector<int64_t> points = getPricedPoints(lookupDimRange(op));
    std::string name = loneOpName(op, loneOpCounts);
    CostRecord rec{name, {}};
    for (int64_t m : points) {
      KernelWork work =
          countKernelWork({op}, op->getOperands(), op->getResults(), m);
      if (!work.invalidReason.empty()) {
        op->emitError() << "sol-cost-model: cannot cost '" << op->getName()
                        << "' at m = " << m << ": " << work.invalidReason;
        return WalkResult::interrupt();
      }
      rec.points.push_back({m, estimateCost(work, target)});
    }
    if (points.empty())
      rec.cost = CostAttr::get(&getContext(), Bound::unknown, 0, 0, 0, 0, 0,
                               0, 0, 0, 0, 0, Limiter::unknown,
                               "the dim range is 0..0: the op never runs");
    else
      rec.cost = rec.points.back().second;
    op->setAttr(SolDialect::kCostAttrName, rec.cost);
    unfusedBytes += rec.cost.getBytes();
    fusedBytes += rec.cost.getBytes();
    if (rec.cost.getBound() == Bound::unknown)
      op->emitWarning() << "cost of '" << name
                        << "' is unknown: " << rec.cost.getReason();
    records.push_back(std::move(rec));
    return WalkResult::advance();
  }

  /// `func:sol.op#n`, numbered per function and op kind.
  static std::string loneOpName(Operation *op,
                                llvm::StringMap<unsigned> &counts) {
    std::string prefix;
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      prefix = (func.getName() + ":").str();
    prefix += op->getName().getStringRef().str();
    unsigned index = counts[prefix]++;
    return prefix + "#" + std::to_string(index);
  }
};

} // namespace
