//===- HopperBuildingBlocks.h - the wgmma paths' sm_90a pieces --*- C++ -*-===//
//
// What the Hopper paths (WgmmaPaths.cpp) build their kernels from, as
// functions a new sm_90a kernel (another tile, split K on TMA) reuses
// instead of copying:
//  - wgmma: the matrix descriptor of a 128-byte-swizzled K-major tile, the
//    m64nN accumulator, one 64-deep K tile of wgmma.mma_async, and the
//    fused epilogue on an accumulator;
//  - the warpgroup index as a value ptxas knows is warp-uniform;
//  - StageRing: the mbarrier-guarded ring of shared-memory stages a TMA
//    producer fills and wgmma consumers drain (barrier layout and init,
//    parity waits, the consumers' release in every block of a cluster);
//  - TmaProducer: the TMA loads of one K tile into a stage (A's box and
//    this block's multicast share of each weight's);
//  - the ping-pong hand-over of the K loop between two consumer
//    warpgroups (the ring's `order` barriers);
//  - PersistentTileWalk: the grouped order in which a persistent grid of
//    clusters walks its output tiles.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_CONVERSION_KERNELSTOGPU_HOPPERBUILDINGBLOCKS_H
#define SOL_CONVERSION_KERNELSTOGPU_HOPPERBUILDINGBLOCKS_H

#include "KernelCodegen.h"

#include "SolDialect/TensorMapBox.h"

namespace mlir::sol::codegen {

//===----------------------------------------------------------------------===//
// Integer constants and casts the NVVM ops take
//===----------------------------------------------------------------------===//

Value constI32(OpBuilder &b, Location loc, int64_t v);
Value constI64(OpBuilder &b, Location loc, int64_t v);
Value indexToI32(OpBuilder &b, Location loc, Value index);
Value indexToI64(OpBuilder &b, Location loc, Value index);

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// A wgmma matrix descriptor for a K-major operand tile at shared-window
/// byte address `byteAddress` (1024-byte aligned), stored in 128-byte rows
/// with the 128-byte swizzle.
Value makeWgmmaDescriptor(OpBuilder &b, Location loc, Value byteAddress);

/// A wgmma matrix descriptor for an N-major B tile at `byteAddress`
/// (1024-byte aligned): blocks of 64 columns (128-byte rows, the 128-byte
/// swizzle), one K row after another, `blockBytes` apart along N.
Value makeNMajorWgmmaDescriptor(OpBuilder &b, Location loc, Value byteAddress,
                                int64_t blockBytes);

/// The m64n{tileN} accumulator of one warpgroup: tileN / 2 f32 per thread.
LLVM::LLVMStructType getWgmmaAccType(MLIRContext *ctx, int64_t tileN);

/// Issues one 64-deep K tile as four k16 steps of m64n{tileN}k16
/// wgmma.mma_async per accumulator (`accs[i]` reads the 64 rows of A at
/// `descAs[i]`, all read B at `descB`) and commits them as one group (the
/// caller waits on it). `nMajorB`: descB is makeNMajorWgmmaDescriptor's,
/// which wgmma reads transposed.
SmallVector<Value> emitWgmmaKTile(OpBuilder &b, Location loc, ValueRange accs,
                                  ValueRange descAs, Value descB, int64_t tileN,
                                  bool isBF16, bool nMajorB = false);
/// The same for operands of element types `aType` and `bType` (f16, bf16,
/// or fp8 in any e4m3/e5m2 pair): a K tile is one 128-byte row, four
/// instructions of 32 bytes of K each (k16 for 16-bit elements, k32 for
/// fp8, whose B must be K-major: wgmma transposes 16-bit operands only).
/// With `overwrite` the first instruction writes D = A x B (wgmma's
/// scale-d = 0) and reads nothing of `accs`, which may be poison
/// (getWgmmaPoisonAccs): the K tile starts the accumulators.
SmallVector<Value> emitWgmmaKTile(OpBuilder &b, Location loc, ValueRange accs,
                                  ValueRange descAs, Value descB, int64_t tileN,
                                  Type aType, Type bType, bool nMajorB,
                                  bool overwrite = false);

/// `count` zeroed m64n{tileN} accumulators, for a K loop that adds onto
/// them from its first wgmma.
SmallVector<Value> getWgmmaZeroAccs(OpBuilder &b, Location loc, int64_t count,
                                    int64_t tileN);

/// `count` m64n{tileN} accumulators with no value, for a K tile that
/// overwrites them: no register is written before the first wgmma, so
/// ptxas need not fence the wgmma pipeline for it (C7519: an injected
/// warpgroup.arrive; C7517: an injected warpgroup.wait).
SmallVector<Value> getWgmmaPoisonAccs(OpBuilder &b, Location loc, int64_t count,
                                      int64_t tileN);

/// The epilogue of a warpgroup's m64n{tileN} accumulator whose first row is
/// `rowBase` (warp w of the warpgroup holds rows 16w..16w+15, laid out like
/// an m16n8 mma.sync fragment per 8 columns). With sibling matmuls the
/// accumulator's first tileN / 2 columns are the first weight's and the
/// rest the sibling's, at the same output columns.
void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                       const MatmulGeometry &g, Value batchSlice, Value tid,
                       Value rowBase, Value colBase, int64_t tileN, Value acc);
/// The same with the accumulator's element `i` (of tileN / 2) produced by
/// `accAt` where the epilogue reads it: a split-K sum is then loaded when
/// its fragment is stored instead of held in registers for the whole tile.
void emitWgmmaEpilogue(OpBuilder &b, Location loc, GpuKernel &kernel,
                       const MatmulGeometry &g, Value batchSlice, Value tid,
                       Value rowBase, Value colBase, int64_t tileN,
                       function_ref<Value(OpBuilder &, int64_t)> accAt);

/// The warpgroup of thread `tid` through a warp shuffle, as CUTLASS's
/// canonical_warp_group_idx: ptxas then knows it is warp-uniform, and so
/// are the branches and loop bounds derived from it (a branch it thinks
/// divergent around the wgmma makes it serialise them, C7520).
Value emitWarpUniformWarpgroup(OpBuilder &b, Location loc, Value tid);

/// Every block of the cluster arrives, then waits for all the others.
void emitClusterSync(OpBuilder &b, Location loc);

//===----------------------------------------------------------------------===//
// The mbarrier-guarded stage ring
//===----------------------------------------------------------------------===//

/// The shared-window byte address of the first `align`-byte boundary of
/// the block's dynamic shared memory (the plan reserves the slack).
Value emitAlignedDynamicSharedBase(OpBuilder &b, Location loc, int64_t align);

/// The ring of `stages` shared-memory stages a TMA producer fills and wgmma
/// consumers drain, from shared-window byte address `base` (1024-byte
/// aligned: TMA's and wgmma's 128-byte swizzle is a function of the
/// address bits): the stages' A tiles, their B tiles, then a `full`
/// mbarrier per stage (transaction-counted: the TMA completes it), an
/// `empty` one per stage (the consumers' warps arrive when their wgmma
/// have read it) and, for ping-pong consumers, the two `order` barriers of
/// the hand-over (getWgmmaTmaSmemBytes sizes all of it).
/// Iteration `it` of a block's flattened (tile, K tile) walk uses stage
/// it % stages in round it / stages; round r of a stage is phase r of its
/// barriers, so waits test the parity r & 1.
struct StageRing {
  StageRing(Location loc, int64_t stages, int64_t aStageBytes,
            int64_t bStageBytes, int64_t cluster)
      : loc(loc), stages(stages), aStageBytes(aStageBytes),
        bStageBytes(bStageBytes), cluster(cluster) {}

  Location loc;
  /// Set once emitted (emitAlignedDynamicSharedBase).
  Value base;
  int64_t stages, aStageBytes, bStageBytes;
  /// The blocks of the cluster: a stage is free only when the consumers of
  /// every one of them released it.
  int64_t cluster;
  /// The suspend-time hint of every parity wait; set by emitWaitTicks.
  Value waitTicks;

  int64_t getBOffset() const { return stages * aStageBytes; }
  int64_t getBarrierOffset() const {
    return stages * (aStageBytes + bStageBytes);
  }

  /// base + `byteOffset` as a pointer into this block's shared memory.
  Value sharedAt(OpBuilder &b, Value byteOffset) const;
  /// The same in the cluster's shared window (this block's own shared
  /// memory is part of it), where TMA names its destination.
  Value clusterAt(OpBuilder &b, Value byteOffset) const;
  /// `first` + `stage` x `bytes`: the ring offset of entry `stage` of an
  /// array of `bytes`-byte entries at ring offset `first`.
  Value stageOffset(OpBuilder &b, Value stage, int64_t first,
                    int64_t bytes) const;
  Value aStageOffset(OpBuilder &b, Value stage) const {
    return stageOffset(b, stage, 0, aStageBytes);
  }
  Value bStageOffset(OpBuilder &b, Value stage) const {
    return stageOffset(b, stage, getBOffset(), bStageBytes);
  }
  Value fullBarrier(OpBuilder &b, Value stage) const;
  Value emptyBarrier(OpBuilder &b, Value stage) const;
  /// Consumer `consumer`'s `order` barrier (ping-pong only).
  Value orderBarrier(OpBuilder &b, Value consumer) const;

  /// Initialises every stage's barriers (one thread): `full` takes the
  /// producer's one arrival (plus the TMA's transactions), `empty` the
  /// `emptyArrivals` of the consuming warps.
  void emitInit(OpBuilder &b, int64_t emptyArrivals) const;
  /// The constant every parity wait passes as its suspend-time hint.
  void emitWaitTicks(OpBuilder &b);
  /// The parity of round `round`'s phase.
  Value parity(OpBuilder &b, Value round) const;
  /// Waits until `barrier` has completed the phase of parity `phase`.
  void emitWait(OpBuilder &b, Value barrier, Value phase) const;
  /// Lane 0 of each warp (whose wgmma have all retired) arrives on
  /// iteration `it`'s stage's empty barrier in every block of the cluster.
  void emitRelease(OpBuilder &b, Value it, Value laneZero) const;
};

//===----------------------------------------------------------------------===//
// The ping-pong hand-over
//===----------------------------------------------------------------------===//
//
// Ping-pong consumer c may start its K loop of a tile once the other
// consumer's warps have passed every `full` wait of the tile before, on c's
// `order` barrier; so the waits of a stage's rounds happen in round order
// and a parity wait can never match a round two behind.

/// Initialises both order barriers (one thread, with the ring's): four
/// arrivals (a consumer's warps) each, and consumer 0's first phase
/// completed up front, as its first tile waits for nobody.
void emitHandOverInit(OpBuilder &b, const StageRing &ring);
/// Consumer `consumer` waits for its turn to run the K loop of the block's
/// `sequence`-th unit.
void emitWaitForTurn(OpBuilder &b, const StageRing &ring, Value consumer,
                     Value sequence);
/// Consumer `consumer`, past every full wait of its tile, hands the K loop
/// to the other one (lane 0 of each warp arrives).
void emitHandOver(OpBuilder &b, const StageRing &ring, Value consumer,
                  Value laneZero);

//===----------------------------------------------------------------------===//
// The TMA producer
//===----------------------------------------------------------------------===//

/// The TMA loads that fill a StageRing: A's box of rows of the block's M
/// tile, then, for each weight, this block's share of the weight's rows of
/// the N tile, multicast to every block of the cluster (the C blocks of a
/// cluster share one N tile, so B crosses L2 once per cluster). The boxes
/// are the manifest's (TensorMapBox.h); out-of-bounds boxes zero-fill.
struct TmaProducer {
  const StageRing &ring;
  /// The maps' generic addresses (of by-value parameters once lowered):
  /// A's, then one per weight.
  Value mapA;
  ValueRange mapBs;
  TensorMapBox boxA, boxB;
  /// This block's rank in its cluster.
  Value rank;
  /// Set for one N-major ([K, N]) weight: the B tile's width, loaded as
  /// kNMajorBoxColumns-wide boxes of `nMajorBox` (no cluster).
  int64_t nMajorTileN = 0;
  NMajorTensorMapBox nMajorBox{0, 0};

  /// Each weight's rows of an N tile: every block's share.
  int64_t getWeightRows() const { return boxB.rows * ring.cluster; }

  /// Loads K tile `kt` of output tile (mTile, nTile), iteration `it` of
  /// the block's walk: waits until every consumer released the stage's
  /// previous round, arms its full barrier with the bytes the stage
  /// receives, and issues the loads.
  void emitKTile(OpBuilder &b, Value it, Value kt, Value mTile,
                 Value nTile) const;
};

//===----------------------------------------------------------------------===//
// The persistent tile walk
//===----------------------------------------------------------------------===//

/// How a persistent grid of clusters walks its output tiles: units (a
/// cluster's column of `cluster` M tiles at one N tile, and with split K one
/// of its `splits` runs of K tiles) clusterId, clusterId + numClusters, ...
/// in grouped order (8 cluster rows of tiles at a time, down the rows first,
/// so the blocks resident at once share A row panels and B column panels in
/// L2); split K walks every tile's first split, then every tile's second,
/// ... Each unit is `numK` iterations of the flattened (tile, K tile) walk
/// the StageRing counts.
struct PersistentTileWalk {
  Value clusterId, numClusters, rank;
  int64_t cluster, unitsM, tilesN, numK;
  int64_t splits = 1;
  /// A dynamic kernel's count of cluster rows, of units and of tile units
  /// (units without their splits) at the launch's rows (replacing unitsM,
  /// units and tile units); null for a static kernel.
  Value dynamicUnitsM, dynamicUnits, dynamicTileUnits;

  int64_t getTileUnits() const { return unitsM * tilesN; }
  int64_t getUnits() const { return getTileUnits() * splits; }

  /// The unit's place in the walk, as the body of forEachUnit gets it.
  struct Unit {
    /// Its place in the block's sequence and its first iteration of the
    /// flattened walk.
    Value sequence, first;
    Value mTile, nTile;
    /// Its split (its K tiles start at split x numK); null without split K.
    Value split;
  };

  /// Runs `body` for the block's units from its `skip`-th, every
  /// `every`-th.
  void forEachUnit(OpBuilder &b, Location loc, Value skip, int64_t every,
                   function_ref<void(OpBuilder &, const Unit &)> body) const;
};

} // namespace mlir::sol::codegen

#endif // SOL_CONVERSION_KERNELSTOGPU_HOPPERBUILDINGBLOCKS_H
