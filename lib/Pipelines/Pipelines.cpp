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

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"

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

struct ToPTXPipelineOptions : public PassPipelineOptions<ToPTXPipelineOptions> {
  Option<std::string> outDir{
      *this, "out-dir",
      llvm::cl::desc("Write each kernel's manifest, PTX and cubin here "
                     "(nothing is written when empty)"),
      llvm::cl::init("")};
  Option<bool> cubin{*this, "cubin",
                     llvm::cl::desc("Also assemble cubins with ptxas"),
                     llvm::cl::init(true)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root for libdevice and ptxas (default: "
                     "$CUDA_HOME, then /usr/local/cuda)"),
      llvm::cl::init("")};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Emit fusion and tiling decisions as "
                                      "remarks"),
                       llvm::cl::init(false)};
  Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Cost report of the planned kernels: none, table or json"),
      llvm::cl::init("none")};
  Option<std::string> paths{
      *this, "paths",
      llvm::cl::desc("Matmul paths sol-tile may choose (comma-separated; "
                     "empty: all)"),
      llvm::cl::init("")};
  Option<int64_t> maxCluster{
      *this, "max-cluster",
      llvm::cl::desc("Largest thread-block cluster sol-tile may plan"),
      llvm::cl::init(1)};
  Option<int64_t> minCluster{
      *this, "min-cluster",
      llvm::cl::desc("Smallest thread-block cluster sol-tile may plan"),
      llvm::cl::init(1)};
  Option<std::string> schedules{
      *this, "schedules",
      llvm::cl::desc("wgmma_tma consumer schedules sol-tile may choose "
                     "(comma-separated; empty: all)"),
      llvm::cl::init("")};
  Option<std::string> tiles{
      *this, "tiles",
      llvm::cl::desc("wgmma/wgmma_tma MxN tiles sol-tile may choose "
                     "(comma-separated; empty: all)"),
      llvm::cl::init("")};
  Option<bool> fuseSiblings{
      *this, "fuse-siblings",
      llvm::cl::desc("Let sol-fuse take sibling matmuls (same A, results "
                     "meeting in the epilogue) into one kernel"),
      llvm::cl::init(true)};
  Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Approximate the kernels' f32 tanh with "
                     "tanh.approx.f32 (see convert-sol-kernels-to-gpu)"),
      llvm::cl::init(false)};
};
} // namespace

/// The CUDA toolkit gpu-module-to-binary links libdevice from.
static std::string resolveCudaPath(StringRef cudaPath) {
  if (!cudaPath.empty())
    return cudaPath.str();
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    return *home;
  return "/usr/local/cuda";
}

void mlir::sol::buildSolToPTXPipeline(OpPassManager &pm, StringRef outDir,
                                      bool cubin, StringRef cudaPath,
                                      bool remarks, StringRef report,
                                      const PipelineChoices &choices,
                                      bool fastMath) {
  buildSolAnnotatePipeline(pm, "none", "-", remarks, choices.fuseSiblings);
  pm.addPass(createSolFormKernelsPass());
  SolTilePassOptions tile;
  tile.remarks = remarks;
  tile.paths = choices.paths;
  tile.minCluster = choices.minCluster;
  tile.maxCluster = choices.maxCluster;
  tile.schedules = choices.schedules;
  tile.tiles = choices.tiles;
  pm.addPass(createSolTilePass(tile));
  // Re-annotate: lone ops became kernels and plans changed predictions.
  SolCostModelPassOptions cost;
  cost.report = report.str();
  pm.addPass(createSolCostModelPass(cost));
  if (!outDir.empty()) {
    SolWriteManifestsPassOptions manifests;
    manifests.dir = outDir.str();
    pm.addPass(createSolWriteManifestsPass(manifests));
  }
  pm.addPass(createConvertSolToLinalgPass());
  ConvertSolKernelsToGPUPassOptions toGpu;
  toGpu.fastMath = fastMath;
  pm.addPass(createConvertSolKernelsToGPUPass(toGpu));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSolAttachNVVMTargetPass());
  // Upstream's device half of gpu-lower-to-nvvm-pipeline, with bare-pointer
  // kernel arguments: sol kernels take dense buffers, not descriptors.
  std::string lowering =
      "convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-nvvm-to-llvm,"
      "expand-strided-metadata,lower-affine,convert-arith-to-llvm,"
      "convert-index-to-llvm,canonicalize,cse,"
      "gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},"
      "canonicalize,cse,reconcile-unrealized-casts)";
  if (failed(parsePassPipeline(lowering, pm)))
    llvm::report_fatal_error("sol-to-ptx: malformed lowering pipeline");
  pm.addNestedPass<gpu::GPUModuleOp>(createSolTensorMapParamsPass());
  std::string toBinary =
      "gpu-module-to-binary{format=isa toolkit=" + resolveCudaPath(cudaPath) +
      "}";
  if (failed(parsePassPipeline(toBinary, pm)))
    llvm::report_fatal_error("sol-to-ptx: malformed lowering pipeline");
  if (!outDir.empty()) {
    SolWriteBinariesPassOptions binaries;
    binaries.dir = outDir.str();
    binaries.cubin = cubin;
    binaries.cudaPath = cudaPath.str();
    pm.addPass(createSolWriteBinariesPass(binaries));
  }
}

void mlir::sol::buildSolAnnotatePipeline(OpPassManager &pm, StringRef report,
                                         StringRef reportFile, bool remarks,
                                         bool fuseSiblings) {
  // Canonicalize first: folded constants and identities are not worth a
  // kernel input.
  pm.addPass(createCanonicalizerPass());
  SolFusePassOptions fuse;
  fuse.remarks = remarks;
  fuse.fuseSiblings = fuseSiblings;
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
// A kernel with a dynamic outermost dim takes it through a trailing
// `const int64_t *` (sol-cpu-kernel-abi), as the bare-pointer convention
// cannot pass a dynamic memref.
// math ops without an LLVM intrinsic (erf, tanh) become libm calls.
// bf16 <-> f32 conversions are expanded to integer code (round to nearest
// even), as no runtime library on the CI machine provides them.
static constexpr StringLiteral kCpuPipeline =
    "sol-strip-host-funcs,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "sol-drop-kernel-results,"
    "buffer-deallocation-pipeline,"
    "sol-cpu-kernel-abi,"
    "convert-linalg-to-loops,"
    "convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine,"
    "finalize-memref-to-llvm,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    // bf16 conversions become integer code: x86 has no instruction for
    // them and libgcc (GCC 12) has no __truncsfbf2.
    "arith-expand{include-bf16=true},"
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
      "buffers (a kernel with a dynamic outermost dim takes one more "
      "argument, `const int64_t *dim`)",
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
  PassPipelineRegistration<ToPTXPipelineOptions>(
      "sol-to-ptx",
      "sol-annotate, then form and tile every kernel, lower it through "
      "linalg and gpu to NVVM and PTX; with out-dir, write each kernel's "
      "manifest, PTX and cubin",
      [](OpPassManager &pm, const ToPTXPipelineOptions &options) {
        PipelineChoices choices;
        choices.paths = options.paths;
        choices.schedules = options.schedules;
        choices.tiles = options.tiles;
        choices.minCluster = options.minCluster;
        choices.maxCluster = options.maxCluster;
        choices.fuseSiblings = options.fuseSiblings;
        buildSolToPTXPipeline(pm, options.outDir, options.cubin,
                              options.cudaPath, options.remarks, options.report,
                              choices, options.fastMath);
      });
}
