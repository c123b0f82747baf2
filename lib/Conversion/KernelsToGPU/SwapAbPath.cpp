//===- SwapAbPath.cpp - the swap_ab path ----------------------------------===//
//
// Skinny matmuls (at most 32 rows of A against an [N, K] weight) with
// mma.sync's operands swapped: D^T = W x A^T, the weight's rows as the m16
// operand and the tokens as the n8 one, so a 1-8 row decode pads no MMA row
// to 16 and the weight needs no shared memory. Each lane loads 128-bit
// vectors of two weight rows and of its token straight into fragments; the
// order of K inside a fragment is free as long as both operands agree, so a
// lane's eight consecutive elements feed two m16n8k16 MMAs. The warps of a
// block split K, store their f32 partials in shared memory and the block
// sums them in warp order (deterministic) before the epilogue. A weight-only
// fp8 weight loads 16 codes per 128-bit access against two loads of each
// token and converts each code pair to A's 16-bit type in registers
// (cvt.rn.f16x2.e4m3x2, then to bf16 through f32: exact), so the MMAs are
// A's own and the weight's bytes halve.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

namespace {
/// Everything the generator derives from the plan (SwapAbPath.cpp in
/// lib/Analysis/KernelPaths says how the planner chose it).
struct SwapAbLayout {
  int64_t rowsTile, nTiles, columns, warpsK, groups, vector, loads, warpK;
  /// 128-bit token loads per weight load: 1, or 2 against fp8 codes.
  int64_t tokenLoads;
};
} // namespace

static FailureOr<SwapAbLayout> getSwapAbLayout(KernelSpec &spec, Type elemType,
                                               Type weightType,
                                               const MatmulGeometry &g) {
  ArrayRef<int64_t> tile = spec.plan.getTile();
  ArrayRef<int64_t> warps = spec.plan.getWarps();
  SwapAbLayout l{};
  bool wellFormed = tile.size() == 3 && warps.size() == 2 &&
                    (elemType.isF16() || elemType.isBF16()) &&
                    (weightType == elemType || MatmulOp::isFp8(weightType)) &&
                    spec.transposeB && !spec.batchedB;
  if (wellFormed) {
    l.rowsTile = tile[0];
    l.nTiles = tile[0] / 8;
    l.columns = tile[1];
    l.warpsK = warps[0];
    l.groups = warps[1];
    l.vector = 16 / (weightType.getIntOrFloatBitWidth() / 8);
    l.tokenLoads = l.vector / 8;
    wellFormed = (l.rowsTile == 8 || l.rowsTile == 16 || l.rowsTile == 32 ||
                  (l.rowsTile == 64 && MatmulOp::isFp8(weightType))) &&
                 l.groups >= 1 && l.warpsK >= 1 && l.warpsK * l.groups <= 32 &&
                 l.columns == kSwapAbColumnsPerWarp * l.groups &&
                 tile[2] % (l.warpsK * 4 * l.vector) == 0 &&
                 g.k % l.vector == 0;
  }
  if (!wellFormed)
    return spec.func.emitError(
        "sol kernel: the swap_ab plan does not fit the kernel (it needs f16 "
        "or bf16 A, a weight of A's type or of fp8 codes, an [N, K] weight, "
        "tile = [8, 16 or 32 rows (64 against fp8 codes), 16 x "
        "warps[1] columns, a multiple of warps[0] x 4 x the 128-bit vector "
        "of K], at most 32 warps, and K a multiple of the vector)");
  l.loads = tile[2] / (l.warpsK * 4 * l.vector);
  l.warpK = 4 * l.vector * l.loads;
  return l;
}

/// A pair of 16-bit elements as one mma.sync operand register: the
/// vector<2xf16> itself, or for bf16 the i32 the intrinsic takes.
static Value getOperandRegister(OpBuilder &b, Location loc, Value pair) {
  auto type = cast<VectorType>(pair.getType());
  if (!type.getElementType().isBF16())
    return pair;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
}

/// The operand registers of 128-bit loads, element pairs (0, 1), (2, 3), ...
/// in order: 16-bit elements as they are; fp8 codes (an i8 vector of
/// `codeType`'s codes) converted pairwise to `elemType` (cvt.rn.f16x2.
/// {e4m3,e5m2}x2, sm_89+; to bf16 through f32, where every code's value is
/// exact).
static SmallVector<Value> getOperandRegisters(OpBuilder &b, Location loc,
                                              ArrayRef<Value> loads,
                                              Type codeType, Type elemType) {
  SmallVector<Value> registers;
  for (Value v : loads) {
    auto type = cast<VectorType>(v.getType());
    int64_t count = type.getNumElements();
    if (!type.getElementType().isInteger(8)) {
      for (int64_t e = 0; e < count; e += 2)
        registers.push_back(
            getOperandRegister(b, loc,
                               vector::ShuffleOp::create(
                                   b, loc, v, v, ArrayRef<int64_t>{e, e + 1})));
      continue;
    }
    for (int64_t e = 0; e < count; e += 2) {
      Value halves = convertFp8PairToF16(b, loc, v, e, codeType);
      if (elemType.isBF16()) {
        Value wide = arith::ExtFOp::create(
            b, loc, VectorType::get({2}, b.getF32Type()), halves);
        halves = arith::TruncFOp::create(b, loc, VectorType::get({2}, elemType),
                                         wide);
      }
      registers.push_back(getOperandRegister(b, loc, halves));
    }
  }
  return registers;
}

LogicalResult emitSwapAbKernel(OpBuilder &b, Location loc, GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  MatmulGeometry g = getGeometry(kernel);
  KernelSpec &spec = kernel.spec;
  Value globalA = kernel.args[spec.lhsArg];
  Value globalB = kernel.args[spec.rhsArg];
  Type elemType = cast<MemRefType>(globalA.getType()).getElementType();
  Type weightType = cast<MemRefType>(globalB.getType()).getElementType();
  FailureOr<SwapAbLayout> layout =
      getSwapAbLayout(spec, elemType, weightType, g);
  if (failed(layout))
    return failure();
  const SwapAbLayout &l = *layout;
  MLIRContext *ctx = b.getContext();
  auto weightVecType = VectorType::get({l.vector}, weightType);
  auto tokenVecType = VectorType::get({8}, elemType);
  // Warp w of the block takes chunk (trip * warpsK + w) of K, warpK wide.
  int64_t chunks = llvm::divideCeilSigned(g.k, l.warpK);
  int64_t trips = llvm::divideCeilSigned(chunks, l.warpsK);
  // Lanes past K load nothing (their vectors are zeroed) only where the
  // warps' chunks overrun it.
  bool maskK = g.k % (l.warpK * l.warpsK) != 0;

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value warp = ib.div(tid, 32), lane = ib.rem(tid, 32);
  Value warpK = ib.rem(warp, l.warpsK), group = ib.div(warp, l.warpsK);
  // mma.sync's fragment coordinates: group (lane / 4) and thread in group.
  Value gid = ib.div(lane, 4), tig = ib.rem(lane, 4);
  Value blockCol = ib.mul(bx, l.columns);
  Value rowBase = ib.mul(by, l.rowsTile);

  // The lane's two weight rows (its fragment rows gid and gid + 8) and its
  // token of each n8 tile, clamped into the matrices: a clamped row only
  // feeds outputs the epilogue drops (a column of D depends on its token
  // alone, a row on its weight row alone).
  auto clampTo = [&](Value index, Value inBounds, Value last) {
    return ib.select(inBounds, index, last);
  };
  Value warpCol = ib.add(blockCol, ib.mul(group, kSwapAbColumnsPerWarp));
  SmallVector<Value, 2> weightRows;
  for (int64_t half = 0; half < 2; ++half) {
    Value n = ib.add(ib.add(warpCol, gid), half * 8);
    weightRows.push_back(ib.mul(clampTo(n, ib.lt(n, g.n), ib.c(g.n - 1)), g.k));
  }
  Value lastRow =
      g.dynamicRows
          ? arith::SubIOp::create(b, loc, g.dynamicRows, ib.c(1)).getResult()
          : ib.c(g.rows - 1);
  SmallVector<Value, 4> tokenRows;
  for (int64_t j = 0; j < l.nTiles; ++j) {
    Value row = ib.add(ib.add(rowBase, gid), j * 8);
    tokenRows.push_back(
        ib.mul(clampTo(row, isRowInBounds(ib, row, g), lastRow), g.k));
  }
  Value laneK = ib.mul(tig, l.vector);

  auto f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  SmallVector<Value> accInit(l.nTiles * 4, zero);
  auto loop =
      scf::ForOp::create(b, loc, ib.c(0), ib.c(trips), ib.c(1), accInit);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    IndexBuilder lb(b, loc);
    SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                           loop.getRegionIterArgs().end());
    Value chunk = lb.add(lb.mul(loop.getInductionVar(), l.warpsK), warpK);
    Value kBase = lb.add(lb.mul(chunk, l.warpK), laneK);
    // Every load of the trip first: the bytes in flight are the kernel's
    // speed.
    SmallVector<std::array<Value, 2>> weights;
    SmallVector<SmallVector<SmallVector<Value, 2>, 4>> tokens;
    SmallVector<Value> valids;
    for (int64_t u = 0; u < l.loads; ++u) {
      Value k = lb.add(kBase, u * 4 * l.vector);
      Value valid, safeK = k;
      if (maskK) {
        valid = lb.lt(k, g.k);
        safeK = lb.select(valid, k, lb.c(0));
      }
      valids.push_back(valid);
      // fp8 codes as i8: the LLVM lowering stores a code as one, and a
      // masked code is 0 (+0.0).
      auto load = [&](VectorType type, Value global, Value offset) -> Value {
        Value v = vector::LoadOp::create(b, loc, type, global,
                                         ValueRange{lb.add(offset, safeK)},
                                         false, llvm::MaybeAlign(16));
        if (!MatmulOp::isFp8(type.getElementType()))
          return v;
        return arith::BitcastOp::create(
            b, loc, VectorType::get(type.getShape(), b.getI8Type()), v);
      };
      weights.push_back({load(weightVecType, globalB, weightRows[0]),
                         load(weightVecType, globalB, weightRows[1])});
      SmallVector<SmallVector<Value, 2>, 4> x;
      for (int64_t j = 0; j < l.nTiles; ++j) {
        SmallVector<Value, 2> parts;
        for (int64_t part = 0; part < l.tokenLoads; ++part)
          parts.push_back(load(tokenVecType, globalA,
                               lb.add(tokenRows[j], lb.c(part * 8))));
        x.push_back(std::move(parts));
      }
      tokens.push_back(std::move(x));
    }
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    NVVM::MMATypes ptxType =
        elemType.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    for (int64_t u = 0; u < l.loads; ++u) {
      // Past K both operands are zero: a clamped load may hold an Inf (or
      // a NaN code).
      auto registers = [&](ArrayRef<Value> loads) {
        SmallVector<Value, 2> masked;
        for (Value v : loads) {
          if (valids[u]) {
            Value zero = arith::ConstantOp::create(b, loc, v.getType(),
                                                   b.getZeroAttr(v.getType()));
            v = arith::SelectOp::create(b, loc, valids[u], v, zero);
          }
          masked.push_back(v);
        }
        return getOperandRegisters(b, loc, masked, weightType, elemType);
      };
      SmallVector<Value> w0 = registers(weights[u][0]);
      SmallVector<Value> w1 = registers(weights[u][1]);
      SmallVector<SmallVector<Value>> xs;
      for (ArrayRef<Value> x : tokens[u])
        xs.push_back(registers(x));
      // Element pairs 2h and 2h + 1 of the lane's vectors are fragment
      // columns {2t, 2t+1} and {2t+8, 2t+9} of MMA h, in both operands.
      for (int64_t h = 0; h < l.vector / 4; ++h) {
        SmallVector<Value, 4> aFrag = {w0[2 * h], w1[2 * h], w0[2 * h + 1],
                                       w1[2 * h + 1]};
        for (int64_t j = 0; j < l.nTiles; ++j) {
          SmallVector<Value> c(acc.begin() + j * 4, acc.begin() + j * 4 + 4);
          Value d = NVVM::MmaOp::create(
              b, loc, resultType, aFrag,
              ValueRange{xs[j][2 * h], xs[j][2 * h + 1]}, c,
              ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t e = 0; e < 4; ++e)
            acc[j * 4 + e] =
                LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{e});
        }
      }
    }
    scf::YieldOp::create(b, loc, acc);
  }

  // Each warp's partials into shared memory as [warpsK][rows][columns]
  // (columns fastest, for the sum's reads): element e of n8 tile j sits
  // at weight row gid (+8 for e >= 2), token 2t (+1 for odd e).
  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  int64_t slice = l.rowsTile * l.columns;
  auto partialsType = MemRefType::get({l.warpsK * slice}, f32,
                                      MemRefLayoutAttrInterface(), wgSpace);
  Value partials =
      memref::ViewOp::create(b, loc, partialsType, dyn, ib.c(0), ValueRange{});
  Value sliceBase = ib.mul(warpK, slice);
  Value laneColumn =
      ib.add(ib.mul(group, kSwapAbColumnsPerWarp), gid); // in the block
  Value laneToken = ib.mul(tig, 2);
  for (int64_t j = 0; j < l.nTiles; ++j)
    for (int64_t e = 0; e < 4; ++e) {
      Value token = ib.add(laneToken, j * 8 + e % 2);
      Value column = ib.add(laneColumn, (e / 2) * 8);
      Value index = ib.add(sliceBase, ib.add(ib.mul(token, l.columns), column));
      memref::StoreOp::create(b, loc, loop.getResult(j * 4 + e), partials,
                              ValueRange{index});
    }
  gpu::BarrierOp::create(b, loc);

  // The block's outputs, columns fastest (coalesced stores): each sums its
  // warps' partials in warp order, then runs the epilogue in bounds.
  int64_t threads = 32 * l.warpsK * l.groups;
  auto outputs = scf::ForOp::create(b, loc, tid, ib.c(slice), ib.c(threads));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outputs.getBody());
    IndexBuilder ob(b, loc);
    Value o = outputs.getInductionVar();
    Value sum = memref::LoadOp::create(b, loc, partials, ValueRange{o});
    for (int64_t w = 1; w < l.warpsK; ++w)
      sum = arith::AddFOp::create(
          b, loc, sum,
          memref::LoadOp::create(b, loc, partials,
                                 ValueRange{ob.add(o, w * slice)}));
    Value row = ob.add(rowBase, ob.div(o, l.columns));
    Value col = ob.add(blockCol, ob.rem(o, l.columns));
    Value inBounds = ob.land(isRowInBounds(ob, row, g), ob.lt(col, g.n));
    emitIf(b, loc, inBounds, [&](OpBuilder &b) {
      IndexBuilder eb(b, loc);
      SmallVector<Value> ivs = matmulOutputIndex(eb, spec, eb.c(0), row, col);
      emitEpilogueAt(b, loc, kernel, ivs, sum);
    });
  }
  return success();
}

} // namespace mlir::sol::codegen
