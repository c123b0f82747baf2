//===- TilePlan.h - the planner of sol kernels ----------------*- C++ -*-===//
//
// What sol-tile decides for each kernel and the GPU code generator obeys:
// the #sol.plan (path, tiles, warps, stages, split, cluster, schedule; the
// launch geometry they give is derived, getPlanLaunchGeometry), chosen among
// the candidates every kernel path offers (KernelPath.h) by the cost model's
// prediction. A kernel whose outermost dim is dynamic gets a table of such
// plans over ranges of it, and each path's rule for the grid at the launch's M.
//
// Below the planner, each path's own builders and shared-memory layouts,
// which its generator and the tests call: they are defined in the path's
// file, lib/Analysis/KernelPaths/<Name>Path.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_TILEPLAN_H
#define SOLDIALECT_TILEPLAN_H

#include "SolDialect/CostModel.h"
#include "SolDialect/KernelPath.h"
#include "SolDialect/SolDialect.h"

#include <algorithm>
#include <string>

namespace mlir::sol {

/// The refusal of a weight-only fp8 matmul (a 16-bit A against fp8 weight
/// codes, docs/fp8.md) by a path whose operand loads do not convert the
/// weight alone (every path but gemv); empty for any other matmul. `needs`
/// says what the path would need.
std::string whyNotWeightOnlyFp8(const MatmulShape &shape, StringRef path,
                                StringRef needs);

/// The refusal of a matmul with block-wise fp8 scales (docs/fp8.md,
/// "Block-wise scales") by a path that does not scale each K block's
/// partial sum (every path but wgmma_tma); empty for any other matmul.
std::string whyNotBlockScales(const MatmulShape &shape, StringRef path);

//===----------------------------------------------------------------------===//
// mma_sync (KernelPaths/MmaSyncPath.cpp)
//===----------------------------------------------------------------------===//

/// One block tile of the mma.sync path (m16n8k16 instructions): each warp
/// owns a (tileM / warpsM) x (tileN / warpsN) accumulator tile. With
/// `kSplits` > 1, that many blocks (grid z) share an output tile, each
/// taking a run of K tiles; the last to finish sums their f32 partials and
/// runs the epilogue (the plan's split_k; unbatched matmuls only).
struct MmaSyncTile {
  int64_t tileM, tileN, tileK, warpsM, warpsN, stages;
  int64_t kSplits = 1;
};

/// The tiles the mma.sync generator implements: large prefill tiles first,
/// then the decode tiles (16 rows, a 256-deep one, a split-K one).
ArrayRef<MmaSyncTile> getMmaSyncTiles();

/// Empty when the mma.sync path can compute `shape`, else the rule it
/// breaks (stated for the user: the dtype, or the 16-byte load alignment).
std::string whyNotMmaSync(const MatmulShape &shape);
/// Empty when `target`'s chip runs the mma.sync path (sm_80 and newer).
std::string whyNotMmaSyncOnChip(TargetAttr target);

/// Dynamic shared memory of an mma.sync kernel: `stages` copies of the A and
/// B tiles of `elementBytes`-byte elements (2; 1 for fp8), each row padded
/// by 16 bytes so ldmatrix reads are conflict-free.
int64_t getMmaSyncSmemBytes(const MmaSyncTile &tile, bool transposeB,
                            int64_t elementBytes);
/// Row pitch (in elements) of the shared-memory A tile and B tile: the
/// tile's row and 16 bytes.
int64_t getMmaSyncAPitch(const MmaSyncTile &tile, int64_t elementBytes);
int64_t getMmaSyncBPitch(const MmaSyncTile &tile, bool transposeB,
                         int64_t elementBytes);
/// The K one mma.sync instruction takes: 16 for f16/bf16 (m16n8k16), 32 for
/// fp8 (m16n8k32); either is 32 bytes of each row.
int64_t getMmaSyncInstructionK(Type elementType);
/// Whether mma.sync's fp8 form is the one the chip's fp8 matmuls should
/// take by default: on sm_89 (Ada) it is the only fp8 tensor-core
/// instruction; on sm_90 wgmma is, at twice the rate, and mma.sync's fp8 is
/// not measured there, so only hopper-mma-sync-fp8 lets it in
/// (PlanConstraints::hopperMmaSyncFp8).
bool isMmaSyncFp8DefaultOnChip(TargetAttr target);

/// The plan builders below return null where the plan's grid breaks CUDA's
/// launch limits (KernelPathInfo::buildPlan).
PlanAttr getMmaSyncPlan(MLIRContext *context, const MatmulShape &shape,
                        const MmaSyncTile &tile);

//===----------------------------------------------------------------------===//
// wgmma (KernelPaths/WgmmaPath.cpp)
//===----------------------------------------------------------------------===//

/// Dynamic shared memory of a wgmma kernel: `stages` copies of a tileM x 64
/// A tile and an n x 64 B tile, unpadded (the 128-byte swizzle spreads
/// banks).
int64_t getWgmmaSmemBytes(int64_t tileN, int64_t stages, int64_t tileM = 128);
/// Empty when wgmma's tensor cores can compute `shape` on `target` with
/// either weight layout (the chip, the element type, K's alignment).
std::string whyNotWgmmaTensorCores(const MatmulShape &shape, TargetAttr target);
/// Empty when the wgmma path can compute `shape` on `target`.
std::string whyNotWgmma(const MatmulShape &shape, TargetAttr target);
PlanAttr getWgmmaPlan(MLIRContext *context, const MatmulShape &shape,
                      int64_t tileN, int64_t stages);

//===----------------------------------------------------------------------===//
// wgmma_tma (KernelPaths/WgmmaTmaPath.cpp)
//===----------------------------------------------------------------------===//

/// The TMA-fed, warp-specialised, persistent wgmma path: a producer
/// warpgroup and two consumer warpgroups; `smem` adds the stage ring's
/// mbarriers (and, ping-pong, the consumers' two order mbarriers) to the
/// wgmma tiles.
constexpr int64_t kWgmmaTmaThreads = 384;
/// Whether a wgmma_tma tile `tileN` wide can read an N-major weight: the
/// tile loads as tileN / 64 boxes side by side, and a cluster's multicast
/// shares are cut along K-major rows only, so no cluster.
bool fitsNMajorWeight(int64_t tileN, int64_t cluster);
constexpr int64_t kWgmmaTmaAlignSlack = 1024;
int64_t
getWgmmaTmaSmemBytes(int64_t tileN, int64_t stages,
                     ConsumerSchedule schedule = ConsumerSchedule::cooperative,
                     int64_t tileM = 128);
/// Empty when the wgmma_tma path can compute `shape` on `target`.
std::string whyNotWgmmaTma(const MatmulShape &shape, TargetAttr target);
/// Empty when sibling matmuls over `shape` (the shape of one of them)
/// can run as one wgmma_tma kernel on `target`: the only generator that
/// takes two weights. It loads both weights' boxes into one stage and
/// multiplies them as one B of twice the width; at fewer rows than one
/// 128-row tile (decode) the weights are streamed once either way and the
/// single-matmul paths (gemv, split K) are the fast ones.
std::string whyNotSiblingWgmmaTma(const MatmulShape &shape, TargetAttr target);
/// A persistent grid of at most one block per SM, in whole clusters of
/// `cluster` blocks along M. Cooperative: the two consumer warpgroups split
/// each tile's rows (warps = [2, 1]): 64 each of a 128-row tile, or 128 each
/// (two m64 accumulators) of a 256-row one; ping-pong: each takes whole
/// 128-row tiles in turn (warps = [1, 1]).
/// Ping-pong consumers also take 64-row tiles (one m64 accumulator each).
/// With `splitK` > 1 (no cluster, one matmul) each tile's K tiles run as
/// that many units of the walk, summed by the last to finish.
PlanAttr
getWgmmaTmaPlan(MLIRContext *context, const MatmulShape &shape, int64_t tileN,
                int64_t stages, int64_t cluster, int64_t smCount,
                ConsumerSchedule schedule = ConsumerSchedule::cooperative,
                int64_t tileM = 128, int64_t splitK = 1);
/// Whether `plan` is one of the wgmma_tma plans for small M that only
/// small-m-tma offers (PlanConstraints::smallMTma): a 64-row tile or split
/// K.
bool isSmallMTmaPlan(PlanAttr plan);
/// Whether `plan` is swap_ab's 64-row tile, which only swap-ab-row-tile-64
/// allows (PlanConstraints::swapAbRowTile64).
bool isSwapAbRowTile64Plan(PlanAttr plan);
/// Whether swap_ab offers `shape` its 64-row tile: weight-only fp8 codes
/// past 32 rows, where it otherwise stacks 32-row blocks.
bool mayTakeSwapAbRowTile64(const MatmulShape &shape);

//===----------------------------------------------------------------------===//
// gemv, simt and elementwise (KernelPaths/{Gemv,Simt,Elementwise}Path.cpp)
//===----------------------------------------------------------------------===//

/// Empty when the gemv path can compute `shape`, else the rule it breaks.
std::string whyNotGemv(const MatmulShape &shape);
/// Empty when `target`'s chip runs the gemv path (its warp shuffles: sm_30
/// and newer).
std::string whyNotGemvOnChip(TargetAttr target);
/// The gemv path: `kGemvWarps` warps per block, one output column each.
PlanAttr getGemvPlan(MLIRContext *context, const MatmulShape &shape);
constexpr int64_t kGemvWarps = 4;
constexpr int64_t kGemvMaxRows = 16;
/// 128-bit weight loads a gemv lane issues per step of its K loop (its
/// bytes in flight).
constexpr int64_t kGemvLoadsPerStep = 4;

//===----------------------------------------------------------------------===//
// swap_ab (KernelPaths/SwapAbPath.cpp)
//===----------------------------------------------------------------------===//

/// Empty when the swap_ab path can compute `shape`, else the rule it breaks.
std::string whyNotSwapAb(const MatmulShape &shape);
/// The swap_ab plan for `shape`: `warpsK` warps split each block's K, each
/// of `groups` warp groups owns 16 output columns (tile = [rows rounded up
/// to n8 tiles, 16 x groups, the block's K per trip]; warps = [warpsK,
/// groups]). Null where the grid breaks CUDA's launch limits.
PlanAttr getSwapAbPlan(MLIRContext *context, const MatmulShape &shape,
                       int64_t warpsK, int64_t groups);
/// Rows of A (tokens) one swap_ab block serves: four n8 MMA tiles.
constexpr int64_t kSwapAbMaxRows = 32;
/// Weight rows (output columns) per warp: the m16 of mma.sync.
constexpr int64_t kSwapAbColumnsPerWarp = 16;

/// The SIMT matmul: a 16x16 block of threads, one output element each.
PlanAttr getSimtMatmulPlan(MLIRContext *context, const MatmulShape &shape);
/// Elementwise kernels: `kElementwiseBlock` threads, `vector` consecutive
/// elements of the innermost dim each (tile = [threads x vector]).
PlanAttr getElementwisePlan(MLIRContext *context, int64_t numElements,
                            int64_t vector = 1);
/// Elements per thread for an elementwise kernel: 16 bytes of its narrowest
/// type (one 128-bit access), halved until it divides the innermost dim so
/// a vector never straddles rows (broadcast inputs index by row).
int64_t getElementwiseVector(KernelOp kernel);
constexpr int64_t kElementwiseBlock = 256;
constexpr int64_t kSimtBlockEdge = 16;

//===----------------------------------------------------------------------===//
// The planner (TilePlan.cpp)
//===----------------------------------------------------------------------===//

/// The decision sol-tile records for one kernel, with its reason.
struct PlanChoice {
  PlanAttr plan;
  CostAttr cost;      // the prediction under that plan
  std::string reason; // why this plan, for remarks
  /// The plan and its prediction alone (the start of `reason`), for remarks
  /// that say why elsewhere (a plan table's rows).
  std::string description;
};

/// What the caller lets the tiler choose from (measurements compare paths).
struct PlanConstraints {
  /// Matmul paths allowed; empty: all. The SIMT fallback is always allowed.
  SmallVector<KernelPath> paths;
  int64_t minCluster = 1, maxCluster = 1;
  int64_t maxSplitK = 16;
  /// wgmma_tma consumer schedules allowed; empty: all. Other paths have no
  /// schedule to constrain.
  SmallVector<ConsumerSchedule> schedules;
  /// wgmma and wgmma_tma output tiles (M, N) allowed; empty: all. The other
  /// paths' tiles are not constrained.
  SmallVector<std::pair<int64_t, int64_t>> tiles;
  /// Plans of these families alone (isSamePlanFamily); empty: all. The
  /// plan table prices one row's plan at another M through it.
  SmallVector<PlanAttr> families;
  /// Whether wgmma_tma may take a [K, N] weight (read N-major; on by default
  /// since the GPU matrix's _kn cases passed on the H200 on 2026-12-01,
  /// bench/results/2026-12-01-h200-s6-matrix). Off: mma.sync, for A/B.
  bool nMajorTma = true;
  /// Whether wgmma_tma may take its small-M plans (isSmallMTmaPlan: 64-row
  /// ping-pong tiles, split K). On: the GPU matrix passed them
  /// (bench/results/2026-12-01-h200-s7-matrix) and the sweep timed them at
  /// 1.0-3.1x the default plans' speed (median 1.6x) on M = 37-128 against
  /// a wide weight, one split plan aside that the cost model now prices
  /// (bench/results/2026-12-03-h200-s8-smallm). Off: for A/B.
  bool smallMTma = true;
  /// Whether a sibling pair may take those 64-row tiles too. The GPU
  /// matrix's 64-row cases are single matmuls: the pair's epilogue on one
  /// m64 accumulator per ping-pong consumer has not run on a GPU, so it is
  /// off until it has (the GPU bundle's _sib64 cases ask for it).
  bool smallMSiblings = false;
  /// Whether weight-only fp8 swap_ab past 32 rows may take a 64-row tile
  /// (isSwapAbRowTile64Plan), converting each code once for eight n8 tiles
  /// where stacked 32-row blocks convert it once per 32 rows. Off: not yet
  /// measured (bench/NOTES.md section 46), priced with the 32-row tile's
  /// measured step.
  bool swapAbRowTile64 = false;
  /// Whether a matmul with block-wise fp8 scales may split K on wgmma_tma
  /// (each split promotes its own K tiles; the splits' promoted partials
  /// sum as any split's do). Off: not yet run on a GPU; the GPU bundle's
  /// _blocksk cases ask for it (at 64 rows the block-wise MLP ran 80 tiles
  /// of 20 K steps on an H100's 132 SMs: 60.5 us where the per-token
  /// kernel splits K and took 18.5, bench/NOTES.md section 51).
  bool blockSplitK = false;
  /// Whether mma.sync may take fp8 matmuls on sm_90, where wgmma is fp8's
  /// full-rate path (isMmaSyncFp8DefaultOnChip). Off: mma.sync's fp8 form
  /// has not run on a Hopper GPU; on, for the GPU matrix and A/B (an H100
  /// runs the instruction an sm_89 card would).
  bool hopperMmaSyncFp8 = false;
  /// Test-only: plans that split K over exactly this many blocks (0: any),
  /// so the GPU matrix can run split K where the model would not pick it.
  int64_t splitK = 0;
  /// Which candidate, in the cost model's order, the choice takes: 0 the
  /// best, 1 the runner-up, ...; clamped to the last candidate. What a
  /// measured choice (the torch backend's tuning) compiles in turn; a plan
  /// table applies it at each sample point (choosePlanTable).
  int64_t rank = 0;
  /// A measured plan to take where it is among the candidates (the plan
  /// cache's entry for the kernel, include/SolDialect/PlanCache.h); null:
  /// the cost model's choice. One that is not a candidate (the kernel or the
  /// paths changed since it was measured) leaves the choice to the model,
  /// and the reason says so.
  PlanAttr cachedPlan;
  /// These constraints narrowed to plans of the families `only`, at rank 0: the
  /// choice among the families themselves (the plan table's pricing of one
  /// row's plan at another M, its boundaries) is the cost model's, whatever
  /// rank picked the families.
  PlanConstraints pinnedTo(ArrayRef<PlanAttr> only) const {
    PlanConstraints pinned = *this;
    pinned.families.assign(only.begin(), only.end());
    pinned.rank = 0;
    return pinned;
  }
  /// Empty when `path` may take `shape` on `target` at all under these
  /// constraints; else the option that holds it back, for the remark.
  std::string whyHeldBack(KernelPath path, const MatmulShape &shape,
                          TargetAttr target) const;
  /// Whether the constraints beyond `paths` rule out plans a default choice
  /// could take (the limits only cap what the model may pick).
  bool narrowsPlans() const {
    return minCluster > 1 || !schedules.empty() || !tiles.empty() ||
           !families.empty() || splitK != 0;
  }
  /// Whether `plan` may run `shape` under these constraints.
  bool allows(PlanAttr plan, const MatmulShape &shape) const;
  /// swap-ab-row-tile-64 off: no 64-row swap_ab tile; on: weight-only
  /// swap_ab past 32 rows takes it alone (the A/B against stacked 32-row
  /// blocks; the model prices the 64-row tile with the 32-row tile's step).
  bool allowsSwapAbRowTile(PlanAttr plan, const MatmulShape &shape) const {
    if (!swapAbRowTile64)
      return !isSwapAbRowTile64Plan(plan);
    return plan.getPath() != KernelPath::swap_ab ||
           !mayTakeSwapAbRowTile64(shape) || isSwapAbRowTile64Plan(plan);
  }
};

/// Whether `a` and `b` are one plan built at two values of M: the same
/// path, tile (but a gemv's row count, which is M), warps, stages, split_k,
/// schedule and cluster: what differs is what follows M, the grid and a
/// gemv's rows.
bool isSamePlanFamily(PlanAttr a, PlanAttr b);

inline bool PlanConstraints::allows(PlanAttr plan,
                                    const MatmulShape &shape) const {
  bool isWgmma = plan.getPath() == KernelPath::wgmma ||
                 plan.getPath() == KernelPath::wgmma_tma;
  return plan.getCluster() >= minCluster && plan.getCluster() <= maxCluster &&
         plan.getSplitK() <= maxSplitK &&
         (splitK == 0 || plan.getSplitK() == splitK) &&
         (smallMTma || !isSmallMTmaPlan(plan)) &&
         (smallMSiblings || shape.siblings <= 1 || !isSmallMTmaPlan(plan)) &&
         (blockSplitK || !shape.blockScales || plan.getSplitK() == 1) &&
         allowsSwapAbRowTile(plan, shape) &&
         (paths.empty() || llvm::is_contained(paths, plan.getPath())) &&
         (schedules.empty() ||
          !lookupKernelPath(plan.getPath()).hasConsumerSchedule() ||
          llvm::is_contained(schedules, plan.getSchedule())) &&
         (tiles.empty() || !isWgmma ||
          llvm::is_contained(
              tiles, std::make_pair(plan.getTile()[0], plan.getTile()[1]))) &&
         (families.empty() || llvm::any_of(families, [&](PlanAttr family) {
            return isSamePlanFamily(plan, family);
          }));
}

/// Chooses the plan of `kernel` on `target`: every candidate a registered
/// path offers for its matmul (getKernelPaths: gemv, mma.sync tiles, wgmma
/// and wgmma_tma tiles) that `constraints` allow, priced by the cost model;
/// the fastest wins, ties (within 0.1%) to the fewest padded outputs, then
/// to the first listed; with `constraints.rank` K, the K-th in that order
/// (clamped to the last). The fallback path (SIMT) when no other can take the
/// matmul; the elementwise plan without a matmul; for a sibling pair the
/// paths that take one (wgmma_tma). Fails with a reason when a shape is
/// dynamic, the kernel holds matmuls that are neither one nor a sibling pair,
/// no generator takes the pair, or the constraints leave no path.
FailureOr<PlanChoice> chooseKernelPlan(KernelOp kernel, TargetAttr target,
                                       std::string &failureReason,
                                       const PlanConstraints &constraints = {});

/// `chooseKernelPlan` for the static instance of dynamic `kernel` at `dim`
/// (cloneKernelAtDim), `dim` >= 1 (at 0 there is nothing to price: the
/// launch runs nothing).
FailureOr<PlanChoice> chooseKernelPlanAtDim(KernelOp kernel, int64_t dim,
                                            TargetAttr target,
                                            std::string &failureReason,
                                            const PlanConstraints &constraints);

/// One row of a dynamic kernel's plan table: its range of M, its plan built
/// at m_max (and that plan's prediction there), and, for remarks, why it
/// is this plan and why it ends where it does.
struct PlanTableRow {
  int64_t mMin = 0, mMax = 0;
  PlanChoice choice;
  std::string boundary;
};

/// The plan table of `kernel`, whose outermost dim is dynamic, over the
/// range lookupDimRange gives it (docs/dynamic-shapes.md, section 3): the
/// best plan at every sample point (getDimSamplePoints), neighbours of one
/// plan family merged, each boundary bisected to the first M where the next
/// row's plan wins the same choice chooseKernelPlan makes between the two,
/// every row rebuilt at its m_max (the largest grid it launches, a gemv's
/// rows) and split where its plan cannot be built there. A range starting
/// at 0 starts the first row at 0 (a launch at M = 0 runs nothing); a row
/// ending at 0 is built at M = 1. Fails with the reason and the M where no
/// plan exists.
FailureOr<SmallVector<PlanTableRow>>
choosePlanTable(KernelOp kernel, TargetAttr target, std::string &failureReason,
                const PlanConstraints &constraints = {});

/// The grid rule of `plan` (a row of the plan table of `kernel`, whose
/// outermost dim is dynamic; `atMax` its launch geometry at the row's
/// m_max), as its path gives it (KernelPathInfo::getDynamicGridRule). Per
/// path, with `rows` = the dim times the rows of A per unit of it (the product
/// of A's static dims between the dynamic one and K; 1 for a [?, K] A):
///   - mma_sync, wgmma, simt: grid y = ceil(rows / tile_m) (axis 1,
///     elementsPerBlock = tile_m, or 16 for simt); x (N tiles) and z
///     (batch x split-K) are the plan's.
///   - gemv: grid y = ceil(rows / tile[0]), which is 1 for every M of the
///     row (tile[0] is the row's largest row count): the grid does not
///     follow M, the formula keeps it 1 (0 at M = 0) without a special case.
///   - wgmma_tma (persistent, grid x): elementsPerBlock = tile_m x cluster,
///     times = N tiles x cluster, max = grid x at m_max (the persistent
///     grid there): min(ceil(tiles_m / cluster) x tiles_n, SMs /
///     cluster) x cluster, as getWgmmaTmaPlan computes it.
///   - elementwise: grid x = ceil(dim x the output's static dims / the
///     block's elements).
/// A grid that does not follow the dim at all (a matmul whose A is static
/// in a dynamic kernel, or a static kernel) is the one at m_max, written as
/// elementsPerDim = 1, elementsPerBlock = kMaxDynamicDim and times = that
/// grid along the axis: the formula gives it for every M >= 1.
/// At M = 0 every rule gives 0 blocks: nothing launches.
DynamicGridRule getDynamicGridRule(KernelOp kernel, PlanAttr plan,
                                   const LaunchGeometry &atMax);

/// The M a plan-table row's plan is built at: its m_max, or 1 for a row of
/// M = 0 alone (which launches nothing).
inline int64_t getPlanEntryBuildDim(PlanEntryAttr entry) {
  return std::max<int64_t>(entry.getMMax(), 1);
}

/// The launch geometry of `entry`'s plan, a row of dynamic `kernel`'s plan
/// table, where it is built (getPlanEntryBuildDim), on `target`; failure
/// with `reason` as getPlanLaunchGeometry gives it.
FailureOr<LaunchGeometry> getPlanEntryLaunchGeometry(KernelOp kernel,
                                                     PlanEntryAttr entry,
                                                     TargetAttr target,
                                                     std::string &reason);

/// The grid `plan` launches at `dim` under `rule` (the formula above; the
/// other dims are those of `atMax`, its geometry at its row's m_max).
SmallVector<int64_t, 3> evaluateDynamicGridRule(PlanAttr plan,
                                                const LaunchGeometry &atMax,
                                                const DynamicGridRule &rule,
                                                int64_t dim);

} // namespace mlir::sol

#endif // SOLDIALECT_TILEPLAN_H
