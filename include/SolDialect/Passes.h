//===- Passes.h - sol pass entry points -------------------------*- C++ -*-===//
//
// Every sol pass (Passes.td, in pipeline order) and what they share. The
// named pipelines that chain them are in Pipelines.h.
//
//===----------------------------------------------------------------------===//

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

} // namespace mlir::sol

#endif // SOLDIALECT_PASSES_H
