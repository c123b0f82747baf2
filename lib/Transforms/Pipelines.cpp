//===- Pipelines.cpp - named sol pass pipelines ---------------------------===//
//
// Pipelines users name on the command line instead of spelling every pass.
// `sol-annotate` takes a sol module to fused kernels carrying their cost:
// what the README's main job runs. The lowering to PTX will add its own.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sol;

namespace {
struct AnnotatePipelineOptions
    : public PassPipelineOptions<AnnotatePipelineOptions> {
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("Cost report: none, table or json"),
                             llvm::cl::init("none")};
  Option<std::string> reportFile{
      *this, "report-file",
      llvm::cl::desc("Where the report goes ('-': stdout)"),
      llvm::cl::init("-")};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Emit every fusion decision as a remark"),
                       llvm::cl::init(false)};
};
} // namespace

void mlir::sol::buildSolAnnotatePipeline(OpPassManager &pm, StringRef report,
                                         StringRef reportFile, bool remarks) {
  // Canonicalize first: folded constants and identities are not worth a
  // kernel input.
  pm.addPass(createCanonicalizerPass());
  SolFusePassOptions fuse;
  fuse.remarks = remarks;
  pm.addPass(createSolFusePass(fuse));
  SolCostModelPassOptions cost;
  cost.report = report.str();
  cost.reportFile = reportFile.str();
  pm.addPass(createSolCostModelPass(cost));
}

void mlir::sol::registerSolPipelines() {
  PassPipelineRegistration<AnnotatePipelineOptions>(
      "sol-annotate",
      "Canonicalize, fuse into sol.kernels and annotate each with #sol.cost",
      [](OpPassManager &pm, const AnnotatePipelineOptions &options) {
        buildSolAnnotatePipeline(pm, options.report, options.reportFile,
                                 options.remarks);
      });
}
