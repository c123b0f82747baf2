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

/// Canonicalize, sol-fuse, sol-cost-model: a sol module to fused kernels
/// annotated with their cost.
void buildSolAnnotatePipeline(OpPassManager &pm, StringRef report = "none",
                              StringRef reportFile = "-", bool remarks = false);

/// Registers the named pipelines (sol-annotate) with the pass registry.
void registerSolPipelines();

} // namespace mlir::sol

#endif // SOLDIALECT_PASSES_H
