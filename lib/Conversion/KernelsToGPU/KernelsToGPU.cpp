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
// Why not upstream's linalg -> vector -> nvgpu route: it can neither keep an
// epilogue on the accumulator registers nor mask partial tiles of a static
// shape (recipes/mlir22/REPORT.md, sections 6 and 8), and its transform
// schedules would have to be regenerated per tile. Like Triton and IREE's
// LLVMGPU backend, sol owns this last step; the linalg form stays the
// contract that says what to compute, and the plan how.
//
// Every global argument becomes a flat memref (a bare pointer after
// lowering), so the kernel ABI is `(ins..., outs...)` of dense row-major
// buffers, followed for wgmma_tma by the device addresses of its two TMA
// maps; the host module keeps only gpu.modules: launching them is the
// runtime's job, described by the manifest.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"
#include "SolDialect/TilePlan.h"

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

namespace {

//===----------------------------------------------------------------------===//
// Reading the linalg form
//===----------------------------------------------------------------------===//

/// What a kernel function computes, read off its linalg ops.
struct KernelSpec {
  func::FuncOp func;
  PlanAttr plan;
  unsigned numInputs = 0;
  /// The contraction, when the kernel has one, and where its operands come
  /// from (function argument numbers).
  linalg::LinalgOp contraction;
  unsigned lhsArg = 0, rhsArg = 0;
  bool transposeB = false;
  bool batchedB = false;
  /// The all-parallel generic that produces the outputs.
  linalg::GenericOp epilogue;
  /// For each epilogue input: the function argument it reads, or -1 for the
  /// contraction's accumulator.
  SmallVector<int> epilogueSources;
  /// Output iteration space (the shape of every output).
  SmallVector<int64_t> outShape;
};

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

static LogicalResult readContraction(KernelSpec &spec, linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return op->emitError("sol kernel: the reduction is not a multiply-add "
                         "contraction");
  // The structure is read off the maps rather than inferContractionDims,
  // which counts batch dims that B broadcasts over as extra M dims.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (op.getNumReductionLoops() != 1 || maps.size() != 3 ||
      !maps[2].isProjectedPermutation() || maps[2].getNumResults() < 2)
    return op->emitError("sol kernel: expected a contraction with one K "
                         "dimension and an output of rank >= 2");
  SmallVector<unsigned> outDims;
  for (AffineExpr expr : maps[2].getResults())
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
  return success();
}

static FailureOr<KernelSpec> readKernel(func::FuncOp func) {
  KernelSpec spec;
  spec.func = func;
  spec.plan = func->getAttrOfType<PlanAttr>(SolDialect::kPlanAttrName);
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
      if (spec.contraction)
        return op.emitError("sol kernel: more than one contraction");
      if (failed(readContraction(spec, linalgOp)))
        return failure();
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
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    Value value = in->get();
    if (spec.contraction && value == spec.contraction->getResult(0)) {
      spec.epilogueSources.push_back(-1);
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
  spec.outShape.assign(outType.getShape().begin(), outType.getShape().end());
  if (!outType.hasStaticShape())
    return epilogue.emitError("sol kernel: dynamic output shape");
  if (spec.contraction &&
      cast<RankedTensorType>(spec.contraction->getResult(0).getType())
              .getShape() != outType.getShape())
    return epilogue.emitError("sol kernel: the epilogue must run over the "
                              "contraction's output space");

  KernelPath path = spec.plan.getPath();
  if (spec.contraction && path == KernelPath::elementwise)
    return func.emitError("sol kernel: an elementwise plan for a kernel with "
                          "a matmul");
  if (!spec.contraction && path != KernelPath::elementwise)
    return func.emitError("sol kernel: a matmul plan for a kernel without a "
                          "matmul");
  return spec;
}

//===----------------------------------------------------------------------===//
// Code generation helpers
//===----------------------------------------------------------------------===//

/// Index arithmetic with constants folded at build time where both sides
/// are constant, so the emitted IR stays readable before canonicalization.
class IndexBuilder {
public:
  IndexBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value lt(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, c(y));
  }
  Value land(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  OpBuilder &b;
  Location loc;
};

/// Row-major strides of `shape`.
static SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Splits a linear index over `shape` into one index per dim.
static SmallVector<Value> delinearize(IndexBuilder &ib, Value linear,
                                      ArrayRef<int64_t> shape) {
  SmallVector<Value> ivs(shape.size());
  SmallVector<int64_t> strides = getStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    Value q = ib.div(linear, strides[d]);
    ivs[d] = d == 0 ? q : ib.rem(q, shape[d]);
  }
  return ivs;
}

/// Flat offset of element `ivs` of a row-major `shape`.
static Value linearize(IndexBuilder &ib, ArrayRef<Value> ivs,
                       ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = getStrides(shape);
  Value offset = ib.c(0);
  for (size_t d = 0; d < shape.size(); ++d)
    offset = ib.add(offset, ib.mul(ivs[d], strides[d]));
  return offset;
}

/// The generated kernel's view of one sol kernel.
struct GpuKernel {
  KernelSpec spec;
  /// Flat global buffers, one per function argument.
  SmallVector<Value> args;
  SmallVector<SmallVector<int64_t>> argShapes;
};

/// True when every output of the kernel is a 16-bit float: its results are
/// rounded to 8 (bf16) or 11 (f16) significant bits, far coarser than the
/// f32 approximations cloneEpilogueOp substitutes.
static bool hasHalfPrecisionOutputs(const GpuKernel &kernel) {
  for (size_t i = kernel.spec.numInputs; i < kernel.args.size(); ++i) {
    Type type = cast<MemRefType>(kernel.args[i].getType()).getElementType();
    if (!type.isF16() && !type.isBF16())
      return false;
  }
  return true;
}

/// One f32 PTX instruction `opcode` applied to `x` through inline assembly.
static Value emitPtxUnary(OpBuilder &b, Location loc, StringRef opcode,
                          Value x) {
  std::string text = (opcode + " $0, $1;").str();
  return LLVM::InlineAsmOp::create(
             b, loc, b.getF32Type(), ValueRange{x}, text, "=f,f",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// Clones one op of the epilogue body. For 16-bit outputs, f32 tanh (GELU's
/// tanh form) becomes 1 - 2 / (1 + 2^(2 u log2 e)) on ex2.approx and
/// rcp.approx, five instructions instead of libdevice's ~25-instruction
/// __nv_tanhf: the epilogue runs on the warps that issue the tensor-core
/// work, so its ALU time is not hidden (MLP up + GELU, H200, 2026-11-30).
/// Its absolute error is ~1e-6 (ex2.approx: 2^-22 relative; rcp.approx:
/// 1 ulp), so GELU's 1 + tanh(u) keeps its precision where tanh -> -1
/// (tanh.approx.f32, with 2^-11 relative error, would not), and the result
/// is within an ulp of a 16-bit output except for |u| < ~1e-3, where it is
/// within a few.
static void cloneEpilogueOp(OpBuilder &b, Operation &op, IRMapping &mapping,
                            bool fastTanh) {
  auto tanh = dyn_cast<math::TanhOp>(op);
  if (!fastTanh || !tanh || !tanh.getType().isF32()) {
    b.clone(op, mapping);
    return;
  }
  Location loc = op.getLoc();
  auto f32 = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  Value u = mapping.lookupOrDefault(tanh.getOperand());
  Value scaled = arith::MulFOp::create(b, loc, u, f32(2.0 * M_LOG2E));
  Value e = emitPtxUnary(b, loc, "ex2.approx.f32", scaled);
  Value r = emitPtxUnary(b, loc, "rcp.approx.f32",
                         arith::AddFOp::create(b, loc, e, f32(1.0)));
  Value result = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, r, f32(-2.0)), f32(1.0));
  mapping.map(tanh.getResult(), result);
}

/// Runs the epilogue's scalar body at output element `ivs` (one index per
/// output dim) with `acc` standing for the contraction's value there, and
/// stores each result. The caller guards `ivs` to be in bounds.
static void emitEpilogueAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                           ArrayRef<Value> ivs, Value acc) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  Block &body = epilogue.getRegion().front();
  IRMapping mapping;
  for (auto [i, in] : llvm::enumerate(epilogue.getDpsInputOperands())) {
    int source = kernel.spec.epilogueSources[i];
    if (source < 0) {
      mapping.map(body.getArgument(i), acc);
      continue;
    }
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    SmallVector<Value> index;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        index.push_back(ivs[dim.getPosition()]);
      else
        index.push_back(ib.c(0));
    }
    Value offset = linearize(ib, index, kernel.argShapes[source]);
    Value loaded =
        memref::LoadOp::create(b, loc, kernel.args[source], ValueRange{offset});
    mapping.map(body.getArgument(i), loaded);
  }
  bool fastTanh = hasHalfPrecisionOutputs(kernel);
  for (Operation &op : body.without_terminator())
    cloneEpilogueOp(b, op, mapping, fastTanh);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value outOffset = linearize(ib, ivs, kernel.spec.outShape);
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Value out = kernel.args[kernel.spec.numInputs + i];
    memref::StoreOp::create(b, loc, mapping.lookupOrDefault(value), out,
                            ValueRange{outOffset});
  }
}

/// The output-space index of element (row, col) of the matmul: rows run over
/// the folded batch dims and M (rank-2 B), or over M within grid slice z.
static SmallVector<Value> matmulOutputIndex(IndexBuilder &ib,
                                            const KernelSpec &spec,
                                            Value batchSlice, Value row,
                                            Value col) {
  ArrayRef<int64_t> shape = spec.outShape;
  size_t rank = shape.size();
  SmallVector<int64_t> leading(shape.begin(), shape.end() - 1);
  SmallVector<Value> ivs;
  if (spec.batchedB) {
    SmallVector<int64_t> batchShape(shape.begin(), shape.end() - 2);
    ivs = delinearize(ib, batchSlice, batchShape);
    ivs.push_back(row);
  } else {
    ivs = delinearize(ib, row, leading);
  }
  ivs.push_back(col);
  assert(ivs.size() == rank && "one index per output dim");
  (void)rank;
  return ivs;
}

/// Guards `body` by `cond` when it may be false.
static void emitIf(OpBuilder &b, Location loc, Value cond,
                   function_ref<void(OpBuilder &)> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(b);
}

//===----------------------------------------------------------------------===//
// Elementwise path
//===----------------------------------------------------------------------===//

/// The epilogue inputs read from memory at output element `ivs`, `vector`
/// consecutive elements of the innermost output dim: per input of the
/// linalg.generic body, one 128-bit (or narrower) load of an input that runs
/// along that dim, one scalar load of an input broadcast across it (copied
/// `vector` times); the accumulator's inputs stay empty. With `guard`, the
/// loads happen only where it holds (zeros elsewhere), so a caller can issue
/// the loads of many elements before any of their stores: a store the
/// compiler cannot prove disjoint from a later load would otherwise
/// serialise each load's full latency.
using EpilogueInputs = SmallVector<SmallVector<Value>>;
static EpilogueInputs loadEpilogueInputs(OpBuilder &b, Location loc,
                                         GpuKernel &kernel, ArrayRef<Value> ivs,
                                         int64_t vector,
                                         Value guard = Value()) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  unsigned innerDim = kernel.spec.outShape.size() - 1;
  EpilogueInputs lanes;
  for (auto [i, in] : llvm::enumerate(epilogue.getDpsInputOperands())) {
    int source = kernel.spec.epilogueSources[i];
    if (source < 0) {
      lanes.emplace_back();
      continue;
    }
    Value memref = kernel.args[source];
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    SmallVector<Value> index;
    bool alongInner = false;
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      index.push_back(dim ? ivs[dim.getPosition()] : ib.c(0));
    }
    if (map.getNumResults() > 0)
      if (auto last = dyn_cast<AffineDimExpr>(map.getResults().back()))
        alongInner = last.getPosition() == innerDim;
    Value offset = linearize(ib, index, kernel.argShapes[source]);
    Type elemType = cast<MemRefType>(memref.getType()).getElementType();
    bool vectorLoad = alongInner && vector > 1;
    Type loadType =
        vectorLoad ? Type(VectorType::get({vector}, elemType)) : elemType;
    auto emitLoad = [&](OpBuilder &b) -> Value {
      if (!vectorLoad)
        return memref::LoadOp::create(b, loc, memref, ValueRange{offset});
      int64_t bytes = vector * elemType.getIntOrFloatBitWidth() / 8;
      return vector::LoadOp::create(b, loc, cast<VectorType>(loadType), memref,
                                    ValueRange{offset}, false,
                                    llvm::MaybeAlign(bytes));
    };
    Value loaded;
    if (!guard) {
      loaded = emitLoad(b);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{loadType}, guard,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard insertionGuard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, emitLoad(b));
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value zero = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(loadType)));
      scf::YieldOp::create(b, loc, zero);
      loaded = ifOp.getResult(0);
    }
    SmallVector<Value> values;
    if (vectorLoad) {
      for (int64_t e = 0; e < vector; ++e)
        values.push_back(
            vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{e}));
    } else {
      values.assign(vector, loaded);
    }
    lanes.push_back(std::move(values));
  }
  return lanes;
}

/// Runs the epilogue body on the `vector` elements at `ivs` whose memory
/// inputs `inputs` loaded (accumulator inputs: `accLanes`) and stores each
/// result with one `vector`-wide store.
static void storeEpilogueResults(OpBuilder &b, Location loc, GpuKernel &kernel,
                                 ArrayRef<Value> ivs, int64_t vector,
                                 const EpilogueInputs &inputs,
                                 ArrayRef<Value> accLanes) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  Block &body = epilogue.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  bool fastTanh = hasHalfPrecisionOutputs(kernel);
  SmallVector<SmallVector<Value>> results(yield.getValues().size());
  for (int64_t e = 0; e < vector; ++e) {
    IRMapping mapping;
    for (unsigned i = 0; i < inputs.size(); ++i)
      mapping.map(body.getArgument(i), kernel.spec.epilogueSources[i] < 0
                                           ? accLanes[e]
                                           : inputs[i][e]);
    for (Operation &op : body.without_terminator())
      cloneEpilogueOp(b, op, mapping, fastTanh);
    for (auto [r, value] : llvm::enumerate(yield.getValues()))
      results[r].push_back(mapping.lookupOrDefault(value));
  }
  Value outOffset = linearize(ib, ivs, kernel.spec.outShape);
  for (auto [r, values] : llvm::enumerate(results)) {
    Value out = kernel.args[kernel.spec.numInputs + r];
    if (vector == 1) {
      memref::StoreOp::create(b, loc, values.front(), out,
                              ValueRange{outOffset});
      continue;
    }
    Type elemType = cast<MemRefType>(out.getType()).getElementType();
    auto vecType = VectorType::get({vector}, elemType);
    Value packed = vector::FromElementsOp::create(b, loc, vecType, values);
    int64_t bytes = vector * elemType.getIntOrFloatBitWidth() / 8;
    vector::StoreOp::create(b, loc, packed, out, ValueRange{outOffset}, false,
                            llvm::MaybeAlign(bytes));
  }
}

/// Runs the epilogue body on `vector` consecutive elements of the innermost
/// output dim starting at `ivs`: 128-bit loads of inputs that run along that
/// dim, one scalar load of inputs broadcast across it, `vector` copies of the
/// scalar body, 128-bit stores.
static void emitEpilogueVectorAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                                 ArrayRef<Value> ivs, int64_t vector,
                                 ArrayRef<Value> accLanes = {}) {
  EpilogueInputs inputs = loadEpilogueInputs(b, loc, kernel, ivs, vector);
  storeEpilogueResults(b, loc, kernel, ivs, vector, inputs, accLanes);
}

static LogicalResult emitElementwiseKernel(OpBuilder &b, Location loc,
                                           GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  int64_t total = 1;
  for (int64_t d : kernel.spec.outShape)
    total *= d;
  ArrayRef<int64_t> grid = kernel.spec.plan.getGrid();
  ArrayRef<int64_t> block = kernel.spec.plan.getBlock();
  ArrayRef<int64_t> tile = kernel.spec.plan.getTile();
  int64_t inner =
      kernel.spec.outShape.empty() ? 1 : kernel.spec.outShape.back();
  int64_t vector = tile.size() == 1 && block.size() == 3 && block[0] > 0
                       ? tile[0] / block[0]
                       : 0;
  if (grid.size() != 3 || block.size() != 3 || block[1] != 1 || block[2] != 1 ||
      grid[1] != 1 || grid[2] != 1 ||
      grid[0] * block[0] * std::max<int64_t>(vector, 1) < total)
    return kernel.spec.func.emitError("sol kernel: the elementwise plan's "
                                      "grid x block does not cover the ")
           << total << " output elements";
  if (vector < 1 || tile[0] != vector * block[0] || inner % vector != 0 ||
      !llvm::isPowerOf2_64(vector))
    return kernel.spec.func.emitError("sol kernel: the elementwise plan's "
                                      "tile must be block x a power-of-two "
                                      "vector dividing the innermost dim (")
           << inner << ")";
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value linear = ib.mul(ib.add(ib.mul(bid, block[0]), tid), vector);
  emitIf(b, loc, ib.lt(linear, total), [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    SmallVector<Value> ivs = delinearize(ib, linear, kernel.spec.outShape);
    if (vector == 1)
      emitEpilogueAt(b, loc, kernel, ivs, Value());
    else
      emitEpilogueVectorAt(b, loc, kernel, ivs, vector);
  });
  return success();
}

//===----------------------------------------------------------------------===//
// SIMT matmul path
//===----------------------------------------------------------------------===//

static Value extendToF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// Offsets of A's row `row` and of B's element (k, col) for grid slice z.
struct MatmulGeometry {
  int64_t rows, n, k;
  int64_t aSliceStride, bSliceStride; // elements between grid z slices
};

static MatmulGeometry getGeometry(const GpuKernel &kernel) {
  const KernelSpec &spec = kernel.spec;
  ArrayRef<int64_t> a = kernel.argShapes[spec.lhsArg];
  ArrayRef<int64_t> bShape = kernel.argShapes[spec.rhsArg];
  MatmulGeometry g;
  g.k = a.back();
  g.n = spec.transposeB ? bShape[bShape.size() - 2] : bShape.back();
  int64_t m = a[a.size() - 2];
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < a.size(); ++d)
    batch *= a[d];
  g.rows = spec.batchedB ? m : batch * m;
  g.aSliceStride = spec.batchedB ? m * g.k : 0;
  g.bSliceStride = spec.batchedB ? g.k * g.n : 0;
  return g;
}

/// A grid that does not cover the output would leave it partly unwritten:
/// the plan must match the shapes it is applied to.
static LogicalResult checkGrid(GpuKernel &kernel, const MatmulGeometry &g,
                               int64_t tileM, int64_t tileN) {
  ArrayRef<int64_t> grid = kernel.spec.plan.getGrid();
  int64_t slices = 1;
  if (kernel.spec.batchedB)
    for (size_t d = 0; d + 2 < kernel.spec.outShape.size(); ++d)
      slices *= kernel.spec.outShape[d];
  if (grid.size() != 3 || grid[0] != llvm::divideCeilSigned(g.n, tileN) ||
      grid[1] != llvm::divideCeilSigned(g.rows, tileM) || grid[2] != slices)
    return kernel.spec.func.emitError("sol kernel: the plan's grid does not "
                                      "cover the output with its tiles");
  return success();
}

static LogicalResult emitSimtMatmulKernel(OpBuilder &b, Location loc,
                                          GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  MatmulGeometry g = getGeometry(kernel);
  ArrayRef<int64_t> tile = kernel.spec.plan.getTile();
  ArrayRef<int64_t> block = kernel.spec.plan.getBlock();
  if (tile.size() != 3 || block.size() != 3 || block[0] != tile[1] ||
      block[1] != tile[0] || block[2] != 1)
    return kernel.spec.func.emitError("sol kernel: a simt plan has block = "
                                      "[tile_n, tile_m, 1]");
  if (failed(checkGrid(kernel, g, tile[0], tile[1])))
    return failure();
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value col = ib.add(ib.mul(bx, tile[1]), tx);
  Value row = ib.add(ib.mul(by, tile[0]), ty);
  Value inBounds = ib.land(ib.lt(row, g.rows), ib.lt(col, g.n));
  emitIf(b, loc, inBounds, [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    Value aRow = ib.add(ib.mul(bz, g.aSliceStride), ib.mul(row, g.k));
    Value bBase = ib.mul(bz, g.bSliceStride);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    auto loop = scf::ForOp::create(b, loc, ib.c(0), ib.c(g.k), ib.c(1),
                                   ValueRange{zero});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IndexBuilder lb(b, loc);
      Value k = loop.getInductionVar();
      Value aOff = lb.add(aRow, k);
      Value bOff = kernel.spec.transposeB
                       ? lb.add(bBase, lb.add(lb.mul(col, g.k), k))
                       : lb.add(bBase, lb.add(lb.mul(k, g.n), col));
      Value a = memref::LoadOp::create(b, loc, kernel.args[kernel.spec.lhsArg],
                                       ValueRange{aOff});
      Value bv = memref::LoadOp::create(b, loc, kernel.args[kernel.spec.rhsArg],
                                        ValueRange{bOff});
      Value prod = arith::MulFOp::create(b, loc, extendToF32(b, loc, a),
                                         extendToF32(b, loc, bv));
      Value sum =
          arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[0], prod);
      scf::YieldOp::create(b, loc, sum);
    }
    SmallVector<Value> ivs = matmulOutputIndex(ib, kernel.spec, bz, row, col);
    emitEpilogueAt(b, loc, kernel, ivs, loop.getResult(0));
  });
  return success();
}

/// The epilogue over m16n8-style accumulator fragments: for n8 block nb,
/// element e sits at (row + 8 * (e / 2), col + 8 * nb + e % 2). Where N is
/// even, the two columns of a pair go together: one 2-wide load of each
/// input along N and one 2-wide store per output, half the memory
/// instructions of scalar accesses. The inputs of `kEpilogueBatch`
/// fragment pairs are loaded before any of them is stored, so their
/// latencies overlap.
static constexpr int64_t kEpilogueBatch = 16;
static void
emitFragmentEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                     const MatmulGeometry &g, Value batchSlice, Value row0,
                     Value col0, int64_t blocksN,
                     function_ref<Value(OpBuilder &, int64_t, int64_t)> accAt) {
  IndexBuilder ib(b, loc);
  int64_t vector = g.n % 2 == 0 ? 2 : 1;
  struct Pending {
    SmallVector<Value> ivs, acc;
    Value inBounds;
    EpilogueInputs inputs;
  };
  SmallVector<Pending> batch;
  auto flush = [&]() {
    for (Pending &p : batch)
      emitIf(b, loc, p.inBounds, [&](OpBuilder &b) {
        storeEpilogueResults(b, loc, kernel, p.ivs, vector, p.inputs, p.acc);
      });
    batch.clear();
  };
  for (int64_t nb = 0; nb < blocksN; ++nb) {
    for (int64_t e = 0; e < 4; e += vector) {
      Pending p;
      Value row = ib.add(row0, (e / 2) * 8);
      Value col = ib.add(col0, nb * 8 + (e % 2));
      for (int64_t v = 0; v < vector; ++v)
        p.acc.push_back(accAt(b, nb, e + v));
      p.inBounds = ib.land(ib.lt(row, g.rows), ib.lt(col, g.n));
      p.ivs = matmulOutputIndex(ib, kernel.spec, batchSlice, row, col);
      p.inputs = loadEpilogueInputs(b, loc, kernel, p.ivs, vector, p.inBounds);
      batch.push_back(std::move(p));
      if (static_cast<int64_t>(batch.size()) == kEpilogueBatch)
        flush();
    }
  }
  flush();
}

//===----------------------------------------------------------------------===//
// gemv path
//===----------------------------------------------------------------------===//

/// Decode shapes: `rows` (<= 16) rows of A against an [N, K] weight. Warp w
/// of block b owns output column n = b * warps + w: its lanes stream row n
/// of the weight with 128-bit loads (the weight is read once, by every SM),
/// multiply by the rows of A (small, served by L1/L2), reduce across the warp
/// with shuffles, and lane m runs the epilogue of row m.
static LogicalResult emitGemvKernel(OpBuilder &b, Location loc,
                                    GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  MatmulGeometry g = getGeometry(kernel);
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  Value globalA = kernel.args[kernel.spec.lhsArg];
  Value globalB = kernel.args[kernel.spec.rhsArg];
  Type elemType = cast<MemRefType>(globalA.getType()).getElementType();
  int64_t vector = 16 / (elemType.getIntOrFloatBitWidth() / 8);
  if (!kernel.spec.transposeB || kernel.spec.batchedB || tile.size() != 3 ||
      tile[0] != g.rows || tile[2] != vector || g.k % vector != 0 ||
      plan.getThreads() != tile[1] * 32 ||
      plan.getGrid()[0] != llvm::divideCeilSigned(g.n, tile[1]))
    return kernel.spec.func.emitError(
        "sol kernel: the gemv plan does not fit the kernel (it needs an [N, "
        "K] weight, tile = [rows, warps, 128-bit vector], K a multiple of the "
        "vector and a grid covering N)");
  int64_t rows = g.rows, warps = tile[1];
  int64_t laneStride = 32 * vector;
  int64_t trips = llvm::divideCeilSigned(g.k, laneStride);
  // Unrolled so each lane has several 128-bit weight loads in flight.
  int64_t unroll = std::min<int64_t>(4, trips);
  int64_t loopTrips = llvm::divideCeilSigned(trips, unroll);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = ib.div(tid, 32);
  Value lane = ib.rem(tid, 32);
  Value col = ib.add(ib.mul(bid, warps), warp);
  auto vecType = VectorType::get({vector}, elemType);
  int64_t alignBytes = 16;

  emitIf(b, loc, ib.lt(col, g.n), [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    SmallVector<Value> init(rows, zero);
    Value weightRow = ib.mul(col, g.k);
    auto loop =
        scf::ForOp::create(b, loc, ib.c(0), ib.c(loopTrips), ib.c(1), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IndexBuilder lb(b, loc);
      SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                             loop.getRegionIterArgs().end());
      Value chunk = lb.mul(loop.getInductionVar(), unroll * laneStride);
      // Load all weight vectors of this trip first: bytes in flight.
      SmallVector<std::pair<Value, Value>> weights; // (k, valid) + vector
      SmallVector<Value> weightVecs;
      for (int64_t u = 0; u < unroll; ++u) {
        Value k = lb.add(lb.add(chunk, u * laneStride), lb.mul(lane, vector));
        Value valid = lb.lt(k, g.k);
        Value safeK = lb.select(valid, k, lb.c(0));
        weights.push_back({safeK, valid});
        weightVecs.push_back(vector::LoadOp::create(
            b, loc, vecType, globalB, ValueRange{lb.add(weightRow, safeK)},
            false, llvm::MaybeAlign(alignBytes)));
      }
      for (int64_t u = 0; u < unroll; ++u) {
        auto [safeK, valid] = weights[u];
        SmallVector<Value> w;
        for (int64_t e = 0; e < vector; ++e)
          w.push_back(
              extendToF32(b, loc,
                          vector::ExtractOp::create(b, loc, weightVecs[u],
                                                    ArrayRef<int64_t>{e})));
        for (int64_t m = 0; m < rows; ++m) {
          Value x =
              vector::LoadOp::create(b, loc, vecType, globalA,
                                     ValueRange{lb.add(lb.c(m * g.k), safeK)},
                                     false, llvm::MaybeAlign(alignBytes));
          Value sum = acc[m];
          for (int64_t e = 0; e < vector; ++e) {
            Value xe = extendToF32(
                b, loc,
                vector::ExtractOp::create(b, loc, x, ArrayRef<int64_t>{e}));
            sum = math::FmaOp::create(b, loc, w[e], xe, sum);
          }
          // Lanes past K contribute nothing (their loads were clamped).
          acc[m] = arith::SelectOp::create(b, loc, valid, sum, acc[m]);
        }
      }
      scf::YieldOp::create(b, loc, acc);
    }
    // Butterfly reduction: every lane ends with every row's dot product.
    SmallVector<Value> sums(loop.getResults().begin(), loop.getResults().end());
    Value width = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(32));
    for (int64_t m = 0; m < rows; ++m) {
      for (int64_t offset = 16; offset >= 1; offset /= 2) {
        Value off =
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(offset));
        auto shuffle = gpu::ShuffleOp::create(b, loc, sums[m], off, width,
                                              gpu::ShuffleMode::XOR);
        sums[m] =
            arith::AddFOp::create(b, loc, sums[m], shuffle.getShuffleResult());
      }
    }
    for (int64_t m = 0; m < rows; ++m) {
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                         ib.c(m % 32));
      emitIf(b, loc, mine, [&](OpBuilder &b) {
        IndexBuilder ib(b, loc);
        SmallVector<Value> ivs =
            matmulOutputIndex(ib, kernel.spec, ib.c(0), ib.c(m), col);
        emitEpilogueAt(b, loc, kernel, ivs, sums[m]);
      });
    }
  });
  return success();
}

/// Copies one tile of a row-major global matrix into stage `stage` of a
/// shared-memory buffer with 16-byte cp.async copies spread over `threads`
/// threads: `tileRows` x `tileCols` elements from (rowStart, colStart) of a
/// [rowLimit, colLimit] matrix that starts at element `base` of `global`.
/// Copies past either limit read nothing and zero-fill (source size 0), so
/// edge tiles need no other masking. With `swizzle128`, 16-byte chunk c of
/// row r lands at chunk c ^ (r % 8): the 128-byte swizzle wgmma descriptors
/// name.
static void emitAsyncTileCopy(OpBuilder &b, Location loc, Value tid,
                              int64_t threads, Value global, Value base,
                              Value rowStart, int64_t rowLimit, Value colStart,
                              int64_t colLimit, Value dst, Value stage,
                              int64_t tileRows, int64_t tileCols,
                              bool swizzle128) {
  MLIRContext *ctx = b.getContext();
  int64_t chunksPerRow = tileCols / 8;
  int64_t chunks = tileRows * chunksPerRow;
  for (int64_t first = 0; first < chunks; first += threads) {
    auto body = [&](OpBuilder &b) {
      IndexBuilder ib(b, loc);
      Value chunk = ib.add(tid, first);
      Value r = ib.div(chunk, chunksPerRow);
      Value c = ib.rem(chunk, chunksPerRow);
      Value gRow = ib.add(rowStart, r);
      Value gCol = ib.add(colStart, ib.mul(c, 8));
      Value valid = ib.land(ib.lt(gRow, rowLimit), ib.lt(gCol, colLimit));
      Value offset = ib.add(base, ib.add(ib.mul(gRow, colLimit), gCol));
      Value safe = ib.select(valid, offset, ib.c(0));
      Value srcElems = ib.select(valid, ib.c(8), ib.c(0));
      Value dstChunk =
          swizzle128
              ? arith::XOrIOp::create(b, loc, c, ib.rem(r, 8)).getResult()
              : c;
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), dst,
          ValueRange{stage, r, ib.mul(dstChunk, 8)}, global, ValueRange{safe},
          b.getIndexAttr(8), srcElems, b.getUnitAttr());
    };
    IndexBuilder ib(b, loc);
    if (first + threads <= chunks)
      body(b);
    else
      emitIf(b, loc, ib.lt(ib.add(tid, first), chunks), body);
  }
}

//===----------------------------------------------------------------------===//
// mma.sync path
//===----------------------------------------------------------------------===//

/// Everything the mma.sync generator derives from the plan.
struct MmaLayout {
  MmaSyncTile tile;
  int64_t threads, warpTileM, warpTileN, fragsM, fragsN;
  int64_t aPitch, bPitch;
  int64_t aStageElems, bStageElems;
  bool transposeB;
};

static FailureOr<MmaLayout> getMmaLayout(KernelSpec &spec) {
  PlanAttr plan = spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  ArrayRef<int64_t> warps = plan.getWarps();
  if (tile.size() != 3 || warps.size() != 2)
    return spec.func.emitError("sol kernel: an mma_sync plan needs tile = "
                               "[m, n, k] and warps = [m, n]");
  MmaLayout l;
  l.tile = {tile[0], tile[1], tile[2], warps[0], warps[1], plan.getStages()};
  l.transposeB = spec.transposeB;
  l.threads = warps[0] * warps[1] * 32;
  l.warpTileM = tile[0] / warps[0];
  l.warpTileN = tile[1] / warps[1];
  if (tile[0] % warps[0] || tile[1] % warps[1] || l.warpTileM % 16 ||
      l.warpTileN % 16 || tile[2] % 16 || l.tile.stages < 2 ||
      plan.getThreads() != l.threads || plan.getSplitK() != 1)
    return spec.func.emitError("sol kernel: the mma_sync plan is not one the "
                               "generator implements (warp tiles must be "
                               "multiples of 16x16, tile_k of 16, at least 2 "
                               "stages, block = 32 x warps, split_k = 1)");
  if (plan.getSmem() != getMmaSyncSmemBytes(l.tile, l.transposeB))
    return spec.func.emitError("sol kernel: the plan's smem does not match "
                               "its tiles");
  l.fragsM = l.warpTileM / 16;
  l.fragsN = l.warpTileN / 8;
  l.aPitch = getMmaSyncAPitch(l.tile);
  l.bPitch = getMmaSyncBPitch(l.tile, l.transposeB);
  l.aStageElems = l.tile.tileM * l.aPitch;
  l.bStageElems = (l.transposeB ? l.tile.tileN : l.tile.tileK) * l.bPitch;
  return l;
}

/// The accumulators of one warp: fragsM x fragsN m16n8 fragments of four
/// f32 each, flattened in (mi, ni, e) order.
static int64_t accIndex(const MmaLayout &l, int64_t mi, int64_t ni, int64_t e) {
  return (mi * l.fragsN + ni) * 4 + e;
}

static LogicalResult emitMmaSyncKernel(OpBuilder &b, Location loc,
                                       GpuKernel &kernel) {
  FailureOr<MmaLayout> maybeLayout = getMmaLayout(kernel.spec);
  if (failed(maybeLayout))
    return failure();
  const MmaLayout &l = *maybeLayout;
  const MmaSyncTile &t = l.tile;
  MatmulGeometry g = getGeometry(kernel);
  if (failed(checkGrid(kernel, g, t.tileM, t.tileN)))
    return failure();
  IndexBuilder ib(b, loc);
  Type elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                      .getElementType();
  bool isBF16 = elemType.isBF16();
  MLIRContext *ctx = b.getContext();
  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value warp = ib.div(tid, 32);
  Value lane = ib.rem(tid, 32);
  Value warpM = ib.div(warp, t.warpsN);
  Value warpN = ib.rem(warp, t.warpsN);
  Value rowBase = ib.mul(by, t.tileM);
  Value colBase = ib.mul(bx, t.tileN);
  Value aBase = ib.mul(bz, g.aSliceStride);
  Value bBase = ib.mul(bz, g.bSliceStride);

  // Shared memory: `stages` A tiles then `stages` B tiles, rows padded.
  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  auto aType = MemRefType::get({t.stages, t.tileM, l.aPitch}, elemType,
                               MemRefLayoutAttrInterface(), wgSpace);
  int64_t bRows = l.transposeB ? t.tileN : t.tileK;
  auto bType = MemRefType::get({t.stages, bRows, l.bPitch}, elemType,
                               MemRefLayoutAttrInterface(), wgSpace);
  Value sA = memref::ViewOp::create(b, loc, aType, dyn, ib.c(0), ValueRange{});
  Value sB = memref::ViewOp::create(
      b, loc, bType, dyn, ib.c(t.stages * l.aStageElems * 2), ValueRange{});
  Value globalA = kernel.args[kernel.spec.lhsArg];
  Value globalB = kernel.args[kernel.spec.rhsArg];
  int64_t numKTiles = llvm::divideCeilSigned(g.k, t.tileK);

  // Issues the copies of K tile `kTile` into `stage` as one cp.async group
  // (tiles past the last K tile zero-fill, like edges).
  auto issueTileLoads = [&](OpBuilder &b, Value stage, Value kTile) {
    IndexBuilder ib(b, loc);
    Value kBase = ib.mul(kTile, t.tileK);
    // A: tileM rows of A, tileK columns.
    emitAsyncTileCopy(b, loc, tid, l.threads, globalA, aBase, rowBase, g.rows,
                      kBase, g.k, sA, stage, t.tileM, t.tileK, false);
    if (l.transposeB) // B is [N, K]: tileN rows of B, tileK columns.
      emitAsyncTileCopy(b, loc, tid, l.threads, globalB, bBase, colBase, g.n,
                        kBase, g.k, sB, stage, t.tileN, t.tileK, false);
    else // B is [K, N]: tileK rows of B, tileN columns.
      emitAsyncTileCopy(b, loc, tid, l.threads, globalB, bBase, kBase, g.k,
                        colBase, g.n, sB, stage, t.tileK, t.tileN, false);
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  };

  // Prologue: the first stages-1 K tiles in flight.
  for (int64_t s = 0; s + 1 < t.stages; ++s)
    issueTileLoads(b, ib.c(s), ib.c(s));

  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  SmallVector<Value> accInit(l.fragsM * l.fragsN * 4, zero);
  auto kLoop =
      scf::ForOp::create(b, loc, ib.c(0), ib.c(numKTiles), ib.c(1), accInit);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    IndexBuilder lb(b, loc);
    Value kt = kLoop.getInductionVar();
    // Tile kt has landed once at most stages-2 younger groups are pending;
    // the barrier also tells every warp that stage (kt-1) % stages, which
    // the loads below overwrite, has been consumed.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, t.stages - 2);
    gpu::BarrierOp::create(b, loc);
    Value nextTile = lb.add(kt, t.stages - 1);
    issueTileLoads(b, lb.rem(nextTile, t.stages), nextTile);
    Value stage = lb.rem(kt, t.stages);

    SmallVector<Value> acc(kLoop.getRegionIterArgs().begin(),
                           kLoop.getRegionIterArgs().end());
    auto i32 = b.getI32Type();
    auto asOperand = [&](Value v) -> Value {
      // bf16 fragments go to mma.sync as packed b32 registers.
      return isBF16 ? LLVM::BitcastOp::create(b, loc, i32, v).getResult() : v;
    };
    auto extractRow = [&](Value matrix, int64_t i) -> Value {
      return vector::ExtractOp::create(b, loc, matrix, ArrayRef<int64_t>{i});
    };
    auto f32 = b.getF32Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    Value laneRow16 = lb.rem(lane, 16), laneHalf = lb.div(lane, 16);
    Value lane8 = lb.rem(lane, 8), laneOct = lb.rem(lb.div(lane, 8), 2);
    for (int64_t kk = 0; kk < t.tileK; kk += 16) {
      // A fragments: ldmatrix.x4 of rows lane%16, columns (lane/16)*8.
      SmallVector<SmallVector<Value, 4>> aFrags;
      for (int64_t mi = 0; mi < l.fragsM; ++mi) {
        Value r =
            lb.add(lb.add(lb.mul(warpM, l.warpTileM), mi * 16), laneRow16);
        Value c = lb.add(lb.mul(laneHalf, 8), kk);
        Value m = nvgpu::LdMatrixOp::create(
            b, loc, VectorType::get({4, 2}, elemType), sA,
            ValueRange{stage, r, c}, /*transpose=*/false, /*numTiles=*/4);
        aFrags.push_back(
            {asOperand(extractRow(m, 0)), asOperand(extractRow(m, 1)),
             asOperand(extractRow(m, 2)), asOperand(extractRow(m, 3))});
      }
      // B fragments, two n8 fragments per ldmatrix.x4.
      SmallVector<std::pair<Value, Value>> bFrags;
      for (int64_t nj = 0; nj < l.fragsN / 2; ++nj) {
        Value nBase = lb.add(lb.mul(warpN, l.warpTileN), nj * 16);
        Value m;
        if (l.transposeB) {
          // sB[n][k]: matrices (n0-7,k0-7) (n0-7,k8-15) (n8-15,k0-7) ...
          Value n = lb.add(lb.add(nBase, lane8), lb.mul(laneHalf, 8));
          Value k = lb.add(lb.mul(laneOct, 8), kk);
          m = nvgpu::LdMatrixOp::create(b, loc,
                                        VectorType::get({4, 2}, elemType), sB,
                                        ValueRange{stage, n, k}, false, 4);
        } else {
          // sB[k][n], transposed on load: thread gets (k pair, n = lane/4).
          Value k = lb.add(lb.add(lane8, lb.mul(laneOct, 8)), kk);
          Value n = lb.add(nBase, lb.mul(laneHalf, 8));
          m = nvgpu::LdMatrixOp::create(b, loc,
                                        VectorType::get({4, 2}, elemType), sB,
                                        ValueRange{stage, k, n}, true, 4);
        }
        bFrags.push_back(
            {asOperand(extractRow(m, 0)), asOperand(extractRow(m, 1))});
        bFrags.push_back(
            {asOperand(extractRow(m, 2)), asOperand(extractRow(m, 3))});
      }
      NVVM::MMATypes ptxType =
          isBF16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
      for (int64_t mi = 0; mi < l.fragsM; ++mi) {
        for (int64_t ni = 0; ni < l.fragsN; ++ni) {
          SmallVector<Value> c;
          for (int64_t e = 0; e < 4; ++e)
            c.push_back(acc[accIndex(l, mi, ni, e)]);
          Value d = NVVM::MmaOp::create(
              b, loc, resultType, aFrags[mi],
              ValueRange{bFrags[ni].first, bFrags[ni].second}, c,
              ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t e = 0; e < 4; ++e)
            acc[accIndex(l, mi, ni, e)] =
                LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{e});
        }
      }
    }
    scf::YieldOp::create(b, loc, acc);
  }
  // Nothing may stay in flight past the kernel (the tail groups are empty
  // or zero-fills, but an exiting thread must not leave copies pending).
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);

  // Epilogue on the accumulators: element e of fragment (mi, ni) sits at
  // row lane/4 (+8 for e >= 2), column 2*(lane%4) (+1 for odd e).
  Value laneRow = ib.div(lane, 4);
  Value laneCol = ib.mul(ib.rem(lane, 4), 2);
  Value warpRow = ib.add(rowBase, ib.mul(warpM, l.warpTileM));
  Value warpCol = ib.add(colBase, ib.mul(warpN, l.warpTileN));
  for (int64_t mi = 0; mi < l.fragsM; ++mi)
    emitFragmentEpilogue(b, loc, kernel, g, bz,
                         ib.add(ib.add(warpRow, laneRow), mi * 16),
                         ib.add(warpCol, laneCol), l.fragsN,
                         [&](OpBuilder &, int64_t ni, int64_t e) {
                           return kLoop.getResult(accIndex(l, mi, ni, e));
                         });
  return success();
}

//===----------------------------------------------------------------------===//
// wgmma path (sm_90a)
//===----------------------------------------------------------------------===//

static Value constI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

/// A wgmma matrix descriptor for a K-major operand tile at shared-window
/// byte address `byteAddress` (1024-byte aligned), stored in 128-byte rows
/// with the 128-byte swizzle. Bits: [0,14) address >> 4, [16,30) leading
/// byte offset >> 4 (unused by swizzled K-major operands; 1 as CUTLASS sets
/// it), [32,46) stride byte offset >> 4 (8 rows x 128 B = 1024 B), [62,64)
/// swizzle mode (1 = 128 B).
static Value makeWgmmaDescriptor(OpBuilder &b, Location loc,
                                 Value byteAddress) {
  Value bits = constI64(b, loc,
                        (int64_t(1) << 16) | (int64_t(1024 >> 4) << 32) |
                            (int64_t(1) << 62));
  Value addr = arith::ShRUIOp::create(b, loc, byteAddress, constI64(b, loc, 4));
  addr = arith::AndIOp::create(b, loc, addr, constI64(b, loc, 0x3FFF));
  return arith::OrIOp::create(b, loc, addr, bits);
}

/// The m64n{tileN} accumulator of one warpgroup: tileN / 2 f32 per thread.
static LLVM::LLVMStructType getWgmmaAccType(MLIRContext *ctx, int64_t tileN) {
  SmallVector<Type> fields(tileN / 2, Float32Type::get(ctx));
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

/// Issues one 64-deep K tile as four m64n{tileN}k16 wgmma.mma_async into
/// `acc` and commits them as one group (the caller waits on it).
static Value emitWgmmaKTile(OpBuilder &b, Location loc, Value acc, Value descA,
                            Value descB, int64_t tileN, bool isBF16) {
  MLIRContext *ctx = b.getContext();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  auto wgmmaType = NVVM::WGMMATypesAttr::get(
      ctx, isBF16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16);
  for (int64_t kk = 0; kk < 4; ++kk) {
    // 16 elements further along K = 32 bytes = 2 in the address field.
    Value da = arith::AddIOp::create(b, loc, descA, constI64(b, loc, 2 * kk));
    Value db = arith::AddIOp::create(b, loc, descB, constI64(b, loc, 2 * kk));
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, acc.getType(), acc, da, db,
        NVVM::MMAShapeAttr::get(ctx, 64, tileN, 16), wgmmaType, wgmmaType,
        NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
        NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col),
        NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}

/// The epilogue of a warpgroup's m64n{tileN} accumulator whose first row is
/// `rowBase` (warp w of the warpgroup holds rows 16w..16w+15, laid out like
/// an m16n8 mma.sync fragment per 8 columns).
static void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                              const MatmulGeometry &g, Value batchSlice,
                              Value tid, Value rowBase, Value colBase,
                              int64_t tileN, Value acc) {
  IndexBuilder ib(b, loc);
  Value lane = ib.rem(tid, 32);
  Value warpInGroup = ib.rem(ib.div(tid, 32), 4);
  Value row = ib.add(rowBase, ib.add(ib.mul(warpInGroup, 16), ib.div(lane, 4)));
  Value col = ib.add(colBase, ib.mul(ib.rem(lane, 4), 2));
  emitFragmentEpilogue(b, loc, kernel, g, batchSlice, row, col, tileN / 8,
                       [&](OpBuilder &b, int64_t nb, int64_t e) {
                         return LLVM::ExtractValueOp::create(
                             b, loc, acc, ArrayRef<int64_t>{nb * 4 + e});
                       });
}

/// Hopper tensor cores: two warpgroups each own 64 rows of a 128 x tile_n
/// block tile and accumulate with wgmma.mma_async m64n{tile_n}k16, whose A
/// and B operands are read straight from shared memory through matrix
/// descriptors. Both operands are K-major ([M, K] activations, the [N, K]
/// weight) in rows of 64 elements = 128 bytes, stored with the 128-byte
/// swizzle the descriptors name (16-byte chunk c of row r lands at chunk
/// c ^ (r % 8)), so the tensor cores read them without bank conflicts. The
/// same zero-filling cp.async pipeline as the mma.sync path feeds the
/// stages; a proxy fence makes its writes visible to the async proxy the
/// wgmma reads through. The epilogue runs on the accumulator registers (the
/// m64nN fragment: warp w of the warpgroup holds rows 16w..16w+15, laid out
/// like an m16n8 mma.sync fragment per 8 columns) and stores once.
static LogicalResult emitWgmmaKernel(OpBuilder &b, Location loc,
                                     GpuKernel &kernel) {
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  MatmulGeometry g = getGeometry(kernel);
  if (!kernel.spec.transposeB || tile.size() != 3 || tile[0] != 128 ||
      tile[2] != 64 || tile[1] % 16 != 0 || tile[1] > 256 ||
      plan.getThreads() != 256 || plan.getStages() < 3 ||
      plan.getSmem() != getWgmmaSmemBytes(tile[1], plan.getStages()))
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma plan is not one the generator implements "
        "(tile = [128, n <= 256, 64], 256 threads, an [N, K] weight, smem = "
        "stages x (128 + n) x 128 bytes)");
  if (failed(checkGrid(kernel, g, tile[0], tile[1])))
    return failure();
  int64_t tileM = 128, tileN = tile[1], tileK = 64, stages = plan.getStages();
  int64_t threads = 256;
  IndexBuilder ib(b, loc);
  MLIRContext *ctx = b.getContext();
  Type elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                      .getElementType();
  bool isBF16 = elemType.isBF16();
  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value warpgroup = ib.div(tid, 128);
  Value rowBase = ib.mul(by, tileM);
  Value colBase = ib.mul(bx, tileN);
  Value aBase = ib.mul(bz, g.aSliceStride);
  Value bBase = ib.mul(bz, g.bSliceStride);

  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  auto aType = MemRefType::get({stages, tileM, tileK}, elemType,
                               MemRefLayoutAttrInterface(), wgSpace);
  auto bType = MemRefType::get({stages, tileN, tileK}, elemType,
                               MemRefLayoutAttrInterface(), wgSpace);
  int64_t aStageBytes = tileM * tileK * 2, bStageBytes = tileN * tileK * 2;
  Value sA = memref::ViewOp::create(b, loc, aType, dyn, ib.c(0), ValueRange{});
  Value sB = memref::ViewOp::create(b, loc, bType, dyn,
                                    ib.c(stages * aStageBytes), ValueRange{});
  // The shared-window address of the dynamic shared memory, for the
  // descriptors (its start is 1024-byte aligned: the kernel has no static
  // shared memory).
  Value smemBase =
      arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                 memref::ExtractAlignedPointerAsIndexOp::create(
                                     b, loc, b.getIndexType(), dyn));
  Value globalA = kernel.args[kernel.spec.lhsArg];
  Value globalB = kernel.args[kernel.spec.rhsArg];
  int64_t numKTiles = llvm::divideCeilSigned(g.k, tileK);

  // Issues the copies of K tile `kTile` into `stage` as one cp.async group,
  // both operands K-major in 64-element (128-byte) swizzled rows.
  auto issueTileLoads = [&](OpBuilder &b, Value stage, Value kTile) {
    IndexBuilder ib(b, loc);
    Value kBase = ib.mul(kTile, tileK);
    emitAsyncTileCopy(b, loc, tid, threads, globalA, aBase, rowBase, g.rows,
                      kBase, g.k, sA, stage, tileM, tileK, true);
    emitAsyncTileCopy(b, loc, tid, threads, globalB, bBase, colBase, g.n, kBase,
                      g.k, sB, stage, tileN, tileK, true);
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  };

  // One wgmma group stays in flight while the next tile's loads and
  // barrier run, so a stage is refilled two iterations after it was read:
  // the loads run `stages - 2` tiles ahead.
  int64_t ahead = stages - 2;
  for (int64_t s = 0; s < ahead; ++s)
    issueTileLoads(b, ib.c(s), ib.c(s));

  Value accInit = LLVM::ZeroOp::create(b, loc, getWgmmaAccType(ctx, tileN));
  auto i64 = b.getI64Type();
  auto c64 = [&](OpBuilder &b, int64_t v) { return constI64(b, loc, v); };

  auto kLoop = scf::ForOp::create(b, loc, ib.c(0), ib.c(numKTiles), ib.c(1),
                                  ValueRange{accInit});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    IndexBuilder lb(b, loc);
    Value kt = kLoop.getInductionVar();
    // Tile kt has landed once at most ahead-1 younger groups are pending.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
    // cp.async wrote through the generic proxy; wgmma reads through the
    // async proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    // After this barrier every warpgroup has retired wgmma kt-2 (each
    // waited for all but its newest group), so stage (kt + ahead) % stages
    // = (kt - 2) % stages is free.
    gpu::BarrierOp::create(b, loc);
    Value nextTile = lb.add(kt, ahead);
    issueTileLoads(b, lb.rem(nextTile, stages), nextTile);
    Value stage = arith::IndexCastOp::create(b, loc, i64, lb.rem(kt, stages));
    Value aAddr = arith::AddIOp::create(
        b, loc, smemBase,
        arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, stage, c64(b, aStageBytes)),
            arith::MulIOp::create(
                b, loc, arith::IndexCastOp::create(b, loc, i64, warpgroup),
                c64(b, 64 * tileK * 2))));
    Value bAddr = arith::AddIOp::create(
        b, loc, smemBase,
        arith::AddIOp::create(
            b, loc, c64(b, stages * aStageBytes),
            arith::MulIOp::create(b, loc, stage, c64(b, bStageBytes))));
    Value acc =
        emitWgmmaKTile(b, loc, kLoop.getRegionIterArgs()[0],
                       makeWgmmaDescriptor(b, loc, aAddr),
                       makeWgmmaDescriptor(b, loc, bAddr), tileN, isBF16);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
    scf::YieldOp::create(b, loc, acc);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);

  emitWgmmaEpilogue(b, loc, kernel, g, bz, tid,
                    ib.add(rowBase, ib.mul(warpgroup, 64)), colBase, tileN,
                    kLoop.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// wgmma_tma path (sm_90a): TMA, mbarriers, warp specialisation, persistence
//===----------------------------------------------------------------------===//

/// The grouped order in which a persistent grid walks its output tiles:
/// `group` cluster rows of tiles at a time, down the rows first, so the
/// blocks resident at once share A row panels and B column panels in L2.
static constexpr int64_t kTileGroupRows = 8;

/// Splits unit `unit` (a cluster's column of `cluster` M tiles at one N
/// tile) into its cluster-row index and N tile.
static std::pair<Value, Value> unitToTile(IndexBuilder &ib, Value unit,
                                          int64_t unitsM, int64_t tilesN) {
  int64_t groupSize = kTileGroupRows * tilesN;
  Value group = ib.div(unit, groupSize);
  Value firstRow = ib.mul(group, kTileGroupRows);
  Value rowsInGroup = arith::MinUIOp::create(
      ib.b, ib.loc, arith::SubIOp::create(ib.b, ib.loc, ib.c(unitsM), firstRow),
      ib.c(kTileGroupRows));
  Value local = ib.rem(unit, groupSize);
  Value row = ib.add(firstRow,
                     arith::RemUIOp::create(ib.b, ib.loc, local, rowsInGroup));
  Value col = arith::DivUIOp::create(ib.b, ib.loc, local, rowsInGroup);
  return {row, col};
}

/// Hopper's full machinery for large matmuls. Block = three warpgroups:
///  - warpgroup 0, the producer, gives up registers (setmaxnreg) and one of
///    its threads issues TMA loads (cp.async.bulk.tensor, 128-byte swizzle,
///    out-of-bounds boxes zero-filled) of each K tile into a ring of
///    `stages` shared-memory stages, each guarded by a `full` mbarrier
///    (transaction-counted: the TMA completes it) and an `empty` one (the
///    consumers' warps arrive when their wgmma have read it);
///  - warpgroups 1 and 2, the consumers, take the registers, wait on `full`,
///    run wgmma on 64 rows each of the 128 x tile_n tile with one group in
///    flight, release the stage, and run the fused epilogue on the
///    accumulators.
/// The grid is persistent: block b walks the output tiles b, b + grid, ...
/// in grouped order, so the producer loads the next tile's stages while the
/// consumers run the epilogue of the last. With a cluster of C blocks along
/// M, the C blocks of a cluster share one N tile: each loads 1/C of the B
/// tile and multicasts it to all, so B crosses L2 once per cluster; a stage
/// is free only when every block's consumers released it, so consumers
/// arrive on the `empty` barrier of each block of the cluster.
/// The A and B maps are device pointers to CUtensorMaps the launcher
/// encodes (the manifest's "tensor_maps" say how).
static LogicalResult emitWgmmaTmaKernel(OpBuilder &b, Location loc,
                                        GpuKernel &kernel, Value mapA,
                                        Value mapB) {
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  ArrayRef<int64_t> grid = plan.getGrid();
  MatmulGeometry g = getGeometry(kernel);
  int64_t cluster = plan.getCluster();
  if (!kernel.spec.transposeB || kernel.spec.batchedB || tile.size() != 3 ||
      tile[0] != 128 || tile[2] != 64 || tile[1] % 16 != 0 || tile[1] > 256 ||
      cluster < 1 || cluster > 8 || tile[1] % (8 * cluster) != 0 ||
      plan.getThreads() != kWgmmaTmaThreads || plan.getStages() < 2 ||
      plan.getSmem() != getWgmmaTmaSmemBytes(tile[1], plan.getStages()) ||
      grid.size() != 3 || grid[0] < cluster || grid[0] % cluster != 0 ||
      grid[1] != 1 || grid[2] != 1)
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma_tma plan is not one the generator implements "
        "(tile = [128, n <= 256, 64] with n a multiple of 8 x cluster, 384 "
        "threads, an unbatched [N, K] weight, smem = stages x (128 + n) x 128 "
        "bytes + 16 bytes of mbarriers per stage + 1024 bytes of alignment "
        "slack, a 1-D grid of whole clusters)");
  int64_t tileN = tile[1], stages = plan.getStages();
  int64_t aStageBytes = 128 * 64 * 2, bStageBytes = tileN * 64 * 2;
  int64_t bShareRows = tileN / cluster;
  int64_t numK = llvm::divideCeilSigned(g.k, 64);
  int64_t tilesM = llvm::divideCeilSigned(g.rows, 128);
  int64_t tilesN = llvm::divideCeilSigned(g.n, tileN);
  int64_t unitsM = llvm::divideCeilSigned(tilesM, cluster);
  int64_t units = unitsM * tilesN;
  // The consumers' warps (of every block of the cluster) release a stage.
  int64_t emptyArrivals = 8 * cluster;

  IndexBuilder ib(b, loc);
  MLIRContext *ctx = b.getContext();
  Type elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                      .getElementType();
  bool isBF16 = elemType.isBF16();
  auto i32 = b.getI32Type();
  auto i64 = b.getI64Type();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, 7);
  auto genericPtr = LLVM::LLVMPointerType::get(ctx);
  auto c64 = [&](OpBuilder &b, int64_t v) { return constI64(b, loc, v); };
  auto toI32 = [&](OpBuilder &b, Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i32, index);
  };
  auto toI64 = [&](OpBuilder &b, Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  auto c32 = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value gridX = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value warpgroup = ib.div(tid, 128);
  Value rank = ib.rem(bid, cluster);
  Value clusterId = ib.div(bid, cluster);
  Value numClusters = ib.div(gridX, cluster);

  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  // Shared-window addresses: stages of A, stages of B, then the full and
  // empty mbarriers, from the first 1024-byte boundary of the dynamic shared
  // memory (TMA's and wgmma's 128-byte swizzle is a function of the address
  // bits, aligned to 1024 bytes; the plan reserves the slack).
  Value smemBase = arith::AndIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc,
                            arith::IndexCastOp::create(
                                b, loc, i64,
                                memref::ExtractAlignedPointerAsIndexOp::create(
                                    b, loc, b.getIndexType(), dyn)),
                            c64(b, kWgmmaTmaAlignSlack - 1)),
      c64(b, ~(kWgmmaTmaAlignSlack - 1)));
  int64_t bOffset = stages * aStageBytes;
  int64_t barOffset = stages * (aStageBytes + bStageBytes);
  auto sharedAt = [&](OpBuilder &b, Value byteOffset) -> Value {
    Value address = arith::AddIOp::create(b, loc, smemBase, byteOffset);
    return LLVM::IntToPtrOp::create(b, loc, sharedPtr, address);
  };
  // TMA names its destination in the cluster's shared window (this block's
  // own shared memory is part of it).
  auto clusterAt = [&](OpBuilder &b, Value byteOffset) -> Value {
    return LLVM::AddrSpaceCastOp::create(b, loc, clusterPtr,
                                         sharedAt(b, byteOffset));
  };
  auto stageOffset = [&](OpBuilder &b, Value stage, int64_t base,
                         int64_t bytes) -> Value {
    return arith::AddIOp::create(
        b, loc, c64(b, base),
        arith::MulIOp::create(b, loc, toI64(b, stage), c64(b, bytes)));
  };
  auto fullBarrier = [&](OpBuilder &b, Value stage) {
    return sharedAt(b, stageOffset(b, stage, barOffset, 8));
  };
  auto emptyBarrier = [&](OpBuilder &b, Value stage) {
    return sharedAt(b, stageOffset(b, stage, barOffset + stages * 8, 8));
  };
  auto globalPtr = [&](OpBuilder &b, Value memref) -> Value {
    Value address = toI64(b, memref::ExtractAlignedPointerAsIndexOp::create(
                                 b, loc, b.getIndexType(), memref));
    return LLVM::IntToPtrOp::create(b, loc, genericPtr, address);
  };
  Value mapAPtr = globalPtr(b, mapA), mapBPtr = globalPtr(b, mapB);

  // One thread initialises the barriers; the init is made visible to the
  // async proxy (TMA completes transactions on them) and, in a cluster, to
  // the other blocks before anyone uses them.
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0)),
         [&](OpBuilder &b) {
           IndexBuilder ib(b, loc);
           for (int64_t s = 0; s < stages; ++s) {
             NVVM::MBarrierInitOp::create(b, loc, fullBarrier(b, ib.c(s)),
                                          c32(b, 1), Value());
             NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(b, ib.c(s)),
                                          c32(b, emptyArrivals), Value());
           }
           NVVM::FenceMbarrierInitOp::create(b, loc);
           for (Value map : {mapAPtr, mapBPtr})
             NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                                      /*evictPriority=*/nullptr, map,
                                      /*predicate=*/Value(),
                                      /*tensormap=*/true);
         });
  auto clusterSync = [&](OpBuilder &b) {
    NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  };
  if (cluster > 1)
    clusterSync(b);
  else
    gpu::BarrierOp::create(b, loc);

  // Iteration `it` of a block's flattened (tile, K tile) walk uses stage
  // it % stages in round it / stages; round r of a stage is phase r of its
  // barriers, so waits test the parity r & 1.
  auto parity = [&](OpBuilder &b, Value round) {
    IndexBuilder ib(b, loc);
    return toI32(b, ib.rem(round, 2));
  };
  Value waitTicks = c32(b, 0x989680);
  auto forEachUnit =
      [&](OpBuilder &b,
          function_ref<void(OpBuilder &, Value, Value, Value)> body) {
        IndexBuilder ib(b, loc);
        auto loop =
            scf::ForOp::create(b, loc, clusterId, ib.c(units), numClusters);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        IndexBuilder lb(b, loc);
        Value unit = loop.getInductionVar();
        Value firstIteration =
            lb.mul(arith::DivUIOp::create(
                       b, loc, arith::SubIOp::create(b, loc, unit, clusterId),
                       numClusters),
                   numK);
        auto [unitRow, nTile] = unitToTile(lb, unit, unitsM, tilesN);
        Value mTile = lb.add(lb.mul(unitRow, cluster), rank);
        body(b, firstIteration, mTile, nTile);
      };

  auto isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          warpgroup, ib.c(0));
  auto roles = scf::IfOp::create(b, loc, isProducer, /*withElseRegion=*/true);
  {
    // The producer warpgroup.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.thenBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, 40,
                                   NVVM::SetMaxRegisterAction::decrease);
    IndexBuilder ib(b, loc);
    emitIf(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0)),
        [&](OpBuilder &b) {
          forEachUnit(b, [&](OpBuilder &b, Value first, Value mTile,
                             Value nTile) {
            IndexBuilder ib(b, loc);
            auto kLoop =
                scf::ForOp::create(b, loc, ib.c(0), ib.c(numK), ib.c(1));
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(kLoop.getBody());
            IndexBuilder lb(b, loc);
            Value kt = kLoop.getInductionVar();
            Value it = lb.add(first, kt);
            Value stage = lb.rem(it, stages);
            Value round = lb.div(it, stages);
            // Round r > 0 reuses the stage after the consumers released
            // round r - 1, the empty barrier's phase r - 1.
            emitIf(b, loc,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, it,
                                         lb.c(stages)),
                   [&](OpBuilder &b) {
                     IndexBuilder ib(b, loc);
                     NVVM::MBarrierTryWaitParityOp::create(
                         b, loc, emptyBarrier(b, stage),
                         parity(b, ib.add(round, 1)), waitTicks);
                   });
            Value full = fullBarrier(b, stage);
            NVVM::MBarrierArriveExpectTxOp::create(
                b, loc, Type(), full, c32(b, aStageBytes + bStageBytes),
                NVVM::MemScopeKind::CTA, false, Value());
            Value kCoord = toI32(b, lb.mul(kt, 64));
            NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
                b, loc, clusterAt(b, stageOffset(b, stage, 0, aStageBytes)),
                mapAPtr, ValueRange{kCoord, toI32(b, lb.mul(mTile, 128))}, full,
                ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false,
                nullptr, Value());
            // This block's share of the B tile, multicast to the cluster.
            Value shareOffset = arith::AddIOp::create(
                b, loc, stageOffset(b, stage, bOffset, bStageBytes),
                arith::MulIOp::create(b, loc, toI64(b, rank),
                                      c64(b, bShareRows * 128)));
            Value bRow = lb.add(lb.mul(nTile, tileN), lb.mul(rank, bShareRows));
            Value mask =
                cluster > 1
                    ? arith::ConstantOp::create(
                          b, loc, b.getI16IntegerAttr((1 << cluster) - 1))
                          .getResult()
                    : Value();
            NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
                b, loc, clusterAt(b, shareOffset), mapBPtr,
                ValueRange{kCoord, toI32(b, bRow)}, full, ValueRange{}, mask,
                Value(), NVVM::TMALoadMode::TILE, false, nullptr, Value());
          });
        });
  }
  {
    // The consumer warpgroups.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.elseBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, 232,
                                   NVVM::SetMaxRegisterAction::increase);
    IndexBuilder ib(b, loc);
    Value consumer = arith::SubIOp::create(b, loc, warpgroup, ib.c(1));
    Value laneZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           ib.rem(tid, 32), ib.c(0));
    // Lane 0 of each warp (whose wgmma have all retired) arrives on the
    // stage's empty barrier in every block of the cluster.
    auto release = [&](OpBuilder &b, Value it) {
      IndexBuilder ib(b, loc);
      Value stage = ib.rem(it, stages);
      emitIf(b, loc, laneZero, [&](OpBuilder &b) {
        Value empty = emptyBarrier(b, stage);
        if (cluster == 1) {
          NVVM::MBarrierArriveOp::create(b, loc, Type(), empty, Value());
          return;
        }
        // CTA scope, as CUTLASS's ClusterBarrier::arrive: the release only
        // has to order this warp's reads of the stage, and those (by the
        // async proxy) have retired; a cluster-scope release would also
        // wait for the previous tile's global stores.
        for (int64_t r = 0; r < cluster; ++r) {
          Value remote =
              NVVM::MapaOp::create(b, loc, clusterPtr, empty, c32(b, r));
          NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                         NVVM::MemScopeKind::CTA);
        }
      });
    };
    forEachUnit(b, [&](OpBuilder &b, Value first, Value mTile, Value nTile) {
      IndexBuilder ib(b, loc);
      Value accInit = LLVM::ZeroOp::create(b, loc, getWgmmaAccType(ctx, tileN));
      auto kLoop = scf::ForOp::create(b, loc, ib.c(0), ib.c(numK), ib.c(1),
                                      ValueRange{accInit});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(kLoop.getBody());
        IndexBuilder lb(b, loc);
        Value kt = kLoop.getInductionVar();
        Value it = lb.add(first, kt);
        Value stage = lb.rem(it, stages);
        NVVM::MBarrierTryWaitParityOp::create(b, loc, fullBarrier(b, stage),
                                              parity(b, lb.div(it, stages)),
                                              waitTicks);
        Value aAddr = arith::AddIOp::create(
            b, loc, smemBase,
            arith::AddIOp::create(b, loc, stageOffset(b, stage, 0, aStageBytes),
                                  arith::MulIOp::create(b, loc,
                                                        toI64(b, consumer),
                                                        c64(b, 64 * 128))));
        Value bAddr = arith::AddIOp::create(
            b, loc, smemBase, stageOffset(b, stage, bOffset, bStageBytes));
        Value acc =
            emitWgmmaKTile(b, loc, kLoop.getRegionIterArgs()[0],
                           makeWgmmaDescriptor(b, loc, aAddr),
                           makeWgmmaDescriptor(b, loc, bAddr), tileN, isBF16);
        // The group before this one has retired: its stage is free.
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
        emitIf(b, loc,
               arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt,
                                     lb.c(0)),
               [&](OpBuilder &b) {
                 IndexBuilder ib(b, loc);
                 release(b, arith::SubIOp::create(b, loc, it, ib.c(1)));
               });
        scf::YieldOp::create(b, loc, acc);
      }
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
      release(b, ib.add(first, numK - 1));
      Value rowBase = ib.add(ib.mul(mTile, 128), ib.mul(consumer, 64));
      emitWgmmaEpilogue(b, loc, kernel, g, ib.c(0), tid, rowBase,
                        ib.mul(nTile, tileN), tileN, kLoop.getResult(0));
    });
  }
  // No block of a cluster may exit while another may still multicast into
  // its shared memory or arrive on its barriers.
  if (cluster > 1)
    clusterSync(b);
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static LogicalResult convertKernel(func::FuncOp func,
                                   OpBuilder &moduleBuilder) {
  FailureOr<KernelSpec> spec = readKernel(func);
  if (failed(spec))
    return failure();
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();

  GpuKernel kernel;
  kernel.spec = *spec;
  SmallVector<Type> argTypes;
  for (Type type : func.getArgumentTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    if (!tensor.hasStaticShape())
      return func.emitError("sol kernel: dynamic argument shape");
    kernel.argShapes.emplace_back(tensor.getShape().begin(),
                                  tensor.getShape().end());
    argTypes.push_back(
        MemRefType::get({std::max<int64_t>(1, tensor.getNumElements())},
                        tensor.getElementType()));
  }

  auto gpuModule =
      gpu::GPUModuleOp::create(moduleBuilder, loc, func.getSymName());
  OpBuilder b = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto gpuFunc = gpu::GPUFuncOp::create(b, loc, func.getSymName(),
                                        FunctionType::get(ctx, argTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  PlanAttr plan = spec->plan;
  gpuFunc.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(plan.getBlock()[0]),
                              static_cast<int32_t>(plan.getBlock()[1]),
                              static_cast<int32_t>(plan.getBlock()[2])}));
  gpuFunc->setAttr(SolDialect::kPlanAttrName, plan);
  if (Attribute cost = func->getAttr(SolDialect::kCostAttrName))
    gpuFunc->setAttr(SolDialect::kCostAttrName, cost);
  for (BlockArgument arg : gpuFunc.getArguments())
    kernel.args.push_back(arg);
  // A wgmma_tma kernel takes the device addresses of its A and B TMA maps
  // (128-byte CUtensorMaps) after its buffers.
  SmallVector<Value> maps;
  if (plan.getPath() == KernelPath::wgmma_tma) {
    auto mapType = MemRefType::get({16}, b.getI64Type());
    for (int i = 0; i < 2; ++i)
      maps.push_back(gpuFunc.getBody().front().addArgument(mapType, loc));
    gpuFunc.setType(FunctionType::get(
        ctx, gpuFunc.getBody().front().getArgumentTypes(), {}));
  }

  b.setInsertionPointToStart(&gpuFunc.getBody().front());
  LogicalResult result = success();
  switch (plan.getPath()) {
  case KernelPath::elementwise:
    result = emitElementwiseKernel(b, loc, kernel);
    break;
  case KernelPath::simt:
    result = emitSimtMatmulKernel(b, loc, kernel);
    break;
  case KernelPath::mma_sync:
    result = emitMmaSyncKernel(b, loc, kernel);
    break;
  case KernelPath::gemv:
    result = emitGemvKernel(b, loc, kernel);
    break;
  case KernelPath::wgmma:
    result = emitWgmmaKernel(b, loc, kernel);
    break;
  case KernelPath::wgmma_tma:
    result = emitWgmmaTmaKernel(b, loc, kernel, maps[0], maps[1]);
    break;
  }
  if (failed(result)) {
    gpuModule.erase();
    return failure();
  }
  gpu::ReturnOp::create(b, loc);
  return success();
}

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
    for (func::FuncOp func : kernels) {
      builder.setInsertionPoint(func);
      if (failed(convertKernel(func, builder)))
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
