//===- WgmmaTmaPath.cpp - the TMA-fed wgmma path's facts ------------------===//
//
// Hopper's persistent, warp-specialised kernel: a producer warpgroup issues
// TMA loads into an mbarrier-guarded ring of stages, two consumer
// warpgroups run wgmma and the epilogue, cooperatively or ping-pong,
// optionally in 2-CTA clusters that multicast B; the only path for a
// sibling pair (the generator: emitWgmmaTmaKernel in
// lib/Conversion/KernelsToGPU/WgmmaPaths.cpp). Its tiles, what it refuses,
// what the cost model knows of it and its launch geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/TensorMapBox.h"
#include "SolDialect/TilePlan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

int64_t mlir::sol::getWgmmaTmaSmemBytes(int64_t tileN, int64_t stages,
                                        ConsumerSchedule schedule,
                                        int64_t tileM) {
  // The stage ring, then a full and an empty mbarrier (8 bytes each) per
  // stage, the ping-pong order mbarriers, and the slack to start the ring on
  // a 1024-byte boundary.
  int64_t orderBarriers = schedule == ConsumerSchedule::pingpong ? 2 : 0;
  return getWgmmaSmemBytes(tileN, stages, tileM) +
         (stages * 2 + orderBarriers) * 8 + kWgmmaTmaAlignSlack;
}

/// A K tile is one 128-byte row of the 128-byte swizzle: 64 f16/bf16
/// elements, 128 fp8 ones (four k32 wgmma steps instead of four k16, over
/// the same bytes, so the stage ring, its descriptors and the TMA boxes in
/// bytes are the f16 kernel's).
static int64_t getWgmmaTmaTileK(Type elementType) {
  return MatmulOp::isFp8(elementType) ? 128 : 64;
}

/// The wgmma_tma path reads fp8 (docs/fp8.md, section 5): m64nNk32 with
/// both operands K-major, which the verifier makes them (an [N, K] weight).
/// TMA's row pitch is a multiple of 16 bytes: K % 16 == 0 for 1-byte
/// elements.
static std::string whyNotFp8WgmmaTma(const MatmulShape &shape,
                                     TargetAttr target) {
  if (target.getChip() != "sm_90a")
    return "wgmma needs sm_90a; the target is " + target.getChip().str();
  if (shape.k % 16 != 0)
    return "K = " + std::to_string(shape.k) +
           " is not a multiple of 16: TMA moves 16-byte rows, 16 fp8 elements";
  if (!shape.transposeB)
    return "an fp8 weight is read K-major ([N, K], transpose_b)";
  return "";
}

/// The tensor cores' own refusal (the cp.async wgmma path's), or fp8's.
static std::string whyNotTmaTensorCores(const MatmulShape &shape,
                                        TargetAttr target) {
  if (std::string why = whyNotWeightOnlyFp8(
          shape, "wgmma_tma",
          "the weight tile converted to 16 bits in shared memory");
      !why.empty())
    return why;
  return MatmulOp::isFp8(shape.elementType)
             ? whyNotFp8WgmmaTma(shape, target)
             : whyNotWgmmaTensorCores(shape, target);
}

std::string mlir::sol::whyNotWgmmaTma(const MatmulShape &shape,
                                      TargetAttr target) {
  std::string reason = whyNotTmaTensorCores(shape, target);
  if (!reason.empty())
    return reason;
  llvm::raw_string_ostream os(reason);
  if (shape.batch != 1)
    os << "TMA maps describe one B; B is batched";
  else if (!shape.operandsAreKernelArgs)
    os << "TMA maps describe kernel arguments; an operand of the matmul is "
          "computed in the kernel";
  // A TMA map's row pitch is a multiple of 16 bytes: an [N, K] weight's is
  // K's (whyNotWgmmaTensorCores), an [K, N] one's N's.
  else if (!shape.transposeB && shape.n % 8 != 0)
    os << "B is [K, N] with N = " << shape.n
       << " not a multiple of 8: its rows are not 16-byte aligned for TMA";
  else if (!shape.transposeB && shape.siblings > 1)
    os << "sibling matmuls share an [N, K] layout; B is [K, N]";
  return reason;
}

bool mlir::sol::fitsNMajorWeight(int64_t tileN, int64_t cluster) {
  return tileN % kNMajorBoxColumns == 0 && cluster == 1;
}

std::string mlir::sol::whyNotSiblingWgmmaTma(const MatmulShape &shape,
                                             TargetAttr target) {
  std::string reason = whyNotWgmmaTma(shape, target);
  if (!reason.empty())
    return "no wgmma_tma path (" + reason + ")";
  llvm::raw_string_ostream os(reason);
  if (shape.rows < 128)
    os << shape.rows
       << " rows of A fill less than one 128-row tile: each weight streams "
          "once either way, and the decode paths take one weight";
  return reason;
}

PlanAttr mlir::sol::getWgmmaTmaPlan(MLIRContext *context,
                                    const MatmulShape &shape, int64_t tileN,
                                    int64_t stages, int64_t cluster,
                                    int64_t smCount, ConsumerSchedule schedule,
                                    int64_t tileM, int64_t splitK) {
  PlanChoices choices;
  choices.tile = {tileM, tileN, getWgmmaTmaTileK(shape.elementType)};
  choices.warps = {schedule == ConsumerSchedule::cooperative ? 2 : 1, 1};
  choices.stages = stages;
  choices.splitK = splitK;
  choices.cluster = cluster;
  choices.schedule = schedule;
  LaunchSizes sizes;
  sizes.matmul = shape;
  sizes.smCount = smCount;
  return getWgmmaTmaPath().buildPlan(context, choices, sizes);
}

bool mlir::sol::isSmallMTmaPlan(PlanAttr plan) {
  return plan.getPath() == KernelPath::wgmma_tma &&
         (plan.getTile()[0] == 64 || plan.getSplitK() > 1);
}

/// The K splits offered with small-m-tma: each a whole number of K tiles
/// apart from the last, as cuBLAS's split-K kernels for these shapes.
static constexpr int64_t kTmaSplits[] = {2, 3, 4, 6, 8};

/// Whether `splits` runs of ceil(kTiles / splits) K tiles each leave no
/// split without a K tile of its own (the generator's K ranges), and
/// `tileUnits` units leave SMs idle that split K can fill: with a full wave
/// of tiles a split only adds the partials' round trip.
static bool isUsefulSplit(int64_t splits, int64_t kTiles, int64_t tileUnits,
                          int64_t smCount) {
  return splits <= kTiles &&
         (splits - 1) * llvm::divideCeil(kTiles, splits) < kTiles &&
         tileUnits < smCount;
}

namespace {
/// One entry of the catalogue.
struct TmaTile {
  int64_t tileN, stages;
  ConsumerSchedule schedule;
  // The wider ping-pong tiles ran on the GPU without clusters only
  // (bench/results/2026-11-30-h200-s4-widths-check), and ping-pong
  // clusters measured slower anyway: they are not offered with one.
  int64_t maxCluster = 2;
  int64_t tileM = 128;
};

class WgmmaTmaPath final : public KernelPathInfo {
public:
  WgmmaTmaPath() : KernelPathInfo(KernelPath::wgmma_tma) {}

  bool takesSiblings() const override { return true; }
  bool hasConsumerSchedule() const override { return true; }
  std::string whyNot(const PlanRequest &request) const override {
    return whyNotWgmmaTma(*request.matmul, request.target);
  }
  std::string whyNotOnChip(TargetAttr target) const override {
    return lookupKernelPath(KernelPath::wgmma).whyNotOnChip(target);
  }
  // Where only the TMA feeding is out (wgmma itself could run), the remark
  // says why.
  std::string getRefusalRemark(const PlanRequest &request) const override {
    if (!whyNotTmaTensorCores(*request.matmul, request.target).empty())
      return "";
    std::string reason = whyNot(request);
    return reason.empty() ? reason : "no wgmma_tma: " + reason;
  }

  // The same tensor cores fed by TMA from a producer warpgroup, persistent
  // over the tiles; a 2-CTA cluster (when the constraints allow one)
  // multicasts each B tile to both CTAs, cutting the B re-reads through L2
  // in half, which the model prices but the H200 did not reward (2026-11-30:
  // o_proj prefill 172 vs 172 us, SwiGLU down 142 vs 130 us).
  // Ping-pong consumers own whole tiles of 128 rows by 128 to 192 columns
  // (a 128x256 accumulator would not fit one warpgroup's registers), so
  // one's epilogue runs while the other's wgmma keep the tensor cores busy.
  // The widths between let a shape fill its last wave: the SwiGLU down
  // projection's 256 tiles of 128x160 against 320 of 128x128 ran 115.6 us
  // against 146.8 (H200, 2026-11-30, bench/results/2026-11-30-h200-s4-pp-
  // widths); 192 takes 5 stages to fit shared memory.
  // Sibling matmuls take the same tiles, half of each tile's columns from
  // each weight, without clusters (each block loads both weights' boxes
  // whole).
  // With small-m-tma (PlanConstraints::smallMTma, isSmallMTmaPlan), for M
  // up to a few 64-row tiles against a wide or deep weight (issue 19: sol
  // reached 0.28-0.85x cuBLAS there, which serves them with 64-row tiles
  // and split K): ping-pong 64-row tiles (one m64 accumulator per consumer,
  // so up to 256 wide), and every cluster-free single-matmul tile with K
  // split over kTmaSplits blocks where its tiles leave SMs idle.
  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    const MatmulShape &shape = *request.matmul;
    MLIRContext *context = request.target.getContext();
    TargetAttr target = request.target;
    int64_t smemLimit = target.getSmemPerSmBytes();
    bool siblings = shape.siblings > 1;
    // An [K, N] weight (GPT-2's Conv1D) loads N-major: 64-column boxes.
    bool nMajorB = !shape.transposeB;
    // Ping-pong first: where the model ties it with cooperative 128x128
    // tiles (no epilogue to hide), it ran as fast or faster on the H200
    // (2026-11-30, bench/NOTES.md sections 16 and 18).
    for (TmaTile t : {TmaTile{128, 6, ConsumerSchedule::pingpong},
                      TmaTile{144, 6, ConsumerSchedule::pingpong, 1},
                      TmaTile{160, 6, ConsumerSchedule::pingpong, 1},
                      TmaTile{192, 5, ConsumerSchedule::pingpong, 1},
                      TmaTile{128, 6, ConsumerSchedule::cooperative},
                      TmaTile{256, 4, ConsumerSchedule::cooperative},
                      TmaTile{128, 4, ConsumerSchedule::cooperative, 1, 256},
                      TmaTile{160, 4, ConsumerSchedule::cooperative, 1, 256},
                      TmaTile{192, 4, ConsumerSchedule::cooperative, 1, 256},
                      TmaTile{128, 8, ConsumerSchedule::pingpong, 1, 64},
                      TmaTile{192, 6, ConsumerSchedule::pingpong, 1, 64},
                      TmaTile{256, 5, ConsumerSchedule::pingpong, 1, 64}})
      for (int64_t cluster : {1, 2})
        if (cluster <= (siblings ? 1 : t.maxCluster) &&
            (!shape.blockScales || fitsBlockScalePromotion(t)) &&
            (!nMajorB || fitsNMajorWeight(t.tileN, cluster)) &&
            getWgmmaTmaSmemBytes(t.tileN, t.stages, t.schedule, t.tileM) <=
                smemLimit)
          for (int64_t splitK : getSplits(shape, t, cluster, siblings,
                                          target.getSmCount()))
            out.push_back({getWgmmaTmaPlan(context, shape, t.tileN, t.stages,
                                           cluster, target.getSmCount(),
                                           t.schedule, t.tileM, splitK),
                           t.tileM, t.tileN,
                           describe(t, getWgmmaTmaTileK(shape.elementType),
                                    cluster, siblings, splitK)});
  }

  bool usesTensorCores() const override { return true; }
  bool storesFragmentQuads() const override { return true; }
  /// The producer warpgroup.
  int64_t getProducerWarps(PlanAttr plan) const override { return 4; }
  bool isPingPong(PlanAttr plan) const override {
    return plan.getSchedule() == ConsumerSchedule::pingpong;
  }

  // The four facts below were fitted together on the H200 (2026-12-05,
  // bench/results/2026-12-05-h200-s14-mid, bench/NOTES.md section 37): the
  // 346 wgmma_tma plans timed at 40 and 64 rows against 11 decode weights
  // (64- and 128-row tiles, split 1-8). With the model's earlier terms
  // (share-of-SMs HBM rate, mma.sync's K step and split round trip,
  // partials in L2) its median error there was 17 % and its pick 21 %
  // slower than the best plan on average; with these, 8 % and 3 %.

  /// The whole stage ring: TMA keeps every stage's A and B boxes in flight
  /// while the consumers drain the others. 8 stages of 64x128 tiles hold
  /// 196 KB, ~245 GB/s per SM over the loaded round trip, where the share
  /// of SMs with work gave 16 blocks 0.52 TB/s in all: the 2 MB 512 x 2048
  /// weight at 64 rows on 16 blocks (split 4) ran 7.7 us against 13.8
  /// predicted that way, 256 x 7168 on 12 blocks (split 6) 10.5 against
  /// 20.9. Rates from 140 to 250 GB/s per SM fit the plans equally.
  int64_t getBytesInFlightPerBlock(PlanAttr plan) const override {
    ArrayRef<int64_t> tile = plan.getTile();
    return getWgmmaSmemBytes(tile[1], plan.getStages(), tile[0]);
  }
  /// A consumer warp's partials, its arrival and (last) the sum of the
  /// others' (emitSplitKEpilogue): 1 us over the unsplit kernel, where the
  /// mma.sync path's block-wide scheme measured 4.2; the partials' bytes
  /// are priced apart (CostModel.cpp). The data fit 1 us equally well as a
  /// fill every TMA kernel pays (its unsplit plans measured 3-6 % over the
  /// model), but as a fill it tipped mid-M near-ties (2048 x 2048 at 1024
  /// rows) to the cp.async wgmma path, which then ran 1.1-1.25x slower
  /// (H100, 2026-12-05, bench/results/2026-12-05-h100-s15-refit/
  /// skinny-midm.json): the split's cost it stays.
  std::optional<double> getSplitKRoundTripUs() const override { return 1.0; }
  bool pricesPartialsThroughHbm() const override { return true; }
  /// The ring hides each step's loads: a step costs its wgmma issue and two
  /// barriers, not a round trip. Step costs of 0 to 0.2 us fit the plans
  /// above equally; 0.25 and more (mma.sync's 0.28) price deep K loops
  /// that the ring hid and move picks to shallower splits that ran slower.
  KStep getKStep(PlanAttr plan, const LaunchSizes &sizes) const override {
    return {plan.getTile()[2], 0.1};
  }

  /// Persistent: at most one block per SM (the stage ring fills its shared
  /// memory), whole clusters only; never more blocks than cluster-sized
  /// groups of tiles.
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    int64_t tileM = choices.tile[0], tileN = choices.tile[1];
    int64_t cluster = choices.cluster;
    // Split K: each tile's K runs are units of their own.
    int64_t units = saturate(
        CheckedCount(
            llvm::divideCeilSigned(shape.tilesAlongM(tileM), cluster)) *
        shape.tilesAlongN(tileN) * choices.splitK);
    int64_t blocks =
        std::max<int64_t>(1, std::min(units, sizes.smCount / cluster)) *
        cluster;
    LaunchGeometry geometry;
    geometry.grid = {blocks, 1, 1};
    geometry.block = {kWgmmaTmaThreads, 1, 1};
    geometry.smem =
        getWgmmaTmaSmemBytes(tileN, choices.stages, choices.schedule, tileM);
    return geometry;
  }

  /// A's map, then each weight's.
  unsigned getNumTensorMaps(unsigned numContractions) const override {
    return 1 + numContractions;
  }

protected:
  unsigned getRowGridAxis() const override { return 0; }
  // min(ceil(tilesM / cluster) * tilesN, SMs / cluster) clusters (the
  // geometry above); ceil(ceil(a / b) / c) = ceil(a / (b * c)), and the cap
  // is the plan's grid at the row's m_max (the most it launches).
  void getRowGridRule(PlanAttr plan, const MatmulShape &shape,
                      const LaunchGeometry &atMax,
                      DynamicGridRule &rule) const override {
    int64_t cluster = plan.getCluster();
    rule.elementsPerBlock = plan.getTile()[0] * cluster;
    rule.times =
        shape.tilesAlongN(plan.getTile()[1]) * cluster * plan.getSplitK();
    rule.max = atMax.grid[0];
  }

private:
  /// Whether a consumer of tile `t` can promote block-scaled partial sums
  /// (docs/fp8.md, "Block-wise scales"): each K block's wgmmas accumulate
  /// into a second set of registers, which the consumer then scales into
  /// its accumulators, so it holds both: twice its tile's (rows / 64) x
  /// tileN / 2 f32 registers. Within setmaxnreg's 232 beside the fragment
  /// addressing that is 64 x 128 per consumer (128 registers): 64x128
  /// ping-pong and 128x128 cooperative tiles.
  static bool fitsBlockScalePromotion(const TmaTile &t) {
    int64_t consumerRows =
        t.schedule == ConsumerSchedule::pingpong ? t.tileM : t.tileM / 2;
    return consumerRows / 64 * t.tileN <= kMaxPromotedAccumulatorColumns;
  }
  static constexpr int64_t kMaxPromotedAccumulatorColumns = 128;

  /// 1, then with split K the useful splits of kTmaSplits (a sibling pair
  /// and a cluster take none; the generator sums one block's tile; a
  /// block-scaled matmul's are offered, PlanConstraints::blockSplitK lets
  /// them through).
  static SmallVector<int64_t> getSplits(const MatmulShape &shape,
                                        const TmaTile &t, int64_t cluster,
                                        bool siblings, int64_t smCount) {
    SmallVector<int64_t> splits = {1};
    if (siblings || cluster > 1)
      return splits;
    int64_t kTiles =
        llvm::divideCeil(shape.k, getWgmmaTmaTileK(shape.elementType));
    int64_t tileUnits = shape.tilesAlongM(t.tileM) * shape.tilesAlongN(t.tileN);
    for (int64_t s : kTmaSplits)
      if (isUsefulSplit(s, kTiles, tileUnits, smCount))
        splits.push_back(s);
    return splits;
  }

  static std::string describe(const TmaTile &t, int64_t tileK, int64_t cluster,
                              bool siblings, int64_t splitK) {
    return "wgmma_tma: " + std::to_string(t.tileM) + "x" +
           std::to_string(t.tileN) + "x" + std::to_string(tileK) + " tile" +
           (siblings ? " (" + std::to_string(t.tileN / 2) +
                           " columns of each weight)"
                     : std::string()) +
           ", TMA producer + 2 " +
           (t.schedule == ConsumerSchedule::pingpong
                ? "ping-pong consumer warpgroups, "
                : "consumer warpgroups, ") +
           std::to_string(t.stages) + " stages, persistent" +
           (cluster > 1
                ? ", " + std::to_string(cluster) + "-CTA cluster multicasting B"
                : std::string()) +
           (splitK > 1 ? ", K split over " + std::to_string(splitK) + " units"
                       : std::string());
  }
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getWgmmaTmaPath() {
  static const WgmmaTmaPath path;
  return path;
}
