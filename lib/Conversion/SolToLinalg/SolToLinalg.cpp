//===- SolToLinalg.cpp - sol.kernels to canonical linalg functions --------===//
//
// convert-sol-to-linalg: every sol.kernel becomes a destination-passing-style
// func.func holding at most one contraction (fill + linalg.matmul or a
// contraction linalg.generic; two for a sibling pair over one A, in block
// order) and exactly one all-parallel epilogue
// linalg.generic whose body is f32 scalar code (emitScalarElementwise). The
// form is deliberately rigid (Passes.td spells it out): the GPU code
// generators pattern-match it instead of analysing arbitrary linalg, and the
// CPU build (sol-lower-to-cpu) lowers it with upstream passes only. A kernel
// with a dynamic outermost dim keeps it: every dynamic dim of a kernel is the
// same value (docs/dynamic-shapes.md), so one tensor.dim of an input sizes
// its accumulators and the outs the host passes.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Conversion/ScalarCodegen.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/FormKernels.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::sol {
#define GEN_PASS_DEF_CONVERTSOLTOLINALGPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

static Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// The map reading an operand of `shape` at each point of `space` under numpy
/// broadcasting: trailing dims align, missing leading dims are dropped, and a
/// size-1 dim against a larger one reads index 0.
static FailureOr<AffineMap> getBroadcastMap(ArrayRef<int64_t> shape,
                                            ArrayRef<int64_t> space,
                                            MLIRContext *ctx) {
  if (shape.size() > space.size())
    return failure();
  size_t offset = space.size() - shape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    int64_t spaceDim = space[offset + i];
    if (dim == spaceDim)
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
    else if (dim == 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      return failure();
  }
  return AffineMap::get(space.size(), 0, exprs, ctx);
}

/// The value of the dynamic dim: the outermost size of the first of `values`
/// whose leading dim is dynamic. Every dynamic dim of a kernel is the same
/// value (docs/dynamic-shapes.md), so any of them sizes all the others.
static Value getDynamicDim(OpBuilder &b, Location loc, ValueRange values) {
  for (Value v : values)
    if (hasDynamicLeadingDim(v.getType()))
      return tensor::DimOp::create(b, loc, v, 0);
  return Value();
}

/// `tensor.empty` of `type`, its dynamic leading dim (if any) `dim`.
static Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                         Value dim) {
  SmallVector<Value, 1> dynamicSizes;
  if (hasDynamicLeadingDim(type))
    dynamicSizes.push_back(dim);
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

/// The range to copy onto a dynamic kernel's function: the one its own
/// function or module declares, so that passes on the outlined function (and
/// on the gpu.func made of it) see it; none when the default applies, which
/// they find by themselves.
static DimRangeAttr getDeclaredDimRange(Operation *op) {
  for (Operation *scope = op->getParentOp(); scope;
       scope = scope->getParentOp())
    if (scope->hasAttr(SolDialect::kDimRangeAttrName))
      return lookupDimRange(op);
  return DimRangeAttr();
}

static Value extendToF32(OpBuilder &b, Location loc, Value scalar) {
  if (scalar.getType().isF32())
    return scalar;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
}

namespace {

/// Lowers one sol.kernel: checks it, builds its function, rewrites the kernel
/// op into a call.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, SymbolTable &symbols)
      : kernel(kernel), symbols(symbols), ctx(kernel.getContext()) {}

  LogicalResult run() {
    if (failed(check()))
      return failure();
    func::FuncOp func = createFunc();
    if (failed(buildBody(func))) {
      symbols.erase(func);
      return failure();
    }
    replaceWithCall(func);
    return success();
  }

private:
  LogicalResult check() {
    StringRef name = kernel.getSymName();
    // The name becomes the PTX entry: LLVM aborts on anything but an
    // identifier.
    if (std::string why = whyNotSafeKernelName(name); !why.empty())
      return kernel.emitError()
             << "cannot lower sol.kernel @" << kernel.getSymNameAttr()
             << ": its name " << why;
    if (symbols.lookup(name))
      return kernel.emitError()
             << "cannot outline sol.kernel @" << name
             << ": the module already has a symbol of that name";
    for (Value v : llvm::concat<Value>(kernel.getInputs(), kernel.getResults()))
      if (std::string why = whyNotSupportedShape(v.getType()); !why.empty())
        return kernel.emitError() << "sol.kernel @" << name << " has shape "
                                  << v.getType() << ": " << why;
    if (isDynamicKernel(kernel) &&
        !llvm::any_of(kernel.getInputs().getTypes(), hasDynamicLeadingDim))
      return kernel.emitError()
             << "sol.kernel @" << name
             << " has dynamic results but no input with a dynamic leading "
                "dim to size them by";
    if (kernel.getNumResults() == 0)
      return kernel.emitError()
             << "sol.kernel @" << name << " writes nothing; nothing to lower";
    ArrayRef<int64_t> space = shapeOf(kernel.getResult(0));
    for (Value result : kernel.getResults().drop_front())
      if (shapeOf(result) != space)
        return kernel.emitError()
               << "kernel outputs of different shapes (" << formatShape(space)
               << " and " << formatShape(shapeOf(result))
               << ") cannot share one epilogue iteration space";

    for (Operation &op : kernel.getBodyBlock().without_terminator()) {
      if (!isSolComputeOp(&op) && !isa<ConstantOp>(op))
        return op.emitError() << "'" << op.getName()
                              << "' in a sol.kernel cannot be lowered to "
                                 "linalg; expected sol compute ops";
    }
    std::string reason;
    FailureOr<SmallVector<MatmulOp, 2>> found =
        getKernelMatmuls(kernel.getBodyBlock(), reason);
    if (failed(found))
      return kernel.emitError()
             << "cannot lower sol.kernel @" << name << ": " << reason;
    matmuls = std::move(*found);
    for (MatmulOp matmul : matmuls)
      for (Value operand : {matmul.getLhs(), matmul.getRhs()})
        if (!isa<BlockArgument>(operand))
          return matmul.emitError()
                 << "the operands of a kernel's sol.matmul must be kernel "
                    "inputs: the canonical form has no prologue (fusion never "
                    "forms one)";
    // fp8 scales are epilogue inputs (kernel inputs, or the sol.constants
    // fusion clones in), read like any other.
    return success();
  }

  /// `func.func @name(ins..., outs...) -> results` before the host function.
  func::FuncOp createFunc() {
    SmallVector<Type> argTypes(kernel.getInputs().getTypes());
    llvm::append_range(argTypes, kernel.getResultTypes());
    auto type = FunctionType::get(ctx, argTypes, kernel.getResultTypes());
    auto func =
        func::FuncOp::create(kernel.getLoc(), kernel.getSymName(), type);
    func->setAttr(SolDialect::kKernelFuncAttrName, UnitAttr::get(ctx));
    if (CostAttr cost = kernel.getCostAttr())
      func->setAttr(SolDialect::kCostAttrName, cost);
    if (PlanAttr plan = kernel.getPlanAttr())
      func->setAttr(SolDialect::kPlanAttrName, plan);
    if (ArrayAttr plans = kernel.getPlansAttr())
      func->setAttr(SolDialect::kPlansAttrName, plans);
    if (isDynamicKernel(kernel))
      if (DimRangeAttr range = getDeclaredDimRange(kernel))
        func->setAttr(SolDialect::kDimRangeAttrName, range);
    for (NamedAttribute attr : kernel->getDiscardableAttrs()) {
      StringRef attrName = attr.getName().getValue();
      std::string prefixed = attrName.starts_with("sol.")
                                 ? attrName.str()
                                 : "sol." + attrName.str();
      func->setAttr(prefixed, attr.getValue());
    }
    Operation *host = kernel->getParentWithTrait<OpTrait::SymbolTable>();
    Operation *anchor =
        host->getRegion(0).front().findAncestorOpInBlock(*kernel);
    symbols.insert(func, anchor->getIterator());
    func.addEntryBlock();
    return func;
  }

  /// The scales of `matmul` its epilogue reads: scale_a and scale_b unless
  /// block-wise (the contraction's), and scale_out.
  static SmallVector<Value, 3> epilogueScales(MatmulOp matmul) {
    SmallVector<Value, 3> scales;
    if (matmul.getScaleA() && !matmul.isBlockScaleA())
      scales.push_back(matmul.getScaleA());
    if (matmul.getScaleB() && !matmul.isBlockScaleB())
      scales.push_back(matmul.getScaleB());
    if (matmul.getScaleOut())
      scales.push_back(matmul.getScaleOut());
    return scales;
  }

  /// Fill + contraction: the f32 accumulator of the matmul's result shape.
  /// `dim` sizes a dynamic accumulator (null for a static kernel).
  /// Block-wise scales (`MatmulOp::isBlockScaleA/B`), given as `blockScales`
  /// (the function's values of the block-wise scale_a and scale_b, null
  /// where a scale is not block-wise), scale each product by its K block's
  /// scales: the same sum as scaling each block's partial sum, in one
  /// contraction whose scale maps index blocks with `floordiv`.
  Value buildContraction(OpBuilder &b, MatmulOp matmul, Value lhs, Value rhs,
                         Value dim, ArrayRef<Value> blockScales = {}) {
    Location loc = matmul.getLoc();
    Type f32 = b.getF32Type();
    ArrayRef<int64_t> accShape = shapeOf(matmul.getResult());
    auto accType = RankedTensorType::get(accShape, f32);
    Value init = createEmpty(b, loc, accType, dim);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    Value acc =
        linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{init})
            .getResult(0);
    bool transposeB = matmul.getTransposeB();
    int64_t numBatch = matmul.getNumBatchDims();
    unsigned numDims = numBatch + 3;
    AffineExpr m = b.getAffineDimExpr(numBatch);
    AffineExpr n = b.getAffineDimExpr(numBatch + 1);
    AffineExpr k = b.getAffineDimExpr(numBatch + 2);
    SmallVector<AffineExpr> batch;
    for (int64_t i = 0; i < numBatch; ++i)
      batch.push_back(b.getAffineDimExpr(i));
    auto withBatch = [&](bool batched, ArrayRef<AffineExpr> tail) {
      SmallVector<AffineExpr> exprs;
      if (batched)
        llvm::append_range(exprs, batch);
      llvm::append_range(exprs, tail);
      return AffineMap::get(numDims, 0, exprs, ctx);
    };
    bool rhsBatched = cast<ShapedType>(rhs.getType()).getRank() > 2;
    AffineMap mapA = withBatch(true, {m, k});
    AffineMap mapB = transposeB ? withBatch(rhsBatched, {n, k})
                                : withBatch(rhsBatched, {k, n});
    AffineMap mapC = withBatch(true, {m, n});

    SmallVector<Value> inputs = {lhs, rhs};
    SmallVector<AffineMap> maps = {mapA, mapB};
    int64_t block = MatmulOp::kScaleBlock;
    for (auto [i, scale] : llvm::enumerate(blockScales)) {
      if (!scale)
        continue;
      inputs.push_back(scale);
      // scale_a: [..., M, ceil(K/128)]; scale_b: [ceil(N/128), ceil(K/128)].
      maps.push_back(
          i == 0 ? withBatch(true, {m, k.floorDiv(block)})
                 : withBatch(false, {n.floorDiv(block), k.floorDiv(block)}));
    }
    maps.push_back(mapC);
    if (numBatch == 0 && inputs.size() == 2) {
      auto mm = linalg::MatmulOp::create(b, loc, TypeRange{accType},
                                         ValueRange{lhs, rhs}, ValueRange{acc});
      if (transposeB)
        mm.setIndexingMapsAttr(b.getAffineMapArrayAttr({mapA, mapB, mapC}));
      return mm.getResult(0);
    }
    SmallVector<utils::IteratorType> iterators(numDims - 1,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{accType}, inputs, ValueRange{acc}, maps, iterators,
        [](OpBuilder &nb, Location nloc, ValueRange args) {
          Value a = extendToF32(nb, nloc, args[0]);
          Value bv = extendToF32(nb, nloc, args[1]);
          Value prod = arith::MulFOp::create(nb, nloc, a, bv);
          for (Value scale : args.drop_front(2).drop_back())
            prod = arith::MulFOp::create(nb, nloc, prod, scale);
          Value sum = arith::AddFOp::create(nb, nloc, args.back(), prod);
          linalg::YieldOp::create(nb, nloc, sum);
        });
    return generic.getResult(0);
  }

  LogicalResult buildBody(func::FuncOp func) {
    Block &entry = func.front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Block &body = kernel.getBodyBlock();
    unsigned numInputs = kernel.getInputs().size();
    ArrayRef<BlockArgument> outArgs =
        entry.getArguments().drop_front(numInputs);
    ArrayRef<int64_t> space = shapeOf(kernel.getResult(0));
    YieldOp yield = kernel.getYield();
    // Only accumulators are allocated here: an elementwise kernel writes its
    // outs and needs no dim (the canonical form has no dead ops).
    Value dim = matmuls.empty()
                    ? Value()
                    : getDynamicDim(b, kernel.getLoc(), entry.getArguments());

    // Epilogue operands: accumulator, then the inputs elementwise code reads.
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    SmallVector<Value>
        scalarSources; // the kernel-body value each in stands for
    auto addIn = [&](Value bodyValue, Value operand) -> LogicalResult {
      FailureOr<AffineMap> map = getBroadcastMap(shapeOf(operand), space, ctx);
      if (failed(map))
        return kernel.emitError()
               << "an operand of shape " << formatShape(shapeOf(operand))
               << " does not broadcast to the kernel's output shape "
               << formatShape(space);
      ins.push_back(operand);
      maps.push_back(*map);
      scalarSources.push_back(bodyValue);
      return success();
    };
    for (MatmulOp matmul : matmuls) {
      Value lhs = entry.getArgument(
          cast<BlockArgument>(matmul.getLhs()).getArgNumber());
      Value rhs = entry.getArgument(
          cast<BlockArgument>(matmul.getRhs()).getArgNumber());
      SmallVector<Value, 2> blockScales;
      for (auto [scale, block] :
           {std::pair(matmul.getScaleA(), matmul.isBlockScaleA()),
            std::pair(matmul.getScaleB(), matmul.isBlockScaleB())}) {
        if (!block) {
          blockScales.push_back(Value());
          continue;
        }
        auto arg = dyn_cast<BlockArgument>(scale);
        if (!arg)
          return matmul.emitError()
                 << "a block-wise scale of a kernel's sol.matmul must be a "
                    "kernel input (it is read per K block, not by the "
                    "epilogue)";
        blockScales.push_back(entry.getArgument(arg.getArgNumber()));
      }
      Value acc = buildContraction(b, matmul, lhs, rhs, dim, blockScales);
      if (failed(addIn(matmul.getResult(), acc)))
        return failure();
    }
    // An fp8 matmul's scales apply to its accumulator first thing in the
    // epilogue (docs/fp8.md, "Scales"), so they are epilogue inputs; a
    // block-wise one is the contraction's (above).
    llvm::SmallPtrSet<Value, 4> scales;
    for (MatmulOp matmul : matmuls)
      for (Value scale : epilogueScales(matmul))
        if (isa<BlockArgument>(scale))
          scales.insert(scale);
    for (BlockArgument arg : body.getArguments()) {
      bool readByEpilogue = scales.contains(arg) ||
                            llvm::any_of(arg.getUsers(), [](Operation *u) {
                              return !isa<MatmulOp>(u);
                            });
      if (readByEpilogue &&
          failed(addIn(arg, entry.getArgument(arg.getArgNumber()))))
        return failure();
    }
    for (size_t i = 0, e = outArgs.size(); i < e; ++i)
      maps.push_back(AffineMap::getMultiDimIdentityMap(space.size(), ctx));

    SmallVector<utils::IteratorType> iterators(space.size(),
                                               utils::IteratorType::parallel);
    LogicalResult status = success();
    auto epilogue = linalg::GenericOp::create(
        b, kernel.getLoc(), kernel.getResultTypes(), ins, ValueRange(outArgs),
        maps, iterators, [&](OpBuilder &nb, Location loc, ValueRange args) {
          DenseMap<Value, Value> scalars;
          for (auto [source, arg] : llvm::zip(scalarSources, args))
            scalars[source] = extendToF32(nb, loc, arg);
          for (Operation &op : body.without_terminator()) {
            if (auto matmul = dyn_cast<MatmulOp>(op)) {
              // The matmul's value is its scaled accumulator; an fp8
              // result's is that over scale_out, rounded as sol.cast rounds
              // (and read back as f32 by what follows).
              Value &value = scalars[matmul.getResult()];
              for (auto [scale, block] :
                   {std::pair(matmul.getScaleA(), matmul.isBlockScaleA()),
                    std::pair(matmul.getScaleB(), matmul.isBlockScaleB())})
                if (scale && !block)
                  value = arith::MulFOp::create(nb, loc, value,
                                                scalars.lookup(scale));
              if (Value scaleOut = matmul.getScaleOut()) {
                value = arith::DivFOp::create(nb, loc, value,
                                              scalars.lookup(scaleOut));
                value = arith::ExtFOp::create(
                    nb, loc, nb.getF32Type(),
                    emitRoundToElementType(nb, loc, value,
                                           elementTypeOf(matmul.getResult())));
              }
              continue;
            }
            SmallVector<Value> operands = llvm::map_to_vector(
                op.getOperands(), [&](Value v) { return scalars.lookup(v); });
            FailureOr<Value> result =
                emitScalarElementwise(nb, op.getLoc(), &op, operands);
            if (failed(result)) {
              status = failure();
              return;
            }
            scalars[op.getResult(0)] = *result;
          }
          SmallVector<Value> yielded;
          for (Value v : yield.getValues()) {
            Value scalar = scalars.lookup(v);
            Type elementType = elementTypeOf(v);
            // A value a sol.cast already rounded to the output type is
            // yielded as it is, not extended and truncated again.
            if (auto ext = scalar.getDefiningOp<arith::ExtFOp>();
                ext && ext.getIn().getType() == elementType)
              scalar = ext.getIn();
            if (scalar.getType() != elementType)
              scalar = emitRoundToElementType(nb, loc, scalar, elementType);
            yielded.push_back(scalar);
          }
          linalg::YieldOp::create(nb, loc, yielded);
          // Drop the extensions the shortcut above left unused.
          llvm::SmallPtrSet<Operation *, 4> unused;
          for (Value v : yield.getValues())
            if (auto ext = scalars.lookup(v).getDefiningOp<arith::ExtFOp>();
                ext && ext->use_empty())
              unused.insert(ext);
          for (Operation *ext : unused)
            ext->erase();
        });
    if (failed(status))
      return failure();
    func::ReturnOp::create(b, kernel.getLoc(), epilogue.getResults());
    return success();
  }

  /// `func.call @name(ins..., tensor.empty()...)` in place of the kernel;
  /// dynamic outs are sized by an input's dynamic dim.
  void replaceWithCall(func::FuncOp func) {
    OpBuilder b(kernel);
    SmallVector<Value> operands(kernel.getInputs());
    Value dim = getDynamicDim(b, kernel.getLoc(), kernel.getInputs());
    for (Type type : kernel.getResultTypes())
      operands.push_back(
          createEmpty(b, kernel.getLoc(), cast<RankedTensorType>(type), dim));
    auto call = func::CallOp::create(b, kernel.getLoc(), func, operands);
    kernel.replaceAllUsesWith(call.getResults());
    kernel.erase();
  }

  KernelOp kernel;
  SymbolTable &symbols;
  MLIRContext *ctx;
  /// One matmul, or a sibling pair (whyNotSiblingMatmuls), in block order.
  SmallVector<MatmulOp, 2> matmuls;
};

struct ConvertSolToLinalgPass
    : sol::impl::ConvertSolToLinalgPassBase<ConvertSolToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkNoNestedSolOps(module, "convert-sol-to-linalg")))
      return signalPassFailure();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      wrapLoneComputeOps(func);

    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    SymbolTable symbols(module);
    bool failedAny = false;
    for (KernelOp kernel : kernels)
      if (failed(KernelLowering(kernel, symbols).run()))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
