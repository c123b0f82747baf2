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

} // namespace mlir::sol

#endif // SOLDIALECT_PASSES_H
