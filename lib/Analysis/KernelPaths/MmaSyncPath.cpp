//===- MmaSyncPath.cpp - the mma.sync path's facts ------------------------===//
//
// m16n8k16 tensor cores on every chip from sm_80 (m16n8k32 for fp8 from
// sm_89), fed by a multi-stage cp.async pipeline into padded shared memory
// (the generator: lib/Conversion/KernelsToGPU/MmaSyncPath.cpp). Its tiles,
// what it refuses, what the cost model knows of it and its launch geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/TilePlan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

ArrayRef<MmaSyncTile> mlir::sol::getMmaSyncTiles() {
  // Warp tiles stay multiples of 16x16 (one ldmatrix.x4 of A, one of B).
  // Large tiles amortise L2 re-reads over prefill shapes; the 16- and
  // 32-row tiles stop decode shapes (M = 1..16) from computing 127 rows of
  // padding, and their narrow N spreads the weight over more SMs: 16x16
  // puts 160 blocks on a 2560-wide weight, where 16x32 left 52 of 132 SMs
  // idle (16-token decode: 14.4 us measured on the H200, 2026-11-29).
  // The 256-deep 16x16 tile takes a quarter of the K steps of the 64-deep
  // ones, for decode shapes, which are bound by the serial K steps of few
  // warps (16-token decode: 12.4 us against 14.2 us, H200, 2026-11-30).
  static const MmaSyncTile tiles[] = {
      {128, 128, 32, 2, 2, 3},  {128, 64, 32, 2, 2, 3}, {64, 128, 32, 2, 2, 3},
      {64, 64, 32, 2, 2, 4},    {32, 64, 64, 1, 4, 4},  {16, 64, 64, 1, 4, 4},
      {16, 32, 64, 1, 2, 4},    {16, 16, 64, 1, 1, 6},  {16, 16, 256, 1, 1, 4},
      {16, 64, 64, 1, 4, 4, 4},
  };
  return tiles;
}

std::string mlir::sol::whyNotMmaSync(const MatmulShape &shape) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  Type type = shape.elementType;
  if (std::string why = whyNotWeightOnlyFp8(
          shape, "mma.sync", "the weight's fragments converted to 16 bits");
      !why.empty())
    return why;
  bool fp8 = MatmulOp::isFp8(type);
  if (!fp8 && !type.isF16() && !type.isBF16()) {
    os << type << " operands have no mma.sync path (f16, bf16 and fp8 do)";
    return reason;
  }
  // cp.async copies 16 bytes per thread: each row of A (and of B in the
  // [N, K] layout) must start 16-byte aligned, so K % 8 == 0 for 16-bit
  // elements and K % 16 for fp8; a [K, N] B needs N % 8 == 0 likewise (fp8
  // B is [N, K] always: the verifier's rule).
  int64_t alignElems = fp8 ? 16 : 8;
  if (shape.k % alignElems != 0) {
    os << "K = " << shape.k << " is not a multiple of " << alignElems
       << ": the 16-byte cp.async loads need each row of A to start 16-byte "
          "aligned";
    return reason;
  }
  if (!shape.transposeB && shape.n % 8 != 0) {
    os << "N = " << shape.n
       << " is not a multiple of 8: the 16-byte cp.async loads of a [K, N] "
          "B need each row to start 16-byte aligned";
    return reason;
  }
  return reason;
}

std::string mlir::sol::whyNotMmaSyncOnChip(TargetAttr target) {
  // m16n8k16 f16/bf16 mma.sync, cp.async and ldmatrix.x4: sm_80's.
  if (getSmVersion(target) < 80)
    return "mma.sync (m16n8k16, cp.async) needs sm_80 or newer; the target "
           "is " +
           target.getChip().str();
  return "";
}

/// mma.sync's fp8 form (m16n8k32 with e4m3/e5m2 operands) is PTX's from
/// sm_89.
static std::string whyNotMmaSyncFp8OnChip(TargetAttr target) {
  if (getSmVersion(target) >= 89)
    return "";
  return "mma.sync's fp8 form (m16n8k32 e4m3/e5m2) needs sm_89 or newer; "
         "the target is " +
         target.getChip().str();
}

bool mlir::sol::isMmaSyncFp8DefaultOnChip(TargetAttr target) {
  return getSmVersion(target) < 90;
}

int64_t mlir::sol::getMmaSyncInstructionK(Type elementType) {
  return MatmulOp::isFp8(elementType) ? 32 : 16;
}

/// Every row of a stage is padded by 16 bytes: consecutive rows start four
/// banks apart, so the eight rows one ldmatrix reads hit distinct banks.
static int64_t getRowPaddingElems(int64_t elementBytes) {
  return 16 / elementBytes;
}

int64_t mlir::sol::getMmaSyncAPitch(const MmaSyncTile &tile,
                                    int64_t elementBytes) {
  return tile.tileK + getRowPaddingElems(elementBytes);
}

int64_t mlir::sol::getMmaSyncBPitch(const MmaSyncTile &tile, bool transposeB,
                                    int64_t elementBytes) {
  return (transposeB ? tile.tileK : tile.tileN) +
         getRowPaddingElems(elementBytes);
}

int64_t mlir::sol::getMmaSyncSmemBytes(const MmaSyncTile &tile, bool transposeB,
                                       int64_t elementBytes) {
  int64_t aElems = tile.tileM * getMmaSyncAPitch(tile, elementBytes);
  int64_t bElems = (transposeB ? tile.tileN : tile.tileK) *
                   getMmaSyncBPitch(tile, transposeB, elementBytes);
  return tile.stages * (aElems + bElems) * elementBytes;
}

static int64_t getElementBytes(const MatmulShape &shape) {
  return shape.elementType.getIntOrFloatBitWidth() / 8;
}

/// The tile table in `shape`'s elements: fp8 tiles take twice the K of the
/// 16-bit ones, so every stage, row and copy moves the same bytes as the
/// tile the table's measurements are of (and each K tile is a whole number
/// of m16n8k32 steps).
static MmaSyncTile inElementsOf(MmaSyncTile tile, const MatmulShape &shape) {
  tile.tileK *= 2 / getElementBytes(shape);
  return tile;
}

static PlanChoices getChoices(const MmaSyncTile &tile) {
  PlanChoices choices;
  choices.tile = {tile.tileM, tile.tileN, tile.tileK};
  choices.warps = {tile.warpsM, tile.warpsN};
  choices.stages = tile.stages;
  choices.splitK = tile.kSplits;
  return choices;
}

PlanAttr mlir::sol::getMmaSyncPlan(MLIRContext *context,
                                   const MatmulShape &shape,
                                   const MmaSyncTile &tile) {
  LaunchSizes sizes;
  sizes.matmul = shape;
  return getMmaSyncPath().buildPlan(context, getChoices(tile), sizes);
}

static std::string describeTile(const MmaSyncTile &tile) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << tile.tileM << "x" << tile.tileN << "x" << tile.tileK << " tile, "
     << tile.warpsM << "x" << tile.warpsN << " warps, " << tile.stages
     << " stages";
  if (tile.kSplits > 1)
    os << ", K split over " << tile.kSplits << " blocks";
  return s;
}

namespace {
class MmaSyncPath final : public KernelPathInfo {
public:
  MmaSyncPath() : KernelPathInfo(KernelPath::mma_sync) {}

  // The shape's rule first: where it rules mma.sync out (f32, misaligned
  // rows) the SIMT path is the fallback; where only the chip does, an f16 or
  // bf16 matmul has no path sol is meant to run it on.
  std::string whyNot(const PlanRequest &request) const override {
    std::string reason = whyNotBlockScales(*request.matmul, "mma.sync");
    if (reason.empty())
      reason = whyNotMmaSync(*request.matmul);
    if (reason.empty())
      reason = whyNotOnChip(request.target);
    if (reason.empty() && MatmulOp::isFp8(request.matmul->elementType))
      reason = whyNotMmaSyncFp8OnChip(request.target);
    return reason;
  }
  std::string whyNotOnChip(TargetAttr target) const override {
    return whyNotMmaSyncOnChip(target);
  }
  std::string getRefusalRemark(const PlanRequest &request) const override {
    std::string reason = whyNot(request);
    return reason.empty() ? reason : "no mma.sync: " + reason;
  }

  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    const MatmulShape &shape = *request.matmul;
    MLIRContext *context = request.target.getContext();
    int64_t smemLimit = request.target.getSmemPerSmBytes();
    // Split K sums partials per output tile: unbatched matmuls only.
    for (const MmaSyncTile &tableTile : getMmaSyncTiles())
      if (MmaSyncTile tile = inElementsOf(tableTile, shape);
          getMmaSyncSmemBytes(tile, shape.transposeB, getElementBytes(shape)) <=
              smemLimit &&
          (tile.kSplits == 1 || shape.batch == 1))
        out.push_back({getMmaSyncPlan(context, shape, tile), tile.tileM,
                       tile.tileN, "mma_sync: " + describeTile(tile)});
  }

  bool usesTensorCores() const override { return true; }
  bool consumersCopyOperands() const override { return true; }
  /// A stage's cp.async copies of 16-row tiles reach part of the HBM rate.
  /// Measured on the H200 (2026-12-04, bench/results/2026-12-04-h200-s13-
  /// skinny, memory-bound at 2-16 rows): 16x16 tiles (14336 x 4096 at M =
  /// 2-8) streamed at 0.54 of hbm_efficiency, 40-54 us where the model
  /// without the share said 31; 64-column tiles at 0.69-0.78 on five
  /// weights (4096 x 4096 to 14336 x 4096). Not measured on other chips.
  double getHbmEfficiencyShare(PlanAttr plan) const override {
    return plan.getTile()[1] >= 64 ? 0.72 : 0.54;
  }
  /// What the warps' cp.async copies into padded shared memory move per SM
  /// with work, whatever the blocks per SM: 42 bytes per ns for 64-deep
  /// tiles (128-byte rows of each operand), 24 for 32-deep ones (64-byte
  /// rows, half a cache line per copy). Fitted on the H200 (bench/results/
  /// 2026-12-04-h200-s13-skinny and 2026-12-05-h200-s14-mid: 86 mma.sync
  /// plans of 2-64 rows on 11 weights of 0.5-117 MB, bench/NOTES.md section
  /// 38) with the K step and round trip below: median error 5 %, where the
  /// target's 10.8 TB/s of L2, a 0.28 us step and a 4.2 us round trip gave
  /// 34 % (under on the wide weights by up to 1.7x, over on the narrow ones
  /// by up to 1.6x). 42 x 132 SMs is 5.5 TB/s. Not measured on other chips.
  double getSmCopyBytesPerUs(PlanAttr plan,
                             const LaunchSizes &sizes) const override {
    return plan.getTile()[2] * getElementBytes(sizes.matmul) >= 128 ? 42000
                                                                    : 24000;
  }
  /// The step's floor once copies bound it no longer: a stage's barrier and
  /// its MMAs. Steps of 0.05-0.2 us fit the plans above equally (none is
  /// bound by it); 0.28, measured on 2026-11-29 before the register budget,
  /// priced 16x16 tiles 1.5-2.3x over.
  KStep getKStep(PlanAttr plan, const LaunchSizes &sizes) const override {
    return {plan.getTile()[2], 0.1};
  }
  /// The blocks' partials through L2, an arrival count and the last
  /// arrival's sum: 1 us over the unsplit kernel, fitted with the terms
  /// above (0.75 and 1.25 fit within a point of median error; the 4.2 of
  /// the default over-priced every split plan of a narrow weight by 3 us).
  std::optional<double> getSplitKRoundTripUs() const override { return 1.0; }
  /// mma.sync cannot issue at Hopper's wgmma rate: sol's mma.sync kernel
  /// measured 254 TFLOP/s on the o_proj prefill (H200, 2026-11-29,
  /// bench/results/2026-11-29-h200-gpu-check), 0.257 of 989, i.e. 0.37 of
  /// the 0.70 mma_efficiency lead. On chips before sm_90 mma.sync is the
  /// full-rate path and keeps the whole efficiency.
  double getMmaEfficiencyShare(TargetAttr target,
                               Type elementType) const override {
    return target.getChip().starts_with("sm_90") ? 0.37 : 1.0;
  }

  /// A block per output tile (split K: per K slice along z), a warp per
  /// warp tile, the padded stage ring.
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    MmaSyncTile tile{choices.tile[0],  choices.tile[1],  choices.tile[2],
                     choices.warps[0], choices.warps[1], choices.stages,
                     choices.splitK};
    LaunchGeometry geometry;
    geometry.grid = {llvm::divideCeilSigned(shape.n, tile.tileN),
                     shape.tilesAlongM(tile.tileM),
                     saturate(CheckedCount(shape.batch) * tile.kSplits)};
    geometry.block = {tile.warpsM * tile.warpsN * 32, 1, 1};
    geometry.smem =
        getMmaSyncSmemBytes(tile, shape.transposeB, getElementBytes(shape));
    return geometry;
  }
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getMmaSyncPath() {
  static const MmaSyncPath path;
  return path;
}
