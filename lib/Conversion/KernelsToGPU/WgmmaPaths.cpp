//===- WgmmaPaths.cpp - the Hopper wgmma paths ----------------------------===//
//
// sm_90a: wgmma.mma_async from 128-byte-swizzled shared memory through
// matrix descriptors, fed by a cp.async pipeline (wgmma) or, persistent and
// warp-specialised, by TMA through mbarriers (wgmma_tma).
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

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

/// Issues one 64-deep K tile as four k16 steps of m64n{tileN}k16
/// wgmma.mma_async per accumulator (`accs[i]` reads the 64 rows of A at
/// `descAs[i]`, all read B at `descB`) and commits them as one group (the
/// caller waits on it).
static SmallVector<Value> emitWgmmaKTile(OpBuilder &b, Location loc,
                                         ValueRange accs, ValueRange descAs,
                                         Value descB, int64_t tileN,
                                         bool isBF16) {
  MLIRContext *ctx = b.getContext();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  auto wgmmaType = NVVM::WGMMATypesAttr::get(
      ctx, isBF16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16);
  SmallVector<Value> results(accs.begin(), accs.end());
  for (int64_t kk = 0; kk < 4; ++kk) {
    // 16 elements further along K = 32 bytes = 2 in the address field.
    Value db = arith::AddIOp::create(b, loc, descB, constI64(b, loc, 2 * kk));
    for (auto [acc, descA] : llvm::zip_equal(results, descAs)) {
      Value da = arith::AddIOp::create(b, loc, descA, constI64(b, loc, 2 * kk));
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
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return results;
}

/// The epilogue of a warpgroup's m64n{tileN} accumulator whose first row is
/// `rowBase` (warp w of the warpgroup holds rows 16w..16w+15, laid out like
/// an m16n8 mma.sync fragment per 8 columns).
/// With sibling matmuls the accumulator's first tileN / 2 columns are the
/// first weight's and the rest the sibling's, at the same output columns.
static void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                              const MatmulGeometry &g, Value batchSlice,
                              Value tid, Value rowBase, Value colBase,
                              int64_t tileN, Value acc) {
  IndexBuilder ib(b, loc);
  Value lane = ib.rem(tid, 32);
  Value warpInGroup = ib.rem(ib.div(tid, 32), 4);
  Value row = ib.add(rowBase, ib.add(ib.mul(warpInGroup, 16), ib.div(lane, 4)));
  Value col = ib.add(colBase, ib.mul(ib.rem(lane, 4), 2));
  int64_t blocksPerContraction = tileN / 8 / kernel.spec.getNumContractions();
  emitFragmentEpilogue(
      b, loc, kernel, g, batchSlice, row, col, blocksPerContraction,
      [&](OpBuilder &b, unsigned c, int64_t nb, int64_t e) {
        return LLVM::ExtractValueOp::create(
            b, loc, acc,
            ArrayRef<int64_t>{(c * blocksPerContraction + nb) * 4 + e});
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
LogicalResult emitWgmmaKernel(OpBuilder &b, Location loc, GpuKernel &kernel) {
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
    emitAsyncRowTileCopy(b, loc, tid, threads, globalA, aBase, rowBase, g,
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
    SmallVector<Value> acc =
        emitWgmmaKTile(b, loc, kLoop.getRegionIterArgs(),
                       ValueRange{makeWgmmaDescriptor(b, loc, aAddr)},
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

/// Hopper's full machinery for large matmuls. Block = three warpgroups:
///  - warpgroup 0, the producer, gives up registers (setmaxnreg) and one of
///    its threads issues TMA loads (cp.async.bulk.tensor, 128-byte swizzle,
///    out-of-bounds boxes zero-filled) of each K tile into a ring of
///    `stages` shared-memory stages, each guarded by a `full` mbarrier
///    (transaction-counted: the TMA completes it) and an `empty` one (the
///    consumers' warps arrive when their wgmma have read it);
///  - warpgroups 1 and 2, the consumers, take the registers, wait on `full`,
///    run wgmma with one group in flight, release the stage, and run the
///    fused epilogue on the accumulators. Cooperative, they split each
///    128 x tile_n tile, 64 rows each, and run its epilogue together while
///    the tensor cores idle. Ping-pong, each owns whole tiles in turn (two
///    m64 accumulators), and an `order` mbarrier pair hands the K loop from
///    one to the other, so one's epilogue runs during the other's K loop.
/// The grid is persistent: block b walks the output tiles b, b + grid, ...
/// in grouped order, so the producer loads the next tile's stages while the
/// consumers run the epilogue of the last. With a cluster of C blocks along
/// M, the C blocks of a cluster share one N tile: each loads 1/C of the B
/// tile and multicasts it to all, so B crosses L2 once per cluster; a stage
/// is free only when every block's consumers released it, so consumers
/// arrive on the `empty` barrier of each block of the cluster.
/// The A and B maps are the CUtensorMaps the launcher encodes (the
/// manifest's "tensor_maps" say how) and passes by value.
/// Sibling matmuls (one A, two weights) run as one matmul of twice the
/// width: each stage's B tile is tile_n / 2 rows of each weight, loaded as
/// one box from each weight's map, so the wgmma and the ring are unchanged
/// and each accumulator holds both products of its rows side by side; the
/// epilogue reads element (r, c) of each from the same thread's registers
/// (column c and column c + tile_n / 2) and writes one output column.
LogicalResult emitWgmmaTmaKernel(OpBuilder &b, Location loc, GpuKernel &kernel,
                                 ValueRange maps) {
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  ArrayRef<int64_t> grid = plan.getGrid();
  MatmulGeometry g = getGeometry(kernel);
  int64_t cluster = plan.getCluster();
  ConsumerSchedule schedule = plan.getSchedule();
  bool pingpong = schedule == ConsumerSchedule::pingpong;
  int64_t warpsM = pingpong ? 1 : 2;
  // 256-row tiles: cooperative consumers of 128 rows each (two m64
  // accumulators, as a ping-pong consumer holds), without a cluster.
  bool tallTile = tile.size() == 3 && tile[0] == 256;
  if (!kernel.spec.transposeB || kernel.spec.batchedB || tile.size() != 3 ||
      (tile[0] != 128 &&
       !(tallTile && !pingpong && cluster == 1 && tile[1] <= 192)) ||
      tile[2] != 64 || tile[1] % 16 != 0 || tile[1] > (pingpong ? 192 : 256) ||
      cluster < 1 || cluster > 8 || tile[1] % (8 * cluster) != 0 ||
      plan.getThreads() != kWgmmaTmaThreads || plan.getStages() < 2 ||
      plan.getWarps() != ArrayRef<int64_t>{warpsM, 1} ||
      plan.getSmem() !=
          getWgmmaTmaSmemBytes(tile[1], plan.getStages(), schedule, tile[0]) ||
      grid.size() != 3 || grid[0] < cluster || grid[0] % cluster != 0 ||
      grid[1] != 1 || grid[2] != 1)
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma_tma plan is not one the generator implements "
        "(tile = [128, n, 64] with n a multiple of 16 and of 8 x cluster, "
        "n <= 256 cooperative (warps = [2, 1]) or <= 192 ping-pong (warps = "
        "[1, 1]), or [256, n <= 192, 64] cooperative without a cluster; a "
        "cluster of 1 to 8, at least 2 stages, 384 threads, an unbatched "
        "[N, K] weight, smem = stages x (m + n) x 128 bytes + 16 bytes of "
        "mbarriers per stage (+ 16 ping-pong) + 1024 bytes of alignment "
        "slack, a 1-D grid of whole clusters)");
  int64_t tileM = tile[0], tileN = tile[1], stages = plan.getStages();
  int64_t aStageBytes = tileM * 64 * 2, bStageBytes = tileN * 64 * 2;
  // Sibling matmuls: each stage's B tile is tileN / 2 rows of each weight,
  // one box per weight, multiplied as one B of tileN rows.
  unsigned numWeights = kernel.spec.getNumContractions();
  int64_t weightRows = tileN / numWeights;
  int64_t bShareRows = weightRows / cluster;
  int64_t numK = llvm::divideCeilSigned(g.k, 64);
  int64_t tilesM = llvm::divideCeilSigned(g.rows, tileM);
  int64_t tilesN = llvm::divideCeilSigned(g.n, weightRows);
  int64_t unitsM = llvm::divideCeilSigned(tilesM, cluster);
  int64_t units = unitsM * tilesN;
  // A dynamic kernel walks the tiles of the launch's rows: the same grouped
  // order over ceil(ceil(rows / tileM) / cluster) cluster rows. (The A map,
  // encoded at launch, holds the actual rows: TMA zero-fills boxes past
  // them; the epilogue masks its stores by them. A cluster's second block
  // past the last M tile still runs its unit: it multicasts its share of
  // B to the first.)
  Value dynamicUnitsM, dynamicUnits;
  if (g.dynamicRows) {
    IndexBuilder ib(b, loc);
    dynamicUnitsM = ib.ceilDiv(ib.ceilDiv(g.dynamicRows, tileM), cluster);
    dynamicUnits = ib.mul(dynamicUnitsM, tilesN);
  }
  // The consuming warps (of every block of the cluster) release a stage:
  // both warpgroups' (cooperative) or the owning warpgroup's (ping-pong).
  int64_t emptyArrivals = (pingpong ? 4 : 8) * cluster;

  IndexBuilder ib(b, loc);
  MLIRContext *ctx = b.getContext();
  Type elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                      .getElementType();
  bool isBF16 = elemType.isBF16();
  auto i32 = b.getI32Type();
  auto i64 = b.getI64Type();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, 7);
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
  // The warpgroup index through a warp shuffle, as CUTLASS's
  // canonical_warp_group_idx: ptxas then knows it is warp-uniform, and so
  // are the branches and loop bounds derived from it (a branch it thinks
  // divergent around the wgmma makes it serialise them, C7520).
  Value warpgroup = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      NVVM::ShflOp::create(
          b, loc, i32, c32(b, -1),
          arith::IndexCastOp::create(b, loc, i32, ib.div(tid, 128)), c32(b, 0),
          c32(b, 0x1f), NVVM::ShflKind::idx, UnitAttr())
          .getResult());
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
  // Ping-pong: consumer c may start its K loop of a tile once the other
  // consumer's warps have passed every `full` wait of the tile before, its
  // `order` barrier; so the waits of a stage's rounds happen in round order
  // and a parity wait can never match a round two behind.
  auto orderBarrier = [&](OpBuilder &b, Value consumer) {
    return sharedAt(b, stageOffset(b, consumer, barOffset + stages * 16, 8));
  };
  // The maps' generic addresses (of by-value parameters once lowered).
  if (maps.size() != 1 + numWeights)
    return kernel.spec.func.emitError("sol kernel: expected one TMA map for "
                                      "A and one per weight");
  Value mapAPtr = maps.front();
  ValueRange mapBPtrs = maps.drop_front();

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
           // Consumer 0's first tile waits for nobody: four arrivals
           // complete phase 0 of its order barrier up front, so every
           // consumer waits, without a branch, on phase s / 2 for the
           // block's s-th unit (a branch there makes ptxas serialise the
           // wgmma).
           if (pingpong) {
             for (int64_t c = 0; c < 2; ++c)
               NVVM::MBarrierInitOp::create(b, loc, orderBarrier(b, ib.c(c)),
                                            c32(b, 4), Value());
             for (int64_t w = 0; w < 4; ++w)
               NVVM::MBarrierArriveOp::create(
                   b, loc, Type(), orderBarrier(b, ib.c(0)), Value());
           }
           NVVM::FenceMbarrierInitOp::create(b, loc);
           for (Value map : maps)
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
  // Walks the block's units from its `skip`-th, every `every`-th: the
  // body gets the unit's place in the block's sequence, its first
  // iteration of the flattened walk, and its tile.
  auto forEachUnit =
      [&](OpBuilder &b, Value skip, int64_t every,
          function_ref<void(OpBuilder &, Value, Value, Value, Value)> body) {
        IndexBuilder ib(b, loc);
        auto loop = scf::ForOp::create(
            b, loc, ib.add(clusterId, ib.mul(skip, numClusters)),
            dynamicUnits ? dynamicUnits : ib.c(units),
            ib.mul(numClusters, ib.c(every)));
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        IndexBuilder lb(b, loc);
        Value unit = loop.getInductionVar();
        Value sequence = arith::DivUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, unit, clusterId),
            numClusters);
        auto [unitRow, nTile] =
            unitToTile(lb, unit, unitsM, dynamicUnitsM, tilesN);
        Value mTile = lb.add(lb.mul(unitRow, cluster), rank);
        body(b, sequence, lb.mul(sequence, numK), mTile, nTile);
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
          forEachUnit(
              b, ib.c(0), 1,
              [&](OpBuilder &b, Value, Value first, Value mTile, Value nTile) {
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
                       arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             it, lb.c(stages)),
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
                    mapAPtr, ValueRange{kCoord, toI32(b, lb.mul(mTile, tileM))},
                    full, ValueRange{}, Value(), Value(),
                    NVVM::TMALoadMode::TILE, false, nullptr, Value());
                // This block's share of each weight's rows of the B tile,
                // multicast to the cluster.
                Value mask =
                    cluster > 1
                        ? arith::ConstantOp::create(
                              b, loc, b.getI16IntegerAttr((1 << cluster) - 1))
                              .getResult()
                        : Value();
                Value bRow =
                    lb.add(lb.mul(nTile, weightRows), lb.mul(rank, bShareRows));
                for (auto [w, mapBPtr] : llvm::enumerate(mapBPtrs)) {
                  Value shareOffset = arith::AddIOp::create(
                      b, loc, stageOffset(b, stage, bOffset, bStageBytes),
                      arith::AddIOp::create(
                          b, loc, c64(b, w * weightRows * 128),
                          arith::MulIOp::create(b, loc, toI64(b, rank),
                                                c64(b, bShareRows * 128))));
                  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
                      b, loc, clusterAt(b, shareOffset), mapBPtr,
                      ValueRange{kCoord, toI32(b, bRow)}, full, ValueRange{},
                      mask, Value(), NVVM::TMALoadMode::TILE, false, nullptr,
                      Value());
                }
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
    // Cooperative: both consumers take every unit, half its rows each (64
    // of a 128-row tile, 128 of a 256-row one); ping-pong: consumer c takes
    // every other unit from the c-th, all 128 rows. One m64 accumulator per
    // 64 rows a consumer owns.
    Value skip = pingpong ? consumer : ib.c(0);
    int64_t consumerRows = pingpong ? 128 : tileM / 2;
    int64_t numAccs = consumerRows / 64;
    // The first row of accumulator h of this consumer within the tile.
    auto accRow = [&](OpBuilder &b, int64_t h) -> Value {
      IndexBuilder ib(b, loc);
      return pingpong ? ib.c(h * 64)
                      : ib.add(ib.mul(consumer, consumerRows), h * 64);
    };
    forEachUnit(
        b, skip, pingpong ? 2 : 1,
        [&](OpBuilder &b, Value sequence, Value first, Value mTile,
            Value nTile) {
          IndexBuilder ib(b, loc);
          if (pingpong)
            NVVM::MBarrierTryWaitParityOp::create(
                b, loc, orderBarrier(b, consumer),
                parity(b, ib.div(sequence, 2)), waitTicks);
          SmallVector<Value> accInit(
              numAccs,
              LLVM::ZeroOp::create(b, loc, getWgmmaAccType(ctx, tileN)));
          auto kLoop =
              scf::ForOp::create(b, loc, ib.c(0), ib.c(numK), ib.c(1), accInit);
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
            Value aStage = arith::AddIOp::create(
                b, loc, smemBase, stageOffset(b, stage, 0, aStageBytes));
            SmallVector<Value> descAs;
            for (int64_t h = 0; h < numAccs; ++h) {
              // 128 bytes per row of the stage's A tile.
              Value rows = arith::MulIOp::create(b, loc, toI64(b, accRow(b, h)),
                                                 c64(b, 128));
              descAs.push_back(makeWgmmaDescriptor(
                  b, loc, arith::AddIOp::create(b, loc, aStage, rows)));
            }
            Value bAddr = arith::AddIOp::create(
                b, loc, smemBase, stageOffset(b, stage, bOffset, bStageBytes));
            SmallVector<Value> acc = emitWgmmaKTile(
                b, loc, kLoop.getRegionIterArgs(), descAs,
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
          // Every full wait of this tile is behind this warp: the other
          // consumer may start its next tile's K loop while this one's last
          // wgmma and epilogue run.
          if (pingpong)
            emitIf(b, loc, laneZero, [&](OpBuilder &b) {
              IndexBuilder ib(b, loc);
              NVVM::MBarrierArriveOp::create(
                  b, loc, Type(),
                  orderBarrier(
                      b, arith::SubIOp::create(b, loc, ib.c(1), consumer)),
                  Value());
            });
          NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
          release(b, ib.add(first, numK - 1));
          for (int64_t h = 0; h < numAccs; ++h) {
            Value rowBase = ib.add(ib.mul(mTile, tileM), accRow(b, h));
            emitWgmmaEpilogue(b, loc, kernel, g, ib.c(0), tid, rowBase,
                              ib.mul(nTile, weightRows), tileN,
                              kLoop.getResult(h));
          }
        });
  }
  // No block of a cluster may exit while another may still multicast into
  // its shared memory or arrive on its barriers.
  if (cluster > 1)
    clusterSync(b);
  return success();
}

} // namespace mlir::sol::codegen
