//===- WgmmaPaths.cpp - the Hopper wgmma paths ----------------------------===//
//
// sm_90a: wgmma.mma_async from 128-byte-swizzled shared memory through
// matrix descriptors, fed by a cp.async pipeline (wgmma) or, persistent and
// warp-specialised, by TMA through mbarriers (wgmma_tma). Both are built
// from the pieces of HopperBuildingBlocks.h.
//
//===----------------------------------------------------------------------===//

#include "HopperBuildingBlocks.h"

namespace mlir::sol::codegen {

//===----------------------------------------------------------------------===//
// wgmma path (sm_90a)
//===----------------------------------------------------------------------===//

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
      plan.getStages() < 3)
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma plan is not one the generator implements "
        "(tile = [128, n, 64] with n a multiple of 16 up to 256, at least 3 "
        "stages, an [N, K] weight)");
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

namespace {

/// Everything the wgmma_tma generator derives from the plan.
struct WgmmaTmaLayout {
  int64_t tileM, tileN, stages, cluster;
  bool pingpong;
  /// The TMA boxes the manifest names (TensorMapBox.h).
  TensorMapBox boxA, boxB;
  /// One [K, N] weight, read N-major (its boxes replace boxB).
  bool nMajorB;
  NMajorTensorMapBox nMajorBox;
  /// Bytes of a stage's A tile and of its B tile (K-major 128-byte rows,
  /// or an N-major weight's tile_k x 128-byte blocks).
  int64_t aStageBytes, bStageBytes;
  /// Each weight's rows of a B tile: tileN for one matmul, tileN / 2 of
  /// each for a sibling pair, which runs as one matmul of tileN columns.
  int64_t weightRows;
  int64_t numK, tilesN, unitsM;
  /// The consuming warps (of every block of the cluster) that release a
  /// stage: both warpgroups' (cooperative) or the owning warpgroup's
  /// (ping-pong).
  int64_t emptyArrivals;
  /// The rows of a tile one consumer owns and its m64 accumulators:
  /// cooperative consumers take half of every tile (64 of a 128-row tile,
  /// 128 of a 256-row one), ping-pong ones every other whole 128-row tile.
  int64_t consumerRows, numAccs;
};

} // namespace

static FailureOr<WgmmaTmaLayout>
getWgmmaTmaLayout(GpuKernel &kernel, const MatmulGeometry &g, ValueRange maps) {
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  int64_t cluster = plan.getCluster();
  ConsumerSchedule schedule = plan.getSchedule();
  bool pingpong = schedule == ConsumerSchedule::pingpong;
  int64_t warpsM = pingpong ? 1 : 2;
  // 256-row tiles: cooperative consumers of 128 rows each (two m64
  // accumulators, as a ping-pong consumer holds), without a cluster.
  bool tallTile = tile.size() == 3 && tile[0] == 256;
  unsigned numWeights = kernel.spec.getNumContractions();
  bool nMajorB = !kernel.spec.transposeB;
  if ((nMajorB && (numWeights != 1 || tile.size() != 3 ||
                   !fitsNMajorWeight(tile[1], cluster))) ||
      kernel.spec.batchedB || tile.size() != 3 ||
      (tile[0] != 128 &&
       !(tallTile && !pingpong && cluster == 1 && tile[1] <= 192)) ||
      tile[2] != 64 || tile[1] % 16 != 0 || tile[1] > (pingpong ? 192 : 256) ||
      cluster < 1 || cluster > 8 || tile[1] % (8 * cluster) != 0 ||
      plan.getStages() < 2 || plan.getWarps() != ArrayRef<int64_t>{warpsM, 1})
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma_tma plan is not one the generator implements "
        "(tile = [128, n, 64] with n a multiple of 16 and of 8 x cluster, "
        "n <= 256 cooperative (warps = [2, 1]) or <= 192 ping-pong (warps = "
        "[1, 1]), or [256, n <= 192, 64] cooperative without a cluster; a "
        "cluster of 1 to 8, at least 2 stages, an unbatched [N, K] weight "
        "(or one [K, N] weight with n a multiple of 64 and no cluster))");
  if (maps.size() != 1 + numWeights)
    return kernel.spec.func.emitError("sol kernel: expected one TMA map for "
                                      "A and one per weight");
  WgmmaTmaLayout l;
  l.tileM = tile[0];
  l.tileN = tile[1];
  l.stages = plan.getStages();
  l.cluster = cluster;
  l.pingpong = pingpong;
  l.boxA = getTensorMapBoxA(plan);
  l.boxB = getTensorMapBoxB(plan, numWeights);
  l.nMajorB = nMajorB;
  l.nMajorBox = getNMajorTensorMapBoxB(plan);
  l.aStageBytes = l.tileM * l.boxA.k * 2;
  l.bStageBytes = l.tileN * l.boxB.k * 2;
  l.weightRows = l.tileN / numWeights;
  l.numK = llvm::divideCeilSigned(g.k, l.boxA.k);
  int64_t tilesM = llvm::divideCeilSigned(g.rows, l.tileM);
  l.tilesN = llvm::divideCeilSigned(g.n, l.weightRows);
  l.unitsM = llvm::divideCeilSigned(tilesM, cluster);
  l.emptyArrivals = (pingpong ? 4 : 8) * cluster;
  l.consumerRows = pingpong ? 128 : l.tileM / 2;
  l.numAccs = l.consumerRows / 64;
  return l;
}

namespace {

/// The wgmma_tma kernel, phase by phase (emitWgmmaTmaKernel says what it
/// does): the block's ids and the persistent walk, the stage ring and its
/// barriers, the producer warpgroup, the consumer warpgroups (their K loop
/// and epilogue per unit).
class WgmmaTmaEmitter {
public:
  WgmmaTmaEmitter(OpBuilder &b, Location loc, GpuKernel &kernel,
                  const MatmulGeometry &g, const WgmmaTmaLayout &l)
      : b(b), loc(loc), kernel(kernel), g(g), l(l),
        ring(loc, l.stages, l.aStageBytes, l.bStageBytes, l.cluster) {
    Type elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                        .getElementType();
    isBF16 = elemType.isBF16();
  }

  /// The block's place in the persistent walk (a dynamic kernel's walk
  /// over the launch's rows).
  void emitWalk();
  /// The ring, its barriers initialised by one thread, and the TMA maps
  /// prefetched; in a cluster every block's before any block goes on.
  void emitRing(ValueRange maps);
  /// Warpgroup 0: one thread issues every K tile's TMA loads.
  void emitProducer(Value mapA, ValueRange mapBs);
  /// Warpgroups 1 and 2: wgmma over the ring's stages, then the epilogue.
  void emitConsumers();

  OpBuilder &b;
  Location loc;
  GpuKernel &kernel;
  const MatmulGeometry &g;
  const WgmmaTmaLayout &l;
  bool isBF16;
  Value tid, warpgroup;
  StageRing ring;
  PersistentTileWalk walk;

private:
  /// One consumer's K loop over the unit starting at iteration `first`:
  /// returns the loop, whose results are the accumulators.
  scf::ForOp emitConsumerKLoop(Value consumer, Value laneZero, Value first);
  /// The first row of this consumer's accumulator h within the tile.
  Value accRow(OpBuilder &b, Value consumer, int64_t h);
};

} // namespace

void WgmmaTmaEmitter::emitWalk() {
  walk.cluster = l.cluster;
  walk.unitsM = l.unitsM;
  walk.tilesN = l.tilesN;
  walk.numK = l.numK;
  // A dynamic kernel walks the tiles of the launch's rows: the same grouped
  // order over ceil(ceil(rows / tileM) / cluster) cluster rows. (The A map,
  // encoded at launch, holds the actual rows: TMA zero-fills boxes past
  // them; the epilogue masks its stores by them. A cluster's second block
  // past the last M tile still runs its unit: it multicasts its share of
  // B to the first.)
  if (g.dynamicRows) {
    IndexBuilder ib(b, loc);
    walk.dynamicUnitsM =
        ib.ceilDiv(ib.ceilDiv(g.dynamicRows, l.tileM), l.cluster);
    walk.dynamicUnits = ib.mul(walk.dynamicUnitsM, l.tilesN);
  }
  IndexBuilder ib(b, loc);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value gridX = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  warpgroup = emitWarpUniformWarpgroup(b, loc, tid);
  walk.rank = ib.rem(bid, l.cluster);
  walk.clusterId = ib.div(bid, l.cluster);
  walk.numClusters = ib.div(gridX, l.cluster);
}

void WgmmaTmaEmitter::emitRing(ValueRange maps) {
  IndexBuilder ib(b, loc);
  ring.base = emitAlignedDynamicSharedBase(b, loc, kWgmmaTmaAlignSlack);
  // The init is made visible to the async proxy (TMA completes
  // transactions on the barriers) and, in a cluster, to the other blocks
  // before anyone uses them.
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0)),
         [&](OpBuilder &b) {
           ring.emitInit(b, l.emptyArrivals);
           if (l.pingpong)
             emitHandOverInit(b, ring);
           NVVM::FenceMbarrierInitOp::create(b, loc);
           for (Value map : maps)
             NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                                      /*evictPriority=*/nullptr, map,
                                      /*predicate=*/Value(),
                                      /*tensormap=*/true);
         });
  if (l.cluster > 1)
    emitClusterSync(b, loc);
  else
    gpu::BarrierOp::create(b, loc);
  ring.emitWaitTicks(b);
}

void WgmmaTmaEmitter::emitProducer(Value mapA, ValueRange mapBs) {
  NVVM::SetMaxRegisterOp::create(b, loc, 40,
                                 NVVM::SetMaxRegisterAction::decrease);
  TmaProducer producer{ring, mapA, mapBs, l.boxA, l.boxB, walk.rank};
  if (l.nMajorB) {
    producer.nMajorTileN = l.tileN;
    producer.nMajorBox = l.nMajorBox;
  }
  IndexBuilder ib(b, loc);
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0)),
         [&](OpBuilder &b) {
           walk.forEachUnit(
               b, loc, ib.c(0), 1,
               [&](OpBuilder &b, Value, Value first, Value mTile, Value nTile) {
                 IndexBuilder ib(b, loc);
                 auto kLoop =
                     scf::ForOp::create(b, loc, ib.c(0), ib.c(l.numK), ib.c(1));
                 OpBuilder::InsertionGuard guard(b);
                 b.setInsertionPointToStart(kLoop.getBody());
                 IndexBuilder lb(b, loc);
                 Value kt = kLoop.getInductionVar();
                 producer.emitKTile(b, lb.add(first, kt), kt, mTile, nTile);
               });
         });
}

Value WgmmaTmaEmitter::accRow(OpBuilder &b, Value consumer, int64_t h) {
  IndexBuilder ib(b, loc);
  return l.pingpong ? ib.c(h * 64)
                    : ib.add(ib.mul(consumer, l.consumerRows), h * 64);
}

scf::ForOp WgmmaTmaEmitter::emitConsumerKLoop(Value consumer, Value laneZero,
                                              Value first) {
  IndexBuilder ib(b, loc);
  SmallVector<Value> accInit(
      l.numAccs,
      LLVM::ZeroOp::create(b, loc, getWgmmaAccType(b.getContext(), l.tileN)));
  auto kLoop =
      scf::ForOp::create(b, loc, ib.c(0), ib.c(l.numK), ib.c(1), accInit);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  IndexBuilder lb(b, loc);
  Value kt = kLoop.getInductionVar();
  Value it = lb.add(first, kt);
  Value stage = lb.rem(it, l.stages);
  ring.emitWait(b, ring.fullBarrier(b, stage),
                ring.parity(b, lb.div(it, l.stages)));
  Value aStage =
      arith::AddIOp::create(b, loc, ring.base, ring.aStageOffset(b, stage));
  SmallVector<Value> descAs;
  for (int64_t h = 0; h < l.numAccs; ++h) {
    // 128 bytes per row of the stage's A tile.
    Value rows = arith::MulIOp::create(
        b, loc, indexToI64(b, loc, accRow(b, consumer, h)),
        constI64(b, loc, 128));
    descAs.push_back(makeWgmmaDescriptor(
        b, loc, arith::AddIOp::create(b, loc, aStage, rows)));
  }
  Value bAddr =
      arith::AddIOp::create(b, loc, ring.base, ring.bStageOffset(b, stage));
  Value descB = l.nMajorB ? makeNMajorWgmmaDescriptor(b, loc, bAddr,
                                                      l.nMajorBox.k * 128)
                          : makeWgmmaDescriptor(b, loc, bAddr);
  SmallVector<Value> acc =
      emitWgmmaKTile(b, loc, kLoop.getRegionIterArgs(), descAs, descB, l.tileN,
                     isBF16, l.nMajorB);
  // The group before this one has retired: its stage is free.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt, lb.c(0)),
         [&](OpBuilder &b) {
           IndexBuilder ib(b, loc);
           ring.emitRelease(b, arith::SubIOp::create(b, loc, it, ib.c(1)),
                            laneZero);
         });
  scf::YieldOp::create(b, loc, acc);
  return kLoop;
}

void WgmmaTmaEmitter::emitConsumers() {
  NVVM::SetMaxRegisterOp::create(b, loc, 232,
                                 NVVM::SetMaxRegisterAction::increase);
  IndexBuilder ib(b, loc);
  Value consumer = arith::SubIOp::create(b, loc, warpgroup, ib.c(1));
  Value laneZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         ib.rem(tid, 32), ib.c(0));
  // Cooperative: both consumers take every unit; ping-pong: consumer c
  // takes every other unit from the c-th.
  Value skip = l.pingpong ? consumer : ib.c(0);
  walk.forEachUnit(
      b, loc, skip, l.pingpong ? 2 : 1,
      [&](OpBuilder &b, Value sequence, Value first, Value mTile, Value nTile) {
        IndexBuilder ib(b, loc);
        if (l.pingpong)
          emitWaitForTurn(b, ring, consumer, sequence);
        scf::ForOp kLoop = emitConsumerKLoop(consumer, laneZero, first);
        // Every full wait of this tile is behind this warp: the other
        // consumer may start its next tile's K loop while this one's last
        // wgmma and epilogue run.
        if (l.pingpong)
          emitHandOver(b, ring, consumer, laneZero);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
        ring.emitRelease(b, ib.add(first, l.numK - 1), laneZero);
        for (int64_t h = 0; h < l.numAccs; ++h) {
          Value rowBase =
              ib.add(ib.mul(mTile, l.tileM), accRow(b, consumer, h));
          emitWgmmaEpilogue(b, loc, kernel, g, ib.c(0), tid, rowBase,
                            ib.mul(nTile, l.weightRows), l.tileN,
                            kLoop.getResult(h));
        }
      });
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
  MatmulGeometry g = getGeometry(kernel);
  FailureOr<WgmmaTmaLayout> layout = getWgmmaTmaLayout(kernel, g, maps);
  if (failed(layout))
    return failure();
  WgmmaTmaEmitter emitter(b, loc, kernel, g, *layout);
  emitter.emitWalk();
  emitter.emitRing(maps);
  IndexBuilder ib(b, loc);
  auto isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          emitter.warpgroup, ib.c(0));
  auto roles = scf::IfOp::create(b, loc, isProducer, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.thenBlock());
    emitter.emitProducer(maps.front(), maps.drop_front());
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.elseBlock());
    emitter.emitConsumers();
  }
  // No block of a cluster may exit while another may still multicast into
  // its shared memory or arrive on its barriers.
  if (layout->cluster > 1)
    emitClusterSync(b, loc);
  return success();
}

} // namespace mlir::sol::codegen
