//===- SolDialect.h - sol dialect, attributes and ops -----------*- C++ -*-===//
//
// The one header clients include to use the sol dialect.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_SOLDIALECT_H
#define SOLDIALECT_SOLDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SolDialect/SolOpsDialect.h.inc"

#include "SolDialect/SolEnums.h.inc"

namespace mlir::sol {
/// A double as an attribute parameter: compared and hashed bit for bit, so
/// that a value round-trips through the uniquer exactly.
struct Real {
  double value = 0;
  Real(double v = 0) : value(v) {}
  operator double() const { return value; }
  bool operator==(const Real &other) const {
    return llvm::bit_cast<uint64_t>(value) ==
           llvm::bit_cast<uint64_t>(other.value);
  }
};
inline llvm::hash_code hash_value(Real r) {
  return llvm::hash_value(llvm::bit_cast<uint64_t>(r.value));
}

/// Parses a floating-point attribute parameter.
FailureOr<Real> parseReal(AsmParser &parser);
/// "16x512x2560" ("?" for a dynamic dim, "scalar" for rank 0), as
/// diagnostics and remarks spell shapes.
std::string formatShape(ArrayRef<int64_t> shape);

/// `[1, 2, 3]`: the spelling of integer-list attribute parameters.
FailureOr<SmallVector<int64_t>> parseI64List(AsmParser &parser);
void printI64List(AsmPrinter &printer, ArrayRef<int64_t> values);
/// Prints the shortest decimal spelling that parses back to `value` exactly
/// (108.524, not 1.085240e+02), so annotations read at a glance.
void printReal(AsmPrinter &printer, double value);
/// The same spelling as printReal, for reports.
std::string formatReal(double value);
} // namespace mlir::sol

#define GET_ATTRDEF_CLASSES
#include "SolDialect/SolAttrs.h.inc"

#include "SolDialect/SolInterfaces.h.inc"

#define GET_OP_CLASSES
#include "SolDialect/SolOps.h.inc"

namespace mlir::sol {

/// The shape `lhs` and `rhs` broadcast to under numpy rules, or failure when a
/// pair of dims differs and neither is 1. A dynamic dim broadcasts against a
/// dynamic dim or a static 1 (to dynamic), never against a static dim other
/// than 1: it takes every value of its range (docs/dynamic-shapes.md).
FailureOr<SmallVector<int64_t>> getBroadcastShape(ArrayRef<int64_t> lhs,
                                                  ArrayRef<int64_t> rhs);

/// A sol op that computes (a matmul or an elementwise op other than a scalar
/// constant, which becomes an immediate).
bool isSolComputeOp(Operation *op);

/// A sol compute op outside any sol.kernel: it runs as a kernel of its own
/// unless fusion groups it.
bool isLoneComputeOp(Operation *op);

/// Empty when `first` and `second` are sibling matmuls, one kernel's pair of
/// B operands over one A (SwiGLU's gate and up projections): the same left
/// operand value, both `transpose_b` with an unbatched (rank-2) weight of one
/// type, and results of one type. Otherwise the rule they break, for
/// remarks and diagnostics. The kernel then computes `[A x B1^T | A x
/// B2^T]` as one matmul of twice the width.
std::string whyNotSiblingMatmuls(MatmulOp first, MatmulOp second);

/// The matmuls of a kernel body when they are one matmul or a sibling pair
/// (in block order), else failure with the reason in `reason`. fp8 matmul
/// operands pass: each path's whyNot says whether it reads them.
FailureOr<SmallVector<MatmulOp, 2>> getKernelMatmuls(Block &body,
                                                     std::string &reason);

/// Whether a kernel body converts values to or from fp8 in registers: an
/// fp8 matmul result (quantised over scale_out), a sol.cast to or from
/// fp8, an fp8 kernel input its epilogue reads. Every generator does it in
/// the epilogue (cvt's e4m3x2/e5m2x2 forms, sm_89 and newer); fp8 matmul
/// operands the tensor cores read are not conversions.
bool convertsFp8(Block &body);

} // namespace mlir::sol

#endif // SOLDIALECT_SOLDIALECT_H
