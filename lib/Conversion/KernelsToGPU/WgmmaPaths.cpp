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
  /// 128 of a 256-row one), ping-pong ones every other whole tile (of 64 or
  /// 128 rows).
  int64_t consumerRows, numAccs;
  /// Split K: each output tile's K tiles run as `splits` units of numK
  /// iterations (split s from K tile s x numK; the last split's tiles past
  /// K zero-filled by TMA), summed by the last arrival (SplitKReduction).
  int64_t splits, tilesM;
};

} // namespace

/// 64-row tiles: one m64 accumulator per ping-pong consumer, each owning
/// whole tiles; two consumers cannot split 64 rows (wgmma's M is 64), and a
/// single accumulator holds up to m64n256 (128 f32 a thread, within the
/// consumers' setmaxnreg budget of 232).
static bool isShortTile(ArrayRef<int64_t> tile, bool pingpong,
                        int64_t cluster) {
  return tile[0] == 64 && pingpong && cluster == 1 && tile[1] <= 256;
}

/// 256-row tiles: cooperative consumers of 128 rows each (two m64
/// accumulators, as a ping-pong consumer of a 128-row tile holds), without a
/// cluster.
static bool isTallTile(ArrayRef<int64_t> tile, bool pingpong,
                       int64_t cluster) {
  return tile[0] == 256 && !pingpong && cluster == 1 && tile[1] <= 192;
}

/// 128-row tiles: a ping-pong consumer's two m64n{<=192} accumulators take
/// its registers, a cooperative one's single m64n256.
static bool isRegularTile(ArrayRef<int64_t> tile, bool pingpong) {
  return tile[0] == 128 && tile[1] <= (pingpong ? 192 : 256);
}

/// Why split K is out for this plan, or empty: the last arrival sums one
/// block's tile, so a cluster's multicast partner and a sibling pair's
/// second weight have no place in the reduction, and every split needs a K
/// tile of its own.
static std::string whyNotSplitK(int64_t splits, int64_t cluster,
                                unsigned numWeights, int64_t kTiles) {
  if (splits == 1)
    return "";
  if (cluster != 1)
    return "split K sums one block's tile: no cluster";
  if (numWeights != 1)
    return "split K sums one matmul's tile: no sibling pair";
  if (splits > kTiles)
    return "split_k = " + std::to_string(splits) + " exceeds the " +
           std::to_string(kTiles) + " K tiles: every split needs one";
  return "";
}

/// Bytes of an element of kernel argument `arg`.
static int64_t getElementBytes(const GpuKernel &kernel, unsigned arg) {
  return cast<MemRefType>(kernel.args[arg].getType())
             .getElementType()
             .getIntOrFloatBitWidth() /
         8;
}

static FailureOr<WgmmaTmaLayout>
getWgmmaTmaLayout(GpuKernel &kernel, const MatmulGeometry &g, ValueRange maps) {
  PlanAttr plan = kernel.spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  int64_t cluster = plan.getCluster();
  ConsumerSchedule schedule = plan.getSchedule();
  bool pingpong = schedule == ConsumerSchedule::pingpong;
  int64_t warpsM = pingpong ? 1 : 2;
  unsigned numWeights = kernel.spec.getNumContractions();
  bool nMajorB = !kernel.spec.transposeB;
  // A K tile is one 128-byte swizzle row: 64 f16/bf16 elements (the
  // shapes below), 128 fp8 ones.
  int64_t elemBytes = getElementBytes(kernel, kernel.spec.lhsArg);
  if (elemBytes == 1 && nMajorB)
    return kernel.spec.func.emitError(
        "sol kernel: an fp8 weight must be [N, K] on the wgmma_tma path: "
        "wgmma transposes 16-bit operands only");
  if (elemBytes == 1 && tile.size() == 3 && tile[2] != 128)
    return kernel.spec.func.emitError("sol kernel: an fp8 wgmma_tma plan's K "
                                      "tile is 128 (one 128-byte "
                                      "swizzle row); the plan's is ")
           << tile[2];
  if ((nMajorB && (numWeights != 1 || tile.size() != 3 ||
                   !fitsNMajorWeight(tile[1], cluster))) ||
      kernel.spec.batchedB || tile.size() != 3 ||
      !(isRegularTile(tile, pingpong) || isTallTile(tile, pingpong, cluster) ||
        isShortTile(tile, pingpong, cluster)) ||
      tile[2] * elemBytes != 128 || tile[1] % 16 != 0 || cluster < 1 ||
      cluster > 8 || tile[1] % (8 * cluster) != 0 || plan.getStages() < 2 ||
      plan.getWarps() != ArrayRef<int64_t>{warpsM, 1})
    return kernel.spec.func.emitError(
        "sol kernel: the wgmma_tma plan is not one the generator implements "
        "(tile = [128, n, 64] with n a multiple of 16 and of 8 x cluster, "
        "n <= 256 cooperative (warps = [2, 1]) or <= 192 ping-pong (warps = "
        "[1, 1]), or [256, n <= 192, 64] cooperative without a cluster, or "
        "[64, n <= 256, 64] ping-pong without a cluster; a "
        "cluster of 1 to 8, at least 2 stages, an unbatched [N, K] weight "
        "(or one [K, N] weight with n a multiple of 64 and no cluster))");
  if (maps.size() != 1 + numWeights)
    return kernel.spec.func.emitError("sol kernel: expected one TMA map for "
                                      "A and one per weight");
  // Block-wise scales (docs/fp8.md): one fp8 K tile is one K block, so a
  // consumer promotes each K tile's partial sums (a split its own K
  // tiles'); a tile's columns lie in one block of B's scales; both
  // accumulator sets fit its registers.
  int64_t consumerRows = pingpong ? tile[0] : tile[0] / 2;
  if (kernel.spec.hasBlockScales() && (elemBytes != 1 || numWeights != 1 ||
                                       MatmulOp::kScaleBlock % tile[1] != 0 ||
                                       consumerRows / 64 * tile[1] > 128))
    return kernel.spec.func.emitError(
               "sol kernel: block-wise scales on the wgmma_tma path take fp8 "
               "operands, one weight, a tile width dividing ")
           << MatmulOp::kScaleBlock
           << " and at most 64 x 128 accumulator elements per consumer";
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
  l.aStageBytes = l.tileM * l.boxA.k * elemBytes;
  l.bStageBytes = l.tileN * l.boxB.k * elemBytes;
  l.weightRows = l.tileN / numWeights;
  int64_t kTiles = llvm::divideCeilSigned(g.k, l.boxA.k);
  l.splits = plan.getSplitK();
  std::string whyNot = whyNotSplitK(l.splits, cluster, numWeights, kTiles);
  if (!whyNot.empty())
    return kernel.spec.func.emitError("sol kernel: the wgmma_tma plan's "
                                      "split_k is not one the generator "
                                      "implements: ")
           << whyNot;
  l.numK = llvm::divideCeilSigned(kTiles, l.splits);
  l.tilesM = llvm::divideCeilSigned(g.rows, l.tileM);
  l.tilesN = llvm::divideCeilSigned(g.n, l.weightRows);
  l.unitsM = llvm::divideCeilSigned(l.tilesM, cluster);
  l.emptyArrivals = (pingpong ? 4 : 8) * cluster;
  l.consumerRows = pingpong ? l.tileM : l.tileM / 2;
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
    aType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                .getElementType();
    bType = cast<MemRefType>(kernel.args[kernel.spec.rhsArg].getType())
                .getElementType();
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
  /// The operands' element types: f16 or bf16 both, or fp8 in any pair.
  Type aType, bType;
  Value tid, warpgroup;
  StageRing ring;
  PersistentTileWalk walk;

private:
  /// One consumer's K loop over the unit starting at iteration `first`
  /// (output tile `mTile`, `nTile`): returns the accumulators. With the
  /// codegen's overwriteFirstK, the unit's first K tile is peeled off the
  /// loop and overwrites the accumulators (emitWgmmaKTile's `overwrite`)
  /// instead of adding to zeroed registers.
  SmallVector<Value> emitConsumerKLoop(Value consumer, Value laneZero,
                                       Value first, Value mTile, Value nTile,
                                       Value split);
  /// K tile `kt` of that loop: waits for its stage, issues its wgmmas onto
  /// `accs` (overwriting them where `overwrite`; with block-wise scales onto
  /// partial sums that are then scaled and added to `accs`), and frees the
  /// previous K tile's stage.
  SmallVector<Value> emitConsumerKTile(OpBuilder &b, Value consumer,
                                       Value laneZero, Value first, Value mTile,
                                       Value nTile, Value split, Value kt,
                                       ValueRange accs, bool overwrite);
  /// Block-wise scales (docs/fp8.md, "Block-wise scales"): the factors of
  /// the K tile's partial sums, A's K-group scale of each fragment row
  /// times B's block scale of the tile, two per accumulator (a fragment's
  /// rows r and r + 8). Loaded from global memory, so emitted while the
  /// tile's wgmmas run: after them, the loads' latency would stall the
  /// consumer on every K tile.
  SmallVector<Value> emitPromotionFactors(OpBuilder &b, Value consumer,
                                          Value mTile, Value nTile,
                                          Value kBlock);
  /// Each accumulator plus the K tile's partial sums times their factors
  /// (`emitPromotionFactors`), one FMA per element.
  SmallVector<Value> emitPromotion(OpBuilder &b, ValueRange accs,
                                   ValueRange partials,
                                   ArrayRef<Value> factors);
  /// The first row of this consumer's accumulator h within the tile.
  Value accRow(OpBuilder &b, Value consumer, int64_t h);
  /// Iteration `kt` of a unit's K loop as a K tile of the whole K loop: a
  /// split's tiles start at split x numK (`split` null without split K).
  /// What the producer loads and the block-wise promotion's scales index.
  Value wholeKTile(IndexBuilder &ib, Value split, Value kt) {
    return split ? ib.add(ib.mul(split, l.numK), kt) : kt;
  }
  /// Split K: the unit's partials out, and, in the last warp to arrive,
  /// the epilogue on their sums.
  void emitSplitKEpilogue(OpBuilder &b, Value consumer, Value laneZero,
                          const PersistentTileWalk::Unit &unit,
                          ArrayRef<Value> accs);
};

} // namespace

void WgmmaTmaEmitter::emitWalk() {
  walk.cluster = l.cluster;
  walk.unitsM = l.unitsM;
  walk.tilesN = l.tilesN;
  walk.numK = l.numK;
  walk.splits = l.splits;
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
    if (l.splits > 1) {
      walk.dynamicTileUnits = walk.dynamicUnits;
      walk.dynamicUnits = ib.mul(walk.dynamicTileUnits, l.splits);
    }
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
               [&](OpBuilder &b, const PersistentTileWalk::Unit &unit) {
                 IndexBuilder ib(b, loc);
                 auto kLoop =
                     scf::ForOp::create(b, loc, ib.c(0), ib.c(l.numK), ib.c(1));
                 OpBuilder::InsertionGuard guard(b);
                 b.setInsertionPointToStart(kLoop.getBody());
                 IndexBuilder lb(b, loc);
                 Value kt = kLoop.getInductionVar();
                 producer.emitKTile(b, lb.add(unit.first, kt),
                                    wholeKTile(lb, unit.split, kt), unit.mTile,
                                    unit.nTile);
               });
         });
}

Value WgmmaTmaEmitter::accRow(OpBuilder &b, Value consumer, int64_t h) {
  IndexBuilder ib(b, loc);
  return l.pingpong ? ib.c(h * 64)
                    : ib.add(ib.mul(consumer, l.consumerRows), h * 64);
}

SmallVector<Value>
WgmmaTmaEmitter::emitPromotionFactors(OpBuilder &b, Value consumer, Value mTile,
                                      Value nTile, Value kBlock) {
  IndexBuilder ib(b, loc);
  const KernelSpec &spec = kernel.spec;
  int64_t kBlocks = llvm::divideCeilSigned(g.k, MatmulOp::kScaleBlock);
  auto load = [&](int arg, Value offset) -> Value {
    return memref::LoadOp::create(b, loc, kernel.args[arg], ValueRange{offset});
  };
  // The last split's K tiles past K (zero-filled: their partial sums are
  // zero) read the last block's scales, never past the scale arrays.
  if (l.splits > 1)
    kBlock = arith::MinUIOp::create(b, loc, kBlock, ib.c(kBlocks - 1));
  // The tile's columns lie in one block of B's scales (getWgmmaTmaLayout).
  Value scaleB = spec.blockScaleBArg >= 0
                     ? load(spec.blockScaleBArg,
                            ib.add(ib.mul(ib.div(ib.mul(nTile, l.tileN),
                                                 MatmulOp::kScaleBlock),
                                          kBlocks),
                                   kBlock))
                     : Value();
  Value lane = ib.rem(tid, 32);
  Value warpInGroup = ib.rem(ib.div(tid, 32), 4);
  // Rows past the matmul's (a tile's padding) read the last row's scale:
  // their results are never stored.
  Value lastRow =
      g.dynamicRows
          ? arith::SubIOp::create(b, loc, g.dynamicRows, ib.c(1)).getResult()
          : ib.c(g.rows - 1);
  SmallVector<Value> factors;
  for (int64_t h = 0; h < l.numAccs; ++h) {
    Value row0 = ib.add(ib.add(ib.mul(mTile, l.tileM), accRow(b, consumer, h)),
                        ib.add(ib.mul(warpInGroup, 16), ib.div(lane, 4)));
    // A fragment's elements 0-1 of each 8-column block are on row0, 2-3 on
    // row0 + 8.
    for (int64_t half = 0; half < 2; ++half) {
      Value row =
          arith::MinUIOp::create(b, loc, ib.add(row0, 8 * half), lastRow);
      Value factor =
          spec.blockScaleAArg >= 0
              ? load(spec.blockScaleAArg, ib.add(ib.mul(row, kBlocks), kBlock))
              : Value();
      if (scaleB)
        factor = factor
                     ? arith::MulFOp::create(b, loc, factor, scaleB).getResult()
                     : scaleB;
      factors.push_back(factor);
    }
  }
  return factors;
}

SmallVector<Value> WgmmaTmaEmitter::emitPromotion(OpBuilder &b, ValueRange accs,
                                                  ValueRange partials,
                                                  ArrayRef<Value> factors) {
  Type f32 = b.getF32Type();
  SmallVector<Value> results;
  for (auto [h, acc, partial] : llvm::enumerate(accs, partials)) {
    Value result = acc;
    for (int64_t i = 0, e = l.tileN / 2; i < e; ++i) {
      Value sum = LLVM::ExtractValueOp::create(b, loc, acc, i);
      Value part = LLVM::ExtractValueOp::create(b, loc, partial, i);
      Value promoted = LLVM::FMAOp::create(
          b, loc, f32, part, factors[2 * h + (i % 4) / 2], sum);
      result = LLVM::InsertValueOp::create(b, loc, result, promoted, i);
    }
    results.push_back(result);
  }
  return results;
}

SmallVector<Value>
WgmmaTmaEmitter::emitConsumerKLoop(Value consumer, Value laneZero, Value first,
                                   Value mTile, Value nTile, Value split) {
  IndexBuilder ib(b, loc);
  // Every unit has at least one K tile (a split's K tiles past K are
  // zero-filled, not skipped), so the first can always be peeled.
  bool peel = kernel.options.overwriteFirstK;
  // Block-wise promotion sums the scaled partials onto the accumulators
  // with FMAs, not wgmma: those start from zero either way.
  SmallVector<Value> accInit =
      peel && !kernel.spec.hasBlockScales()
          ? getWgmmaPoisonAccs(b, loc, l.numAccs, l.tileN)
          : getWgmmaZeroAccs(b, loc, l.numAccs, l.tileN);
  if (peel)
    accInit = emitConsumerKTile(b, consumer, laneZero, first, mTile, nTile,
                                split, ib.c(0), accInit, /*overwrite=*/true);
  auto kLoop = scf::ForOp::create(b, loc, ib.c(peel ? 1 : 0), ib.c(l.numK),
                                  ib.c(1), accInit);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  SmallVector<Value> acc = emitConsumerKTile(
      b, consumer, laneZero, first, mTile, nTile, split,
      kLoop.getInductionVar(), kLoop.getRegionIterArgs(), /*overwrite=*/false);
  scf::YieldOp::create(b, loc, acc);
  return SmallVector<Value>(kLoop.getResults());
}

SmallVector<Value> WgmmaTmaEmitter::emitConsumerKTile(
    OpBuilder &b, Value consumer, Value laneZero, Value first, Value mTile,
    Value nTile, Value split, Value kt, ValueRange accs, bool overwrite) {
  IndexBuilder lb(b, loc);
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
  bool promote = kernel.spec.hasBlockScales();
  SmallVector<Value> acc;
  if (promote) {
    // Block-wise scales: the K tile's wgmmas start from zero; while they
    // run the consumer loads their scales, and once they retire it adds
    // their partial sums, scaled, to its accumulators (emitPromotion).
    // With overwriteFirstK every K tile's partials overwrite their
    // registers rather than start from zeroed ones.
    bool overwritePartials = kernel.options.overwriteFirstK;
    SmallVector<Value> partialInit =
        overwritePartials ? getWgmmaPoisonAccs(b, loc, l.numAccs, l.tileN)
                          : getWgmmaZeroAccs(b, loc, l.numAccs, l.tileN);
    SmallVector<Value> partials =
        emitWgmmaKTile(b, loc, partialInit, descAs, descB, l.tileN, aType,
                       bType, l.nMajorB, overwritePartials);
    // One fp8 K tile is one K block.
    SmallVector<Value> factors = emitPromotionFactors(
        b, consumer, mTile, nTile, wholeKTile(lb, split, kt));
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
    acc = emitPromotion(b, accs, partials, factors);
  } else {
    acc = emitWgmmaKTile(b, loc, accs, descAs, descB, l.tileN, aType, bType,
                         l.nMajorB, overwrite);
  }
  // The group before this one has retired: its stage is free.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt, lb.c(0)),
         [&](OpBuilder &b) {
           IndexBuilder ib(b, loc);
           ring.emitRelease(b, arith::SubIOp::create(b, loc, it, ib.c(1)),
                            laneZero);
         });
  return acc;
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
      [&](OpBuilder &b, const PersistentTileWalk::Unit &unit) {
        IndexBuilder ib(b, loc);
        Value first = unit.first, mTile = unit.mTile, nTile = unit.nTile;
        if (l.pingpong)
          emitWaitForTurn(b, ring, consumer, unit.sequence);
        SmallVector<Value> accs = emitConsumerKLoop(consumer, laneZero, first,
                                                    mTile, nTile, unit.split);
        // Every full wait of this tile is behind this warp: the other
        // consumer may start its next tile's K loop while this one's last
        // wgmma and epilogue run.
        if (l.pingpong)
          emitHandOver(b, ring, consumer, laneZero);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
        ring.emitRelease(b, ib.add(first, l.numK - 1), laneZero);
        if (l.splits > 1) {
          emitSplitKEpilogue(b, consumer, laneZero, unit, accs);
          return;
        }
        for (int64_t h = 0; h < l.numAccs; ++h) {
          Value rowBase =
              ib.add(ib.mul(mTile, l.tileM), accRow(b, consumer, h));
          emitWgmmaEpilogue(b, loc, kernel, g, ib.c(0), tid, rowBase,
                            ib.mul(nTile, l.weightRows), l.tileN, accs[h]);
        }
      });
}

/// Split K counts each consumer warp's share of a tile on its own slot:
/// the warp's partials are its threads' accumulator registers, stored
/// lane-interleaved (element j of lane t at j x 32 + t, so each store of a
/// warp is one coalesced 128-byte line) and summed by the same lanes of the
/// last warp to arrive, whose fragment layout is the same in every split.
/// Per warp rather than per block: the block's producer and (ping-pong) its
/// other consumer are on other units, so no barrier can gather the block;
/// a warp needs only bar.warp.sync and a shuffle of lane 0's verdict, which
/// ptxas knows is warp-uniform.
void WgmmaTmaEmitter::emitSplitKEpilogue(OpBuilder &b, Value consumer,
                                         Value laneZero,
                                         const PersistentTileWalk::Unit &unit,
                                         ArrayRef<Value> accs) {
  IndexBuilder ib(b, loc);
  auto i32 = b.getI32Type();
  // Warps per tile: a ping-pong consumer's 4, or both cooperative ones' 8.
  int64_t warpsPerTile = l.pingpong ? 4 : 8;
  int64_t accElems = l.tileN / 2;
  SplitKWorkspace w = emitSplitKWorkspace(
      b, loc, kernel, l.splits, l.tilesM * l.tilesN * warpsPerTile,
      l.numAccs * accElems * 32);
  Value warpInGroup = ib.rem(ib.div(tid, 32), 4);
  Value warpSlot =
      l.pingpong ? warpInGroup : ib.add(ib.mul(consumer, 4), warpInGroup);
  Value tileId = ib.add(ib.mul(unit.mTile, l.tilesN), unit.nTile);
  w.tileId = ib.add(ib.mul(tileId, warpsPerTile), warpSlot);
  Value lane = ib.rem(tid, 32);
  auto indexOf = [&](IndexBuilder &ib, Value split, int64_t h, int64_t j) {
    return getSplitKPartialIndex(ib, w, split, w.tileId,
                                 ib.c(h * accElems + j), lane, 32);
  };
  for (int64_t h = 0; h < l.numAccs; ++h)
    for (int64_t j = 0; j < accElems; ++j)
      memref::StoreOp::create(
          b, loc,
          LLVM::ExtractValueOp::create(b, loc, accs[h], ArrayRef<int64_t>{j}),
          w.partials, ValueRange{indexOf(ib, unit.split, h, j)});
  emitDeviceFence(b, loc);
  Value fullMask = constI32(b, loc, -1);
  NVVM::SyncWarpOp::create(b, loc, fullMask);
  auto arrival = scf::IfOp::create(b, loc, TypeRange{i32}, laneZero,
                                   /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(arrival.thenBlock());
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::ExtUIOp::create(
                             b, loc, i32, emitSplitKArrival(b, loc, w,
                                                            w.tileId))});
    b.setInsertionPointToStart(arrival.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{constI32(b, loc, 0)});
  }
  Value verdict =
      NVVM::ShflOp::create(b, loc, i32, fullMask, arrival.getResult(0),
                           constI32(b, loc, 0), constI32(b, loc, 0x1f),
                           NVVM::ShflKind::idx, UnitAttr())
          .getResult();
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       verdict, constI32(b, loc, 0));
  emitIf(b, loc, isLast, [&](OpBuilder &b) {
    // Lane 0's fence after its count acquires the other splits' partials;
    // the warp barrier orders its lanes' loads after it.
    emitDeviceFence(b, loc);
    NVVM::SyncWarpOp::create(b, loc, fullMask);
    // Each sum is loaded where the epilogue reads its element, so no
    // whole accumulator of sums is held (that spilled at 64x128 and up).
    IndexBuilder ib(b, loc);
    for (int64_t h = 0; h < l.numAccs; ++h) {
      Value rowBase =
          ib.add(ib.mul(unit.mTile, l.tileM), accRow(b, consumer, h));
      emitWgmmaEpilogue(b, loc, kernel, g, ib.c(0), tid, rowBase,
                        ib.mul(unit.nTile, l.weightRows), l.tileN,
                        [&](OpBuilder &b, int64_t j) {
                          return emitSplitKSum(
                              b, loc, w, [&](IndexBuilder &ib, Value split) {
                                return indexOf(ib, split, h, j);
                              });
                        });
    }
    emitIf(b, loc, laneZero,
           [&](OpBuilder &b) { emitSplitKReset(b, loc, w, w.tileId); });
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
