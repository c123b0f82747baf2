//===- SolOps.cpp - sol op verifiers, folders and builders ----------------===//
//
// Each verifier message names the operand and the rule it breaks, so a user
// can fix the IR (or the importer that wrote it) from the message alone.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/DynamicShapes.h"
#include "SolDialect/SolDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::sol;

#define GET_OP_CLASSES
#include "SolDialect/SolOps.cpp.inc"

bool mlir::sol::isSolComputeOp(Operation *op) {
  return (isa<MatmulOp>(op) || isa<ElementwiseOpInterface>(op)) &&
         !isa<ConstantOp>(op);
}

bool mlir::sol::isLoneComputeOp(Operation *op) {
  return isSolComputeOp(op) && !op->getParentOfType<KernelOp>();
}

std::string mlir::sol::whyNotSiblingMatmuls(MatmulOp first, MatmulOp second) {
  if (first.getLhs() != second.getLhs())
    return "the matmuls read different left operands";
  // One A, one dequantisation of it: the pair's accumulators share A's rows.
  if (first.getScaleA() != second.getScaleA())
    return "the matmuls scale their one left operand differently (scale_a)";
  if (first.hasBlockScales() || second.hasBlockScales())
    return "block-wise scales: the sibling kernel does not scale each K "
           "block's partial sum";
  if (!first.getTransposeB() || !second.getTransposeB())
    return "sibling matmuls take [N, K] weights (transpose_b)";
  if (first.getRhs().getType() != second.getRhs().getType())
    return "the weights differ in shape or dtype";
  if (first.getRhs().getType().getRank() != 2)
    return "sibling matmuls take unbatched (rank-2) weights";
  if (first.getResult().getType() != second.getResult().getType())
    return "the results differ in type";
  return "";
}

bool mlir::sol::convertsFp8(Block &body) {
  auto isFp8 = [](Type type) {
    return MatmulOp::isFp8(getElementTypeOrSelf(type));
  };
  for (Operation &op : body.without_terminator()) {
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      if (isFp8(matmul.getType()))
        return true;
      continue;
    }
    if (llvm::any_of(op.getOperandTypes(), isFp8) ||
        llvm::any_of(op.getResultTypes(), isFp8))
      return true;
  }
  return false;
}

FailureOr<SmallVector<MatmulOp, 2>>
mlir::sol::getKernelMatmuls(Block &body, std::string &reason) {
  SmallVector<MatmulOp, 2> matmuls(body.getOps<MatmulOp>());
  if (matmuls.size() > 2) {
    reason = "the kernel holds " + std::to_string(matmuls.size()) +
             " matmuls; the generators take one, or a sibling pair";
    return failure();
  }
  if (matmuls.size() == 2) {
    std::string why = whyNotSiblingMatmuls(matmuls[0], matmuls[1]);
    if (!why.empty()) {
      reason = "the kernel's two matmuls are not siblings: " + why;
      return failure();
    }
  }
  return matmuls;
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
mlir::sol::getBroadcastShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align trailing dims; a missing leading dim acts as 1.
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    // Two dynamic dims are the one dynamic dim of the kernel (they are the
    // same value); against a static 1 a dynamic dim stays dynamic. Against
    // any other static dim it would have to equal that dim at every value
    // of its range, which it does not.
    if (l == r || r == 1)
      result[i] = l;
    else if (l == 1)
      result[i] = r;
    else
      return failure();
  }
  return result;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

/// A dynamic dim against a static dim other than 1, as a diagnostic's
/// clause, or empty when the shapes have no such pair.
static std::string whyDynamicDimDoesNotBroadcast(ArrayRef<int64_t> lhs,
                                                 ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  for (size_t i = 0; i < rank; ++i) {
    if (i < rank - lhs.size() || i < rank - rhs.size())
      continue;
    int64_t l = lhs[i - (rank - lhs.size())];
    int64_t r = rhs[i - (rank - rhs.size())];
    if (ShapedType::isDynamic(l) == ShapedType::isDynamic(r))
      continue;
    int64_t fixed = ShapedType::isDynamic(l) ? r : l;
    if (fixed == 1)
      continue;
    return "a dynamic dim meets the static dim " + std::to_string(fixed) +
           " (aligned dim #" + std::to_string(i) +
           "): a dynamic dim takes every value of its range, so it "
           "broadcasts only against a dynamic dim or a static 1";
  }
  return "";
}

/// Every sol tensor is static but for, possibly, its outermost dim
/// (docs/dynamic-shapes.md, section 1).
static LogicalResult verifySupportedShape(Operation *op, Type type,
                                          const Twine &what) {
  std::string why = whyNotSupportedShape(type);
  if (why.empty())
    return success();
  return op->emitOpError() << what << " has type " << type << ": " << why;
}

static LogicalResult verifySupportedShapes(Operation *op) {
  for (auto [i, operand] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifySupportedShape(op, operand,
                                    "operand #" + Twine(i))))
      return failure();
  for (auto [i, result] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifySupportedShape(op, result, "result #" + Twine(i))))
      return failure();
  return success();
}

/// Shared verifier of the binary elementwise ops.
static LogicalResult verifyBroadcastBinary(Operation *op) {
  auto lhs = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = cast<RankedTensorType>(op->getOperand(1).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (failed(verifySupportedShapes(op)))
    return failure();
  Type elementType = result.getElementType();
  if (lhs.getElementType() != elementType)
    return op->emitOpError("operand #0 (lhs) element type ")
           << lhs.getElementType() << " differs from the result element type "
           << elementType << "; convert it with sol.cast";
  if (rhs.getElementType() != elementType)
    return op->emitOpError("operand #1 (rhs) element type ")
           << rhs.getElementType() << " differs from the result element type "
           << elementType << "; convert it with sol.cast";
  FailureOr<SmallVector<int64_t>> shape =
      getBroadcastShape(lhs.getShape(), rhs.getShape());
  if (failed(shape)) {
    std::string why =
        whyDynamicDimDoesNotBroadcast(lhs.getShape(), rhs.getShape());
    if (!why.empty())
      return op->emitOpError("operands do not broadcast: lhs ")
             << shapeString(lhs.getShape()) << " and rhs "
             << shapeString(rhs.getShape()) << ": " << why;
    return op->emitOpError("operands do not broadcast: lhs ")
           << shapeString(lhs.getShape()) << " and rhs "
           << shapeString(rhs.getShape())
           << " (aligned from the right, each pair of dims must be equal or "
              "one of them 1)";
  }
  // The result is the broadcast shape exactly: a dynamic dim where the
  // operands' is, a static one where they fix it. (A static result dim
  // against a dynamic operand would claim one value of the whole range.)
  if (result.getShape() != ArrayRef<int64_t>(*shape))
    return op->emitOpError("result shape ")
           << shapeString(result.getShape()) << " is not the broadcast shape "
           << shapeString(*shape) << " of lhs " << shapeString(lhs.getShape())
           << " and rhs " << shapeString(rhs.getShape());
  return success();
}

LogicalResult AddOp::verify() { return verifyBroadcastBinary(*this); }
LogicalResult SubOp::verify() { return verifyBroadcastBinary(*this); }
LogicalResult MulOp::verify() { return verifyBroadcastBinary(*this); }
LogicalResult DivOp::verify() { return verifyBroadcastBinary(*this); }
LogicalResult MaxOp::verify() { return verifyBroadcastBinary(*this); }
LogicalResult MinOp::verify() { return verifyBroadcastBinary(*this); }

LogicalResult NegOp::verify() { return verifySupportedShapes(*this); }
LogicalResult AbsOp::verify() { return verifySupportedShapes(*this); }
LogicalResult ExpOp::verify() { return verifySupportedShapes(*this); }
LogicalResult TanhOp::verify() { return verifySupportedShapes(*this); }
LogicalResult ErfOp::verify() { return verifySupportedShapes(*this); }
LogicalResult SigmoidOp::verify() { return verifySupportedShapes(*this); }
LogicalResult ReluOp::verify() { return verifySupportedShapes(*this); }
LogicalResult SiluOp::verify() { return verifySupportedShapes(*this); }
LogicalResult GeluOp::verify() { return verifySupportedShapes(*this); }

//===----------------------------------------------------------------------===//
// Folding helpers
//===----------------------------------------------------------------------===//

/// The value of a scalar sol.constant (or any constant folding to a
/// FloatAttr), if `attr` is one.
static std::optional<APFloat> getScalar(Attribute attr) {
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValue();
  return std::nullopt;
}

/// Folds a binary op whose operands are both scalar constants by evaluating
/// `fn` in the element type's own precision (what the kernel computes in f32
/// and rounds would differ only for f16/bf16 double rounding; evaluating in
/// f32 and rounding once avoids that).
template <typename Fn>
static OpFoldResult foldScalarBinary(Operation *op,
                                     ArrayRef<Attribute> operands, Fn fn) {
  std::optional<APFloat> lhs = getScalar(operands[0]);
  std::optional<APFloat> rhs = getScalar(operands[1]);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!lhs || !rhs || resultType.getRank() != 0)
    return {};
  Type elementType = resultType.getElementType();
  bool losesInfo = false;
  APFloat l = *lhs, r = *rhs;
  l.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  r.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  APFloat value = fn(l, r);
  value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &losesInfo);
  return FloatAttr::get(elementType, value);
}

/// `x op c` folds to `x` when `c` is a scalar `identity` and no broadcast
/// changes x's shape.
static OpFoldResult foldRightIdentity(Operation *op, Attribute rhsAttr,
                                      double identity) {
  std::optional<APFloat> rhs = getScalar(rhsAttr);
  Value lhs = op->getOperand(0);
  if (!rhs || lhs.getType() != op->getResult(0).getType())
    return {};
  bool losesInfo = false;
  APFloat id(identity);
  id.convert(rhs->getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  if (rhs->bitwiseIsEqual(id))
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r =
          foldScalarBinary(*this, adaptor.getOperands(),
                           [](APFloat a, const APFloat &b) { return a + b; }))
    return r;
  // Commutative: the constant operand has been moved to the right. The
  // identity is -0.0: x + +0.0 turns -0.0 into +0.0.
  return foldRightIdentity(*this, adaptor.getRhs(), -0.0);
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r =
          foldScalarBinary(*this, adaptor.getOperands(),
                           [](APFloat a, const APFloat &b) { return a - b; }))
    return r;
  return foldRightIdentity(*this, adaptor.getRhs(), 0.0);
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r =
          foldScalarBinary(*this, adaptor.getOperands(),
                           [](APFloat a, const APFloat &b) { return a * b; }))
    return r;
  return foldRightIdentity(*this, adaptor.getRhs(), 1.0);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r =
          foldScalarBinary(*this, adaptor.getOperands(),
                           [](APFloat a, const APFloat &b) { return a / b; }))
    return r;
  return foldRightIdentity(*this, adaptor.getRhs(), 1.0);
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  // max(x, x) is x, unless the result type differs from x's (a dim made
  // dynamic or static): then x cannot replace it.
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldScalarBinary(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  // min(x, x) is x, unless the result type differs from x's (a dim made
  // dynamic or static): then x cannot replace it.
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldScalarBinary(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); });
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // -(-x) == x exactly.
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  if (std::optional<APFloat> v = getScalar(adaptor.getInput()))
    return FloatAttr::get(getType().getElementType(), neg(*v));
  return {};
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<AbsOp>())
    return getInput();
  if (std::optional<APFloat> v = getScalar(adaptor.getInput()))
    return FloatAttr::get(getType().getElementType(), abs(*v));
  return {};
}

namespace {
/// |-x| -> |x|: drops an op from the chain.
struct AbsOfNeg : OpRewritePattern<AbsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AbsOp op,
                                PatternRewriter &rewriter) const override {
    auto neg = op.getInput().getDefiningOp<NegOp>();
    if (!neg)
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(neg.getInput()); });
    return success();
  }
};
} // namespace

void AbsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AbsOfNeg>(context);
}

OpFoldResult ReluOp::fold(FoldAdaptor) {
  // relu is idempotent.
  if (getInput().getDefiningOp<ReluOp>())
    return getInput();
  return {};
}

LogicalResult CastOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (failed(verifySupportedShapes(*this)))
    return failure();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape ")
           << shapeString(out.getShape()) << " differs from operand #0 (input) "
           << "shape " << shapeString(in.getShape())
           << "; sol.cast converts element types only";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type inType = getInput().getType().getElementType();
  Type outType = getType().getElementType();
  if (inType == outType)
    return getInput();
  // Widening then narrowing back is exact: f16/bf16 -> f32 -> same type.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Type origin = inner.getInput().getType().getElementType();
    if (origin == outType && inType.isF32())
      return inner.getInput();
  }
  // A 0-d fp8 tensor is no sol.constant (which holds f16, bf16 or f32), so
  // a constant cast to fp8 stays a cast.
  if (std::optional<APFloat> v = getScalar(adaptor.getInput());
      v && !MatmulOp::isFp8(outType)) {
    bool losesInfo = false;
    v->convert(cast<FloatType>(outType).getFloatSemantics(),
               APFloat::rmNearestTiesToEven, &losesInfo);
    return FloatAttr::get(outType, *v);
  }
  return {};
}

//===----------------------------------------------------------------------===//
// sol.constant
//===----------------------------------------------------------------------===//

LogicalResult
ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location>, ValueRange,
                             DictionaryAttr attributes,
                             OpaqueProperties properties, RegionRange,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  ConstantOp::Adaptor adaptor({}, attributes, properties);
  auto value = dyn_cast_or_null<TypedAttr>(adaptor.getValueAttr());
  if (!value)
    return failure();
  inferredReturnTypes.push_back(RankedTensorType::get({}, value.getType()));
  return success();
}

LogicalResult ConstantOp::verify() {
  if (!isa<FloatAttr>(getValue()))
    return emitOpError("value must be a float scalar such as "
                       "`5.000000e-01 : f16`, got ")
           << getValue();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// sol.matmul
//===----------------------------------------------------------------------===//

/// Two dims agree unless both are static and differ.
static bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

bool MatmulOp::isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool MatmulOp::isBlockScaleA() {
  Value scale = getScaleA();
  if (!scale)
    return false;
  auto type = cast<RankedTensorType>(scale.getType());
  return type.getRank() >= 2 && type.getShape().back() != 1;
}

bool MatmulOp::isBlockScaleB() {
  Value scale = getScaleB();
  return scale && cast<RankedTensorType>(scale.getType()).getRank() == 2;
}

/// Blocks of `kScaleBlock` along a dim of `size` (a dynamic size stays so).
static int64_t scaleBlocks(int64_t size) {
  return ShapedType::isDynamic(size)
             ? size
             : llvm::divideCeil(size, MatmulOp::kScaleBlock);
}

/// A per-tensor scale: one value, `[]` or `[1]`.
static bool isPerTensorScale(RankedTensorType scale) {
  return scale.getRank() == 0 ||
         (scale.getRank() == 1 && scale.getDimSize(0) == 1);
}

/// The scales of an fp8 matmul (docs/fp8.md, "Scales"): f32, per tensor,
/// per token of A (A's shape with K replaced by 1) or per output channel of
/// B (`[N]`), and `scale_out` only for an fp8 result. A non-fp8 matmul takes
/// none: its operands are the values.
static LogicalResult verifyScales(MatmulOp op, int64_t n, int64_t k) {
  RankedTensorType lhs = op.getLhs().getType();
  Type elementType = lhs.getElementType();
  Type resultElementType = op.getResult().getType().getElementType();
  bool fp8 = op.hasFp8Operands();
  bool weightOnly = op.isWeightOnlyFp8();
  struct Scale {
    Value value;
    StringRef name;
  } scales[] = {{op.getScaleA(), "scale_a"},
                {op.getScaleB(), "scale_b"},
                {op.getScaleOut(), "scale_out"}};
  for (auto [value, name] : scales) {
    if (!value)
      continue;
    // A weight-only matmul's A holds values, not codes: only B's codes
    // have a scale, and its result is 16-bit.
    if (weightOnly && name != "scale_b")
      return op.emitOpError()
             << name << " is given but only the weight is fp8 (operand #0 "
             << "(lhs) is " << elementType
             << "): a weight-only fp8 matmul takes scale_b alone";
    if (!fp8 && !weightOnly)
      return op.emitOpError()
             << name << " is given but the operands are " << elementType
             << ": scales dequantise fp8 operands (f8E4M3FN, f8E5M2); scale "
                "a matmul of other types with sol.mul on its result";
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.getElementType().isF32())
      return op.emitOpError()
             << name << " has element type " << type.getElementType()
             << ": scales are f32 (they multiply the f32 accumulator)";
    if (failed(verifySupportedShape(op, type, name)))
      return failure();
  }
  if (Value scaleA = op.getScaleA()) {
    auto type = cast<RankedTensorType>(scaleA.getType());
    SmallVector<int64_t> perToken(lhs.getShape());
    perToken.back() = 1;
    SmallVector<int64_t> perGroup(lhs.getShape());
    perGroup.back() = scaleBlocks(k);
    if (!isPerTensorScale(type) && type.getShape() != ArrayRef(perToken) &&
        type.getShape() != ArrayRef(perGroup))
      return op.emitOpError("scale_a has shape ")
             << shapeString(type.getShape())
             << " but must be [] or [1] (per tensor) or "
             << shapeString(perToken)
             << " (per token: lhs's shape with K replaced by 1) or "
             << shapeString(perGroup) << " (per token and "
             << MatmulOp::kScaleBlock << "-deep group of K: K replaced by "
             << "ceil(K/" << MatmulOp::kScaleBlock << "))";
  }
  if (Value scaleB = op.getScaleB()) {
    auto type = cast<RankedTensorType>(scaleB.getType());
    SmallVector<int64_t> perBlock = {scaleBlocks(n), scaleBlocks(k)};
    if (!isPerTensorScale(type) && type.getShape() != ArrayRef<int64_t>{n} &&
        type.getShape() != ArrayRef(perBlock))
      return op.emitOpError("scale_b has shape ")
             << shapeString(type.getShape())
             << " but must be [] or [1] (per tensor) or [" << n
             << "] (per output channel: [N]) or " << shapeString(perBlock)
             << " (per " << MatmulOp::kScaleBlock << " x "
             << MatmulOp::kScaleBlock << " block of B: [ceil(N/"
             << MatmulOp::kScaleBlock << "), ceil(K/" << MatmulOp::kScaleBlock
             << ")])";
  }
  if (Value scaleOut = op.getScaleOut()) {
    auto type = cast<RankedTensorType>(scaleOut.getType());
    if (!MatmulOp::isFp8(resultElementType))
      return op.emitOpError("scale_out is given but the result is ")
             << resultElementType
             << ": scale_out quantises an fp8 result; a result of another "
                "type is the dequantised value itself";
    if (!isPerTensorScale(type))
      return op.emitOpError("scale_out has shape ")
             << shapeString(type.getShape())
             << " but must be [] or [1]: an fp8 result has one scale";
  }
  if (MatmulOp::isFp8(resultElementType)) {
    if (!fp8)
      return op.emitOpError("result element type ")
             << resultElementType << " is fp8 but the operands are "
             << elementType
             << ": only an fp8 matmul writes fp8 (with scale_out); round "
                "this result with sol.cast";
    if (!op.getScaleOut())
      return op.emitOpError("result element type ")
             << resultElementType
             << " needs scale_out, its per-tensor dequantisation scale: the "
                "stored result is acc * scale_a * scale_b / scale_out, and "
                "without one any |value| past the fp8 maximum saturates";
  }
  return success();
}

LogicalResult MatmulOp::verify() {
  RankedTensorType lhs = getLhs().getType();
  RankedTensorType rhs = getRhs().getType();
  RankedTensorType result = getResult().getType();
  if (lhs.getRank() < 2)
    return emitOpError("operand #0 (lhs) must have rank >= 2 ([..., M, K]), "
                       "got rank ")
           << lhs.getRank();
  if (rhs.getRank() != 2 && rhs.getRank() != lhs.getRank())
    return emitOpError("operand #1 (rhs) must have rank 2 or the rank of "
                       "lhs (")
           << lhs.getRank() << ", same batch dims), got rank " << rhs.getRank();
  // fp8 pairs freely (e4m3 and e5m2 on either side: wgmma's four kinds);
  // a 16-bit A may read fp8 weight codes (weight-only fp8: decode's bytes
  // are the weight's, and its activations need no quantising); every other
  // matmul has one element type.
  bool lhsFp8 = isFp8(lhs.getElementType());
  bool rhsFp8 = isFp8(rhs.getElementType());
  bool lhs16 = lhs.getElementType().isF16() || lhs.getElementType().isBF16();
  if (lhsFp8 && !rhsFp8)
    return emitOpError("operand #0 (lhs) is ")
           << lhs.getElementType() << " but operand #1 (rhs) is "
           << rhs.getElementType()
           << ": an fp8 A takes an fp8 B (f8E4M3FN or f8E5M2, in any "
              "pair); convert the other operand with sol.cast";
  if (rhsFp8 && !lhsFp8 && !lhs16)
    return emitOpError("operand #0 (lhs) is ")
           << lhs.getElementType() << " but operand #1 (rhs) is "
           << rhs.getElementType()
           << ": fp8 weight codes take an fp8 A or, weight-only, an f16 or "
              "bf16 A";
  if (!rhsFp8 && lhs.getElementType() != rhs.getElementType())
    return emitOpError("operand #0 (lhs) and operand #1 (rhs) must have one "
                       "element type, got ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  // fp8 tensor cores (wgmma, and mma.sync from sm_89) read both operands
  // K-major, and unlike a 16-bit B an 8-bit one has no transposing load
  // (ldmatrix.trans, wgmma's transpose bit) to read [K, N]: the layout is
  // the weight's, fixed when it is quantised.
  if (rhsFp8 && !getTransposeB())
    return emitOpError("operand #1 (rhs) is ")
           << rhs.getElementType() << " stored [K, N] ("
           << shapeString(rhs.getShape())
           << "): fp8 tensor cores read both operands K-major, so an fp8 "
              "weight must be stored [N, K] (transposed) and the matmul "
              "marked transpose_b";

  if (failed(verifySupportedShape(*this, lhs, "operand #0 (lhs)")) ||
      failed(verifySupportedShape(*this, result, "result")))
    return failure();
  // B is a weight: its N and K size the kernel's tiles and its batch (a
  // batched B) is a grid dim, all fixed at compile time.
  if (!rhs.hasStaticShape())
    return emitOpError("operand #1 (rhs) has type ")
           << rhs << ": the right operand must be static (it is a weight: "
           << "its N and K size the tiles); only lhs's outermost dim may be "
              "dynamic";
  if (rhs.getRank() >= 3 && !lhs.hasStaticShape())
    return emitOpError("operand #0 (lhs) has type ")
           << lhs << " but rhs " << rhs
           << " is batched: a batched matmul needs a static lhs (its batch "
              "is a grid dim sol-tile sizes)";

  int64_t batch = lhs.getRank() - 2;
  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  if (rhs.getRank() == lhs.getRank())
    for (int64_t i = 0; i < batch; ++i)
      if (!dimsCompatible(l[i], r[i]))
        return emitOpError("batch dim #")
               << i << " differs between lhs " << shapeString(l) << " and rhs "
               << shapeString(r);

  int64_t m = l[batch], k = l[batch + 1];
  int64_t rk = r[r.size() - (getTransposeB() ? 1 : 2)];
  int64_t n = r[r.size() - (getTransposeB() ? 2 : 1)];
  if (!dimsCompatible(k, rk))
    return emitOpError("contraction dims differ: lhs ")
           << shapeString(l) << " has K = " << k << " but rhs "
           << shapeString(r) << " has K = " << rk
           << (getTransposeB() ? " (transpose_b: rhs is [N, K])"
                               : " (rhs is [K, N])");

  // An empty matmul has nothing to compute (M or N = 0: no result
  // element; K = 0: every element is an empty sum) and nothing to tile:
  // sol launches no kernel for it and refuses it here, before any pass
  // divides by its extents.
  auto emptyDim = [&](StringRef dim, StringRef operand, ArrayRef<int64_t> shape,
                      StringRef why) {
    return emitOpError() << dim << " = 0 (" << operand << " "
                         << shapeString(shape) << "): the matmul is empty ("
                         << why << "); sol does not compile empty matmuls";
  };
  for (int64_t i = 0; i < batch; ++i)
    if (l[i] == 0 || (rhs.getRank() == lhs.getRank() && r[i] == 0))
      return emptyDim("batch dim #" + std::to_string(i),
                      l[i] == 0 ? "lhs" : "rhs", l[i] == 0 ? l : r,
                      "no result element");
  if (m == 0)
    return emptyDim("M", "lhs", l, "no result element");
  if (n == 0)
    return emptyDim("N", "rhs", r, "no result element");
  if (k == 0 || rk == 0)
    return emptyDim("K", k == 0 ? "lhs" : "rhs", k == 0 ? l : r,
                    "each result element would be a sum of no terms");

  SmallVector<int64_t> expected(l.take_front(batch));
  expected.push_back(m);
  expected.push_back(n);
  // Exactly [..., M, N]: the result's leading dim is dynamic where lhs's
  // is (a static one would claim one value of the whole range).
  ArrayRef<int64_t> actual = result.getShape();
  if (actual != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeString(actual) << " must be " << shapeString(expected)
           << " ([..., M, N])";
  return verifyScales(*this, n, k);
}

//===----------------------------------------------------------------------===//
// sol.kernel
//===----------------------------------------------------------------------===//

/// A dynamic kernel is planned and priced per range (`plans`, `costs`), a
/// static one once (`plan`, `cost`); docs/dynamic-shapes.md, sections 2-3.
/// The plan table's rows must tile the declared range, so that every M the
/// kernel may be launched at has exactly one row.
static LogicalResult verifyDynamicAnnotations(KernelOp kernel) {
  bool dynamic = isDynamicKernel(kernel);
  if (!dynamic && kernel.getPlansAttr())
    return kernel.emitOpError("has 'plans' but no dynamic dim: a static "
                              "kernel carries one 'plan'");
  if (!dynamic && kernel.getCostsAttr())
    return kernel.emitOpError("has 'costs' but no dynamic dim: a static "
                              "kernel carries one 'cost'");
  if (dynamic && kernel.getPlanAttr())
    return kernel.emitOpError("has a dynamic dim and a single 'plan': a "
                              "dynamic kernel carries a plan table, 'plans'");
  if (!dynamic)
    return success();
  DimRangeAttr range = lookupDimRange(kernel);
  if (ArrayAttr costs = kernel.getCostsAttr()) {
    int64_t previous = -1;
    for (auto point : costs.getAsRange<CostPointAttr>()) {
      if (point.getM() < range.getMin() || point.getM() > range.getMax())
        return kernel.emitOpError("'costs' has a point at m = ")
               << point.getM() << " outside the dim range "
               << range.getMin() << ".." << range.getMax();
      if (point.getM() <= previous)
        return kernel.emitOpError("'costs' points must increase in m, got ")
               << point.getM() << " after " << previous;
      previous = point.getM();
    }
  }
  if (ArrayAttr plans = kernel.getPlansAttr()) {
    if (plans.empty())
      return kernel.emitOpError("'plans' is empty: the table must cover the "
                                "dim range ")
             << range.getMin() << ".." << range.getMax();
    int64_t next = range.getMin();
    for (auto entry : plans.getAsRange<PlanEntryAttr>()) {
      if (entry.getMMin() != next)
        return kernel.emitOpError("'plans' row ")
               << entry.getMMin() << ".." << entry.getMMax()
               << " must start at " << next
               << ": rows are disjoint, increasing and cover the dim range "
               << range.getMin() << ".." << range.getMax();
      next = entry.getMMax() + 1;
    }
    if (next != range.getMax() + 1)
      return kernel.emitOpError("'plans' ends at ")
             << next - 1 << " but the dim range ends at " << range.getMax();
  }
  return success();
}

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     TypeRange resultTypes, ValueRange inputs) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

LogicalResult KernelOp::verifyRegions() {
  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << block.getNumArguments() << " arguments but the kernel has "
           << getInputs().size() << " inputs; they must match one to one";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getInputs(), block.getArguments()))) {
    auto [input, arg] = pair;
    if (input.getType() != arg.getType())
      return emitOpError("body argument #")
             << i << " has type " << arg.getType() << " but input #" << i
             << " has type " << input.getType();
  }
  if (getResults().empty())
    return emitOpError("must yield at least one result: a kernel that "
                       "writes nothing would be removed");
  for (auto [i, input] : llvm::enumerate(getInputs().getTypes()))
    if (failed(verifySupportedShape(*this, input, "input #" + Twine(i))))
      return failure();
  for (auto [i, result] : llvm::enumerate(getResultTypes()))
    if (failed(verifySupportedShape(*this, result, "result #" + Twine(i))))
      return failure();
  if (failed(verifyDynamicAnnotations(*this)))
    return failure();
  YieldOp yield = getYield();
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("yields ")
           << yield.getValues().getTypes() << " but the enclosing sol.kernel "
           << "returns " << getResultTypes();
  for (Operation &op : block.without_terminator()) {
    if (isa<KernelOp>(op))
      return op.emitOpError("cannot be nested in another sol.kernel: a "
                            "kernel is one GPU launch");
    if (!isa<SolDialect>(op.getDialect()))
      return op.emitOpError("is not a sol op; a sol.kernel body holds only "
                            "sol compute ops");
  }
  return success();
}

YieldOp KernelOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}
