//===- WgmmaPath.cpp - the cp.async-fed wgmma path's facts ----------------===//
//
// Hopper's wgmma.mma_async on two warpgroups, fed by the consumer warps'
// own cp.async pipeline (the generator: emitWgmmaKernel in
// lib/Conversion/KernelsToGPU/WgmmaPaths.cpp). Its tiles, what it refuses,
// what the cost model knows of it and its launch geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/TilePlan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

int64_t mlir::sol::getWgmmaSmemBytes(int64_t tileN, int64_t stages,
                                     int64_t tileM) {
  return stages * (tileM + tileN) * 64 * 2;
}

std::string mlir::sol::whyNotWgmmaTensorCores(const MatmulShape &shape,
                                              TargetAttr target) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  if (target.getChip() != "sm_90a") {
    os << "wgmma needs sm_90a; the target is " << target.getChip();
  } else if (std::string why = whyNotWeightOnlyFp8(
                 shape, "wgmma",
                 "the weight tile converted to 16 bits in shared memory");
             !why.empty()) {
    os << why;
  } else if (MatmulOp::isFp8(shape.elementType)) {
    // What the fp8 path will be (docs/fp8.md): wgmma.mma_async m64nNk32 with
    // both operands K-major in shared memory, 32 K per instruction, the
    // scales applied to the accumulator registers; TMA's 16-byte rows need
    // K % 16 == 0 for 1-byte elements.
    os << MatmulOp::kNoFp8PathYet << ": wgmma's m64nNk32 " << shape.elementType
       << " form (both operands K-major in shared memory, the scales on the "
          "accumulator) is not generated";
    if (shape.k % 16 != 0)
      os << "; K = " << shape.k
         << " is not a multiple of 16 either: TMA and cp.async move 16-byte "
            "rows, 16 fp8 elements";
  } else if (!shape.elementType.isF16() && !shape.elementType.isBF16()) {
    os << shape.elementType << " operands have no wgmma path here";
  } else if (shape.k % 8 != 0) {
    os << "K = " << shape.k << " is not a multiple of 8";
  }
  return reason;
}

std::string mlir::sol::whyNotWgmma(const MatmulShape &shape,
                                   TargetAttr target) {
  std::string reason = whyNotWgmmaTensorCores(shape, target);
  if (reason.empty() && !shape.transposeB)
    reason = "the cp.async-fed wgmma generator reads K-major operands; B is "
             "[K, N] (the TMA-fed path reads it N-major)";
  return reason;
}

PlanAttr mlir::sol::getWgmmaPlan(MLIRContext *context, const MatmulShape &shape,
                                 int64_t tileN, int64_t stages) {
  PlanChoices choices;
  choices.tile = {128, tileN, 64};
  choices.warps = {2, 1};
  choices.stages = stages;
  LaunchSizes sizes;
  sizes.matmul = shape;
  return getWgmmaPath().buildPlan(context, choices, sizes);
}

namespace {
class WgmmaPath final : public KernelPathInfo {
public:
  WgmmaPath() : KernelPathInfo(KernelPath::wgmma) {}

  std::string whyNot(const PlanRequest &request) const override {
    if (std::string why =
            whyNotBlockScales(*request.matmul, "the cp.async wgmma path");
        !why.empty())
      return why;
    return whyNotWgmma(*request.matmul, request.target);
  }
  std::string whyNotOnChip(TargetAttr target) const override {
    if (target.getChip() != "sm_90a")
      return "wgmma needs sm_90a; the target is " + target.getChip().str();
    return "";
  }

  // Hopper: the model gives mma.sync its measured share of the tensor-core
  // rate, so large shapes go to wgmma. 128x256 reads half as many A panels
  // through L2 per FLOP as 128x128; the model weighs that against waves.
  // 128x256 first: where the model ties them (neither L2-bound), it won on
  // the H200 (bench/NOTES.md section 4).
  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    MLIRContext *context = request.target.getContext();
    int64_t smemLimit = request.target.getSmemPerSmBytes();
    for (auto [tileN, stages] : {std::pair<int64_t, int64_t>{256, 4},
                                 std::pair<int64_t, int64_t>{128, 4}})
      if (getWgmmaSmemBytes(tileN, stages) <= smemLimit)
        out.push_back({getWgmmaPlan(context, *request.matmul, tileN, stages),
                       128, tileN,
                       "wgmma: 128x" + std::to_string(tileN) +
                           "x64 tile, 2 warpgroups, " + std::to_string(stages) +
                           " stages"});
  }

  bool usesTensorCores() const override { return true; }
  bool storesFragmentQuads() const override { return true; }
  bool consumersCopyOperands() const override { return true; }
  /// The consumer warps also issue the loads and meet at a block barrier
  /// every K tile. Measured against the TMA-fed kernel on the same tiles
  /// (o_proj prefill, H200, 2026-11-30, bench/results/2026-11-30-h200-v8-
  /// epilogue and -gpu-check-v8): 177.6 vs 172.1 us and 180.6 vs 171.1 us,
  /// i.e. 0.96 of its rate.
  double getMmaEfficiencyShare(TargetAttr target,
                               Type elementType) const override {
    return 0.96;
  }

  /// A block of two warpgroups per output tile, a grid z slice per batch.
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    int64_t tileM = choices.tile[0], tileN = choices.tile[1];
    LaunchGeometry geometry;
    geometry.grid = {llvm::divideCeilSigned(shape.n, tileN),
                     shape.tilesAlongM(tileM), shape.batch};
    geometry.block = {256, 1, 1};
    geometry.smem = getWgmmaSmemBytes(tileN, choices.stages, tileM);
    return geometry;
  }
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getWgmmaPath() {
  static const WgmmaPath path;
  return path;
}
