//===- GemvPath.cpp - the gemv path ---------------------------------------===//
//
// Decode shapes (at most 16 rows of A against an [N, K] weight): a warp per
// weight row, 128-bit loads, a shuffle reduction, the epilogue in the lanes.
// fp8 operands load 16 codes per 128-bit access and convert them pairwise
// to f16 (cvt.rn.f16x2.{e4m3,e5m2}x2, sm_89+) before the f32 FMAs: the
// weight's bytes halve, which is decode's whole cost (docs/fp8.md). A
// weight-only fp8 kernel (16-bit A, fp8 codes) meets each 16-code weight
// load with two 128-bit loads of each row of A.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// The elements of a 128-bit vector `v` as f32. fp8 codes convert in pairs
/// with one cvt.rn.f16x2.e4m3x2 (or e5m2x2) each, then f16 to f32 (exact):
/// the LLVM lowering has no fp8 type to extend from (it stores a code as an
/// i8), and the integer decoding the CPU build uses
/// (sol-expand-fp8-conversions) would cost a memory-bound kernel several
/// instructions per code.
static SmallVector<Value> unpackToF32(OpBuilder &b, Location loc, Value v) {
  auto type = cast<VectorType>(v.getType());
  Type elem = type.getElementType();
  int64_t count = type.getNumElements();
  SmallVector<Value> out;
  if (!MatmulOp::isFp8(elem)) {
    for (int64_t e = 0; e < count; ++e)
      out.push_back(extendToF32(
          b, loc, vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e})));
    return out;
  }
  Value codes = arith::BitcastOp::create(
      b, loc, VectorType::get({count}, b.getI8Type()), v);
  for (int64_t e = 0; e < count; e += 2) {
    Value halves = convertFp8PairToF16(b, loc, codes, e, elem);
    for (int64_t h = 0; h < 2; ++h)
      out.push_back(extendToF32(
          b, loc,
          vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{h})));
  }
  return out;
}

/// Decode shapes: `rows` (<= 16) rows of A against an [N, K] weight. Warp w
/// of block b owns output column n = b * warps + w: its lanes stream row n
/// of the weight with 128-bit loads (the weight is read once, by every SM),
/// multiply by the rows of A (small, served by L1/L2), reduce across the warp
/// with shuffles, and lane m runs the epilogue of row m. A dynamic kernel's
/// row serves 1 to m_max rows with tile[0] = m_max (the row's plan).
LogicalResult emitGemvKernel(OpBuilder &b, Location loc, GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  MatmulGeometry g = getGeometry(kernel);
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  Value globalA = kernel.args[kernel.spec.lhsArg];
  Value globalB = kernel.args[kernel.spec.rhsArg];
  Type elemType = cast<MemRefType>(globalA.getType()).getElementType();
  // An fp8 pair may mix kinds (e4m3 x e5m2), and a weight-only kernel
  // reads 16-bit A against fp8 codes: each operand's own vector type. A
  // lane's step is one 128-bit load of the weight.
  Type weightType = cast<MemRefType>(globalB.getType()).getElementType();
  int64_t vector = 16 / (weightType.getIntOrFloatBitWidth() / 8);
  int64_t aBytes = elemType.getIntOrFloatBitWidth() / 8;
  // A's elements per 128-bit load, and its loads per weight load.
  int64_t aVector = std::min<int64_t>(vector, 16 / aBytes);
  int64_t aLoads = vector / aVector;
  if (!kernel.spec.transposeB || kernel.spec.batchedB || tile.size() != 3 ||
      tile[0] != g.rows || g.rows < 1 || g.rows > kGemvMaxRows ||
      tile[2] != vector || g.k % vector != 0)
    return kernel.spec.func.emitError(
        "sol kernel: the gemv plan does not fit the kernel (it needs an [N, "
        "K] weight, tile = [rows, warps, 128-bit vector] with 1 to 16 rows "
        "and K a multiple of the vector)");
  int64_t rows = g.rows, warps = tile[1];
  // A dynamic kernel's tile holds its row's m_max rows; rows at or past the
  // launch's count neither load A nor store (the branch is warp-uniform).
  // Null where the row is there at every launch (a static kernel's rows, a
  // dynamic row's below its m_min): the branches would keep the unrolled
  // weight loads from being in flight together, which cost a 1-row kernel
  // 28 % against the static one on the H200 (2026-12-01, dynamic_gap.py).
  SmallVector<Value> rowValid(rows);
  if (g.dynamicRows)
    for (int64_t m = g.minRows; m < rows; ++m)
      rowValid[m] = isRowInBounds(ib, ib.c(m), g);
  // `then(b)` where `cond` holds, else `otherwise`.
  auto emitIfElse = [&](OpBuilder &b, Value cond,
                        function_ref<Value(OpBuilder &)> then,
                        Value otherwise) -> Value {
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{otherwise.getType()}, cond,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, then(b));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, otherwise);
    return ifOp.getResult(0);
  };
  int64_t laneStride = 32 * vector;
  int64_t trips = llvm::divideCeilSigned(g.k, laneStride);
  // Unrolled so each lane has several 128-bit weight loads in flight.
  int64_t unroll = std::min<int64_t>(kGemvLoadsPerStep, trips);
  int64_t loopTrips = llvm::divideCeilSigned(trips, unroll);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = ib.div(tid, 32);
  Value lane = ib.rem(tid, 32);
  Value col = ib.add(ib.mul(bid, warps), warp);
  auto vecType = VectorType::get({aVector}, elemType);
  auto weightVecType = VectorType::get({vector}, weightType);
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
        weightVecs.push_back(
            vector::LoadOp::create(b, loc, weightVecType, globalB,
                                   ValueRange{lb.add(weightRow, safeK)}, false,
                                   llvm::MaybeAlign(alignBytes)));
      }
      for (int64_t u = 0; u < unroll; ++u) {
        auto [safeK, valid] = weights[u];
        SmallVector<Value> w = unpackToF32(b, loc, weightVecs[u]);
        for (int64_t m = 0; m < rows; ++m) {
          auto dot = [&](OpBuilder &b) -> Value {
            IndexBuilder lb(b, loc);
            SmallVector<Value> xs;
            for (int64_t part = 0; part < aLoads; ++part) {
              Value x = vector::LoadOp::create(
                  b, loc, vecType, globalA,
                  ValueRange{lb.add(lb.c(m * g.k + part * aVector), safeK)},
                  false, llvm::MaybeAlign(alignBytes));
              llvm::append_range(xs, unpackToF32(b, loc, x));
            }
            Value sum = acc[m];
            for (int64_t e = 0; e < vector; ++e)
              sum = math::FmaOp::create(b, loc, w[e], xs[e], sum);
            return sum;
          };
          Value sum =
              rowValid[m] ? emitIfElse(b, rowValid[m], dot, acc[m]) : dot(b);
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
      auto reduce = [&](OpBuilder &b) -> Value {
        Value sum = sums[m];
        for (int64_t offset = 16; offset >= 1; offset /= 2) {
          Value off =
              arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(offset));
          auto shuffle = gpu::ShuffleOp::create(b, loc, sum, off, width,
                                                gpu::ShuffleMode::XOR);
          sum = arith::AddFOp::create(b, loc, sum, shuffle.getShuffleResult());
        }
        return sum;
      };
      sums[m] =
          rowValid[m] ? emitIfElse(b, rowValid[m], reduce, sums[m]) : reduce(b);
    }
    for (int64_t m = 0; m < rows; ++m) {
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                         ib.c(m % 32));
      if (rowValid[m])
        mine = ib.land(mine, rowValid[m]);
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

} // namespace mlir::sol::codegen
