//===- SimtPath.cpp - the SIMT matmul path's facts ------------------------===//
//
// The fallback for matmuls the tensor-core paths' loads cannot reach (f32
// operands, rows the 16-byte loads would misalign): a 16x16 block of
// threads, one output element each (the generator:
// lib/Conversion/KernelsToGPU/SimtPath.cpp). When it applies, its one plan
// and its launch geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/TilePlan.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

PlanAttr mlir::sol::getSimtMatmulPlan(MLIRContext *context,
                                      const MatmulShape &shape) {
  PlanChoices choices;
  choices.tile = {kSimtBlockEdge, kSimtBlockEdge, 1};
  choices.warps = {1, 1};
  LaunchSizes sizes;
  sizes.matmul = shape;
  return getSimtPath().buildPlan(context, choices, sizes);
}

namespace {
class SimtPath final : public KernelPathInfo {
public:
  SimtPath() : KernelPathInfo(KernelPath::simt) {}

  bool isFallback() const override { return true; }
  // The fallback of exactly the shapes mma.sync's own rule refuses: an f16
  // or bf16 matmul refused by the chip alone has no path sol means to run
  // it on.
  std::string whyNot(const PlanRequest &request) const override {
    // mma.sync refuses fp8 too, but the SIMT kernel's scalar loads would
    // read fp8 as another float: no fallback of it.
    if (std::string why =
            whyNotWeightOnlyFp8(*request.matmul, "the SIMT fallback",
                                "a converting load of the weight alone");
        !why.empty())
      return why;
    if (request.matmul->hasFp8Operand())
      return MatmulOp::kNoFp8PathYet.str() +
             ": the SIMT fallback does not convert fp8 operands";
    if (whyNotMmaSync(*request.matmul).empty())
      return "the SIMT matmul is the fallback of shapes mma.sync refuses";
    return "";
  }

  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    const MatmulShape &shape = *request.matmul;
    PlanCandidate candidate;
    candidate.plan = getSimtMatmulPlan(request.target.getContext(), shape);
    candidate.tileM = candidate.tileN = kSimtBlockEdge;
    candidate.description = "simt";
    candidate.note = whyNotMmaSync(shape);
    candidate.whyUnlaunchable =
        "the SIMT plan's grid of 16x16 blocks exceeds CUDA's limits (x <= "
        "2^31 - 1, y and z <= 65535) for " +
        std::to_string(shape.rows) + " rows, N = " + std::to_string(shape.n) +
        ", batch " + std::to_string(shape.batch);
    out.push_back(std::move(candidate));
  }

  /// A thread per output element: block = [tile_n, tile_m], a grid z slice
  /// per batch.
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    const MatmulShape &shape = sizes.matmul;
    int64_t tileM = choices.tile[0], tileN = choices.tile[1];
    LaunchGeometry geometry;
    geometry.grid = {llvm::divideCeilSigned(shape.n, tileN),
                     shape.tilesAlongM(tileM), shape.batch};
    geometry.block = {tileN, tileM, 1};
    return geometry;
  }

protected:
  void getRowGridRule(PlanAttr plan, const MatmulShape &shape,
                      const LaunchGeometry &atMax,
                      DynamicGridRule &rule) const override {
    rule.elementsPerBlock = kSimtBlockEdge;
  }
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getSimtPath() {
  static const SimtPath path;
  return path;
}
