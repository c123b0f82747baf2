//===- KernelsToGPU.cpp - sol kernel functions to GPU kernels -------------===//
//
// Generates one `gpu.func` per sol kernel function (the linalg-on-tensors
// form convert-sol-to-linalg emits) following the kernel's #sol.plan:
//
//  - mma_sync: a block tile of the output walks K through a multi-stage
//    cp.async pipeline into padded shared memory; warps read their fragments
//    with ldmatrix and accumulate with m16n8k16 mma.sync in f32 registers;
//    the epilogue (the linalg.generic body) runs on each accumulator element
//    in registers and stores once. Loads beyond M, N or K are zero-filled by
//    cp.async's source size, stores beyond M or N are predicated off, so any
//    shape the plan admits is exact.
//  - wgmma (sm_90a): two warpgroups of wgmma.mma_async reading 128-byte
//    swizzled stages through matrix descriptors, fed by the same cp.async
//    pipeline.
//  - wgmma_tma (sm_90a): a persistent, warp-specialised kernel: a producer
//    warpgroup issues TMA loads into an mbarrier-guarded ring of stages,
//    two consumer warpgroups run wgmma and the epilogue; optionally 2-CTA
//    clusters that multicast B.
//  - gemv: a warp per weight row for decode shapes.
//  - simt: one thread per output element, f32 multiply-add over K, then the
//    same epilogue. The path for f32 operands and for rows the 16-byte loads
//    cannot reach.
//  - elementwise: one thread per element of the output space (or per
//    16-byte vector of it).
//
// Every matmul path runs the epilogue on the accumulators, loading the
// epilogue's inputs for a batch of fragments before any of their stores.
//
// This file reads the linalg form and runs the pass, dispatching each
// kernel to its plan's path (lookupKernelEmitter; the path's facts are its
// KernelPathInfo, KernelPath.h); each path's generator lives in its own file
// (ElementwisePath, SimtPath, GemvPath, SwapAbPath, MmaSyncPath, WgmmaPaths),
// over the shared pieces of KernelCodegen.h (IndexMath, EpilogueCodegen,
// CpAsyncCopier) and, for the sm_90a paths, HopperBuildingBlocks.h. The
// plan records choices alone: the launch geometry the generators follow is
// its path's (getPlanLaunchGeometry, over the kernel's shapes and the
// module's target), the same the manifest records, so nothing is re-checked
// against the shapes; a hand-written plan the path cannot launch there is
// refused with the limit it breaks.
//
// Why not upstream's linalg -> vector -> nvgpu route: it can neither keep an
// epilogue on the accumulator registers nor mask partial tiles of a static
// shape (recipes/mlir22/REPORT.md, sections 6 and 8), and its transform
// schedules would have to be regenerated per tile. Like Triton and IREE's
// LLVMGPU backend, sol owns this last step; the linalg form stays the
// contract that says what to compute, and the plan how.
//
// Every global argument becomes a flat memref (a bare pointer after
// lowering), so the kernel ABI is `(ins..., outs...)` of dense row-major
// buffers, followed for wgmma_tma by its TMA maps (A's, then each weight's;
// by-value parameters once sol-tensor-map-params has run); the host module
// keeps only gpu.modules: launching them is the runtime's job, described by the
// manifest.
//
// A kernel whose outermost dim is dynamic (docs/dynamic-shapes.md) carries a
// plan table instead of a plan: each row becomes its own gpu.module and
// gpu.func, `<kernel>__m<m_min>_<m_max>`, generated from the row's plan at
// the row's m_max (its buffers typed so: bare pointers whose size bounds
// nothing) and taking one more parameter, last, the i64 value of the
// dynamic dim. Every bound M enters is then that value: row masks, cp.async
// row limits, the elementwise bound, the persistent tile walk; what the
// plan sized (grids, split-K workspaces, gemv rows) stays at m_max, the most
// a launch of the row runs.
//
//===----------------------------------------------------------------------===//
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/KernelPath.h"
#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

#include "KernelCodegen.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::sol {
#define GEN_PASS_DEF_CONVERTSOLKERNELSTOGPUPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::codegen;

//===----------------------------------------------------------------------===//
// Reading the linalg form
//===----------------------------------------------------------------------===//

namespace mlir::sol::codegen {

static BlockArgument asFuncArg(Value value, func::FuncOp func) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return nullptr;
  return arg;
}

/// Matches `(d_b..., m, k)`-style maps: the results are exactly `dims`.
static bool mapIsDims(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, dim] : llvm::zip(map.getResults(), dims)) {
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d || d.getPosition() != dim)
      return false;
  }
  return true;
}

/// The static extents of A, B and the output agree on M, N and K. Linalg's
/// verifier skips that check once an operand has a dynamic dim (a plan
/// table's ? rows), and the generators size loops and tiles from B's N and
/// K: a hand-written kernel whose output is wider than its weight crashed
/// the wgmma_tma generator (sol-fuzz, 2026-12-03).
static LogicalResult verifyContractionShapes(linalg::LinalgOp op,
                                             bool transposeB) {
  ArrayRef<int64_t> a =
      cast<ShapedType>(op.getDpsInputOperand(0)->get().getType()).getShape();
  ArrayRef<int64_t> b =
      cast<ShapedType>(op.getDpsInputOperand(1)->get().getType()).getShape();
  ArrayRef<int64_t> c =
      cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getShape();
  int64_t bK = b[b.size() - (transposeB ? 1 : 2)];
  int64_t bN = b[b.size() - (transposeB ? 2 : 1)];
  auto differ = [](int64_t x, int64_t y) {
    return !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y;
  };
  if (differ(a.back(), bK) || differ(bN, c.back()) ||
      differ(a[a.size() - 2], c[c.size() - 2]))
    return op->emitError("sol kernel: the contraction's shapes disagree: A ")
           << formatShape(a) << ", B " << formatShape(b)
           << (transposeB ? " ([N, K])" : " ([K, N])") << ", output "
           << formatShape(c)
           << " (A's K must be B's, B's N the output's, A's M the output's)";
  return success();
}

/// Whether `op`'s body is the block-scaled contraction convert-sol-to-linalg
/// writes: the product of the first two inputs, times each further input,
/// added to the output.
static bool isBlockScaledProduct(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  unsigned numInputs = op.getNumDpsInputs();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues().front().getDefiningOp<arith::AddFOp>();
  if (!add || add.getLhs() != body->getArgument(numInputs))
    return false;
  Value product = add.getRhs();
  for (unsigned i = numInputs; i-- > 2;) {
    auto mul = product.getDefiningOp<arith::MulFOp>();
    if (!mul || mul.getRhs() != body->getArgument(i))
      return false;
    product = mul.getLhs();
  }
  auto mul = product.getDefiningOp<arith::MulFOp>();
  return mul && mul->getBlock() == body;
}

/// The block-wise scales of a contraction (docs/fp8.md, "Block-wise
/// scales"): its inputs after A and B, each a kernel argument indexed
/// (batch..., m, k floordiv 128) for A's groups or (n floordiv 128,
/// k floordiv 128) for B's blocks.
static LogicalResult readBlockScales(KernelSpec &spec, linalg::LinalgOp op,
                                     ArrayRef<unsigned> batchDims, unsigned m,
                                     unsigned n, unsigned k) {
  MLIRContext *context = op->getContext();
  int64_t block = MatmulOp::kScaleBlock;
  AffineExpr kBlock = getAffineDimExpr(k, context).floorDiv(block);
  SmallVector<AffineExpr> groupExprs;
  for (unsigned d : batchDims)
    groupExprs.push_back(getAffineDimExpr(d, context));
  groupExprs.append({getAffineDimExpr(m, context), kBlock});
  SmallVector<AffineExpr> blockExprs = {
      getAffineDimExpr(n, context).floorDiv(block), kBlock};
  unsigned numDims = op.getNumLoops();
  AffineMap groupMap = AffineMap::get(numDims, 0, groupExprs, context);
  AffineMap blockMap = AffineMap::get(numDims, 0, blockExprs, context);
  for (unsigned i = 2, e = op.getNumDpsInputs(); i < e; ++i) {
    OpOperand *operand = op.getDpsInputOperand(i);
    BlockArgument arg = asFuncArg(operand->get(), spec.func);
    AffineMap map = op.getMatchingIndexingMap(operand);
    int *slot =
        map == groupMap && spec.blockScaleAArg < 0   ? &spec.blockScaleAArg
        : map == blockMap && spec.blockScaleBArg < 0 ? &spec.blockScaleBArg
                                                     : nullptr;
    if (!arg || !slot)
      return op->emitError("sol kernel: a contraction's further inputs must "
                           "be block-wise scales: kernel arguments indexed "
                           "(batch..., m, k floordiv 128) or (n floordiv 128, "
                           "k floordiv 128)");
    *slot = arg.getArgNumber();
  }
  return success();
}

static LogicalResult readContraction(KernelSpec &spec, linalg::LinalgOp op) {
  bool blockScaled = op.getNumDpsInputs() > 2;
  if (blockScaled ? !isBlockScaledProduct(op)
                  : !linalg::isaContractionOpInterface(op))
    return op->emitError("sol kernel: the reduction is not a multiply-add "
                         "contraction");
  // The structure is read off the maps rather than inferContractionDims,
  // which counts batch dims that B broadcasts over as extra M dims.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap outMap = maps.back();
  if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1 ||
      !outMap.isProjectedPermutation() || outMap.getNumResults() < 2)
    return op->emitError("sol kernel: expected a contraction with one K "
                         "dimension and an output of rank >= 2");
  SmallVector<unsigned> outDims;
  for (AffineExpr expr : outMap.getResults())
    outDims.push_back(cast<AffineDimExpr>(expr).getPosition());
  unsigned k = 0;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      k = i;
  unsigned m = outDims[outDims.size() - 2], n = outDims.back();
  SmallVector<unsigned> batchDims(outDims.begin(), outDims.end() - 2);
  BlockArgument lhs = asFuncArg(op.getDpsInputOperand(0)->get(), spec.func);
  BlockArgument rhs = asFuncArg(op.getDpsInputOperand(1)->get(), spec.func);
  if (!lhs || !rhs)
    return op->emitError("sol kernel: contraction operands must be kernel "
                         "arguments");
  spec.contraction = op;
  spec.lhsArg = lhs.getArgNumber();
  spec.rhsArg = rhs.getArgNumber();
  SmallVector<unsigned> lhsDims(batchDims);
  lhsDims.append({m, k});
  if (!mapIsDims(maps[0], lhsDims))
    return op->emitError("sol kernel: A must be indexed (batch..., m, k)");
  SmallVector<unsigned> batched(batchDims);
  auto rhsMatches = [&](bool batchedB, bool transposeB) {
    SmallVector<unsigned> rhsDims =
        batchedB ? batched : SmallVector<unsigned>();
    if (transposeB)
      rhsDims.append({n, k});
    else
      rhsDims.append({k, n});
    return mapIsDims(maps[1], rhsDims);
  };
  bool found = false;
  for (bool batchedB : {false, true}) {
    for (bool transposeB : {false, true}) {
      if (!found && rhsMatches(batchedB, transposeB)) {
        spec.batchedB = batchedB && !batchDims.empty();
        spec.transposeB = transposeB;
        found = true;
      }
    }
  }
  if (!found)
    return op->emitError("sol kernel: B must be indexed (k, n) or (n, k), "
                         "optionally after the batch dims");
  if (blockScaled && failed(readBlockScales(spec, op, batchDims, m, n, k)))
    return failure();
  return verifyContractionShapes(op, spec.transposeB);
}

/// The generators clone the epilogue's body op by op, mapping only its
/// block arguments, so the body must not read values from outside it. A
/// canonicalizer run over the linalg form (sol-annotate's, on input already
/// in that form) hoists the body's constants to the function: clone each
/// back into the body. Anything else from outside is refused by name.
static LogicalResult sinkConstantsIntoBody(linalg::GenericOp epilogue) {
  Block &body = epilogue.getRegion().front();
  DenseMap<Value, Value> sunk;
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  WalkResult result = body.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (epilogue.getRegion().isAncestor(value.getParentRegion()))
        continue;
      Operation *def = value.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>()) {
        op->emitError("sol kernel: the epilogue's body reads a value defined "
                      "outside it (only constants may be)");
        return WalkResult::interrupt();
      }
      Value &inside = sunk[value];
      if (!inside)
        inside = b.clone(*def)->getResult(0);
      operand.set(inside);
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<KernelSpec> readKernel(func::FuncOp func, PlanEntryAttr entry) {
  // The name becomes the PTX entry: LLVM's NVPTX backend aborts on anything
  // but an identifier (a kernel in the linalg form comes from the input as
  // written; sol-form-kernels' names are safe).
  if (std::string why = whyNotSafeKernelName(func.getSymName()); !why.empty())
    return func.emitError() << "cannot generate sol kernel @"
                            << func.getSymNameAttr() << ": its name " << why;
  KernelSpec spec;
  spec.func = func;
  spec.entry = entry;
  spec.plan = entry ? entry.getPlan()
                    : func->getAttrOfType<PlanAttr>(SolDialect::kPlanAttrName);
  if (!spec.plan)
    return func.emitError("sol kernel @")
           << func.getSymName() << " has no #sol.plan: run sol-tile first";
  spec.numInputs = func.getNumArguments() - func.getNumResults();

  for (Operation &op : func.getBody().front()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    if (!linalgOp)
      continue;
    if (isa<linalg::FillOp>(op))
      continue;
    if (linalgOp.getNumReductionLoops() > 0) {
      if (!spec.contraction) {
        if (failed(readContraction(spec, linalgOp)))
          return failure();
        continue;
      }
      // A second contraction is a sibling: the first's A, its own [N, K]
      // weight of the same shape.
      KernelSpec sibling = spec;
      if (spec.siblingContraction || failed(readContraction(sibling, linalgOp)))
        return op.emitError("sol kernel: more than one contraction, and not "
                            "a sibling of the first");
      if (sibling.lhsArg != spec.lhsArg || !spec.transposeB ||
          !sibling.transposeB || spec.batchedB || sibling.batchedB ||
          func.getArgumentTypes()[sibling.rhsArg] !=
              func.getArgumentTypes()[spec.rhsArg])
        return op.emitError("sol kernel: a second contraction must be a "
                            "sibling of the first (the same A, an unbatched "
                            "[N, K] weight of the same type)");
      spec.siblingContraction = linalgOp;
      spec.siblingRhsArg = sibling.rhsArg;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || spec.epilogue)
      return op.emitError("sol kernel: expected one elementwise "
                          "linalg.generic after the contraction");
    spec.epilogue = generic;
  }
  if (!spec.epilogue)
    return func.emitError("sol kernel: no elementwise linalg.generic");

  linalg::GenericOp epilogue = spec.epilogue;
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (returnOp.getOperands() != ValueRange(epilogue.getResults()))
    return epilogue.emitError("sol kernel: the function must return the "
                              "epilogue's results, in order");
  for (OpOperand &out : epilogue.getDpsInitsMutable()) {
    if (!epilogue.getMatchingIndexingMap(&out).isIdentity())
      return epilogue.emitError("sol kernel: outputs must be indexed by the "
                                "identity map");
    if (epilogue.payloadUsesValueFromOperand(&out))
      return epilogue.emitError("sol kernel: the epilogue may not read its "
                                "outputs");
  }
  if (failed(sinkConstantsIntoBody(epilogue)))
    return failure();
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    Value value = in->get();
    if (spec.contraction && value == spec.contraction->getResult(0)) {
      spec.epilogueSources.push_back(-1);
    } else if (spec.siblingContraction &&
               value == spec.siblingContraction->getResult(0)) {
      spec.epilogueSources.push_back(-2);
    } else if (BlockArgument arg = asFuncArg(value, func)) {
      spec.epilogueSources.push_back(arg.getArgNumber());
    } else {
      return epilogue.emitError("sol kernel: epilogue inputs must be kernel "
                                "arguments or the contraction's result");
    }
    for (AffineExpr expr : epilogue.getMatchingIndexingMap(in).getResults()) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (!isa<AffineDimExpr>(expr) && !(constant && constant.getValue() == 0))
        return epilogue.emitError("sol kernel: epilogue maps may only use "
                                  "dims and 0 (broadcast)");
    }
  }
  auto outType = cast<RankedTensorType>(epilogue.getResult(0).getType());
  if (!outType.hasStaticShape() && !entry)
    return epilogue.emitError("sol kernel: dynamic output shape");
  if (entry && !hasDynamicLeadingDim(outType))
    return epilogue.emitError("sol kernel: a kernel with a plan table "
                              "('sol.plans') must have outputs whose "
                              "outermost dim is dynamic");
  // A dynamic kernel's iteration space at its row's largest M.
  auto outAtMax = cast<RankedTensorType>(
      entry ? getTypeAtDim(outType, entry.getMMax()) : Type(outType));
  spec.outShape.assign(outAtMax.getShape().begin(), outAtMax.getShape().end());
  if (spec.contraction &&
      cast<RankedTensorType>(spec.contraction->getResult(0).getType())
              .getShape() != outType.getShape())
    return epilogue.emitError("sol kernel: the epilogue must run over the "
                              "contraction's output space");

  const KernelPathInfo &path = lookupKernelPath(spec.plan.getPath());
  if (spec.contraction && !path.isMatmulPath())
    return func.emitError("sol kernel: an ")
           << path.getName() << " plan for a kernel with a matmul";
  if (!spec.contraction && path.isMatmulPath())
    return func.emitError("sol kernel: a matmul plan for a kernel without a "
                          "matmul");
  if (entry && spec.batchedB)
    return func.emitError("sol kernel: a batched B takes a static A (its "
                          "batch is a grid dim of the plan)");
  if (spec.siblingContraction &&
      (!path.takesSiblings() || spec.plan.getCluster() != 1 ||
       spec.plan.getTile().size() != 3 || spec.plan.getTile()[1] % 16 != 0))
    return func.emitError("sol kernel: sibling matmuls need a wgmma_tma plan "
                          "without a cluster whose tile holds a multiple of "
                          "8 columns of each weight");
  return spec;
}

} // namespace mlir::sol::codegen

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Whether `func` is a dynamic kernel: one with a plan table. Its shapes
/// must then be dynamic in the outermost dim (and only there), a static
/// kernel's static.
static FailureOr<bool> isDynamicKernelFunc(func::FuncOp func) {
  bool hasTable = func->hasAttr(SolDialect::kPlansAttrName);
  if (hasTable && func->hasAttr(SolDialect::kPlanAttrName))
    return func.emitError("sol kernel: both a #sol.plan and a plan table "
                          "('sol.plans'): a dynamic kernel has a plan per "
                          "row of its table, a static one its plan");
  bool anyDynamic = false;
  for (Type type : func.getArgumentTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return func.emitError("sol kernel: argument type ")
             << type << " is not a ranked tensor";
    if (tensor.hasStaticShape())
      continue;
    std::string whyNot = whyNotSupportedShape(tensor);
    if (!whyNot.empty())
      return func.emitError("sol kernel: ") << whyNot;
    anyDynamic = true;
  }
  if (anyDynamic && !hasTable)
    return func.emitError("sol kernel: dynamic argument shape without a plan "
                          "table ('sol.plans'): run sol-tile first");
  if (!anyDynamic && hasTable)
    return func.emitError("sol kernel: a plan table ('sol.plans') on a "
                          "kernel without a dynamic dim");
  return hasTable;
}

/// A path's generator: its code in the gpu.func whose body `b` is at, with
/// the func's TMA map parameters `maps` (KernelPathInfo::getNumTensorMaps).
using KernelEmitter = LogicalResult (*)(OpBuilder &b, Location loc,
                                        GpuKernel &kernel, ValueRange maps);

/// The generator of each path: the emission half of the path registry
/// (KernelPath.h), which lives in the analysis library and so cannot name
/// the generators. A switch, so that a path without a generator is a
/// compiler warning (-Wswitch).
static KernelEmitter lookupKernelEmitter(KernelPath path) {
  switch (path) {
  case KernelPath::elementwise:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitElementwiseKernel(b, loc, kernel);
    };
  case KernelPath::simt:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitSimtMatmulKernel(b, loc, kernel);
    };
  case KernelPath::gemv:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitGemvKernel(b, loc, kernel);
    };
  case KernelPath::mma_sync:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitMmaSyncKernel(b, loc, kernel);
    };
  case KernelPath::swap_ab:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitSwapAbKernel(b, loc, kernel);
    };
  case KernelPath::wgmma:
    return [](OpBuilder &b, Location loc, GpuKernel &kernel, ValueRange) {
      return emitWgmmaKernel(b, loc, kernel);
    };
  case KernelPath::wgmma_tma:
    return emitWgmmaTmaKernel;
  }
  llvm_unreachable("a kernel path without a generator");
}

/// The launch geometry of `spec`'s plan over its shapes at the row's m_max
/// (`argTypes`, static) on `target`, or failure with a diagnostic: a plan
/// its path cannot read or cannot launch over these shapes.
static FailureOr<LaunchGeometry>
deriveLaunchGeometry(const KernelSpec &spec,
                     ArrayRef<RankedTensorType> argTypes, TargetAttr target) {
  func::FuncOp func = spec.func;
  const KernelPathInfo &path = lookupKernelPath(spec.plan.getPath());
  std::string why = path.whyNotWellFormed(spec.plan);
  if (!why.empty())
    return func.emitError("sol kernel: ") << why;
  linalg::GenericOp epilogue = spec.epilogue;
  auto out = RankedTensorType::get(
      spec.outShape,
      cast<RankedTensorType>(epilogue.getResult(0).getType()).getElementType());
  RankedTensorType lhs, rhs;
  if (spec.contraction) {
    lhs = argTypes[spec.lhsArg];
    rhs = argTypes[spec.rhsArg];
  }
  FailureOr<LaunchSizes> sizes = getLaunchSizes(
      lhs, rhs, spec.transposeB, spec.getNumContractions(), out, target);
  if (failed(sizes))
    return func.emitError("sol kernel: the matmul's batch dims times M "
                          "overflow int64");
  LaunchGeometry geometry = getPlanLaunchGeometry(spec.plan, *sizes);
  why = whyNotLaunchableOn(geometry, target);
  if (!why.empty())
    return func.emitError("sol kernel: the ")
           << path.getName()
           << " plan cannot launch over these shapes: " << why;
  return geometry;
}

/// Generates the kernel of `func` for `entry`, a row of its plan table, or
/// for its #sol.plan when `entry` is null: a gpu.module holding one
/// gpu.func named for the row.
static LogicalResult convertKernelFor(func::FuncOp func, PlanEntryAttr entry,
                                      OpBuilder &moduleBuilder,
                                      const CodegenOptions &options) {
  FailureOr<KernelSpec> spec = readKernel(func, entry);
  if (failed(spec))
    return failure();
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();

  GpuKernel kernel;
  kernel.spec = *spec;
  kernel.options = options;
  if (entry)
    kernel.minDim = std::max<int64_t>(entry.getMMin(), 1);
  SmallVector<Type> argTypes;
  SmallVector<RankedTensorType> tensorTypes;
  for (Type type : func.getArgumentTypes()) {
    // A dynamic kernel's buffers are typed for its row's largest M: bare
    // pointers once lowered, whose size bounds nothing (the masks use the
    // launch's M).
    auto tensor = cast<RankedTensorType>(
        entry ? getTypeAtDim(type, entry.getMMax()) : type);
    if (!tensor.hasStaticShape())
      return func.emitError("sol kernel: dynamic argument shape");
    // The generators index flat buffers with int64 offsets: a tensor whose
    // bytes overflow int64 would wrap them (sol-cost-model and sol-tile
    // refuse it first; a hand-written plan reaches here without them).
    if (countBytes(tensor).overflowed())
      return func.emitError("sol kernel: argument type ")
             << tensor << " holds more than 2^63 - 1 bytes";
    kernel.argShapes.emplace_back(tensor.getShape().begin(),
                                  tensor.getShape().end());
    tensorTypes.push_back(tensor);
    argTypes.push_back(
        MemRefType::get({std::max<int64_t>(1, tensor.getNumElements())},
                        tensor.getElementType()));
  }

  TargetAttr target = lookupTarget(func);
  if (!target)
    return emitMissingTargetError(func, "convert-sol-kernels-to-gpu",
                                  " to derive the plan's launch geometry");
  FailureOr<LaunchGeometry> launch =
      deriveLaunchGeometry(*spec, tensorTypes, target);
  if (failed(launch))
    return failure();
  kernel.launch = std::move(*launch);

  std::string name = entry ? getPlanEntryKernelName(func.getSymName(), entry)
                           : func.getSymName().str();
  auto gpuModule = gpu::GPUModuleOp::create(moduleBuilder, loc, name);
  OpBuilder b = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto gpuFunc = gpu::GPUFuncOp::create(b, loc, name,
                                        FunctionType::get(ctx, argTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  PlanAttr plan = spec->plan;
  ArrayRef<int64_t> block = kernel.launch.block;
  gpuFunc.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(block[0]), static_cast<int32_t>(block[1]),
       static_cast<int32_t>(block[2])}));
  // The register budget the plan is built for (PTX .minnctapersm).
  if (kernel.launch.minBlocksPerSm > 0)
    gpuFunc->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                     b.getI32IntegerAttr(kernel.launch.minBlocksPerSm));
  gpuFunc->setAttr(SolDialect::kPlanAttrName, plan);
  // The function's cost is a static kernel's; a dynamic one's is at its
  // range's end, not a row's (the manifest prices each row).
  if (entry)
    gpuFunc->setAttr(SolDialect::kPlansAttrName, b.getArrayAttr({entry}));
  else if (Attribute cost = func->getAttr(SolDialect::kCostAttrName))
    gpuFunc->setAttr(SolDialect::kCostAttrName, cost);
  for (BlockArgument arg : gpuFunc.getArguments())
    kernel.args.push_back(arg);
  // A TMA-fed kernel takes its A and B TMA maps (128-byte CUtensorMaps)
  // after its buffers, as pointers here; sol-tensor-map-params makes them
  // by-value grid constants once the kernel is in LLVM form.
  Block &body = gpuFunc.getBody().front();
  SmallVector<Value> maps;
  if (unsigned numMaps = lookupKernelPath(plan.getPath())
                             .getNumTensorMaps(spec->getNumContractions())) {
    auto mapType = LLVM::LLVMPointerType::get(ctx);
    for (unsigned i = 0; i < numMaps; ++i)
      maps.push_back(body.addArgument(mapType, loc));
    gpuFunc->setAttr(SolDialect::kTensorMapsAttrName,
                     b.getI64IntegerAttr(numMaps));
  }
  // A dynamic kernel takes the value of its dynamic dim last.
  BlockArgument dimArg;
  if (entry)
    dimArg = body.addArgument(b.getI64Type(), loc);
  if (!maps.empty() || dimArg)
    gpuFunc.setType(FunctionType::get(ctx, body.getArgumentTypes(), {}));

  b.setInsertionPointToStart(&body);
  if (dimArg)
    kernel.dim = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), dimArg);
  LogicalResult result =
      lookupKernelEmitter(plan.getPath())(b, loc, kernel, maps);
  if (failed(result)) {
    gpuModule.erase();
    return failure();
  }
  gpu::ReturnOp::create(b, loc);
  return success();
}

/// A static kernel becomes one gpu.module; a dynamic one, one per row of
/// its plan table (docs/dynamic-shapes.md, section 4).
static LogicalResult convertKernel(func::FuncOp func, OpBuilder &moduleBuilder,
                                   const CodegenOptions &options) {
  FailureOr<bool> dynamic = isDynamicKernelFunc(func);
  if (failed(dynamic))
    return failure();
  if (!*dynamic)
    return convertKernelFor(func, PlanEntryAttr(), moduleBuilder, options);
  auto table = func->getAttrOfType<ArrayAttr>(SolDialect::kPlansAttrName);
  for (PlanEntryAttr entry : table.getAsRange<PlanEntryAttr>()) {
    if (entry.getMMax() < 1)
      return func.emitError("sol kernel: the plan table's row ")
             << entry << " serves no M >= 1 (M = 0 launches nothing)";
    if (failed(convertKernelFor(func, entry, moduleBuilder, options)))
      return failure();
  }
  return success();
}

namespace {
struct ConvertKernelsToGPUPass
    : sol::impl::ConvertSolKernelsToGPUPassBase<ConvertKernelsToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels, hosts;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func->hasAttr(SolDialect::kKernelFuncAttrName))
        kernels.push_back(func);
      else
        hosts.push_back(func);
    }
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    bool failedAny = false;
    CodegenOptions options{fastMath, wideStores, overwriteFirstK};
    for (func::FuncOp func : kernels) {
      builder.setInsertionPoint(func);
      if (failed(convertKernel(func, builder, options)))
        failedAny = true;
    }
    if (failedAny)
      return signalPassFailure();
    // The host program is the runtime's: what remains is kernels alone.
    for (func::FuncOp func : kernels)
      func.erase();
    for (func::FuncOp func : hosts)
      func.erase();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
  }
};
} // namespace
