//===- KernelCodegen.h - the GPU generator's shared pieces ------*- C++ -*-===//
//
// What every path of convert-sol-kernels-to-gpu shares: the kernel as read
// off its linalg form (KernelSpec, KernelsToGPU.cpp), index arithmetic and
// the matmul's geometry (IndexMath.cpp), the fused epilogue on accumulator
// values (EpilogueCodegen.cpp), the (CpAsyncCopier.cpp), and one entry point
// per code-generation path (a path's file says how it maps its plan to code).
// The Hopper paths' own pieces are in HopperBuildingBlocks.h.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_CONVERSION_KERNELSTOGPU_KERNELCODEGEN_H
#define SOL_CONVERSION_KERNELSTOGPU_KERNELCODEGEN_H

#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"
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

namespace mlir::sol::codegen {

/// What a kernel function computes, read off its linalg ops.
struct KernelSpec {
  func::FuncOp func;
  PlanAttr plan;
  /// The plan-table row this kernel is generated for, for a kernel whose
  /// outermost dim is dynamic (docs/dynamic-shapes.md); null for a static
  /// kernel. The shapes below are then the row's largest instance: the
  /// dynamic dim at the row's m_max, which the plan was built for.
  PlanEntryAttr entry;
  unsigned numInputs = 0;
  /// The contraction, when the kernel has one, and where its operands come
  /// from (function argument numbers).
  linalg::LinalgOp contraction;
  unsigned lhsArg = 0, rhsArg = 0;
  bool transposeB = false;
  bool batchedB = false;
  /// The sibling contraction of a sibling pair (same A, its own [N, K]
  /// weight at `siblingRhsArg`), or null.
  linalg::LinalgOp siblingContraction;
  unsigned siblingRhsArg = 0;
  /// The function arguments of the contraction's block-wise scales
  /// (docs/fp8.md, "Block-wise scales"), -1 where a scale is not
  /// block-wise: A's per row and K group, B's per 128 x 128 block.
  int blockScaleAArg = -1, blockScaleBArg = -1;
  bool hasBlockScales() const {
    return blockScaleAArg >= 0 || blockScaleBArg >= 0;
  }
  /// The all-parallel generic that produces the outputs.
  linalg::GenericOp epilogue;
  /// For each epilogue input: the function argument it reads, or -1 - c for
  /// the accumulator of contraction c (0: `contraction`, 1: the sibling).
  SmallVector<int> epilogueSources;

  unsigned getNumContractions() const {
    return contraction ? (siblingContraction ? 2 : 1) : 0;
  }
  /// Output iteration space (the shape of every output; for a dynamic
  /// kernel at the row's m_max).
  SmallVector<int64_t> outShape;
};

/// Reads a kernel function of convert-sol-to-linalg (one optional
/// contraction, one all-parallel epilogue generic) into a KernelSpec, or
/// fails with a diagnostic on the function. A static kernel reads its
/// `sol.plan`; a dynamic one is read once per row `entry` of its
/// `sol.plans`, with the row's plan.
FailureOr<KernelSpec> readKernel(func::FuncOp func,
                                 PlanEntryAttr entry = PlanEntryAttr());

/// convert-sol-kernels-to-gpu's options that shape the generated code (the
/// pass's options carry the defaults).
struct CodegenOptions {
  /// fast-math: approximate transcendentals.
  bool fastMath;
  /// wide-stores: the wgmma paths store their 16-bit results 16 bytes per
  /// lane (emitFragmentEpilogue's quadLane).
  bool wideStores;
  /// overwrite-first-k: a wgmma_tma unit's first K tile overwrites its
  /// accumulators (emitWgmmaKTile's `overwrite`).
  bool overwriteFirstK;
};

/// The generated kernel's view of one sol kernel.
struct GpuKernel {
  KernelSpec spec;
  /// Flat global buffers, one per function argument.
  SmallVector<Value> args;
  SmallVector<SmallVector<int64_t>> argShapes;
  CodegenOptions options{};
  /// A dynamic kernel's value of its dynamic dim (its last parameter, as an
  /// index); null for a static kernel, whose code takes every bound as a
  /// constant.
  Value dim;
  /// A dynamic kernel's smallest dim at launch: its plan row's m_min, at
  /// least 1 (M = 0 launches nothing).
  int64_t minDim = 1;
  /// The plan's launch geometry over the kernel's shapes (a dynamic
  /// kernel's at its row's m_max), as its path derives it: what the
  /// manifest launches, so a generator sizes nothing else.
  LaunchGeometry launch;
};

/// Offsets of A's row `row` and of B's element (k, col) for grid slice z.
/// For a dynamic kernel `rows` is the row's largest row count (at its
/// m_max: what the plan's grid, workspaces and tiles were sized for) and
/// `dynamicRows` the launch's (the dynamic dim times A's static inner
/// leading dims); every mask compares against it. Null for a static kernel.
struct MatmulGeometry {
  int64_t rows, n, k;
  /// The rows every launch has (a static kernel's rows; a dynamic row's at
  /// its m_min): no mask needs to test a row below it.
  int64_t minRows;
  int64_t aSliceStride, bSliceStride; // elements between grid z slices
  Value dynamicRows;
};

//===----------------------------------------------------------------------===//
// Index arithmetic (IndexMath.cpp)
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
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  /// ceil(x / y) for a non-negative x.
  Value ceilDiv(Value x, int64_t y) { return div(add(x, y - 1), y); }
  Value land(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  OpBuilder &b;
  Location loc;
};

/// The matmul's geometry as the kernel's buffers give it.
MatmulGeometry getGeometry(const GpuKernel &kernel);
/// `row` < the matmul's row count: the launch's for a dynamic kernel, the
/// constant one otherwise.
Value isRowInBounds(IndexBuilder &ib, Value row, const MatmulGeometry &g);

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape);
/// Splits a linear index over `shape` into one index per dim.
SmallVector<Value> delinearize(IndexBuilder &ib, Value linear,
                               ArrayRef<int64_t> shape);
/// Flat offset of element `ivs` of a row-major `shape`.
Value linearize(IndexBuilder &ib, ArrayRef<Value> ivs, ArrayRef<int64_t> shape);
/// Guards `body` by `cond` when it may be false.
void emitIf(OpBuilder &b, Location loc, Value cond,
            function_ref<void(OpBuilder &)> body);

//===----------------------------------------------------------------------===//
// The fused epilogue (EpilogueCodegen.cpp)
//===----------------------------------------------------------------------===//

void cloneEpilogueOp(OpBuilder &b, Operation &op, IRMapping &mapping,
                     const GpuKernel &kernel);
using EpilogueInputs = SmallVector<SmallVector<Value>>;
void emitEpilogueAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                    ArrayRef<Value> ivs, Value acc);
EpilogueInputs loadEpilogueInputs(OpBuilder &b, Location loc, GpuKernel &kernel,
                                  ArrayRef<Value> ivs, int64_t vector,
                                  Value guard = Value());
void storeEpilogueResults(OpBuilder &b, Location loc, GpuKernel &kernel,
                          ArrayRef<Value> ivs, int64_t vector,
                          const EpilogueInputs &inputs,
                          ArrayRef<Value> accLanes);
void emitEpilogueVectorAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                          ArrayRef<Value> ivs, int64_t vector,
                          ArrayRef<Value> accLanes = {});
SmallVector<Value> matmulOutputIndex(IndexBuilder &ib, const KernelSpec &spec,
                                     Value batchSlice, Value row, Value col);
/// `accAt(b, c, nb, e)`: element e of n8 block nb of contraction c's
/// accumulator fragment. With `quadLane` (lane % 4; every lane of the
/// caller's warps runs the epilogue) 16-bit results are stored four n8
/// blocks at a time, 16 bytes per lane, after a transpose across each quad.
void emitFragmentEpilogue(
    OpBuilder &b, Location loc, GpuKernel &kernel, const MatmulGeometry &g,
    Value batchSlice, Value row0, Value col0, int64_t blocksN,
    function_ref<Value(OpBuilder &, unsigned, int64_t, int64_t)> accAt,
    Value quadLane = Value());

/// `v` as the f32 the matmul paths accumulate in.
inline Value extendToF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// Raises the PTX ISA version (times ten) the gpu.module around `op` is
/// compiled for to at least `version` (sol.min_ptx_version, read by
/// sol-attach-nvvm-target): for code whose instructions a later PTX than
/// the chip's default introduced.
inline void requirePtxVersion(Operation *op, int64_t version) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  auto current =
      module->getAttrOfType<IntegerAttr>(SolDialect::kMinPtxVersionAttrName);
  if (!current || current.getInt() < version)
    module->setAttr(
        SolDialect::kMinPtxVersionAttrName,
        IntegerAttr::get(IntegerType::get(op->getContext(), 64), version));
}

/// Codes `first` and `first + 1` of `codes` (an i8 vector of `codeType`'s
/// fp8 codes) as a vector<2xf16>: one cvt.rn.f16x2.{e4m3,e5m2}x2 (sm_89+;
/// exact). The conversion every path that reads fp8 codes in registers
/// starts from (gemv, swap_ab). A shuffle, not extract_strided_slice: the
/// latter has no direct LLVM lowering in convert-vector-to-llvm.
inline Value convertFp8PairToF16(OpBuilder &b, Location loc, Value codes,
                                 int64_t first, Type codeType) {
  Value pair = vector::ShuffleOp::create(b, loc, codes, codes,
                                         ArrayRef<int64_t>{first, first + 1});
  // LLVM's NVPTX backend selects the conversion on sm_89 from PTX 8.1 only
  // (with 8.0 it stopped with "Cannot select: intrinsic
  // llvm.nvvm.e4m3x2.to.f16x2.rn", a sol-fuzz finding on the l40s preset).
  requirePtxVersion(pair.getDefiningOp(), kFp8ConversionPtxVersion);
  return NVVM::ConvertF8x2ToF16x2Op::create(
      b, loc, Type(VectorType::get({2}, b.getF16Type())), pair,
      /*relu=*/false, codeType);
}

//===----------------------------------------------------------------------===//
// The cp.async tile copier (CpAsyncCopier.cpp)
//===----------------------------------------------------------------------===//

void emitAsyncTileCopy(OpBuilder &b, Location loc, Value tid, int64_t threads,
                       Value global, Value base, Value rowStart,
                       int64_t rowLimit, Value colStart, int64_t colLimit,
                       Value dst, Value stage, int64_t tileRows,
                       int64_t tileCols, bool swizzle128);
/// The same with a row limit known at run time (a dynamic kernel's rows).
void emitAsyncTileCopy(OpBuilder &b, Location loc, Value tid, int64_t threads,
                       Value global, Value base, Value rowStart, Value rowLimit,
                       Value colStart, int64_t colLimit, Value dst, Value stage,
                       int64_t tileRows, int64_t tileCols, bool swizzle128);
/// A's tile copy with the matmul's row limit: the launch's for a dynamic
/// kernel.
void emitAsyncRowTileCopy(OpBuilder &b, Location loc, Value tid,
                          int64_t threads, Value global, Value base,
                          Value rowStart, const MatmulGeometry &g,
                          Value colStart, int64_t colLimit, Value dst,
                          Value stage, int64_t tileRows, int64_t tileCols,
                          bool swizzle128);

//===----------------------------------------------------------------------===//
// Split K's partials and last arrival (SplitKReduction.cpp)
//===----------------------------------------------------------------------===//
//
// A path that splits an output tile's K over `splits` blocks (the plan's
// split_k) counts arrivals per slot (an output tile, or a warp's share of
// one): each arrival stores its f32 partials into split s's entry of the
// slot, fences and counts itself in; the last of the slot's `splits`
// arrivals sums the entries in split order, runs the epilogue and resets
// the slot's count. The workspace is zero-initialised when the module is
// loaded and shared by its launches, which therefore must not overlap.

/// The module-global workspace of split K and its size.
struct SplitKWorkspace {
  Value partials, arrivals;
  int64_t splits = 1, slots = 0, slotElems = 0;
  /// The slot this block (or warp) counts on; set by the path.
  Value tileId;
};

/// Declares the kernel's workspace in its gpu.module (f32 partials:
/// `splits` x `slots` x `slotElems`; one i32 count per slot, zero) and gets
/// both in the kernel.
SplitKWorkspace emitSplitKWorkspace(OpBuilder &b, Location loc,
                                    GpuKernel &kernel, int64_t splits,
                                    int64_t slots, int64_t slotElems);
/// The partials' index of element (`row`, `col`) of a slot laid out with
/// `pitch` elements per row, in split `split`'s entry of slot `slot`.
Value getSplitKPartialIndex(IndexBuilder &ib, const SplitKWorkspace &w,
                            Value split, Value slot, Value row, Value col,
                            int64_t pitch);
/// An acq_rel fence at device scope: the partials stored before it are
/// visible to whoever observes the count after it, and the other splits'
/// partials to the last arrival that reads them.
void emitDeviceFence(OpBuilder &b, Location loc);
/// Counts one arrival on `slot` (one thread per arrival): an i1, whether it
/// was the slot's last.
Value emitSplitKArrival(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                        Value slot);
/// The sum over every split, in split order, of the partials at
/// `indexOf(ib, split)`.
Value emitSplitKSum(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                    function_ref<Value(IndexBuilder &, Value)> indexOf);
/// Resets `slot`'s count to zero for the next launch (one thread).
void emitSplitKReset(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                     Value slot);

//===----------------------------------------------------------------------===//
// The code-generation paths, one per #sol.plan path
//===----------------------------------------------------------------------===//

LogicalResult emitElementwiseKernel(OpBuilder &b, Location loc,
                                    GpuKernel &kernel);
LogicalResult emitSimtMatmulKernel(OpBuilder &b, Location loc,
                                   GpuKernel &kernel);
LogicalResult emitGemvKernel(OpBuilder &b, Location loc, GpuKernel &kernel);
LogicalResult emitMmaSyncKernel(OpBuilder &b, Location loc, GpuKernel &kernel);
LogicalResult emitSwapAbKernel(OpBuilder &b, Location loc, GpuKernel &kernel);
LogicalResult emitWgmmaKernel(OpBuilder &b, Location loc, GpuKernel &kernel);
/// `maps`: A's, then each contraction's B (two for a sibling pair).
LogicalResult emitWgmmaTmaKernel(OpBuilder &b, Location loc, GpuKernel &kernel,
                                 ValueRange maps);

} // namespace mlir::sol::codegen

#endif // SOL_CONVERSION_KERNELSTOGPU_KERNELCODEGEN_H
