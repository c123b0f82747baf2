//===- Pipelines.cpp - named sol pass pipelines ---------------------------===//
//
// Pipelines users name on the command line instead of spelling every pass.
// `sol-annotate` takes a sol module to fused kernels carrying their cost:
// what the README's main job runs. `sol-lower-to-cpu` builds the output of
// convert-sol-to-linalg into a library of bare-pointer C functions for the
// CPU numerics check. The lowering to PTX will add its own.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"

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

// Kernel functions only (sol-strip-host-funcs), bufferized in place into
// their out arguments: function boundaries get identity-layout memrefs, and
// sol-drop-kernel-results removes the results, which are the out arguments
// themselves (it fails otherwise), so nothing is copied or returned. The f32
// accumulator is the one allocation; the deallocation pipeline frees it.
// math ops without an LLVM intrinsic (erf, tanh) become libm calls.
static constexpr StringLiteral kCpuPipeline =
    "sol-strip-host-funcs,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "sol-drop-kernel-results,"
    "buffer-deallocation-pipeline,"
    "convert-linalg-to-loops,"
    "convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine,"
    "finalize-memref-to-llvm,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    "convert-arith-to-llvm,"
    "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},"
    "convert-cf-to-llvm,"
    "reconcile-unrealized-casts";

LogicalResult mlir::sol::buildSolLowerToCpuPipeline(OpPassManager &pm) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(kCpuPipeline, pm, os))) {
    llvm::errs() << "sol-lower-to-cpu: " << error << "\n";
    return failure();
  }
  return success();
}

void mlir::sol::registerSolPipelines() {
  PassPipelineRegistration<>(
      "sol-lower-to-cpu",
      "Lower convert-sol-to-linalg output to LLVM dialect: kernel functions "
      "only, each `void name(void *in..., void *out...)` on dense row-major "
      "buffers",
      [](OpPassManager &pm) {
        if (failed(buildSolLowerToCpuPipeline(pm)))
          llvm::report_fatal_error("sol-lower-to-cpu: bad pass pipeline");
      });
  PassPipelineRegistration<AnnotatePipelineOptions>(
      "sol-annotate",
      "Canonicalize, fuse into sol.kernels and annotate each with #sol.cost",
      [](OpPassManager &pm, const AnnotatePipelineOptions &options) {
        buildSolAnnotatePipeline(pm, options.report, options.reportFile,
                                 options.remarks);
      });
}
