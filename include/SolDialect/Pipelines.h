//===- Pipelines.h - named sol pass pipelines -------------------*- C++ -*-===//
//
// The pipelines sol-opt names on its command line and the C API runs, each
// with its options struct, as upstream's gpu-lower-to-nvvm-pipeline
// (mlir/Dialect/GPU/Pipelines/Passes.h) does: a struct is the one parser of
// its pipeline's option text (sol-opt's `--sol-to-ptx="..."`, the C API's
// `sol_compile_with_options`), and an option that sets a pass's option
// takes that option's default from the pass (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_PIPELINES_H
#define SOLDIALECT_PIPELINES_H

#include "SolDialect/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir::sol {

/// sol-annotate: canonicalize, sol-fuse, sol-cost-model.
struct SolAnnotatePipelineOptions
    : public PassPipelineOptions<SolAnnotatePipelineOptions> {
  PassOptions::Option<std::string> report{
      *this, "report", llvm::cl::desc("sol-cost-model's report"),
      llvm::cl::init(SolCostModelPassOptions().report)};
  PassOptions::Option<std::string> reportFile{
      *this, "report-file", llvm::cl::desc("sol-cost-model's report-file"),
      llvm::cl::init(SolCostModelPassOptions().reportFile)};
  PassOptions::Option<bool> remarks{
      *this, "remarks", llvm::cl::desc("sol-fuse's remarks"),
      llvm::cl::init(SolFusePassOptions().remarks)};
  PassOptions::Option<bool> fuseSiblings{
      *this, "fuse-siblings", llvm::cl::desc("sol-fuse's fuse-siblings"),
      llvm::cl::init(SolFusePassOptions().fuseSiblings)};
};

/// sol-to-ptx: sol-annotate, then every kernel formed, tiled, lowered to
/// PTX and, with `out-dir`, written out. Most options are one pass's, under
/// that option's name: what A/B measurements compare (sol-tile's
/// constraints, sol-fuse's sibling matmuls, the generator's fast math).
struct SolToPTXPipelineOptions
    : public PassPipelineOptions<SolToPTXPipelineOptions> {
  PassOptions::Option<std::string> outDir{
      *this, "out-dir",
      llvm::cl::desc("Write each kernel's manifest, PTX and cubin here "
                     "(nothing is written when empty)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> cubin{
      *this, "cubin", llvm::cl::desc("sol-write-binaries' cubin"),
      llvm::cl::init(SolWriteBinariesPassOptions().cubin)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root for libdevice and ptxas (default: "
                     "$CUDA_HOME, then /usr/local/cuda)"),
      llvm::cl::init(SolWriteBinariesPassOptions().cudaPath)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("sol-fuse's and sol-tile's remarks: fusion and tiling "
                     "decisions"),
      llvm::cl::init(SolTilePassOptions().remarks)};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("sol-cost-model's report, of the planned kernels"),
      llvm::cl::init(SolCostModelPassOptions().report)};
  PassOptions::Option<std::string> paths{
      *this, "paths", llvm::cl::desc("sol-tile's paths"),
      llvm::cl::init(SolTilePassOptions().paths)};
  PassOptions::Option<int64_t> maxSplitK{
      *this, "max-split-k", llvm::cl::desc("sol-tile's max-split-k"),
      llvm::cl::init(SolTilePassOptions().maxSplitK)};
  PassOptions::Option<int64_t> maxCluster{
      *this, "max-cluster", llvm::cl::desc("sol-tile's max-cluster"),
      llvm::cl::init(SolTilePassOptions().maxCluster)};
  PassOptions::Option<int64_t> minCluster{
      *this, "min-cluster", llvm::cl::desc("sol-tile's min-cluster"),
      llvm::cl::init(SolTilePassOptions().minCluster)};
  PassOptions::Option<std::string> schedules{
      *this, "schedules", llvm::cl::desc("sol-tile's schedules"),
      llvm::cl::init(SolTilePassOptions().schedules)};
  PassOptions::Option<std::string> tiles{
      *this, "tiles", llvm::cl::desc("sol-tile's tiles"),
      llvm::cl::init(SolTilePassOptions().tiles)};
  PassOptions::Option<bool> nMajorTma{
      *this, "n-major-tma", llvm::cl::desc("sol-tile's n-major-tma"),
      llvm::cl::init(SolTilePassOptions().nMajorTma)};
  PassOptions::Option<bool> smallMTma{
      *this, "small-m-tma", llvm::cl::desc("sol-tile's small-m-tma"),
      llvm::cl::init(SolTilePassOptions().smallMTma)};
  PassOptions::Option<bool> smallMSiblings{
      *this, "small-m-siblings", llvm::cl::desc("sol-tile's small-m-siblings"),
      llvm::cl::init(SolTilePassOptions().smallMSiblings)};
  PassOptions::Option<bool> swapAbRowTile64{
      *this, "swap-ab-row-tile-64",
      llvm::cl::desc("sol-tile's swap-ab-row-tile-64"),
      llvm::cl::init(SolTilePassOptions().swapAbRowTile64)};
  PassOptions::Option<bool> blockSplitK{
      *this, "block-split-k", llvm::cl::desc("sol-tile's block-split-k"),
      llvm::cl::init(SolTilePassOptions().blockSplitK)};
  PassOptions::Option<bool> hopperMmaSyncFp8{
      *this, "hopper-mma-sync-fp8",
      llvm::cl::desc("sol-tile's hopper-mma-sync-fp8"),
      llvm::cl::init(SolTilePassOptions().hopperMmaSyncFp8)};
  PassOptions::Option<int64_t> splitK{
      *this, "split-k", llvm::cl::desc("sol-tile's split-k (test-only)"),
      llvm::cl::init(SolTilePassOptions().splitK)};
  PassOptions::Option<int64_t> rank{*this, "rank",
                                    llvm::cl::desc("sol-tile's rank"),
                                    llvm::cl::init(SolTilePassOptions().rank)};
  PassOptions::Option<std::string> planCache{
      *this, "plan-cache", llvm::cl::desc("sol-tile's plan-cache file"),
      llvm::cl::init(SolTilePassOptions().planCache)};
  PassOptions::Option<bool> fuseSiblings{
      *this, "fuse-siblings", llvm::cl::desc("sol-fuse's fuse-siblings"),
      llvm::cl::init(SolFusePassOptions().fuseSiblings)};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("convert-sol-kernels-to-gpu's fast-math"),
      llvm::cl::init(ConvertSolKernelsToGPUPassOptions().fastMath)};
  PassOptions::Option<bool> wideStores{
      *this, "wide-stores",
      llvm::cl::desc("convert-sol-kernels-to-gpu's wide-stores"),
      llvm::cl::init(ConvertSolKernelsToGPUPassOptions().wideStores)};
  PassOptions::Option<bool> overwriteFirstK{
      *this, "overwrite-first-k",
      llvm::cl::desc("convert-sol-kernels-to-gpu's overwrite-first-k"),
      llvm::cl::init(ConvertSolKernelsToGPUPassOptions().overwriteFirstK)};
};

/// Canonicalize, sol-fuse, sol-cost-model: a sol module to fused kernels
/// annotated with their cost.
void buildSolAnnotatePipeline(OpPassManager &pm,
                              const SolAnnotatePipelineOptions &options);

/// sol-strip-host-funcs, then bufferization in place into the out arguments
/// and the upstream CPU lowering to LLVM dialect: convert-sol-to-linalg output
/// to kernel functions `void name(void *in..., void *out...)` (bare pointers
/// to dense row-major buffers). Fails only if an upstream pass is missing.
LogicalResult buildSolLowerToCpuPipeline(OpPassManager &pm);

/// sol-annotate, sol-form-kernels, sol-tile, convert-sol-to-linalg,
/// convert-sol-kernels-to-gpu and the NVVM lowering to PTX; with `out-dir`,
/// every kernel's manifest, PTX and (with `cubin`) cubin are written there.
void buildSolToPTXPipeline(OpPassManager &pm,
                           const SolToPTXPipelineOptions &options);

/// Registers the named pipelines (sol-annotate, sol-lower-to-cpu,
/// sol-to-ptx) with the pass registry.
void registerSolPipelines();

} // namespace mlir::sol

#endif // SOLDIALECT_PIPELINES_H
