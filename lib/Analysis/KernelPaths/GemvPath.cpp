//===- GemvPath.cpp - the gemv path's facts -------------------------------===//
//
// Decode shapes, a few rows of A against an [N, K] weight: a warp per
// output column streams its weight row with 128-bit loads and reduces with
// shuffles (the generator: lib/Conversion/KernelsToGPU/GemvPath.cpp). What
// it refuses, its one plan, what the cost model knows of it and its launch
// geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/TilePlan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

/// Elements a lane takes per 128-bit weight load: 16 bytes of the weight's
/// type (a weight-only fp8 weight's 16 codes face 16 elements of A, two
/// 128-bit loads of it).
static int64_t getGemvVector(const MatmulShape &shape) {
  Type weight = shape.weightType ? shape.weightType : shape.elementType;
  return 16 / (weight.getIntOrFloatBitWidth() / 8);
}

/// 128-bit loads of A per row for each weight load.
static int64_t getGemvALoadsPerWeightLoad(const MatmulShape &shape) {
  return getGemvVector(shape) *
         (shape.elementType.getIntOrFloatBitWidth() / 8) / 16;
}

std::string mlir::sol::whyNotGemv(const MatmulShape &shape) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  int64_t vector = getGemvVector(shape);
  if (!shape.transposeB)
    os << "gemv streams rows of an [N, K] weight; B is [K, N]";
  else if (shape.batch != 1)
    os << "gemv takes one weight; B is batched";
  else if (shape.rows > kGemvMaxRows)
    os << shape.rows << " rows of A exceed gemv's " << kGemvMaxRows;
  else if (shape.k % vector != 0)
    os << "K = " << shape.k << " is not a multiple of " << vector
       << ": gemv's 128-bit loads need aligned rows";
  return reason;
}

std::string mlir::sol::whyNotGemvOnChip(TargetAttr target) {
  if (getSmVersion(target) < 30)
    return "gemv's warp shuffles (shfl.sync) need sm_30 or newer; the target "
           "is " +
           target.getChip().str();
  return "";
}

PlanAttr mlir::sol::getGemvPlan(MLIRContext *context,
                                const MatmulShape &shape) {
  PlanChoices choices;
  // tile = [rows, columns (warps) per block, elements per 128-bit load].
  choices.tile = {shape.rows, kGemvWarps, getGemvVector(shape)};
  choices.warps = {1, kGemvWarps};
  LaunchSizes sizes;
  sizes.matmul = shape;
  return getGemvPath().buildPlan(context, choices, sizes);
}

namespace {
class GemvPath final : public KernelPathInfo {
public:
  GemvPath() : KernelPathInfo(KernelPath::gemv) {}

  std::string whyNot(const PlanRequest &request) const override {
    std::string reason = whyNotBlockScales(*request.matmul, "gemv");
    if (reason.empty())
      reason = whyNotGemv(*request.matmul);
    if (reason.empty() && request.matmul->hasFp8Operand())
      reason = whyNotFp8ConversionOnChip("gemv", request.target);
    return reason.empty() ? whyNotOnChip(request.target) : reason;
  }
  std::string whyNotOnChip(TargetAttr target) const override {
    return whyNotGemvOnChip(target);
  }

  // tile[0] is the rows; the other extents are fixed (a warp per column, 16
  // bytes per lane load).
  bool namesTile() const override { return false; }

  // Each row is its own accumulator and weight pass, unrolled, so a plan
  // for M rows is the static kernel's plan at M; a table gets at most
  // kGemvMaxRows gemv kernels. (The 4-row kernel run at 1 took 8.89 against
  // 7.35 us on the H200, kernel-gap.txt; with exact rows the gap stayed,
  // 8.71 against 6.80 us in gap.txt, until the generator stopped masking
  // rows every launch has.)
  bool buildsForExactRows() const override { return true; }

  // A warp per output column streams the weight with every SM busy, where
  // a tile grid over N leaves most SMs idle. First in the registry: in a
  // tie it computes no padding rows.
  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    const MatmulShape &shape = *request.matmul;
    out.push_back(
        {getGemvPlan(request.target.getContext(), shape), shape.rows, 1,
         "gemv: " + std::to_string(shape.rows) + " rows, a warp per column"});
  }

  /// gemv converts each f16 element to f32 before its FMA and reduces with
  /// shuffles: measured on the H200 (2026-11-29, bench/results/2026-11-29-
  /// h200-gpu-check-v5-gemv16), 16 rows x 2560 x 2560 ran 27.85 us, 24.6 us
  /// past the launch for 0.21 GFLOP = 8.5 TFLOP/s, 0.127 of the 66.9 SIMT
  /// peak, i.e. 0.18 of the 0.70 mma_efficiency. fp8 operands cost more
  /// instructions per element than f16 (kFp8ConversionSlowdown); the cost
  /// model passes the weight's type for a weight-only fp8 matmul.
  double getMmaEfficiencyShare(TargetAttr target,
                               Type elementType) const override {
    return MatmulOp::isFp8(elementType) ? 0.18 / kFp8ConversionSlowdown : 0.18;
  }
  /// An fp8 code converts in two instructions (half a cvt.rn.f16x2.e4m3x2,
  /// then cvt.f32.f16) where an f16 one takes one (cvt.f32.f16): counted
  /// in the generated PTX (2026-12-03), a 1-row kernel issues 4 instead of
  /// 3 per weight element (its FMA, both operands' conversions). An
  /// estimate from the instruction count, not a timing: the GPU run of
  /// bench/fp8.py is where it is checked (bench/NOTES.md section 33).
  /// Weight-only fp8 issues the same 4 (the FMA, the code's two, A's one).
  /// Timed on an H100 (2026-12-06, bench/results/2026-12-06-h100-s19-
  /// e4m3int, NOTES section 43, h100-sxm preset): at 1 row within 12 %
  /// (8.8 / 22.7 / 22.7 us predicted against 8.6 / 22.7 / 25.6 measured at
  /// 4096x4096, 14336x4096, 4096x14336); at 8-16 rows 2.0-2.3x too slow
  /// (the 0.18 share is from 16 rows of a small f16 shape), where swap_ab
  /// wins by 2.5x either way, so no plan turns on it.
  static constexpr double kFp8ConversionSlowdown = 4.0 / 3.0;

  /// A warp walks K 32 x tile[2] elements a step (a 128-bit load per lane),
  /// kGemvLoadsPerStep steps in flight at once with the register budget
  /// (getLaunchGeometry), each further row of A a little more work on the
  /// same loads. Measured on the H200 (2026-12-04, bench/results/2026-12-04-
  /// h200-s13-skinny, 13 cases of 1-4 rows): 0.07 us per step and 0.01 per
  /// step for each row past the first, median error 4 %, the worst 31 %
  /// (512 x 2048 at 1 row: 2.9 us, predicted 3.8). Before the budget (section
  /// 34) it was 0.25 and 0.1: ptxas issued the loads a few at a time.
  KStep getKStep(PlanAttr plan, const LaunchSizes &sizes) const override {
    ArrayRef<int64_t> tile = plan.getTile();
    return {32 * tile[2], 0.07 + 0.01 * static_cast<double>(tile[0] - 1)};
  }

  /// One block of tile[1] warps per tile[1] output columns; no shared
  /// memory (A's few rows come through L1); registers for a step's weight
  /// vectors and the rows' vectors of A beside them.
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    int64_t warps = choices.tile[1], rows = choices.tile[0];
    LaunchGeometry geometry;
    geometry.grid = {llvm::divideCeilSigned(shape.n, warps), 1, 1};
    geometry.block = {warps * 32, 1, 1};
    int64_t steps = llvm::divideCeilSigned(shape.k, 32 * choices.tile[2]);
    int64_t loads = std::min(kGemvLoadsPerStep, steps);
    geometry.minBlocksPerSm = getBlocksPerSmForLoadsInFlight(
        geometry.getThreads(),
        loads * (1 + rows * getGemvALoadsPerWeightLoad(shape)), rows);
    return geometry;
  }
  // The default row rule: tile[0] is the plan's rows (a table row's m_max),
  // so ceil(rows / tile[0]) stays 1 for every M of the row.
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getGemvPath() {
  static const GemvPath path;
  return path;
}
