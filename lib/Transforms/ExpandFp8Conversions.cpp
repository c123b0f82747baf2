//===- ExpandFp8Conversions.cpp - fp8 conversions as integer code ---------===//
//
// sol-expand-fp8-conversions: LLVM has no fp8 type (the LLVM type converter
// stores an fp8 value as an i8) and no instruction converting one, so the
// CPU build expands each scalar conversion between f32 and f8E4M3FN or
// f8E5M2 into integer code on the code's byte (runtime/Fp8.h is the same
// arithmetic in double):
//
//  - `arith.extf` to f32, exact for every code: a normal code's exponent is
//    rebiased into an f32's and its mantissa shifted into place; a
//    subnormal one is its mantissa times the smallest subnormal's scale;
//    e5m2's all-ones exponent is an infinity or a NaN, e4m3fn's S.1111.111
//    a NaN.
//  - `arith.truncf` from f32, rounding to nearest even as arith defines it:
//    a normal result by adding half an fp8 ulp (less one, plus the kept
//    bit: ties to even) to the f32 bits and rebiasing; a subnormal one by
//    f32 addition of 2^23, which rounds the scaled magnitude to an integer
//    code; past the largest finite value e4m3fn's NaN and e5m2's infinity,
//    NaN to NaN. sol.cast's saturation is the clamp before it
//    (emitRoundToElementType).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::sol {
#define GEN_PASS_DEF_SOLEXPANDFP8CONVERSIONSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {

/// The bit layout of an fp8 kind, as runtime/Fp8.h's Fp8Format.
struct Fp8Layout {
  int exponentBits, mantissaBits, bias;
  /// e5m2's all-ones exponent holds infinities and NaNs; e4m3fn's holds
  /// finite values but for the one NaN mantissa.
  bool ieeeSpecials;
};

std::optional<Fp8Layout> getFp8Layout(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Fp8Layout{4, 3, 7, false};
  if (isa<Float8E5M2Type>(type))
    return Fp8Layout{5, 2, 15, true};
  return std::nullopt;
}

Value i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

struct ExpandFp8ExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Fp8Layout> f = getFp8Layout(op.getIn().getType());
    if (!f || !op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar fp8 -> f32 extf");
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    Value byte = arith::BitcastOp::create(rewriter, loc, i8, op.getIn());
    Value bits = arith::ExtUIOp::create(rewriter, loc, i32, byte);
    int maxExponent = (1 << f->exponentBits) - 1;
    int mantissaMask = (1 << f->mantissaBits) - 1;
    Value sign = arith::ShLIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, bits, c(0x80)),
        c(24));
    Value exponent = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, bits, c(f->mantissaBits)),
        c(maxExponent));
    Value mantissa =
        arith::AndIOp::create(rewriter, loc, bits, c(mantissaMask));
    // Normal: the exponent rebiased (f32's bias is 127), the mantissa at the
    // top of f32's 23 bits.
    Value normal = arith::OrIOp::create(
        rewriter, loc,
        arith::ShLIOp::create(
            rewriter, loc,
            arith::AddIOp::create(rewriter, loc, exponent, c(127 - f->bias)),
            c(23)),
        arith::ShLIOp::create(rewriter, loc, mantissa,
                              c(23 - f->mantissaBits)));
    // Subnormal: mantissa x 2^(1 - bias - mantissaBits), exact in f32.
    Value scaled = arith::MulFOp::create(
        rewriter, loc,
        arith::UIToFPOp::create(rewriter, loc, rewriter.getF32Type(), mantissa),
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getF32FloatAttr(std::ldexp(
                                      1.0f, 1 - f->bias - f->mantissaBits))));
    Value subnormal =
        arith::BitcastOp::create(rewriter, loc, i32, scaled).getResult();
    auto eq = [&](Value x, int64_t v) -> Value {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, x,
                                   c(v));
    };
    Value magnitude = arith::SelectOp::create(rewriter, loc, eq(exponent, 0),
                                              subnormal, normal);
    constexpr int64_t kInfinity = 0x7F800000, kQuietNaN = 0x7FC00000;
    if (f->ieeeSpecials) {
      Value special = arith::SelectOp::create(rewriter, loc, eq(mantissa, 0),
                                              c(kInfinity), c(kQuietNaN));
      magnitude = arith::SelectOp::create(
          rewriter, loc, eq(exponent, maxExponent), special, magnitude);
    } else {
      Value isNaN = arith::AndIOp::create(
          rewriter, loc, eq(exponent, maxExponent), eq(mantissa, mantissaMask));
      magnitude = arith::SelectOp::create(rewriter, loc, isNaN, c(kQuietNaN),
                                          magnitude);
    }
    Value result = arith::OrIOp::create(rewriter, loc, sign, magnitude);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), result);
    return success();
  }
};

struct ExpandFp8TruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Fp8Layout> f = getFp8Layout(op.getType());
    if (!f || !op.getIn().getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32 -> fp8 truncf");
    if (op.getRoundingmodeAttr() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not rounding to nearest even");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    auto cmp = [&](arith::CmpIPredicate predicate, Value x,
                   int64_t v) -> Value {
      return arith::CmpIOp::create(rewriter, loc, predicate, x, c(v));
    };
    int shift = 23 - f->mantissaBits;
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, op.getIn());
    Value sign = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, c(24)),
        c(0x80));
    Value magnitude = arith::AndIOp::create(rewriter, loc, bits, c(0x7FFFFFFF));
    // Normal: add half an fp8 ulp less one, plus the bit kept (ties to the
    // even code), drop the bits past the fp8 mantissa, rebias. A carry out
    // of the mantissa rounds up into the next binade, as it should.
    Value kept = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, magnitude, c(shift)), c(1));
    Value rounded = arith::AddIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, magnitude,
                              c((int64_t(1) << (shift - 1)) - 1)),
        kept);
    Value normal = arith::SubIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, rounded, c(shift)),
        c(int64_t(127 - f->bias) << f->mantissaBits));
    // Subnormal (below the smallest normal, 2^(1 - bias)): the magnitude in
    // units of the smallest subnormal is below 2^mantissaBits and exact in
    // f32; adding 2^23 rounds it to an integer (to nearest even) in the low
    // bits. 2^mantissaBits is the smallest normal's code, as it should be.
    Value absolute = arith::BitcastOp::create(rewriter, loc, f32, magnitude);
    Value units = arith::MulFOp::create(
        rewriter, loc, absolute,
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getF32FloatAttr(std::ldexp(
                                      1.0f, f->bias - 1 + f->mantissaBits))));
    Value biased = arith::AddFOp::create(
        rewriter, loc, units,
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getF32FloatAttr(8388608.0f)));
    Value subnormal = arith::SubIOp::create(
        rewriter, loc, arith::BitcastOp::create(rewriter, loc, i32, biased),
        c(0x4B000000));
    int64_t smallestNormalBits = int64_t(128 - f->bias) << 23;
    Value code = arith::SelectOp::create(
        rewriter, loc,
        cmp(arith::CmpIPredicate::slt, magnitude, smallestNormalBits),
        subnormal, normal);
    // Past the largest finite code: e4m3fn has no infinity (its NaN),
    // e5m2's infinity. A NaN input (f32 bits above the infinity's) is NaN.
    int64_t largestCode = f->ieeeSpecials ? 0x7B : 0x7E;
    int64_t overflowCode = f->ieeeSpecials ? 0x7C : 0x7F;
    code = arith::SelectOp::create(
        rewriter, loc, cmp(arith::CmpIPredicate::sgt, code, largestCode),
        c(overflowCode), code);
    code = arith::SelectOp::create(
        rewriter, loc, cmp(arith::CmpIPredicate::sgt, magnitude, 0x7F800000),
        c(0x7F), code);
    Value byte = arith::TruncIOp::create(
        rewriter, loc, rewriter.getI8Type(),
        arith::OrIOp::create(rewriter, loc, sign, code));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

struct ExpandFp8ConversionsPass
    : sol::impl::SolExpandFp8ConversionsPassBase<ExpandFp8ConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandFp8ExtF, ExpandFp8TruncF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
