//===- Passes.h - sol pass entry points -------------------------*- C++ -*-===//

#ifndef SOLDIALECT_PASSES_H
#define SOLDIALECT_PASSES_H

#include "SolDialect/SolDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sol {

#define GEN_PASS_DECL
#include "SolDialect/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "SolDialect/Passes.h.inc"

/// The op a pass's diagnostic about the whole module (a missing target, a
/// bad option) is attached to: the module when the file spells it out,
/// otherwise (the parser's implicit module sits at `file:0:0`) its first sol
/// op, else its first op, so that the message names a real line.
Operation *getModuleDiagnosticAnchor(ModuleOp module);

/// Canonicalize, sol-fuse, sol-cost-model: a sol module to fused kernels
/// annotated with their cost.
void buildSolAnnotatePipeline(OpPassManager &pm, StringRef report = "none",
                              StringRef reportFile = "-", bool remarks = false,
                              bool fuseSiblings = true);

/// sol-strip-host-funcs, then bufferization in place into the out arguments
/// and the upstream CPU lowering to LLVM dialect: convert-sol-to-linalg output
/// to kernel functions `void name(void *in..., void *out...)` (bare pointers
/// to dense row-major buffers). Fails only if an upstream pass is missing.
LogicalResult buildSolLowerToCpuPipeline(OpPassManager &pm);

/// sol-annotate, sol-form-kernels, sol-tile, convert-sol-to-linalg,
/// convert-sol-kernels-to-gpu and the NVVM lowering to PTX; with `outDir`,
/// every kernel's manifest, PTX and (with `cubin`) cubin are written there.
/// `choices` are what A/B measurements compare: sol-tile's constraints (its
/// options of the same names) and whether sol-fuse takes sibling matmuls
/// (its `fuse-siblings`); `fastMath` is convert-sol-kernels-to-gpu's.
struct PipelineChoices {
  std::string paths, schedules, tiles;
  int64_t minCluster = 1, maxCluster = 1;
  bool fuseSiblings = true;
};
void buildSolToPTXPipeline(OpPassManager &pm, StringRef outDir = "",
                           bool cubin = true, StringRef cudaPath = "",
                           bool remarks = false, StringRef report = "none",
                           const PipelineChoices &choices = {},
                           bool fastMath = false);

/// Registers the named pipelines (sol-annotate, sol-lower-to-cpu) with the
/// pass registry.
void registerSolPipelines();

} // namespace mlir::sol

#endif // SOLDIALECT_PASSES_H
