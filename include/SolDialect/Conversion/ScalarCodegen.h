//===- ScalarCodegen.h - one sol elementwise op as f32 scalar code -*- C++
//-*-===//
//
// The per-element semantics of every sol elementwise op, as arith/math code on
// f32 scalars. Every code generator (the linalg epilogue, GPU register-level
// epilogues) emits the same arithmetic through this one function, so that
// they agree to the bit.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_CONVERSION_SCALARCODEGEN_H
#define SOLDIALECT_CONVERSION_SCALARCODEGEN_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::sol {

/// The type sol computes in for elements of type `elementType` (f16, bf16 or
/// f32): f32.
Type getComputeType(Type elementType);

/// `x` (an f32 scalar) rounded to `elementType`, as a value of that type:
/// f32 as it is; f16 and bf16 by arith.truncf (to nearest even); fp8
/// (f8E4M3FN, f8E5M2) saturating as sol.cast defines it: clamped to the
/// type's largest finite magnitude (maximumf/minimumf, so NaN stays NaN),
/// then arith.truncf. The clamp is what makes the truncf saturate (arith
/// gives e4m3fn's overflow NaN and e5m2's infinity); the GPU lowers the pair
/// to one cvt.rn.satfinite, the CPU build to integer code
/// (sol-expand-fp8-conversions).
Value emitRoundToElementType(OpBuilder &builder, Location loc, Value x,
                             Type elementType);

/// Emits one element of `solOp` (a sol elementwise op, sol.constant included)
/// at the builder's insertion point, given its operands as f32 scalars in
/// operand order, and returns the f32 result. Intermediates are not rounded:
/// only a sol.cast to a type narrower than its input rounds
/// (emitRoundToElementType, then extf back to f32). Lowering per op:
///   add/sub/mul/div -> addf/subf/mulf/divf, max/min -> maximumf/minimumf,
///   neg -> negf, abs -> math.absf, exp -> math.exp, tanh -> math.tanh,
///   erf -> math.erf,
///   sigmoid -> 1 / (1 + exp(-x)), relu -> maximumf(x, 0),
///   silu -> x / (1 + exp(-x)),
///   gelu erf -> 0.5 * x * (1 + erf(x * 0.70710678118654752)),
///   gelu tanh -> 0.5 * x * (1 + tanh(0.7978845608028654 *
///                                    (x + 0.044715 * x^3))),
///   constant -> arith.constant (its value converted exactly to f32).
/// Fails, with an error at `loc`, on an op that is not elementwise (e.g.
/// sol.matmul) or a wrong operand count.
FailureOr<Value> emitScalarElementwise(OpBuilder &builder, Location loc,
                                       Operation *solOp,
                                       ValueRange f32Operands);

} // namespace mlir::sol

#endif // SOLDIALECT_CONVERSION_SCALARCODEGEN_H
