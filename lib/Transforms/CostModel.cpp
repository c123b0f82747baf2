//===- CostModel.cpp - annotate kernels with their speed of light ---------===//
//
// The pass over the cost-model library (lib/Analysis/CostModel.cpp): every
// kernel of the module gets its #sol.cost, the module its summary, and the
// user, on request, a report. Keeping the judgement in the library lets
// fusion ask the same questions of kernels that do not exist yet.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"
#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"

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
        KernelWork work = countKernelWork(kernel);
        if (!work.invalidReason.empty()) {
          kernel.emitError()
              << "sol-cost-model: cannot cost kernel @" << kernel.getSymName()
              << ": " << work.invalidReason;
          return WalkResult::interrupt();
        }
        // Price the plan sol-tile chose, when it has run.
        std::optional<MatmulTiling> tiling;
        if (PlanAttr plan = kernel.getPlanAttr())
          tiling = getMatmulTiling(plan);
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
