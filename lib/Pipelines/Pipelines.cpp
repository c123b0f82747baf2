//===- Pipelines.cpp - named sol pass pipelines ---------------------------===//
//
// Pipelines users name on the command line instead of spelling every pass.
// `sol-annotate` takes a sol module to fused kernels carrying their cost:
// what the README's main job runs. `sol-lower-to-cpu` builds the output of
// convert-sol-to-linalg into a library of bare-pointer C functions for the
// CPU numerics check. `sol-to-ptx` takes a sol module to PTX, cubins and
// manifests: what sol-opt, the C API and the Python package compile with,
// all through its one options struct (Pipelines.h).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace mlir::sol;

/// The CUDA toolkit gpu-module-to-binary links libdevice from.
static std::string resolveCudaPath(StringRef cudaPath) {
  if (!cudaPath.empty())
    return cudaPath.str();
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    return *home;
  return "/usr/local/cuda";
}

void mlir::sol::buildSolToPTXPipeline(OpPassManager &pm,
                                      const SolToPTXPipelineOptions &options) {
  SolAnnotatePipelineOptions annotate;
  annotate.remarks = options.remarks;
  annotate.fuseSiblings = options.fuseSiblings;
  buildSolAnnotatePipeline(pm, annotate);
  pm.addPass(createSolFormKernelsPass());
  SolTilePassOptions tile;
  tile.remarks = options.remarks;
  tile.paths = options.paths;
  tile.maxSplitK = options.maxSplitK;
  tile.minCluster = options.minCluster;
  tile.maxCluster = options.maxCluster;
  tile.schedules = options.schedules;
  tile.tiles = options.tiles;
  tile.nMajorTma = options.nMajorTma;
  tile.smallMTma = options.smallMTma;
  tile.smallMSiblings = options.smallMSiblings;
  tile.swapAbRowTile64 = options.swapAbRowTile64;
  tile.blockSplitK = options.blockSplitK;
  tile.hopperMmaSyncFp8 = options.hopperMmaSyncFp8;
  tile.splitK = options.splitK;
  tile.rank = options.rank;
  tile.planCache = options.planCache;
  pm.addPass(createSolTilePass(tile));
  // Re-annotate: lone ops became kernels and plans changed predictions.
  SolCostModelPassOptions cost;
  cost.report = options.report;
  pm.addPass(createSolCostModelPass(cost));
  if (!options.outDir.empty()) {
    SolWriteManifestsPassOptions manifests;
    manifests.dir = options.outDir;
    pm.addPass(createSolWriteManifestsPass(manifests));
  }
  pm.addPass(createConvertSolToLinalgPass());
  ConvertSolKernelsToGPUPassOptions toGpu;
  toGpu.fastMath = options.fastMath;
  toGpu.wideStores = options.wideStores;
  toGpu.overwriteFirstK = options.overwriteFirstK;
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
  std::string toBinary = "gpu-module-to-binary{format=isa toolkit=" +
                         resolveCudaPath(options.cudaPath) + "}";
  if (failed(parsePassPipeline(toBinary, pm)))
    llvm::report_fatal_error("sol-to-ptx: malformed lowering pipeline");
  if (!options.outDir.empty()) {
    SolWriteBinariesPassOptions binaries;
    binaries.dir = options.outDir;
    binaries.cubin = options.cubin;
    binaries.cudaPath = options.cudaPath;
    pm.addPass(createSolWriteBinariesPass(binaries));
  }
}

void mlir::sol::buildSolAnnotatePipeline(
    OpPassManager &pm, const SolAnnotatePipelineOptions &options) {
  // Canonicalize first: folded constants and identities are not worth a
  // kernel input.
  pm.addPass(createCanonicalizerPass());
  SolFusePassOptions fuse;
  fuse.remarks = options.remarks;
  fuse.fuseSiblings = options.fuseSiblings;
  pm.addPass(createSolFusePass(fuse));
  SolCostModelPassOptions cost;
  cost.report = options.report;
  cost.reportFile = options.reportFile;
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
    // Nor for fp8 (an fp8 matmul's operands, docs/fp8.md).
    "sol-expand-fp8-conversions,"
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
  PassPipelineRegistration<SolAnnotatePipelineOptions>(
      "sol-annotate",
      "Canonicalize, fuse into sol.kernels and annotate each with #sol.cost",
      buildSolAnnotatePipeline);
  PassPipelineRegistration<SolToPTXPipelineOptions>(
      "sol-to-ptx",
      "sol-annotate, then form and tile every kernel, lower it through "
      "linalg and gpu to NVVM and PTX; with out-dir, write each kernel's "
      "manifest, PTX and cubin",
      buildSolToPTXPipeline);
}
