//===- SwapAbPath.cpp - the swap_ab path's facts --------------------------===//
//
// Decode and other skinny shapes (at most 32 rows of A against an [N, K]
// weight) on tensor cores with the operands swapped: the weight is
// mma.sync's 16-row A operand and the tokens its n8 B operand, so 1-8
// tokens pad to 8 MMA rows, not 16, and the weight streams from global
// memory in 128-bit loads straight into fragments (the generator:
// lib/Conversion/KernelsToGPU/ SwapAbPath.cpp). The warps of a block split its
// K and sum through shared memory, which puts a narrow weight (a GQA k/v
// projection, 512 columns) on enough warps to keep HBM busy, where gemv's warp
// per column cannot. The standard answer for M = 2-32 (CUTLASS's and vLLM's
// swap-AB GEMMs). A weight-only fp8 weight (16-bit A against fp8 codes)
// loads 16 codes per 128-bit access and converts them to A's type in
// registers, exactly (every e4m3/e5m2 value is an f16 and a bf16), so
// 8-32 token decode keeps tensor cores on half the weight bytes.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/CostModel.h"
#include "SolDialect/TilePlan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

/// Elements of one 128-bit lane load of the weight: its codes for a
/// weight-only fp8 matmul (A then takes two loads per weight load).
static int64_t getVectorElements(const MatmulShape &shape) {
  Type weight = shape.weightType ? shape.weightType : shape.elementType;
  return 16 / (weight.getIntOrFloatBitWidth() / 8);
}

/// 128-bit token loads per weight load of each n8 tile: one, or two
/// against 16 fp8 codes.
static int64_t getTokenLoadsPerWeightLoad(const MatmulShape &shape) {
  return getVectorElements(shape) * shape.elementType.getIntOrFloatBitWidth() /
         8 / 16;
}

/// 128-bit loads of each weight row a lane has in flight per trip: four
/// with up to two n8 tiles of tokens, two with four, one with eight (the
/// tokens' vectors take the registers the weight's would).
static int64_t getLoadsPerTrip(int64_t rowsTile) {
  return rowsTile <= 16 ? 4 : rowsTile == 32 ? 2 : 1;
}

/// Weight-only fp8 up to two n8 tiles of tokens may also take twice the
/// loads a trip: each 128-bit load of codes feeds twice the conversions and
/// MMAs of a 16-bit weight's, so its warps stay busy longer between trips
/// and need more bytes in flight to stream at the 16-bit rate. Measured on
/// an H100 (2026-12-06, bench/NOTES.md section 42): 8 warps of 8 loads ran
/// 0.79-0.88x the time of 16 warps of 4 (the same bytes in flight) at 1-16
/// rows of 4096x4096 and 14336x4096, level at K = 14336; at 32 rows the
/// doubled trip spills and ran 1.01-1.11x, and 16-bit weights moved
/// 0.97-1.03x, so those keep the single trip. A candidate, not a rule: a
/// short K cannot give a doubled trip's warps all K. The 64-row tile
/// (swap-ab-row-tile-64, unmeasured) offers both too: its single trip
/// spills 20 bytes under the register budget (ptxas, sm_90a), its doubled
/// one takes 224 registers and none.
static bool mayDoubleLoadsPerTrip(const MatmulShape &shape, int64_t rowsTile) {
  return shape.isWeightOnlyFp8() && (rowsTile <= 16 || rowsTile == 64);
}

/// The loads per trip `plan` was built with (its warp's K per trip over
/// four lanes' vectors).
static int64_t getLoadsOf(ArrayRef<int64_t> tile, ArrayRef<int64_t> warps,
                          const MatmulShape &shape) {
  return tile[2] / (warps[0] * 4 * getVectorElements(shape));
}

/// Weight-only fp8 on 32-row tiles: each trip converts its codes and feeds
/// every pair to four n8 MMA tiles, so a trip costs more than a loaded round
/// trip, and each round of resident blocks pays its start, the cross-warp
/// reduction through shared memory and the 32-row stores once more. Fitted
/// on an H100 (2026-12-06, bench/NOTES.md section 45) to the 72 plans of
/// four warps or more among the planner's first eight for six weights at 40
/// and 64 rows: t = launch (3.2) + rounds x (2.66 + steps x 1.22) us,
/// median error 14 %. The plain round trip (0.8 us, no round term) had the
/// model 1.1-1.8x fast and picking 8-16 warp blocks where 4 ran up to 1.6x
/// faster. The 64-row tile (swap-ab-row-tile-64, off) borrows these figures
/// until it is measured: twice the MMAs a step, the same conversions.
static constexpr double kFp8RowTile32StepUs = 1.22;
static constexpr double kFp8RowTile32RoundUs = 2.66;

/// Whether a trip converts fp8 codes for four n8 tiles of tokens or more:
/// the tiles the step and round above were measured on.
static bool convertsAgainstFullRowTile(int64_t rowsTile,
                                       const MatmulShape &shape) {
  return shape.isWeightOnlyFp8() && rowsTile >= 32;
}

/// The partial sums' shared memory, warps over K x columns x rows x 4
/// bytes, within 32 KB (under the 48 KB a block may take without an
/// opt-in): what caps a 64-row tile at 8 warps over K on 16 columns.
static bool fitsPartialSums(int64_t rowsTile, int64_t warpsK, int64_t columns) {
  return warpsK * columns * rowsTile * 4 <= 32 * 1024;
}

/// 32-row tiles of fp8 codes take blocks of four warps or more where K
/// gives four warps work: blocks of one or two warps ran 1.2-2x slower than
/// the fit above predicts at every shape measured (section 45: e.g. 20.3 us
/// at 8192x2048, 40 rows, where the same trips on four warps ran 15.9), so
/// the model would pick them blind. A K too short for four warps (one or
/// two trips of codes) leaves the small blocks as the only plans.
static bool hasTooFewWarpsForConvertedRowTile(int64_t rowsTile, int64_t warps,
                                              bool fourWarpsFit,
                                              const MatmulShape &shape) {
  return convertsAgainstFullRowTile(rowsTile, shape) && warps < 4 &&
         fourWarpsFit;
}

/// Registers (in 128-bit vectors) a trip's loads hold: each load's two
/// weight vectors and the token vectors of every n8 tile, and on 32-row
/// tiles of fp8 codes the two weight vectors converted to 16 bits besides:
/// ptxas gave those kernels 124-128 registers a thread where the loads
/// alone came to 112 (2026-12-06, sm_90a), so a block budget from the loads
/// alone asked for more blocks than fit (9 of 64 threads an SM at 96
/// registers; section 45).
static int64_t getVectorsPerTrip(int64_t rowsTile, int64_t loads,
                                 const MatmulShape &shape) {
  int64_t converted = convertsAgainstFullRowTile(rowsTile, shape) ? 2 : 0;
  return loads *
         (2 + converted + rowsTile / 8 * getTokenLoadsPerWeightLoad(shape));
}

/// Past 32 rows a 16-bit weight has paths that keep it in shared memory
/// (mma.sync, the TMA tiles), and swap_ab stops. fp8 weight codes against a
/// 16-bit A have no other path that converts them: swap_ab stacks 32-row
/// blocks along M (grid.y), each streaming the codes again, mostly from L2
/// (the cost model prices the re-reads there), which still reads fewer
/// bytes than dequantising the weight to 16 bits and multiplying.
static bool stacksRowBlocks(const MatmulShape &shape) {
  return shape.isWeightOnlyFp8();
}

std::string mlir::sol::whyNotSwapAb(const MatmulShape &shape) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  Type type = shape.elementType;
  if (MatmulOp::isFp8(type))
    os << MatmulOp::kNoFp8PathYet << ": swap_ab's mma.sync m16n8k32 " << type
       << " (sm_89 and newer) is not generated";
  else if (!type.isF16() && !type.isBF16())
    os << type << " operands have no swap_ab path (f16 and bf16 do)";
  else if (!shape.transposeB)
    os << "swap_ab loads rows of an [N, K] weight into MMA fragments; B is "
          "[K, N]";
  else if (shape.batch != 1)
    os << "swap_ab takes one weight; B is batched";
  else if (shape.rows > kSwapAbMaxRows && !stacksRowBlocks(shape))
    os << shape.rows << " rows of A exceed swap_ab's " << kSwapAbMaxRows
       << " (four n8 tiles)";
  else if (shape.k % getVectorElements(shape) != 0)
    os << "K = " << shape.k << " is not a multiple of "
       << getVectorElements(shape)
       << ": swap_ab's 128-bit loads need aligned rows";
  return reason;
}

/// The smallest row tile (one, two or four n8 tiles of tokens) that holds
/// `rows`.
static int64_t getRowsTile(int64_t rows) {
  return rows <= 8 ? 8 : rows <= 16 ? 16 : 32;
}

/// The plan's choices: tile = [rows in n8 tiles, 16 x groups, the block's K
/// per trip], warps = [warpsK, groups].
static PlanChoices getChoices(const MatmulShape &shape, int64_t rowsTile,
                              int64_t warpsK, int64_t groups, int64_t loads) {
  PlanChoices choices;
  int64_t laneK = 4 * getVectorElements(shape) * loads; // a warp's K per trip
  choices.tile = {rowsTile, kSwapAbColumnsPerWarp * groups, warpsK * laneK};
  choices.warps = {warpsK, groups};
  return choices;
}

PlanAttr mlir::sol::getSwapAbPlan(MLIRContext *context,
                                  const MatmulShape &shape, int64_t warpsK,
                                  int64_t groups) {
  LaunchSizes sizes;
  sizes.matmul = shape;
  return getSwapAbPath().buildPlan(
      context,
      getChoices(shape, getRowsTile(shape.rows), warpsK, groups,
                 getLoadsPerTrip(getRowsTile(shape.rows))),
      sizes);
}

namespace {
class SwapAbPath final : public KernelPathInfo {
public:
  SwapAbPath() : KernelPathInfo(KernelPath::swap_ab) {}

  std::string whyNot(const PlanRequest &request) const override {
    std::string reason = whyNotBlockScales(*request.matmul, "swap_ab");
    if (reason.empty())
      reason = whyNotSwapAb(*request.matmul);
    if (reason.empty() && request.matmul->isWeightOnlyFp8())
      reason = whyNotFp8ConversionOnChip("swap_ab", request.target);
    return reason.empty() ? whyNotOnChip(request.target) : reason;
  }
  /// The mma_sync path's m16n8k16 MMA, and so its chip rule.
  std::string whyNotOnChip(TargetAttr target) const override {
    return whyNotMmaSyncOnChip(target);
  }

  /// Row tiles of 8, 16 and 32 tokens (one, two and four n8 MMA tiles), the
  /// smallest that holds the rows first, and 64 where
  /// mayTakeSwapAbRowTile64: a plan table builds a row's plan at its m_max
  /// and prices it at every M below, so a family's tile must not follow M.
  /// Blocks of 1-16 warps splitting K, one or two warp groups of 16 columns,
  /// at most 16 warps a block, the sums' shared memory within
  /// fitsPartialSums, no warp without K, and on tiles of converted codes
  /// four warps or more where K allows (hasTooFewWarpsForConvertedRowTile).
  /// Most warps first: where the model prices two plans alike (HBM-bound),
  /// the one with more loads in flight measured faster (bench/NOTES.md
  /// section 34); before them, where mayDoubleLoadsPerTrip, the plans of
  /// twice the loads a trip (section 42: at the same bytes in flight, the
  /// fewer warps of longer trips ran faster).
  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    const MatmulShape &shape = *request.matmul;
    MLIRContext *context = request.target.getContext();
    for (int64_t rowsTile : {8, 16, 32, 64}) {
      if (rowsTile < getRowsTile(shape.rows) ||
          (rowsTile == 64 && !mayTakeSwapAbRowTile64(shape)))
        continue;
      int64_t loads = getLoadsPerTrip(rowsTile);
      SmallVector<int64_t, 2> loadOptions = {loads};
      if (mayDoubleLoadsPerTrip(shape, rowsTile))
        loadOptions.insert(loadOptions.begin(), 2 * loads);
      // The row tile's candidates with their warps a block, for
      // hasTooFewWarpsForConvertedRowTile once all are known.
      SmallVector<std::pair<int64_t, PlanCandidate>> tileCandidates;
      for (int64_t loadsPerTrip : loadOptions) {
        for (int64_t groups : {1, 2}) {
          for (int64_t warpsK : {16, 8, 4, 2, 1}) {
            if (warpsK * groups > 16 ||
                !fitsPartialSums(rowsTile, warpsK,
                                 kSwapAbColumnsPerWarp * groups))
              continue;
            PlanChoices choices =
                getChoices(shape, rowsTile, warpsK, groups, loadsPerTrip);
            int64_t laneK = choices.tile[2] / warpsK;
            if (warpsK > 1 && llvm::divideCeil(shape.k, laneK) < warpsK)
              continue;
            LaunchSizes sizes;
            sizes.matmul = shape;
            std::string description =
                "swap_ab: " + std::to_string(rowsTile) + " rows, " +
                std::to_string(choices.tile[1]) +
                " columns per block, K over " + std::to_string(warpsK) +
                " warp" + (warpsK > 1 ? "s" : "") +
                (loadsPerTrip != loads
                     ? ", " + std::to_string(loadsPerTrip) + " loads a trip"
                     : "");
            tileCandidates.push_back(
                {warpsK * groups,
                 {buildPlan(context, choices, sizes), rowsTile, choices.tile[1],
                  description}});
          }
        }
      }
      bool fourWarpsFit = llvm::any_of(
          tileCandidates, [](const auto &c) { return c.first >= 4; });
      for (auto &[warps, candidate] : tileCandidates)
        if (!hasTooFewWarpsForConvertedRowTile(rowsTile, warps, fourWarpsFit,
                                               shape))
          out.push_back(std::move(candidate));
    }
  }

  bool usesTensorCores() const override { return true; }
  // The MMA warps load their own fragments (no producer, no pipeline).
  bool consumersCopyOperands() const override { return true; }
  /// A trip's MMAs wait on that trip's own loads from HBM (no stage in
  /// flight ahead): a step of tile[2] costs a loaded round trip, and with
  /// fp8 codes against four n8 tiles of tokens the trip's conversions and
  /// MMAs besides (convertsAgainstFullRowTile).
  KStep getKStep(PlanAttr plan, const LaunchSizes &sizes) const override {
    if (convertsAgainstFullRowTile(plan.getTile()[0], sizes.matmul))
      return {plan.getTile()[2], kFp8RowTile32StepUs, kFp8RowTile32RoundUs};
    return {plan.getTile()[2], kLoadedHbmRoundTripUs};
  }
  /// A lane's two weight vectors per load of a trip, for all 32 lanes: what
  /// each warp has in flight while it waits (the register budget keeps the
  /// whole trip in flight, getBlocksPerSmForLoadsInFlight).
  int64_t
  getWeightBytesInFlightPerWarp(PlanAttr plan,
                                const LaunchSizes &sizes) const override {
    return getLoadsOf(plan.getTile(), plan.getWarps(), sizes.matmul) * 2 * 32 *
           16;
  }
  /// Measured on the H200 (2026-12-04, bench/results/2026-12-04-h200-s13-
  /// skinny, bench/NOTES.md section 35): with the rate each SM's warps
  /// reach (getWeightBytesInFlightPerWarp, kLoadedHbmRoundTripUs), 0.84 of
  /// the target's hbm_efficiency fits the 369 swap_ab plans timed with a
  /// median error of 8 % (7 % at 1-8 rows, 10 % at 9-16, 26 % at 17-32).
  /// The big weights stream at ~3.5 TB/s where cuBLAS reaches ~3.8.
  double getHbmEfficiencyShare(PlanAttr plan) const override { return 0.84; }
  /// The same m16n8k16 mma.sync as the mma_sync path, whose measured share
  /// it takes. At 32 rows or fewer the MMAs are a small part of the time;
  /// the weight's bytes are the rest.
  double getMmaEfficiencyShare(TargetAttr target,
                               Type elementType) const override {
    return getMmaSyncPath().getMmaEfficiencyShare(target, elementType);
  }

  /// A block per `tile[1]` output columns (and per `tile[0]` rows, one
  /// block row for every M a plan serves), warps[0] x warps[1] warps, the
  /// shared memory each warp's f32 partial sums take, and registers for a
  /// whole trip's loads (getVectorsPerTrip).
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    int64_t warps = choices.warps[0] * choices.warps[1];
    LaunchGeometry geometry;
    geometry.grid = {llvm::divideCeilSigned(shape.n, choices.tile[1]),
                     shape.tilesAlongM(choices.tile[0]), 1};
    geometry.block = {warps * 32, 1, 1};
    geometry.smem = choices.warps[0] * choices.tile[1] * choices.tile[0] * 4;
    int64_t nTiles = choices.tile[0] / 8;
    geometry.minBlocksPerSm = getBlocksPerSmForLoadsInFlight(
        geometry.getThreads(),
        getVectorsPerTrip(choices.tile[0],
                          getLoadsOf(choices.tile, choices.warps, shape),
                          shape),
        4 * nTiles);
    return geometry;
  }
};
} // namespace

/// Each converted code feeds eight n8 tiles where stacked 32-row blocks
/// convert it once per 32 rows (bench/NOTES.md section 45: a 10240x2560
/// weight at 40-64 rows ran 26-30 us stacked, 17 at 32 rows).
bool mlir::sol::mayTakeSwapAbRowTile64(const MatmulShape &shape) {
  return stacksRowBlocks(shape) && shape.rows > kSwapAbMaxRows;
}

bool mlir::sol::isSwapAbRowTile64Plan(PlanAttr plan) {
  return plan.getPath() == KernelPath::swap_ab && plan.getTile()[0] == 64;
}

const KernelPathInfo &mlir::sol::paths::getSwapAbPath() {
  static const SwapAbPath path;
  return path;
}
