//===- ElementwisePath.cpp - the elementwise path's facts -----------------===//
//
// Kernels without a matmul: a thread per element, or per 16-byte vector of
// the innermost dim (the generator:
// lib/Conversion/KernelsToGPU/ElementwisePath.cpp). Its one plan, its
// launch geometry and how a dynamic kernel's grid follows M.
//
//===----------------------------------------------------------------------===//

#include "KernelPaths.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

PlanAttr mlir::sol::getElementwisePlan(MLIRContext *context,
                                       int64_t numElements, int64_t vector) {
  PlanChoices choices;
  choices.tile = {kElementwiseBlock * vector};
  choices.warps = {1, 1};
  LaunchSizes sizes;
  sizes.elements = numElements;
  return getElementwisePath().buildPlan(context, choices, sizes);
}

int64_t mlir::sol::getElementwiseVector(KernelOp kernel) {
  int64_t minBytes = 4;
  auto visit = [&](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    if (tensor.getRank() > 0)
      minBytes = std::min<int64_t>(
          minBytes, tensor.getElementType().getIntOrFloatBitWidth() / 8);
  };
  for (Type type : kernel.getInputs().getTypes())
    visit(type);
  for (Type type : kernel.getResultTypes())
    visit(type);
  auto out = cast<RankedTensorType>(kernel.getResultTypes().front());
  int64_t inner = out.getRank() > 0 ? out.getShape().back() : 1;
  int64_t vector = 16 / std::max<int64_t>(minBytes, 1);
  while (vector > 1 && inner % vector != 0)
    vector /= 2;
  return vector;
}

namespace {
class ElementwisePath final : public KernelPathInfo {
public:
  ElementwisePath() : KernelPathInfo(KernelPath::elementwise) {}

  bool isMatmulPath() const override { return false; }
  /// One tile per kernel: its block times the vector its types allow.
  bool namesTile() const override { return false; }
  std::string whyNot(const PlanRequest &request) const override {
    if (request.matmul)
      return "the elementwise path computes no matmul";
    return "";
  }

  void getCandidates(const PlanRequest &request,
                     SmallVectorImpl<PlanCandidate> &out) const override {
    KernelOp kernel = request.kernel;
    int64_t elements = cast<RankedTensorType>(kernel.getResultTypes().front())
                           .getNumElements();
    int64_t vector = getElementwiseVector(kernel);
    PlanCandidate candidate;
    candidate.plan = getElementwisePlan(kernel.getContext(), elements, vector);
    candidate.tileM = 1;
    candidate.tileN = kElementwiseBlock * vector;
    candidate.description = "elementwise: " + std::to_string(elements) +
                            " elements, " + std::to_string(kElementwiseBlock) +
                            " threads per block, " + std::to_string(vector) +
                            " per thread";
    candidate.whyUnlaunchable = std::to_string(elements) +
                                " elements need more than " +
                                std::to_string(kMaxGridX) + " blocks of " +
                                std::to_string(kElementwiseBlock * vector) +
                                ": grid x exceeds CUDA's limit";
    out.push_back(std::move(candidate));
  }

  /// A 1-D grid of blocks of kElementwiseBlock threads covering the
  /// elements, tile[0] per block (at least one block: a kernel of no
  /// elements still launches).
  LaunchGeometry getLaunchGeometry(const PlanChoices &choices,
                                   const LaunchSizes &sizes) const override {
    LaunchGeometry geometry;
    geometry.grid = {std::max<int64_t>(1, llvm::divideCeilSigned(
                                              sizes.elements, choices.tile[0])),
                     1, 1};
    geometry.block = {kElementwiseBlock, 1, 1};
    return geometry;
  }

  /// grid x = ceil(dim x the output's static dims / the block's elements).
  DynamicGridRule
  getDynamicGridRule(KernelOp kernel, PlanAttr plan,
                     const LaunchGeometry &atMax) const override {
    auto out = cast<RankedTensorType>(kernel.getResultTypes().front());
    if (!hasDynamicLeadingDim(out))
      return getFixedGridRule(0, atMax.grid[0]);
    DynamicGridRule rule;
    rule.axis = 0;
    rule.elementsPerDim = 1;
    for (int64_t d : out.getShape().drop_front())
      rule.elementsPerDim *= d;
    rule.elementsPerBlock = plan.getTile()[0];
    return rule;
  }
};
} // namespace

const KernelPathInfo &mlir::sol::paths::getElementwisePath() {
  static const ElementwisePath path;
  return path;
}
