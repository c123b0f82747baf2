//===- ExpandFp8Ext.cpp - fp8 to f32 as integer code for the CPU ----------===//
//
// sol-expand-fp8-ext: LLVM has no fp8 type (the LLVM type converter stores
// an fp8 value as an i8) and no instruction converting one, so the CPU build
// expands each scalar `arith.extf` from f8E4M3FN or f8E5M2 to f32 into
// integer code on the code's byte, exact for every code (runtime/Fp8.h is
// the same decoding in double): a normal code's exponent is rebiased into an
// f32's and its mantissa shifted into place; a subnormal one is its mantissa
// times the smallest subnormal's scale; e5m2's all-ones exponent is an
// infinity or a NaN, e4m3fn's S.1111.111 a NaN.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::sol {
#define GEN_PASS_DEF_SOLEXPANDFP8EXTPASS
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

struct ExpandFp8ExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Fp8Layout> f = getFp8Layout(op.getIn().getType());
    if (!f || !op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar fp8 -> f32 extf");
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(v));
    };
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

struct ExpandFp8ExtPass : sol::impl::SolExpandFp8ExtPassBase<ExpandFp8ExtPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandFp8ExtF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
