//===- ScalarCodegen.cpp - sol elementwise ops as f32 scalar code ---------===//
//
// The single definition of what one element of each sol elementwise op
// computes (ScalarCodegen.h). The linalg epilogue of convert-sol-to-linalg
// calls it per op; GPU code generators that keep the epilogue in registers
// call it too, so every path computes the same bits.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Conversion/ScalarCodegen.h"
#include "SolDialect/SolDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sol;

Type mlir::sol::getComputeType(Type elementType) {
  return Float32Type::get(elementType.getContext());
}

static Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// 1 + e^-x, the denominator of sigmoid and silu.
static Value onePlusExpNeg(OpBuilder &b, Location loc, Value x) {
  Value negX = arith::NegFOp::create(b, loc, x);
  Value expNegX = math::ExpOp::create(b, loc, negX);
  return arith::AddFOp::create(b, loc, f32Constant(b, loc, 1.0), expNegX);
}

/// 0.5 * x * (1 + inner).
static Value halfXTimesOnePlus(OpBuilder &b, Location loc, Value x,
                               Value inner) {
  Value halfX = arith::MulFOp::create(b, loc, f32Constant(b, loc, 0.5), x);
  Value onePlus =
      arith::AddFOp::create(b, loc, f32Constant(b, loc, 1.0), inner);
  return arith::MulFOp::create(b, loc, halfX, onePlus);
}

static Value emitGelu(OpBuilder &b, Location loc, GeluOp gelu, Value x) {
  if (gelu.getApproximation() == GeluApproximation::tanh) {
    // tanh(sqrt(2/pi) * (x + 0.044715 * x^3))
    Value x2 = arith::MulFOp::create(b, loc, x, x);
    Value x3 = arith::MulFOp::create(b, loc, x2, x);
    Value cubic =
        arith::MulFOp::create(b, loc, f32Constant(b, loc, 0.044715), x3);
    Value sum = arith::AddFOp::create(b, loc, x, cubic);
    Value scaled = arith::MulFOp::create(
        b, loc, f32Constant(b, loc, 0.7978845608028654), sum);
    return halfXTimesOnePlus(b, loc, x, math::TanhOp::create(b, loc, scaled));
  }
  // erf(x / sqrt(2))
  Value scaled = arith::MulFOp::create(
      b, loc, x, f32Constant(b, loc, 0.70710678118654752));
  return halfXTimesOnePlus(b, loc, x, math::ErfOp::create(b, loc, scaled));
}

Value mlir::sol::emitRoundToElementType(OpBuilder &b, Location loc, Value x,
                                        Type elementType) {
  if (elementType.isF32())
    return x;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(elementType)) {
    double largest =
        APFloat::getLargest(cast<FloatType>(elementType).getFloatSemantics())
            .convertToDouble();
    x = arith::MaximumFOp::create(b, loc, x, f32Constant(b, loc, -largest));
    x = arith::MinimumFOp::create(b, loc, x, f32Constant(b, loc, largest));
  }
  return arith::TruncFOp::create(b, loc, elementType, x);
}

/// A sol.cast rounds when its result type cannot hold every value of its
/// input type: to f16, bf16 or fp8 from anything but itself.
static Value emitCast(OpBuilder &b, Location loc, CastOp cast, Value x) {
  Type from = cast.getInput().getType().getElementType();
  Type to = cast.getResult().getType().getElementType();
  Type f32 = b.getF32Type();
  if (to == f32 || to == from)
    return x;
  Value rounded = emitRoundToElementType(b, loc, x, to);
  return arith::ExtFOp::create(b, loc, f32, rounded);
}

FailureOr<Value> mlir::sol::emitScalarElementwise(OpBuilder &b, Location loc,
                                                  Operation *solOp,
                                                  ValueRange xs) {
  auto expectOperands = [&](unsigned n) -> LogicalResult {
    if (xs.size() == n)
      return success();
    return emitError(loc) << "'" << solOp->getName() << "' takes " << n
                          << " operand(s), got " << xs.size();
  };

  if (auto constant = dyn_cast<ConstantOp>(solOp)) {
    if (failed(expectOperands(0)))
      return failure();
    auto attr = dyn_cast<FloatAttr>(constant.getValue());
    if (!attr)
      return emitError(loc) << "sol.constant without a float value";
    // f16 and bf16 values are exact in f32.
    return arith::ConstantOp::create(b, loc,
                                     b.getF32FloatAttr(attr.getValueAsDouble()))
        .getResult();
  }

  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>(solOp)) {
    if (failed(expectOperands(2)))
      return failure();
    Value l = xs[0], r = xs[1];
    return llvm::TypeSwitch<Operation *, Value>(solOp)
        .Case([&](AddOp) { return arith::AddFOp::create(b, loc, l, r); })
        .Case([&](SubOp) { return arith::SubFOp::create(b, loc, l, r); })
        .Case([&](MulOp) { return arith::MulFOp::create(b, loc, l, r); })
        .Case([&](DivOp) { return arith::DivFOp::create(b, loc, l, r); })
        .Case([&](MaxOp) { return arith::MaximumFOp::create(b, loc, l, r); })
        .Case([&](MinOp) { return arith::MinimumFOp::create(b, loc, l, r); })
        .Default([](Operation *) { return Value(); });
  }

  if (!isa<NegOp, AbsOp, ExpOp, TanhOp, ErfOp, SigmoidOp, ReluOp, SiluOp,
           GeluOp, CastOp>(solOp))
    return emitError(loc) << "'" << solOp->getName()
                          << "' is not a sol elementwise op; it has no "
                             "scalar form";
  if (failed(expectOperands(1)))
    return failure();
  Value x = xs[0];
  return llvm::TypeSwitch<Operation *, Value>(solOp)
      .Case([&](NegOp) { return arith::NegFOp::create(b, loc, x); })
      .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, x); })
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
      .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](SigmoidOp) {
        return arith::DivFOp::create(b, loc, f32Constant(b, loc, 1.0),
                                     onePlusExpNeg(b, loc, x));
      })
      .Case([&](ReluOp) {
        return arith::MaximumFOp::create(b, loc, x, f32Constant(b, loc, 0.0));
      })
      .Case([&](SiluOp) {
        return arith::DivFOp::create(b, loc, x, onePlusExpNeg(b, loc, x));
      })
      .Case([&](GeluOp gelu) { return emitGelu(b, loc, gelu, x); })
      .Case([&](CastOp cast) { return emitCast(b, loc, cast, x); })
      .Default([](Operation *) { return Value(); });
}
