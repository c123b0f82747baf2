//===- HopperBuildingBlocks.cpp - the wgmma paths' sm_90a pieces ----------===//
//
// The pieces HopperBuildingBlocks.h lists: wgmma descriptors, K tiles and
// accumulator epilogues; the mbarrier-guarded stage ring with its TMA
// producer and the ping-pong hand-over; the persistent tile walk.
//
//===----------------------------------------------------------------------===//

#include "HopperBuildingBlocks.h"

namespace mlir::sol::codegen {

Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

Value constI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

Value indexToI32(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

Value indexToI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Bits: [0,14) address >> 4, [16,30) leading byte offset >> 4 (unused by
/// swizzled K-major operands; 1 as CUTLASS sets it), [32,46) stride byte
/// offset >> 4 (8 rows x 128 B = 1024 B), [62,64) swizzle mode (1 = 128 B).
Value makeWgmmaDescriptor(OpBuilder &b, Location loc, Value byteAddress) {
  Value bits = constI64(b, loc,
                        (int64_t(1) << 16) | (int64_t(1024 >> 4) << 32) |
                            (int64_t(1) << 62));
  Value addr = arith::ShRUIOp::create(b, loc, byteAddress, constI64(b, loc, 4));
  addr = arith::AndIOp::create(b, loc, addr, constI64(b, loc, 0x3FFF));
  return arith::OrIOp::create(b, loc, addr, bits);
}

/// Bits as makeWgmmaDescriptor's; for an N-major operand the leading byte
/// offset is the stride between 64-column blocks along N and the stride
/// byte offset the one between groups of 8 K rows (8 x 128 B), the layout
/// CUTLASS calls ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)) for the 128-byte
/// swizzle.
Value makeNMajorWgmmaDescriptor(OpBuilder &b, Location loc, Value byteAddress,
                                int64_t blockBytes) {
  Value bits = constI64(b, loc,
                        (int64_t(blockBytes >> 4) << 16) |
                            (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62));
  Value addr = arith::ShRUIOp::create(b, loc, byteAddress, constI64(b, loc, 4));
  addr = arith::AndIOp::create(b, loc, addr, constI64(b, loc, 0x3FFF));
  return arith::OrIOp::create(b, loc, addr, bits);
}

LLVM::LLVMStructType getWgmmaAccType(MLIRContext *ctx, int64_t tileN) {
  SmallVector<Type> fields(tileN / 2, Float32Type::get(ctx));
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

SmallVector<Value> emitWgmmaKTile(OpBuilder &b, Location loc, ValueRange accs,
                                  ValueRange descAs, Value descB, int64_t tileN,
                                  bool isBF16, bool nMajorB) {
  Type type = isBF16 ? Type(b.getBF16Type()) : Type(b.getF16Type());
  return emitWgmmaKTile(b, loc, accs, descAs, descB, tileN, type, type,
                        nMajorB);
}

/// wgmma's name for an operand element type (f16, bf16, e4m3, e5m2).
static NVVM::WGMMATypes getWgmmaType(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(type))
    return NVVM::WGMMATypes::e5m2;
  return type.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
}

SmallVector<Value> getWgmmaZeroAccs(OpBuilder &b, Location loc, int64_t count,
                                    int64_t tileN) {
  Value zero =
      LLVM::ZeroOp::create(b, loc, getWgmmaAccType(b.getContext(), tileN));
  return SmallVector<Value>(count, zero);
}

SmallVector<Value> getWgmmaPoisonAccs(OpBuilder &b, Location loc, int64_t count,
                                      int64_t tileN) {
  Value poison =
      LLVM::PoisonOp::create(b, loc, getWgmmaAccType(b.getContext(), tileN));
  return SmallVector<Value>(count, poison);
}

SmallVector<Value> emitWgmmaKTile(OpBuilder &b, Location loc, ValueRange accs,
                                  ValueRange descAs, Value descB, int64_t tileN,
                                  Type aType, Type bType, bool nMajorB,
                                  bool overwrite) {
  MLIRContext *ctx = b.getContext();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  assert(!(nMajorB && MatmulOp::isFp8(bType)) &&
         "wgmma transposes 16-bit operands only");
  auto typeA = NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(aType));
  auto typeB = NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(bType));
  // One instruction reads 32 bytes of each K-major row: k16 of 16-bit
  // elements, k32 of fp8 ones.
  int64_t instrK = 32 / (aType.getIntOrFloatBitWidth() / 8);
  SmallVector<Value> results(accs.begin(), accs.end());
  // 32 bytes further along a K-major row (2 in the address field), or 16
  // rows of 128 bytes of an N-major tile (128).
  int64_t bStep = nMajorB ? 16 * 128 / 16 : 2;
  for (int64_t kk = 0; kk < 4; ++kk) {
    Value db =
        arith::AddIOp::create(b, loc, descB, constI64(b, loc, bStep * kk));
    for (auto [acc, descA] : llvm::zip_equal(results, descAs)) {
      Value da = arith::AddIOp::create(b, loc, descA, constI64(b, loc, 2 * kk));
      acc = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, acc.getType(), acc, da, db,
          NVVM::MMAShapeAttr::get(ctx, 64, tileN, instrK), typeA, typeB,
          NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, overwrite && kk == 0
                                                ? NVVM::WGMMAScaleOut::zero
                                                : NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
          // B's `row` layout is wgmma's imm-trans-b = 1.
          NVVM::MMALayoutAttr::get(ctx, nMajorB ? NVVM::MMALayout::row
                                                : NVVM::MMALayout::col),
          NVVM::MMAIntOverflowAttr());
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return results;
}

void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                       const MatmulGeometry &g, Value batchSlice, Value tid,
                       Value rowBase, Value colBase, int64_t tileN, Value acc) {
  emitWgmmaEpilogue(b, loc, kernel, g, batchSlice, tid, rowBase, colBase, tileN,
                    [&](OpBuilder &b, int64_t i) -> Value {
                      return LLVM::ExtractValueOp::create(
                          b, loc, acc, ArrayRef<int64_t>{i});
                    });
}

void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                       const MatmulGeometry &g, Value batchSlice, Value tid,
                       Value rowBase, Value colBase, int64_t tileN,
                       function_ref<Value(OpBuilder &, int64_t)> accAt) {
  IndexBuilder ib(b, loc);
  Value lane = ib.rem(tid, 32);
  Value warpInGroup = ib.rem(ib.div(tid, 32), 4);
  Value row = ib.add(rowBase, ib.add(ib.mul(warpInGroup, 16), ib.div(lane, 4)));
  Value col = ib.add(colBase, ib.mul(ib.rem(lane, 4), 2));
  int64_t blocksPerContraction = tileN / 8 / kernel.spec.getNumContractions();
  // Every lane of a warp runs the epilogue (the wgmma paths branch per
  // warpgroup, or per warp in split K's last arrival), as the quad
  // transpose of wide stores needs.
  emitFragmentEpilogue(
      b, loc, kernel, g, batchSlice, row, col, blocksPerContraction,
      [&](OpBuilder &b, unsigned c, int64_t nb, int64_t e) {
        return accAt(b, (c * blocksPerContraction + nb) * 4 + e);
      },
      kernel.options.wideStores ? ib.rem(lane, 4) : Value());
}

Value emitWarpUniformWarpgroup(OpBuilder &b, Location loc, Value tid) {
  IndexBuilder ib(b, loc);
  auto i32 = b.getI32Type();
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      NVVM::ShflOp::create(
          b, loc, i32, constI32(b, loc, -1),
          arith::IndexCastOp::create(b, loc, i32, ib.div(tid, 128)),
          constI32(b, loc, 0), constI32(b, loc, 0x1f), NVVM::ShflKind::idx,
          UnitAttr())
          .getResult());
}

void emitClusterSync(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

//===----------------------------------------------------------------------===//
// The mbarrier-guarded stage ring
//===----------------------------------------------------------------------===//

/// How long (a hint, in ns) a parity wait suspends the thread before it
/// tests the barrier again: 10 ms, CUTLASS's.
static constexpr int64_t kMbarrierWaitTicks = 0x989680;

Value emitAlignedDynamicSharedBase(OpBuilder &b, Location loc, int64_t align) {
  MLIRContext *ctx = b.getContext();
  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  return arith::AndIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc,
                            arith::IndexCastOp::create(
                                b, loc, b.getI64Type(),
                                memref::ExtractAlignedPointerAsIndexOp::create(
                                    b, loc, b.getIndexType(), dyn)),
                            constI64(b, loc, align - 1)),
      constI64(b, loc, ~(align - 1)));
}

Value StageRing::sharedAt(OpBuilder &b, Value byteOffset) const {
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value address = arith::AddIOp::create(b, loc, base, byteOffset);
  return LLVM::IntToPtrOp::create(b, loc, sharedPtr, address);
}

Value StageRing::clusterAt(OpBuilder &b, Value byteOffset) const {
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  return LLVM::AddrSpaceCastOp::create(b, loc, clusterPtr,
                                       sharedAt(b, byteOffset));
}

Value StageRing::stageOffset(OpBuilder &b, Value stage, int64_t first,
                             int64_t bytes) const {
  return arith::AddIOp::create(b, loc, constI64(b, loc, first),
                               arith::MulIOp::create(b, loc,
                                                     indexToI64(b, loc, stage),
                                                     constI64(b, loc, bytes)));
}

Value StageRing::fullBarrier(OpBuilder &b, Value stage) const {
  return sharedAt(b, stageOffset(b, stage, getBarrierOffset(), 8));
}

Value StageRing::emptyBarrier(OpBuilder &b, Value stage) const {
  return sharedAt(b, stageOffset(b, stage, getBarrierOffset() + stages * 8, 8));
}

Value StageRing::orderBarrier(OpBuilder &b, Value consumer) const {
  return sharedAt(
      b, stageOffset(b, consumer, getBarrierOffset() + stages * 16, 8));
}

void StageRing::emitInit(OpBuilder &b, int64_t emptyArrivals) const {
  IndexBuilder ib(b, loc);
  for (int64_t s = 0; s < stages; ++s) {
    NVVM::MBarrierInitOp::create(b, loc, fullBarrier(b, ib.c(s)),
                                 constI32(b, loc, 1), Value());
    NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(b, ib.c(s)),
                                 constI32(b, loc, emptyArrivals), Value());
  }
}

void StageRing::emitWaitTicks(OpBuilder &b) {
  waitTicks = constI32(b, loc, kMbarrierWaitTicks);
}

Value StageRing::parity(OpBuilder &b, Value round) const {
  IndexBuilder ib(b, loc);
  return indexToI32(b, loc, ib.rem(round, 2));
}

void StageRing::emitWait(OpBuilder &b, Value barrier, Value phase) const {
  NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, phase, waitTicks);
}

void StageRing::emitRelease(OpBuilder &b, Value it, Value laneZero) const {
  IndexBuilder ib(b, loc);
  Value stage = ib.rem(it, stages);
  emitIf(b, loc, laneZero, [&](OpBuilder &b) {
    Value empty = emptyBarrier(b, stage);
    if (cluster == 1) {
      NVVM::MBarrierArriveOp::create(b, loc, Type(), empty, Value());
      return;
    }
    // CTA scope, as CUTLASS's ClusterBarrier::arrive: the release only has
    // to order this warp's reads of the stage, and those (by the async
    // proxy) have retired; a cluster-scope release would also wait for the
    // previous tile's global stores.
    auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
    for (int64_t r = 0; r < cluster; ++r) {
      Value remote =
          NVVM::MapaOp::create(b, loc, clusterPtr, empty, constI32(b, loc, r));
      NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                     NVVM::MemScopeKind::CTA);
    }
  });
}

//===----------------------------------------------------------------------===//
// The ping-pong hand-over
//===----------------------------------------------------------------------===//

void emitHandOverInit(OpBuilder &b, const StageRing &ring) {
  // Four arrivals complete phase 0 of consumer 0's order barrier up front,
  // so every consumer waits, without a branch, on phase s / 2 for the
  // block's s-th unit (a branch there makes ptxas serialise the wgmma).
  Location loc = ring.loc;
  IndexBuilder ib(b, loc);
  for (int64_t c = 0; c < 2; ++c)
    NVVM::MBarrierInitOp::create(b, loc, ring.orderBarrier(b, ib.c(c)),
                                 constI32(b, loc, 4), Value());
  for (int64_t w = 0; w < 4; ++w)
    NVVM::MBarrierArriveOp::create(b, loc, Type(),
                                   ring.orderBarrier(b, ib.c(0)), Value());
}

void emitWaitForTurn(OpBuilder &b, const StageRing &ring, Value consumer,
                     Value sequence) {
  IndexBuilder ib(b, ring.loc);
  ring.emitWait(b, ring.orderBarrier(b, consumer),
                ring.parity(b, ib.div(sequence, 2)));
}

void emitHandOver(OpBuilder &b, const StageRing &ring, Value consumer,
                  Value laneZero) {
  Location loc = ring.loc;
  emitIf(b, loc, laneZero, [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    NVVM::MBarrierArriveOp::create(
        b, loc, Type(),
        ring.orderBarrier(b, arith::SubIOp::create(b, loc, ib.c(1), consumer)),
        Value());
  });
}

//===----------------------------------------------------------------------===//
// The TMA producer
//===----------------------------------------------------------------------===//

void TmaProducer::emitKTile(OpBuilder &b, Value it, Value kt, Value mTile,
                            Value nTile) const {
  Location loc = ring.loc;
  IndexBuilder lb(b, loc);
  Value stage = lb.rem(it, ring.stages);
  Value round = lb.div(it, ring.stages);
  // Round r > 0 reuses the stage after the consumers released round r - 1,
  // the empty barrier's phase r - 1.
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, it,
                               lb.c(ring.stages)),
         [&](OpBuilder &b) {
           IndexBuilder ib(b, loc);
           ring.emitWait(b, ring.emptyBarrier(b, stage),
                         ring.parity(b, ib.add(round, 1)));
         });
  // Every block's share of B lands in every block: the stage receives its
  // whole A and B tiles.
  Value full = ring.fullBarrier(b, stage);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), full,
      constI32(b, loc, ring.aStageBytes + ring.bStageBytes),
      NVVM::MemScopeKind::CTA, false, Value());
  Value kCoord = indexToI32(b, loc, lb.mul(kt, boxA.k));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, ring.clusterAt(b, ring.aStageOffset(b, stage)), mapA,
      ValueRange{kCoord, indexToI32(b, loc, lb.mul(mTile, boxA.rows))}, full,
      ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false, nullptr,
      Value());
  if (nMajorTileN) {
    // One [K, N] weight: the tile's 64-column boxes, each into its own
    // tile_k x 128-byte block of the stage.
    int64_t blockBytes = nMajorBox.k * 128;
    for (int64_t j = 0; j < nMajorTileN / nMajorBox.columns; ++j) {
      Value offset = arith::AddIOp::create(b, loc, ring.bStageOffset(b, stage),
                                           constI64(b, loc, j * blockBytes));
      Value column =
          lb.add(lb.mul(nTile, nMajorTileN), lb.c(j * nMajorBox.columns));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, ring.clusterAt(b, offset), mapBs.front(),
          ValueRange{indexToI32(b, loc, column),
                     indexToI32(b, loc, lb.mul(kt, nMajorBox.k))},
          full, ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false,
          nullptr, Value());
    }
    return;
  }
  // This block's share of each weight's rows of the B tile, multicast to
  // the cluster.
  int64_t cluster = ring.cluster;
  Value mask = cluster > 1
                   ? arith::ConstantOp::create(
                         b, loc, b.getI16IntegerAttr((1 << cluster) - 1))
                         .getResult()
                   : Value();
  int64_t weightRows = getWeightRows();
  Value bRow = lb.add(lb.mul(nTile, weightRows), lb.mul(rank, boxB.rows));
  for (auto [w, mapB] : llvm::enumerate(mapBs)) {
    // 128 bytes per K-major row of the stage's B tile.
    Value shareOffset = arith::AddIOp::create(
        b, loc, ring.bStageOffset(b, stage),
        arith::AddIOp::create(
            b, loc, constI64(b, loc, w * weightRows * 128),
            arith::MulIOp::create(b, loc, indexToI64(b, loc, rank),
                                  constI64(b, loc, boxB.rows * 128))));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, ring.clusterAt(b, shareOffset), mapB,
        ValueRange{kCoord, indexToI32(b, loc, bRow)}, full, ValueRange{}, mask,
        Value(), NVVM::TMALoadMode::TILE, false, nullptr, Value());
  }
}

//===----------------------------------------------------------------------===//
// The persistent tile walk
//===----------------------------------------------------------------------===//

/// The group of the walk's grouped order: this many cluster rows of tiles
/// at a time.
static constexpr int64_t kTileGroupRows = 8;

/// Splits unit `unit` (a cluster's column of `cluster` M tiles at one N
/// tile) into its cluster-row index and N tile. `dynamicUnitsM`, when set,
/// is the launch's count of cluster rows (a dynamic kernel's), replacing
/// `unitsM`.
static std::pair<Value, Value> unitToTile(IndexBuilder &ib, Value unit,
                                          int64_t unitsM, Value dynamicUnitsM,
                                          int64_t tilesN) {
  int64_t groupSize = kTileGroupRows * tilesN;
  Value group = ib.div(unit, groupSize);
  Value firstRow = ib.mul(group, kTileGroupRows);
  Value rowsInGroup = arith::MinUIOp::create(
      ib.b, ib.loc,
      arith::SubIOp::create(
          ib.b, ib.loc, dynamicUnitsM ? dynamicUnitsM : ib.c(unitsM), firstRow),
      ib.c(kTileGroupRows));
  Value local = ib.rem(unit, groupSize);
  Value row = ib.add(firstRow,
                     arith::RemUIOp::create(ib.b, ib.loc, local, rowsInGroup));
  Value col = arith::DivUIOp::create(ib.b, ib.loc, local, rowsInGroup);
  return {row, col};
}

void PersistentTileWalk::forEachUnit(
    OpBuilder &b, Location loc, Value skip, int64_t every,
    function_ref<void(OpBuilder &, const Unit &)> body) const {
  IndexBuilder ib(b, loc);
  auto loop =
      scf::ForOp::create(b, loc, ib.add(clusterId, ib.mul(skip, numClusters)),
                         dynamicUnits ? dynamicUnits : ib.c(getUnits()),
                         ib.mul(numClusters, ib.c(every)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  IndexBuilder lb(b, loc);
  Value unit = loop.getInductionVar();
  Value sequence = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, unit, clusterId), numClusters);
  Value tileUnit = unit, split;
  if (splits > 1) {
    // Split-major: unit = split x (the tile units) + tile unit.
    Value tileUnits =
        dynamicTileUnits ? dynamicTileUnits : lb.c(getTileUnits());
    split = arith::DivUIOp::create(b, loc, unit, tileUnits);
    tileUnit = arith::RemUIOp::create(b, loc, unit, tileUnits);
  }
  auto [unitRow, nTile] =
      unitToTile(lb, tileUnit, unitsM, dynamicUnitsM, tilesN);
  Value mTile = lb.add(lb.mul(unitRow, cluster), rank);
  body(b, {sequence, lb.mul(sequence, numK), mTile, nTile, split});
}

} // namespace mlir::sol::codegen
