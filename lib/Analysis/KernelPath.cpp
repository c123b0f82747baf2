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
#include "SolDialect/TilePlan.h"

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
  // rows), swap_ab (padding to 8 rows at most), then the tiled tensor-core
  // paths from the oldest; the SIMT fallback and the elementwise path are
  // asked apart from the others.
  static const KernelPathInfo *const paths[] = {
      &getGemvPath(),        &getSwapAbPath(),   &getMmaSyncPath(),
      &getWgmmaPath(),       &getWgmmaTmaPath(), &getSimtPath(),
      &getElementwisePath(),
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

std::string mlir::sol::paths::whyNotFp8ConversionOnChip(StringRef who,
                                                        TargetAttr target) {
  if (getSmVersion(target) >= 89)
    return "";
  return who.str() +
         " converts fp8 in registers (cvt's e4m3x2 and e5m2x2 forms), which "
         "needs sm_89 or newer; the target is " +
         target.getChip().str();
}

/// Registers a thread needs besides its loaded vectors and accumulators:
/// addresses, indices, the loop. From ptxas (CUDA 13, sm_90a, 2026-12-04):
/// swap_ab's 8-row, 16-warp kernel keeps its trip's 12 loads (48
/// registers) in flight with its 4 accumulators in 64 registers, and
/// gemv's 1-row kernel its 8 in 48.
constexpr int64_t kRegistersBesideLoads = 16;

int64_t mlir::sol::paths::getBlocksPerSmForLoadsInFlight(int64_t threads,
                                                         int64_t vectors,
                                                         int64_t accumulators) {
  int64_t registers = 4 * vectors + accumulators + kRegistersBesideLoads;
  return std::max<int64_t>(1, kRegistersPerSm / (threads * registers));
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

bool mlir::sol::canStoreFragmentQuads(bool halfWidthOutputs, int64_t n) {
  return halfWidthOutputs && n % 8 == 0;
}

MatmulTiling KernelPathInfo::getMatmulTiling(PlanAttr plan,
                                             const LaunchSizes &sizes) const {
  LaunchGeometry geometry = getLaunchGeometry(PlanChoices::of(plan), sizes);
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
  tiling.storesFragmentQuads = storesFragmentQuads();
  tiling.hbmEfficiencyShare = getHbmEfficiencyShare(plan);
  tiling.weightBytesInFlightPerWarp =
      getWeightBytesInFlightPerWarp(plan, sizes);
  tiling.bytesInFlightPerBlock = getBytesInFlightPerBlock(plan);
  tiling.smCopyBytesPerUs = getSmCopyBytesPerUs(plan, sizes);
  tiling.splitKRoundTripUs = getSplitKRoundTripUs();
  tiling.partialsThroughHbm = pricesPartialsThroughHbm();
  tiling.pingpong = isPingPong(plan);
  // The consumers are the warps past the producers: all of them on each
  // tile (cooperative), or half on each (ping-pong).
  if (int64_t producers = getProducerWarps(plan))
    tiling.consumerWarps = (geometry.getThreads() - 32 * producers) / 32 /
                           (tiling.pingpong ? 2 : 1);
  tiling.cluster = plan.getCluster();
  if (tiling.tensorCores && tile.size() == 3)
    tiling.tileK = tile[2];
  if (KStep step = getKStep(plan, sizes); step.k > 0) {
    tiling.tileK = step.k;
    tiling.kStepUs = step.us;
    tiling.kRoundUs = step.roundUs;
  }
  if (tiling.tileK > 0) {
    tiling.smemBytes = geometry.smem;
    tiling.threads = geometry.getThreads();
    tiling.registerBoundBlocksPerSm = geometry.minBlocksPerSm;
  }
  CheckedCount blocks = countElements(geometry.grid);
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
                       choices.stages, choices.splitK, choices.cluster,
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

DynamicGridRule
KernelPathInfo::getDynamicGridRule(KernelOp kernel, PlanAttr plan,
                                   const LaunchGeometry &atMax) const {
  std::string ignored;
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), ignored);
  int64_t rowsPerDim = succeeded(matmuls) && !matmuls->empty()
                           ? getMatmulRowsPerDim(matmuls->front())
                           : 0;
  unsigned axis = getRowGridAxis();
  if (rowsPerDim == 0)
    return getFixedGridRule(axis, atMax.grid[axis]);
  DynamicGridRule rule;
  rule.axis = axis;
  rule.elementsPerDim = rowsPerDim;
  // The columns are static: N of the weight (each one's for a pair).
  MatmulOp matmul = matmuls->front();
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  MatmulShape shape;
  shape.n = rhs.getDimSize(matmul.getTransposeB() ? 0 : 1);
  shape.siblings = static_cast<int64_t>(matmuls->size());
  getRowGridRule(plan, shape, atMax, rule);
  return rule;
}

void KernelPathInfo::getRowGridRule(PlanAttr plan, const MatmulShape &shape,
                                    const LaunchGeometry &atMax,
                                    DynamicGridRule &rule) const {
  rule.elementsPerBlock = plan.getTile()[0];
}

//===----------------------------------------------------------------------===//
// A plan's launch geometry
//===----------------------------------------------------------------------===//

std::string KernelPathInfo::whyNotWellFormed(PlanAttr plan) const {
  size_t tileRank = isMatmulPath() ? 3 : 1;
  if (plan.getTile().size() != tileRank || plan.getWarps().size() != 2)
    return "a " + getName().str() + " plan needs " +
           (isMatmulPath() ? "tile = [m, n, k]" : "tile = [elements]") +
           " and warps = [m, n]";
  return "";
}

FailureOr<LaunchSizes>
mlir::sol::getLaunchSizes(RankedTensorType lhs, RankedTensorType rhs,
                          bool transposeB, int64_t numMatmuls,
                          RankedTensorType out, TargetAttr target) {
  LaunchSizes sizes;
  if (numMatmuls > 0) {
    FailureOr<MatmulShape> shape = getMatmulShape(lhs, rhs, transposeB);
    if (failed(shape))
      return failure();
    sizes.matmul = *shape;
    sizes.matmul.siblings = numMatmuls;
  }
  sizes.elements = out.getNumElements();
  sizes.smCount = target.getSmCount();
  return sizes;
}

FailureOr<LaunchSizes>
mlir::sol::getKernelLaunchSizes(KernelOp kernel, TargetAttr target,
                                std::string &reason,
                                std::optional<int64_t> dim) {
  auto atDim = [&](Type type) {
    return cast<RankedTensorType>(dim ? getTypeAtDim(type, *dim) : type);
  };
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), reason);
  if (failed(matmuls))
    return failure();
  RankedTensorType out = atDim(kernel.getResultTypes().front());
  RankedTensorType lhs, rhs;
  bool transposeB = false;
  if (!matmuls->empty()) {
    MatmulOp matmul = matmuls->front();
    lhs = atDim(matmul.getLhs().getType());
    rhs = atDim(matmul.getRhs().getType());
    transposeB = matmul.getTransposeB();
    if (!lhs.hasStaticShape() || !rhs.hasStaticShape()) {
      reason = "the matmul has a dynamic shape";
      return failure();
    }
  }
  if (!out.hasStaticShape()) {
    reason = "a kernel result has a dynamic shape";
    return failure();
  }
  FailureOr<LaunchSizes> sizes = getLaunchSizes(
      lhs, rhs, transposeB, static_cast<int64_t>(matmuls->size()), out, target);
  if (failed(sizes))
    reason = "the matmul's batch dims times M overflow int64";
  return sizes;
}

LaunchGeometry mlir::sol::getPlanLaunchGeometry(PlanAttr plan,
                                                const LaunchSizes &sizes) {
  return lookupKernelPath(plan.getPath())
      .getLaunchGeometry(PlanChoices::of(plan), sizes);
}

std::string mlir::sol::whyNotWeightOnlyFp8(const MatmulShape &shape,
                                           StringRef path, StringRef needs) {
  if (!shape.isWeightOnlyFp8())
    return {};
  std::string reason;
  llvm::raw_string_ostream os(reason);
  os << MatmulOp::kNoFp8PathYet << ": " << path << " reads both operands as "
     << "one type, and a weight-only fp8 matmul (" << shape.elementType
     << " A, " << shape.weightType << " weight codes) needs " << needs
     << " (gemv and swap_ab convert the weight alone)";
  return reason;
}

std::string mlir::sol::whyNotBlockScales(const MatmulShape &shape,
                                         StringRef path) {
  if (!shape.blockScales)
    return {};
  return (MatmulOp::kNoFp8PathYet + ": " + path +
          " does not scale each K block's partial sum, which block-wise "
          "scales need (wgmma_tma does)")
      .str();
}

std::string mlir::sol::whyNotLaunchableOn(const LaunchGeometry &geometry,
                                          TargetAttr target) {
  std::string why = whyNotLaunchable(geometry.grid, geometry.block);
  if (!why.empty())
    return why;
  if (geometry.smem > target.getSmemPerSmBytes())
    return std::to_string(geometry.smem) +
           " bytes of shared memory per block exceed " +
           target.getName().str() + "'s " +
           std::to_string(target.getSmemPerSmBytes()) + " per SM";
  return "";
}

FailureOr<LaunchGeometry>
mlir::sol::getPlanLaunchGeometry(PlanAttr plan, KernelOp kernel,
                                 TargetAttr target, std::string &reason,
                                 std::optional<int64_t> dim) {
  reason = lookupKernelPath(plan.getPath()).whyNotWellFormed(plan);
  if (!reason.empty())
    return failure();
  FailureOr<LaunchSizes> sizes =
      getKernelLaunchSizes(kernel, target, reason, dim);
  if (failed(sizes))
    return failure();
  LaunchGeometry geometry = getPlanLaunchGeometry(plan, *sizes);
  reason = whyNotLaunchableOn(geometry, target);
  if (!reason.empty())
    return failure();
  return geometry;
}
