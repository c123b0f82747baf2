//===- KernelPath.cpp - the registry of kernel paths ----------------------===//
//
// The list of paths (one file each under KernelPaths/) and what every path
// computes the same way from its facts: the cost model's tiling of a plan,
// a plan built from its choices and geometry, and the dynamic grid rule of
// a matmul path.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/KernelPath.h"
#include "KernelPaths/KernelPaths.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::sol;
using namespace mlir::sol::paths;

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

ArrayRef<const KernelPathInfo *> mlir::sol::getKernelPaths() {
  // The planner's tie order: gemv first (in a tie it computes no padding
  // rows), then the tensor-core paths from the oldest; the SIMT fallback
  // and the elementwise path are asked apart from the others.
  static const KernelPathInfo *const paths[] = {
      &getGemvPath(),     &getMmaSyncPath(), &getWgmmaPath(),
      &getWgmmaTmaPath(), &getSimtPath(),    &getElementwisePath(),
  };
  return paths;
}

const KernelPathInfo &mlir::sol::lookupKernelPath(KernelPath path) {
  for (const KernelPathInfo *info : getKernelPaths())
    if (info->getPath() == path)
      return *info;
  // Every case of the enum is registered (KernelPathTest checks it).
  llvm_unreachable("a kernel path without a registry entry");
}

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

KernelPathInfo::~KernelPathInfo() = default;

int64_t mlir::sol::paths::getSmVersion(TargetAttr target) {
  const ChipInfo *chip = lookupChip(target.getChip());
  return chip ? chip->smVersion : 0;
}

DynamicGridRule mlir::sol::paths::getFixedGridRule(unsigned axis,
                                                   int64_t extent) {
  DynamicGridRule rule;
  rule.axis = axis;
  rule.elementsPerDim = 1;
  rule.elementsPerBlock = kMaxDynamicDim;
  rule.times = extent;
  return rule;
}

PlanChoices PlanChoices::of(PlanAttr plan) {
  PlanChoices choices;
  choices.tile.assign(plan.getTile().begin(), plan.getTile().end());
  choices.warps.assign(plan.getWarps().begin(), plan.getWarps().end());
  choices.stages = plan.getStages();
  choices.splitK = plan.getSplitK();
  choices.cluster = plan.getCluster();
  choices.schedule = plan.getSchedule();
  return choices;
}

//===----------------------------------------------------------------------===//
// What every path derives the same way
//===----------------------------------------------------------------------===//

MatmulTiling KernelPathInfo::getMatmulTiling(PlanAttr plan) const {
  MatmulTiling tiling;
  ArrayRef<int64_t> tile = plan.getTile();
  if (tile.size() >= 2) {
    tiling.tileM = tile[0];
    tiling.tileN = tile[1];
  }
  tiling.splitK = plan.getSplitK();
  tiling.path = getPath();
  tiling.tensorCores = usesTensorCores();
  tiling.copiedByConsumers = consumersCopyOperands();
  tiling.pingpong = isPingPong(plan);
  // The consumers are the warps past the producers: all of them on each
  // tile (cooperative), or half on each (ping-pong).
  if (int64_t producers = getProducerWarps(plan))
    tiling.consumerWarps =
        (plan.getThreads() - 32 * producers) / 32 / (tiling.pingpong ? 2 : 1);
  tiling.cluster = plan.getCluster();
  if (tiling.tensorCores && tile.size() == 3) {
    tiling.tileK = tile[2];
    tiling.smemBytes = plan.getSmem();
    tiling.threads = plan.getThreads();
  }
  ArrayRef<int64_t> grid = plan.getGrid();
  CheckedCount blocks = grid.size() == 3 ? countElements(grid) : 0;
  tiling.blocks = blocks.getOptional().value_or(0);
  return tiling;
}

PlanAttr KernelPathInfo::buildPlan(MLIRContext *context,
                                   const PlanChoices &choices,
                                   const LaunchSizes &sizes) const {
  LaunchGeometry geometry = getLaunchGeometry(choices, sizes);
  if (!whyNotLaunchable(geometry.grid, geometry.block).empty())
    return {};
  return PlanAttr::get(context, getPath(), choices.tile, choices.warps,
                       choices.stages, choices.splitK, geometry.grid,
                       geometry.block, geometry.smem, choices.cluster,
                       choices.schedule);
}

/// Rows of A per unit of the dynamic dim, or 0 when A's rows do not follow
/// it (A static, or a batched B: its batch is a grid dim, not rows).
static int64_t getMatmulRowsPerDim(MatmulOp matmul) {
  auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  if (!hasDynamicLeadingDim(lhs) || rhs.getRank() != 2)
    return 0;
  // With a rank-2 B the leading dims fold into rows (getMatmulShape).
  int64_t rows = 1;
  for (int64_t d : lhs.getShape().drop_front().drop_back())
    rows *= d;
  return rows;
}

DynamicGridRule KernelPathInfo::getDynamicGridRule(KernelOp kernel,
                                                   PlanAttr plan) const {
  std::string ignored;
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), ignored);
  int64_t rowsPerDim = succeeded(matmuls) && !matmuls->empty()
                           ? getMatmulRowsPerDim(matmuls->front())
                           : 0;
  unsigned axis = getRowGridAxis();
  if (rowsPerDim == 0)
    return getFixedGridRule(axis, plan.getGrid()[axis]);
  DynamicGridRule rule;
  rule.axis = axis;
  rule.elementsPerDim = rowsPerDim;
  // The columns are static: N of the weight (each one's for a pair).
  MatmulOp matmul = matmuls->front();
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  MatmulShape shape;
  shape.n = rhs.getDimSize(matmul.getTransposeB() ? 0 : 1);
  shape.siblings = static_cast<int64_t>(matmuls->size());
  getRowGridRule(plan, shape, rule);
  return rule;
}

void KernelPathInfo::getRowGridRule(PlanAttr plan, const MatmulShape &shape,
                                    DynamicGridRule &rule) const {
  rule.elementsPerBlock = plan.getTile()[0];
}
