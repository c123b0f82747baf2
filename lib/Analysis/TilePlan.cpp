//===- TilePlan.cpp - launch and tile plans of sol kernels ----------------===//
//
// The tile catalogue of the mma.sync generator and the choice among it. The
// choice is the cost model's: each legal tile is priced with the same
// prediction the annotations show, so what sol-tile picks is what sol-cost-
// model then reports, and a calibration of the model moves both.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/TilePlan.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Target.h"

#include "llvm/ADT/STLExtras.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::sol;

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

FailureOr<MatmulProblem> mlir::sol::getMatmulProblem(MatmulOp matmul) {
  auto lhsType = cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(matmul.getRhs().getType());
  if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape())
    return failure();
  MatmulProblem problem;
  int64_t rank = lhsType.getRank();
  // Checked: batch dims times M must not wrap into a small (or negative)
  // row count that some path would then accept.
  CheckedCount batchCount = countElements(lhsType.getShape().drop_back(2));
  int64_t m = lhsType.getDimSize(rank - 2);
  if (batchCount.overflowed() || (batchCount * m).overflowed())
    return failure();
  int64_t batch = batchCount.get();
  problem.k = lhsType.getDimSize(rank - 1);
  problem.transposeB = matmul.getTransposeB();
  int64_t rhsRank = rhsType.getRank();
  problem.n =
      rhsType.getDimSize(problem.transposeB ? rhsRank - 2 : rhsRank - 1);
  if (rhsRank == 2) {
    problem.rows = batch * m;
  } else {
    problem.batch = batch;
    problem.rows = m;
  }
  problem.elementType = lhsType.getElementType();
  problem.operandsAreKernelArgs = isa<BlockArgument>(matmul.getLhs()) &&
                                  isa<BlockArgument>(matmul.getRhs());
  return problem;
}

std::string mlir::sol::whyNotMmaSync(const MatmulProblem &problem) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  Type type = problem.elementType;
  if (!type.isF16() && !type.isBF16()) {
    os << type << " operands have no mma.sync path (f16 and bf16 do)";
    return reason;
  }
  // cp.async copies 16 bytes (8 elements) per thread: each row of A (and of
  // B in the [N, K] layout) must start 16-byte aligned, so K % 8 == 0; a
  // [K, N] B needs N % 8 == 0 likewise.
  if (problem.k % 8 != 0) {
    os << "K = " << problem.k
       << " is not a multiple of 8: the 16-byte cp.async loads need each row "
          "of A to start 16-byte aligned";
    return reason;
  }
  if (!problem.transposeB && problem.n % 8 != 0) {
    os << "N = " << problem.n
       << " is not a multiple of 8: the 16-byte cp.async loads of a [K, N] "
          "B need each row to start 16-byte aligned";
    return reason;
  }
  return reason;
}

/// The SM version of `target`'s chip (0 for one no table knows, which the
/// target's verifier refuses).
static int64_t getSmVersion(TargetAttr target) {
  const ChipInfo *chip = lookupChip(target.getChip());
  return chip ? chip->smVersion : 0;
}

std::string mlir::sol::whyNotMmaSyncOnChip(TargetAttr target) {
  // m16n8k16 f16/bf16 mma.sync, cp.async and ldmatrix.x4: sm_80's.
  if (getSmVersion(target) < 80)
    return "mma.sync (m16n8k16, cp.async) needs sm_80 or newer; the target "
           "is " +
           target.getChip().str();
  return "";
}

std::string mlir::sol::whyNotGemvOnChip(TargetAttr target) {
  if (getSmVersion(target) < 30)
    return "gemv's warp shuffles (shfl.sync) need sm_30 or newer; the target "
           "is " +
           target.getChip().str();
  return "";
}

/// A plan CUDA can launch, or null where its grid breaks the limits
/// (whyNotLaunchable): the planner never records a plan it cannot launch.
static PlanAttr getLaunchablePlan(MLIRContext *context, KernelPath path,
                                  ArrayRef<int64_t> tile,
                                  ArrayRef<int64_t> warps, int64_t stages,
                                  int64_t splitK, ArrayRef<int64_t> grid,
                                  ArrayRef<int64_t> block, int64_t smem,
                                  int64_t cluster, ConsumerSchedule schedule) {
  if (!whyNotLaunchable(grid, block).empty())
    return {};
  return PlanAttr::get(context, path, tile, warps, stages, splitK, grid, block,
                       smem, cluster, schedule);
}

/// `count`, or INT64_MAX where it overflowed: a grid extent no launch takes.
static int64_t saturate(CheckedCount count) {
  return count.getOptional().value_or(std::numeric_limits<int64_t>::max());
}

int64_t mlir::sol::getMmaSyncAPitch(const MmaSyncTile &tile) {
  return tile.tileK + 8;
}

int64_t mlir::sol::getMmaSyncBPitch(const MmaSyncTile &tile, bool transposeB) {
  return (transposeB ? tile.tileK : tile.tileN) + 8;
}

int64_t mlir::sol::getMmaSyncSmemBytes(const MmaSyncTile &tile,
                                       bool transposeB) {
  int64_t aElems = tile.tileM * getMmaSyncAPitch(tile);
  int64_t bElems = (transposeB ? tile.tileN : tile.tileK) *
                   getMmaSyncBPitch(tile, transposeB);
  return tile.stages * (aElems + bElems) * 2;
}

PlanAttr mlir::sol::getMmaSyncPlan(MLIRContext *context,
                                   const MatmulProblem &problem,
                                   const MmaSyncTile &tile) {
  int64_t grid[] = {llvm::divideCeilSigned(problem.n, tile.tileN),
                    llvm::divideCeilSigned(problem.rows, tile.tileM),
                    saturate(CheckedCount(problem.batch) * tile.kSplits)};
  int64_t block[] = {tile.warpsM * tile.warpsN * 32, 1, 1};
  return getLaunchablePlan(
      context, KernelPath::mma_sync, {tile.tileM, tile.tileN, tile.tileK},
      {tile.warpsM, tile.warpsN}, tile.stages, tile.kSplits, grid, block,
      getMmaSyncSmemBytes(tile, problem.transposeB), 1,
      ConsumerSchedule::cooperative);
}

int64_t mlir::sol::getWgmmaSmemBytes(int64_t tileN, int64_t stages,
                                     int64_t tileM) {
  return stages * (tileM + tileN) * 64 * 2;
}

std::string mlir::sol::whyNotWgmma(const MatmulProblem &problem,
                                   TargetAttr target) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  if (target.getChip() != "sm_90a")
    os << "wgmma needs sm_90a; the target is " << target.getChip();
  else if (!problem.elementType.isF16() && !problem.elementType.isBF16())
    os << problem.elementType << " operands have no wgmma path here";
  else if (!problem.transposeB)
    os << "the wgmma generator reads K-major operands; B is [K, N]";
  else if (problem.k % 8 != 0)
    os << "K = " << problem.k << " is not a multiple of 8";
  return reason;
}

PlanAttr mlir::sol::getWgmmaPlan(MLIRContext *context,
                                 const MatmulProblem &problem, int64_t tileN,
                                 int64_t stages) {
  int64_t grid[] = {llvm::divideCeilSigned(problem.n, tileN),
                    llvm::divideCeilSigned(problem.rows, 128), problem.batch};
  int64_t block[] = {256, 1, 1};
  return getLaunchablePlan(context, KernelPath::wgmma, {128, tileN, 64}, {2, 1},
                           stages, 1, grid, block,
                           getWgmmaSmemBytes(tileN, stages), 1,
                           ConsumerSchedule::cooperative);
}

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

std::string mlir::sol::whyNotWgmmaTma(const MatmulProblem &problem,
                                      TargetAttr target) {
  std::string reason = whyNotWgmma(problem, target);
  if (!reason.empty())
    return reason;
  llvm::raw_string_ostream os(reason);
  if (problem.batch != 1)
    os << "TMA maps describe one B; B is batched";
  else if (!problem.operandsAreKernelArgs)
    os << "TMA maps describe kernel arguments; an operand of the matmul is "
          "computed in the kernel";
  return reason;
}

std::string mlir::sol::whyNotSiblingWgmmaTma(const MatmulProblem &problem,
                                             TargetAttr target) {
  std::string reason = whyNotWgmmaTma(problem, target);
  if (!reason.empty())
    return "no wgmma_tma path (" + reason + ")";
  llvm::raw_string_ostream os(reason);
  if (problem.rows < 128)
    os << problem.rows
       << " rows of A fill less than one 128-row tile: each weight streams "
          "once either way, and the decode paths take one weight";
  return reason;
}

PlanAttr mlir::sol::getWgmmaTmaPlan(MLIRContext *context,
                                    const MatmulProblem &problem, int64_t tileN,
                                    int64_t stages, int64_t cluster,
                                    int64_t smCount, ConsumerSchedule schedule,
                                    int64_t tileM) {
  // Persistent: at most one block per SM (the stage ring fills its shared
  // memory), whole clusters only; never more blocks than cluster-sized
  // groups of tiles.
  int64_t tilesM = llvm::divideCeilSigned(problem.rows, tileM);
  int64_t tilesN = problem.tilesAlongN(tileN);
  int64_t units = llvm::divideCeilSigned(tilesM, cluster) * tilesN;
  int64_t blocks =
      std::max<int64_t>(1, std::min(units, smCount / cluster)) * cluster;
  int64_t grid[] = {blocks, 1, 1};
  int64_t block[] = {kWgmmaTmaThreads, 1, 1};
  int64_t warpsM = schedule == ConsumerSchedule::cooperative ? 2 : 1;
  return getLaunchablePlan(context, KernelPath::wgmma_tma, {tileM, tileN, 64},
                           {warpsM, 1}, stages, 1, grid, block,
                           getWgmmaTmaSmemBytes(tileN, stages, schedule, tileM),
                           cluster, schedule);
}

std::string mlir::sol::whyNotGemv(const MatmulProblem &problem) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  int64_t bytes = problem.elementType.getIntOrFloatBitWidth() / 8;
  if (!problem.transposeB)
    os << "gemv streams rows of an [N, K] weight; B is [K, N]";
  else if (problem.batch != 1)
    os << "gemv takes one weight; B is batched";
  else if (problem.rows > kGemvMaxRows)
    os << problem.rows << " rows of A exceed gemv's " << kGemvMaxRows;
  else if (problem.k % (16 / bytes) != 0)
    os << "K = " << problem.k << " is not a multiple of " << 16 / bytes
       << ": gemv's 128-bit loads need aligned rows";
  return reason;
}

PlanAttr mlir::sol::getGemvPlan(MLIRContext *context,
                                const MatmulProblem &problem) {
  int64_t vector = 16 / (problem.elementType.getIntOrFloatBitWidth() / 8);
  int64_t grid[] = {llvm::divideCeilSigned(problem.n, kGemvWarps), 1, 1};
  int64_t block[] = {kGemvWarps * 32, 1, 1};
  return getLaunchablePlan(
      context, KernelPath::gemv, {problem.rows, kGemvWarps, vector},
      {1, kGemvWarps}, 1, 1, grid, block, 0, 1, ConsumerSchedule::cooperative);
}

PlanAttr mlir::sol::getSimtMatmulPlan(MLIRContext *context,
                                      const MatmulProblem &problem) {
  int64_t grid[] = {llvm::divideCeilSigned(problem.n, kSimtBlockEdge),
                    llvm::divideCeilSigned(problem.rows, kSimtBlockEdge),
                    problem.batch};
  int64_t block[] = {kSimtBlockEdge, kSimtBlockEdge, 1};
  return getLaunchablePlan(context, KernelPath::simt,
                           {kSimtBlockEdge, kSimtBlockEdge, 1}, {1, 1}, 1, 1,
                           grid, block, 0, 1, ConsumerSchedule::cooperative);
}

PlanAttr mlir::sol::getElementwisePlan(MLIRContext *context,
                                       int64_t numElements, int64_t vector) {
  int64_t perBlock = kElementwiseBlock * vector;
  int64_t grid[] = {
      std::max<int64_t>(1, llvm::divideCeilSigned(numElements, perBlock)), 1,
      1};
  int64_t block[] = {kElementwiseBlock, 1, 1};
  return getLaunchablePlan(context, KernelPath::elementwise, {perBlock}, {1, 1},
                           1, 1, grid, block, 0, 1,
                           ConsumerSchedule::cooperative);
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

static std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
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

FailureOr<PlanChoice>
mlir::sol::chooseKernelPlan(KernelOp kernel, TargetAttr target,
                            std::string &failureReason,
                            const PlanConstraints &constraints) {
  MLIRContext *context = kernel.getContext();
  KernelWork work = countKernelWork(kernel);
  if (!work.invalidReason.empty()) {
    failureReason = work.invalidReason;
    return failure();
  }
  if (!work.unknownReason.empty()) {
    failureReason = work.unknownReason;
    return failure();
  }
  for (Type type : kernel.getResultTypes()) {
    if (!cast<RankedTensorType>(type).hasStaticShape()) {
      failureReason = "a kernel result has a dynamic shape";
      return failure();
    }
  }
  FailureOr<SmallVector<MatmulOp, 2>> kernelMatmuls =
      getKernelMatmuls(kernel.getBodyBlock(), failureReason);
  if (failed(kernelMatmuls))
    return failure();

  SmallVector<MatmulOp, 2> &matmuls = *kernelMatmuls;
  PlanChoice choice;
  llvm::raw_string_ostream reason(choice.reason);
  if (matmuls.empty()) {
    int64_t elements = cast<RankedTensorType>(kernel.getResultTypes().front())
                           .getNumElements();
    int64_t vector = getElementwiseVector(kernel);
    choice.plan = getElementwisePlan(context, elements, vector);
    if (!choice.plan) {
      failureReason = std::to_string(elements) + " elements need more than " +
                      std::to_string(kMaxGridX) + " blocks of " +
                      std::to_string(kElementwiseBlock * vector) +
                      ": grid x exceeds CUDA's limit";
      return failure();
    }
    choice.cost = estimateCost(work, target);
    reason << "elementwise: " << elements << " elements, " << kElementwiseBlock
           << " threads per block, " << vector << " per thread";
    choice.description = choice.reason + ", predicted " +
                         formatReal(choice.cost.getTPredUs()) + " us";
    return choice;
  }

  FailureOr<MatmulProblem> problem = getMatmulProblem(matmuls.front());
  if (failed(problem)) {
    failureReason = "the matmul has a dynamic shape";
    return failure();
  }
  bool siblings = matmuls.size() == 2;
  if (siblings) {
    problem->siblings = 2;
    problem->operandsAreKernelArgs =
        problem->operandsAreKernelArgs &&
        isa<BlockArgument>(matmuls.back().getRhs());
    std::string why = whyNotSiblingWgmmaTma(*problem, target);
    if (!why.empty()) {
      failureReason = "sibling matmuls: " + why;
      return failure();
    }
  }
  // Every plan a generator can build for this matmul, priced by the same
  // model; the cheapest wins.
  struct Candidate {
    PlanAttr plan;
    CostAttr cost;
    double paddedOutputs; // output elements computed, padding included
    std::string description;
  };
  SmallVector<Candidate> candidates;
  // Plans dropped because their grid breaks CUDA's launch limits (a huge M
  // or N): reported when nothing else is left.
  int64_t unlaunchable = 0;
  auto addCandidate = [&](PlanAttr plan, int64_t tileM, int64_t tileN,
                          std::string description) {
    if (!plan) {
      ++unlaunchable;
      return;
    }
    if (!constraints.allows(plan))
      return;
    MatmulTiling tiling = getMatmulTiling(plan);
    double padded =
        static_cast<double>(llvm::divideCeilSigned(problem->rows, tileM)) *
        tileM * problem->tilesAlongN(tileN) * tileN;
    candidates.push_back({plan, estimateCost(work, target, &tiling), padded,
                          std::move(description)});
  };
  // Decode shapes: a warp per output column streams the weight with every
  // SM busy, where a tile grid over N leaves most SMs idle. Listed first:
  // in a tie it computes no padding rows.
  // Sibling matmuls have one generator, wgmma_tma (whyNotSiblingWgmmaTma).
  std::string notGemv = siblings ? "sibling matmuls" : whyNotGemv(*problem);
  if (notGemv.empty())
    notGemv = whyNotGemvOnChip(target);
  if (notGemv.empty())
    addCandidate(getGemvPlan(context, *problem), problem->rows, 1,
                 "gemv: " + std::to_string(problem->rows) +
                     " rows, a warp per column");
  // The shape's rule first: where it rules mma.sync out (f32, misaligned
  // rows) the SIMT path is the fallback; where only the chip does, an f16 or
  // bf16 matmul has no path sol is meant to run it on.
  std::string notMmaShape = whyNotMmaSync(*problem);
  std::string notMma =
      notMmaShape.empty() ? whyNotMmaSyncOnChip(target) : notMmaShape;
  int64_t smemLimit = target.getSmemPerSmBytes();
  if (notMma.empty() && !siblings) {
    for (const MmaSyncTile &tile : getMmaSyncTiles())
      if (getMmaSyncSmemBytes(tile, problem->transposeB) <= smemLimit &&
          (tile.kSplits == 1 || problem->batch == 1))
        addCandidate(getMmaSyncPlan(context, *problem, tile), tile.tileM,
                     tile.tileN, "mma_sync: " + describeTile(tile));
  }
  // Hopper: the model gives mma.sync its measured share of the tensor-core
  // rate, so large shapes go to wgmma. 128x256 reads half as many A panels
  // through L2 per FLOP as 128x128; the model weighs that against waves.
  std::string notWgmma = whyNotWgmma(*problem, target);
  if (notWgmma.empty() && !siblings) {
    // 128x256 first: where the model ties them (neither L2-bound), it won
    // on the H200 (bench/NOTES.md section 4).
    for (auto [tileN, stages] : {std::pair<int64_t, int64_t>{256, 4},
                                 std::pair<int64_t, int64_t>{128, 4}})
      if (getWgmmaSmemBytes(tileN, stages) <= smemLimit)
        addCandidate(getWgmmaPlan(context, *problem, tileN, stages), 128, tileN,
                     "wgmma: 128x" + std::to_string(tileN) +
                         "x64 tile, 2 warpgroups, " + std::to_string(stages) +
                         " stages");
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
  // Where only the TMA feeding is out, the remark says why. Sibling
  // matmuls take the same tiles, half of each tile's columns from each
  // weight, without clusters (each block loads both weights' boxes whole).
  std::string notTma =
      notWgmma.empty() ? whyNotWgmmaTma(*problem, target) : std::string();
  if (notWgmma.empty() && notTma.empty()) {
    struct TmaTile {
      int64_t tileN, stages;
      ConsumerSchedule schedule;
      // The wider ping-pong tiles ran on the GPU without clusters only
      // (bench/results/2026-11-30-h200-s4-widths-check), and ping-pong
      // clusters measured slower anyway: they are not offered with one.
      int64_t maxCluster = 2;
      int64_t tileM = 128;
    };
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
                      TmaTile{192, 4, ConsumerSchedule::cooperative, 1, 256}})
      for (int64_t cluster : {1, 2})
        if (cluster <= (siblings ? 1 : t.maxCluster) &&
            getWgmmaTmaSmemBytes(t.tileN, t.stages, t.schedule, t.tileM) <=
                smemLimit)
          addCandidate(getWgmmaTmaPlan(context, *problem, t.tileN, t.stages,
                                       cluster, target.getSmCount(), t.schedule,
                                       t.tileM),
                       t.tileM, t.tileN,
                       "wgmma_tma: " + std::to_string(t.tileM) + "x" +
                           std::to_string(t.tileN) + "x64 tile" +
                           (siblings ? " (" + std::to_string(t.tileN / 2) +
                                           " columns of each weight)"
                                     : std::string()) +
                           ", TMA producer + 2 " +
                           (t.schedule == ConsumerSchedule::pingpong
                                ? "ping-pong consumer warpgroups, "
                                : "consumer warpgroups, ") +
                           std::to_string(t.stages) + " stages, persistent" +
                           (cluster > 1 ? ", " + std::to_string(cluster) +
                                              "-CTA cluster multicasting B"
                                        : std::string()));
  }

  if (candidates.empty()) {
    if (!notMmaShape.empty() && !siblings) {
      choice.plan = getSimtMatmulPlan(context, *problem);
      if (!choice.plan) {
        failureReason = "the SIMT plan's grid of 16x16 blocks exceeds CUDA's "
                        "limits (x <= 2^31 - 1, y and z <= 65535) for " +
                        std::to_string(problem->rows) +
                        " rows, N = " + std::to_string(problem->n) +
                        ", batch " + std::to_string(problem->batch);
        return failure();
      }
      MatmulTiling tiling = getMatmulTiling(choice.plan);
      choice.cost = estimateCost(work, target, &tiling);
      reason << "simt: " << notMma;
      choice.description =
          "simt, predicted " + formatReal(choice.cost.getTPredUs()) + " us";
      return choice;
    }
    if (unlaunchable > 0) {
      failureReason = "every plan's grid exceeds CUDA's launch limits (x <= "
                      "2^31 - 1, y and z <= 65535) for " +
                      std::to_string(problem->rows) +
                      " rows, N = " + std::to_string(problem->n) + ", batch " +
                      std::to_string(problem->batch);
      return failure();
    }
    if (!siblings && !notMma.empty() &&
        StringRef(notWgmma).starts_with("wgmma needs")) {
      // Only the chip rules the tensor-core paths out.
      failureReason = "no path for " + typeName(problem->elementType) +
                      " matmuls on " + target.getChip().str() +
                      ": mma.sync needs sm_80 or newer, wgmma sm_90a";
      if (!notGemv.empty())
        failureReason += ", and gemv does not apply: " + notGemv;
      return failure();
    }
    failureReason = !constraints.paths.empty()
                        ? "no allowed path can compute this matmul"
                    : constraints.narrowsPlans()
                        ? "no plan the constraints allow (tiles, schedules, "
                          "min-cluster) can compute this matmul"
                        : "no tile fits the target's shared memory";
    return failure();
  }

  // Predictions within 0.1% of each other are a tie (launch-bound decode
  // shapes, where the tile hardly matters): the candidate computing the
  // fewest padded outputs wins, then the one listed first.
  auto better = [](const Candidate &a, const Candidate &b) {
    double ta = a.cost.getTPredUs(), tb = b.cost.getTPredUs();
    if (ta < tb * (1 - 1e-3))
      return true;
    if (ta > tb * (1 + 1e-3))
      return false;
    return a.paddedOutputs < b.paddedOutputs;
  };
  const Candidate *best = &candidates.front();
  for (const Candidate &candidate : candidates)
    if (better(candidate, *best))
      best = &candidate;
  const Candidate *runnerUp = nullptr;
  for (const Candidate &candidate : candidates)
    if (&candidate != best && (!runnerUp || better(candidate, *runnerUp)))
      runnerUp = &candidate;

  choice.plan = best->plan;
  choice.cost = best->cost;
  reason << best->description << ", predicted "
         << formatReal(best->cost.getTPredUs()) << " us";
  choice.description = choice.reason;
  if (runnerUp)
    reason << "; next " << runnerUp->description << " at "
           << formatReal(runnerUp->cost.getTPredUs()) << " us";
  reason << " (" << candidates.size() << " candidates";
  if (!notMma.empty())
    reason << "; no mma.sync: " << notMma;
  if (!notTma.empty())
    reason << "; no wgmma_tma: " << notTma;
  reason << ")";
  return choice;
}

//===----------------------------------------------------------------------===//
// Dynamic M: the grid rule of each path
//===----------------------------------------------------------------------===//

/// The rule of a grid that does not follow the dim: `extent` blocks along
/// `axis` for every M >= 1 (ceil(M / kMaxDynamicDim) is 1 there).
static DynamicGridRule getFixedGridRule(unsigned axis, int64_t extent) {
  DynamicGridRule rule;
  rule.axis = axis;
  rule.elementsPerDim = 1;
  rule.elementsPerBlock = kMaxDynamicDim;
  rule.times = extent;
  return rule;
}

/// Rows of A per unit of the dynamic dim, or 0 when A's rows do not follow
/// it (A static, or a batched B: its batch is a grid dim, not rows).
static int64_t getMatmulRowsPerDim(MatmulOp matmul) {
  auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  if (!hasDynamicLeadingDim(lhs) || rhs.getRank() != 2)
    return 0;
  // With a rank-2 B the leading dims fold into rows (getMatmulProblem).
  int64_t rows = 1;
  for (int64_t d : lhs.getShape().drop_front().drop_back())
    rows *= d;
  return rows;
}

DynamicGridRule mlir::sol::getDynamicGridRule(KernelOp kernel, PlanAttr plan) {
  ArrayRef<int64_t> grid = plan.getGrid();
  ArrayRef<int64_t> tile = plan.getTile();
  if (plan.getPath() == KernelPath::elementwise) {
    auto out = cast<RankedTensorType>(kernel.getResultTypes().front());
    if (!hasDynamicLeadingDim(out))
      return getFixedGridRule(0, grid[0]);
    DynamicGridRule rule;
    rule.axis = 0;
    rule.elementsPerDim = 1;
    for (int64_t d : out.getShape().drop_front())
      rule.elementsPerDim *= d;
    rule.elementsPerBlock = tile[0];
    return rule;
  }
  std::string ignored;
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), ignored);
  int64_t rowsPerDim = succeeded(matmuls) && !matmuls->empty()
                           ? getMatmulRowsPerDim(matmuls->front())
                           : 0;
  unsigned axis = plan.getPath() == KernelPath::wgmma_tma ? 0 : 1;
  if (rowsPerDim == 0)
    return getFixedGridRule(axis, grid[axis]);
  DynamicGridRule rule;
  rule.axis = axis;
  rule.elementsPerDim = rowsPerDim;
  switch (plan.getPath()) {
  case KernelPath::wgmma_tma: {
    // getWgmmaTmaPlan: min(ceil(tilesM / cluster) * tilesN, SMs / cluster)
    // clusters; ceil(ceil(a / b) / c) = ceil(a / (b * c)), and the cap is
    // the plan's grid, built at the row's m_max (the most it launches).
    MatmulOp matmul = matmuls->front();
    auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
    MatmulProblem problem;
    problem.n = rhs.getDimSize(matmul.getTransposeB() ? 0 : 1);
    problem.siblings = static_cast<int64_t>(matmuls->size());
    int64_t cluster = plan.getCluster();
    rule.elementsPerBlock = tile[0] * cluster;
    rule.times = problem.tilesAlongN(tile[1]) * cluster;
    rule.max = grid[0];
    return rule;
  }
  case KernelPath::simt:
    rule.elementsPerBlock = kSimtBlockEdge;
    return rule;
  default:
    // mma_sync and wgmma tile rows by tile_m; gemv's tile[0] is its rows
    // (the row's m_max), so ceil(rows / tile[0]) stays 1.
    rule.elementsPerBlock = tile[0];
    return rule;
  }
}

SmallVector<int64_t, 3>
mlir::sol::evaluateDynamicGridRule(PlanAttr plan, const DynamicGridRule &rule,
                                   int64_t dim) {
  SmallVector<int64_t, 3> grid(plan.getGrid());
  int64_t extent =
      saturate(CheckedCount(llvm::divideCeilSigned(
                   saturate(CheckedCount(dim) * rule.elementsPerDim),
                   rule.elementsPerBlock)) *
               rule.times);
  if (rule.max > 0)
    extent = std::min(extent, rule.max);
  // The plan's cluster runs along grid x.
  int64_t cluster = rule.axis == 0 ? plan.getCluster() : 1;
  extent = llvm::divideCeilSigned(extent, cluster) * cluster;
  grid[rule.axis] = extent;
  return grid;
}

//===----------------------------------------------------------------------===//
// Dynamic M: the plan table
//===----------------------------------------------------------------------===//

bool mlir::sol::isSamePlanFamily(PlanAttr a, PlanAttr b) {
  if (a.getPath() != b.getPath() || a.getWarps() != b.getWarps() ||
      a.getStages() != b.getStages() || a.getSplitK() != b.getSplitK() ||
      a.getSchedule() != b.getSchedule() || a.getCluster() != b.getCluster())
    return false;
  // A gemv's tile[0] is its rows, which follow M.
  ArrayRef<int64_t> tileA = a.getTile(), tileB = b.getTile();
  if (a.getPath() == KernelPath::gemv)
    return tileA.drop_front() == tileB.drop_front();
  return tileA == tileB;
}

namespace {
/// The static instance of a dynamic kernel at one M, with static operands:
/// cloneKernelAtDim keeps the original's dynamic operands, which the cost
/// model's input count reads, so each is cast to its static type here (the
/// casts go with the clone).
class KernelAtDim {
public:
  KernelAtDim(KernelOp kernel, int64_t dim)
      : clone(cloneKernelAtDim(kernel, dim)) {
    OpBuilder builder(clone.get());
    for (OpOperand &operand : clone->getInputsMutable()) {
      Type type = getTypeAtDim(operand.get().getType(), dim);
      if (type == operand.get().getType())
        continue;
      auto cast = UnrealizedConversionCastOp::create(builder, clone->getLoc(),
                                                     type, operand.get());
      casts.push_back(cast);
      operand.set(cast.getResult(0));
    }
  }
  ~KernelAtDim() {
    clone.release()->erase();
    for (Operation *cast : casts)
      cast->erase();
  }
  KernelOp get() { return clone.get(); }

private:
  OwningOpRef<KernelOp> clone;
  SmallVector<Operation *> casts;
};
} // namespace

FailureOr<PlanChoice>
mlir::sol::chooseKernelPlanAtDim(KernelOp kernel, int64_t dim,
                                 TargetAttr target, std::string &failureReason,
                                 const PlanConstraints &constraints) {
  KernelAtDim instance(kernel, dim);
  return chooseKernelPlan(instance.get(), target, failureReason, constraints);
}

/// `family` (a plan of the table) built at `dim`, or failure where its
/// generator cannot build it there (a gemv past its rows, a grid past
/// CUDA's limits). The SIMT fallback ignores the constraints: a plan of
/// another family is a failure too.
static FailureOr<PlanChoice> buildFamilyAt(KernelOp kernel, PlanAttr family,
                                           int64_t dim, TargetAttr target,
                                           const PlanConstraints &constraints) {
  PlanConstraints pinned = constraints;
  pinned.families = {family};
  std::string ignored;
  FailureOr<PlanChoice> choice =
      chooseKernelPlanAtDim(kernel, dim, target, ignored, pinned);
  if (failed(choice) || !isSamePlanFamily(choice->plan, family))
    return failure();
  return choice;
}

/// A short name of a plan family for remarks: path, tile, split, schedule
/// and cluster.
static std::string describePlanFamily(PlanAttr plan) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << stringifyKernelPath(plan.getPath());
  ArrayRef<int64_t> tile = plan.getTile();
  // A gemv's other tile extents are fixed (a warp per column, 16 bytes per
  // lane load); an elementwise plan has one per kernel.
  if (plan.getPath() != KernelPath::elementwise &&
      plan.getPath() != KernelPath::gemv) {
    os << " ";
    llvm::interleave(tile, os, "x");
  }
  if (plan.getSplitK() > 1)
    os << " split_k " << plan.getSplitK();
  if (plan.getPath() == KernelPath::wgmma_tma)
    os << " " << stringifyConsumerSchedule(plan.getSchedule());
  if (plan.getCluster() > 1)
    os << " cluster " << plan.getCluster();
  return s;
}

/// The predicted times of `prev` and `next` at `dim`, for a remark: "at
/// <dim> <first> <time> against <second> <time>", with `prev` first unless
/// `nextFirst`; a plan that cannot be built there says so, and a tie (the
/// planner's 0.1%) says how the planner breaks it.
static std::string describeTimesAt(KernelOp kernel, PlanAttr prev,
                                   PlanAttr next, int64_t dim, bool nextFirst,
                                   TargetAttr target,
                                   const PlanConstraints &constraints) {
  std::optional<double> times[2];
  std::string text[2];
  PlanAttr plans[2] = {nextFirst ? next : prev, nextFirst ? prev : next};
  for (int i = 0; i < 2; ++i) {
    FailureOr<PlanChoice> choice =
        buildFamilyAt(kernel, plans[i], dim, target, constraints);
    text[i] = describePlanFamily(plans[i]);
    if (failed(choice)) {
      text[i] += " cannot be built";
      continue;
    }
    times[i] = choice->cost.getTPredUs();
    text[i] += " " + formatReal(*times[i]) + " us";
  }
  std::string result =
      "at " + std::to_string(dim) + " " + text[0] + " against " + text[1];
  if (times[0] && times[1] && *times[0] <= *times[1] * (1 + 1e-3) &&
      *times[0] >= *times[1] * (1 - 1e-3))
    result += " (a tie within 0.1%, to the fewer padded outputs, then to the "
              "plan listed first)";
  return result;
}

FailureOr<SmallVector<PlanTableRow>>
mlir::sol::choosePlanTable(KernelOp kernel, TargetAttr target,
                           std::string &failureReason,
                           const PlanConstraints &constraints) {
  DimRangeAttr range = lookupDimRange(kernel);
  std::string rangeText =
      std::to_string(range.getMin()) + ".." + std::to_string(range.getMax());
  // M = 0 runs nothing: it is priced at no point, and the first row starts
  // there. A range of 0 alone is planned at 1.
  SmallVector<int64_t> samples;
  for (int64_t m : getDimSamplePoints(range))
    if (m >= 1)
      samples.push_back(m);
  if (samples.empty())
    samples.push_back(1);

  auto chooseAt = [&](int64_t m) -> FailureOr<PlanChoice> {
    std::string why;
    FailureOr<PlanChoice> choice =
        chooseKernelPlanAtDim(kernel, m, target, why, constraints);
    if (failed(choice))
      failureReason = "at M = " + std::to_string(m) + " (of its range " +
                      rangeText + "): " + why;
    return choice;
  };

  // The best plan at each sample; runs of one family are one segment.
  struct Segment {
    PlanAttr family;
    int64_t first, last; // its first and last sample
  };
  SmallVector<Segment> segments;
  for (int64_t m : samples) {
    FailureOr<PlanChoice> choice = chooseAt(m);
    if (failed(choice))
      return failure();
    if (!segments.empty() &&
        isSamePlanFamily(segments.back().family, choice->plan))
      segments.back().last = m;
    else
      segments.push_back({choice->plan, m, m});
  }

  // Whether `next` wins the choice between `prev` and `next` at `m`: the
  // planner's own rule (ties to the fewest padded outputs, then the one
  // listed first), asked of the two alone.
  auto nextWins = [&](PlanAttr prev, PlanAttr next, int64_t m) {
    PlanConstraints pair = constraints;
    pair.families = {prev, next};
    std::string ignored;
    FailureOr<PlanChoice> choice =
        chooseKernelPlanAtDim(kernel, m, target, ignored, pair);
    if (failed(choice))
      return false;
    return isSamePlanFamily(choice->plan, next) &&
           !isSamePlanFamily(choice->plan, prev);
  };

  // Rows: each segment's run, its end bisected between its last sample and
  // the next segment's first.
  struct Span {
    PlanAttr family;
    int64_t mMin, mMax;
    std::string boundary;
  };
  SmallVector<Span> spans;
  int64_t start = range.getMin();
  for (auto [i, segment] : llvm::enumerate(segments)) {
    Span span{segment.family, start, range.getMax(), ""};
    if (i + 1 < segments.size()) {
      const Segment &next = segments[i + 1];
      int64_t lo = segment.last, hi = next.first;
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (nextWins(segment.family, next.family, mid))
          hi = mid;
        else
          lo = mid;
      }
      span.mMax = lo;
      span.boundary =
          "ends where the next plan wins: " +
          describeTimesAt(kernel, segment.family, next.family, lo,
                          /*nextFirst=*/false, target, constraints) +
          "; " +
          describeTimesAt(kernel, segment.family, next.family, hi,
                          /*nextFirst=*/true, target, constraints);
      start = hi;
    } else {
      span.boundary = "ends at the range's max";
    }
    spans.push_back(std::move(span));
  }

  // Each row's plan built at its m_max; where its generator cannot build it
  // there (a grid past CUDA's limits), the row ends at the last M it can and
  // the rest is planned afresh from the next M.
  SmallVector<PlanTableRow> rows;
  for (Span &span : spans) {
    PlanAttr family = span.family;
    int64_t mMin = span.mMin;
    std::string boundary = span.boundary;
    while (true) {
      int64_t buildAt = std::max<int64_t>(span.mMax, 1);
      FailureOr<PlanChoice> built =
          buildFamilyAt(kernel, family, buildAt, target, constraints);
      if (succeeded(built)) {
        rows.push_back({mMin, span.mMax, *built, boundary});
        break;
      }
      // The last M the plan can be built at: legality is monotone in M
      // (grids only grow with it).
      int64_t lo = std::max<int64_t>(mMin, 1), hi = buildAt;
      if (failed(buildFamilyAt(kernel, family, lo, target, constraints))) {
        failureReason = "at M = " + std::to_string(lo) + " (of its range " +
                        rangeText + "): the plan chosen around it, " +
                        describePlanFamily(family) + ", cannot be built";
        return failure();
      }
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (succeeded(buildFamilyAt(kernel, family, mid, target, constraints)))
          lo = mid;
        else
          hi = mid;
      }
      FailureOr<PlanChoice> last =
          buildFamilyAt(kernel, family, lo, target, constraints);
      FailureOr<PlanChoice> rest = chooseAt(hi);
      if (failed(rest))
        return failure();
      rows.push_back({mMin, lo, *last,
                      "ends at " + std::to_string(lo) +
                          ": the last M its grid is launchable at"});
      family = rest->plan;
      mMin = hi;
    }
  }
  return rows;
}
