//===- CostModel.h - speed-of-light and predicted kernel times --*- C++ -*-===//
//
// The judgement sol makes of every kernel: how much work and traffic it has,
// what bounds it, how fast it could be (T_ideal) and how fast sol expects to
// make it (T_pred). Fusion calls it to compare a fused kernel with the
// unfused ops; sol-cost-model writes it into the IR as #sol.cost.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_COSTMODEL_H
#define SOLDIALECT_COSTMODEL_H

#include "SolDialect/SolDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <optional>
#include <string>

namespace mlir::sol {

/// An int64 count that remembers overflow. The IR's shapes are the user's:
/// products and sums of them (2*M*N*K, bytes, tiles, blocks) wrap silently
/// in plain int64 arithmetic, and a wrapped count reads as a negative or a
/// small one. Every count the cost model and the planner derive from shapes
/// goes through this (llvm::checkedMul and llvm::checkedAdd,
/// CheckedArithmetic.h, underneath).
class CheckedCount {
public:
  CheckedCount(int64_t value = 0) : value(value) {}
  static CheckedCount overflow() { return CheckedCount(std::nullopt); }

  bool overflowed() const { return !value.has_value(); }
  /// The count; only when it has not overflowed.
  int64_t get() const {
    assert(value && "count overflowed int64");
    return *value;
  }
  std::optional<int64_t> getOptional() const { return value; }

  CheckedCount operator*(CheckedCount other) const {
    if (overflowed() || other.overflowed())
      return overflow();
    return CheckedCount(llvm::checkedMul(*value, *other.value));
  }
  CheckedCount operator+(CheckedCount other) const {
    if (overflowed() || other.overflowed())
      return overflow();
    return CheckedCount(llvm::checkedAdd(*value, *other.value));
  }
  CheckedCount &operator*=(CheckedCount other) { return *this = *this * other; }
  CheckedCount &operator+=(CheckedCount other) { return *this = *this + other; }

private:
  explicit CheckedCount(std::optional<int64_t> value) : value(value) {}
  std::optional<int64_t> value;
};

/// Elements of a statically shaped type, checked.
CheckedCount countElements(ArrayRef<int64_t> shape);
/// Bytes of a statically shaped tensor type, checked.
CheckedCount countBytes(RankedTensorType type);

/// A matmul's dims, as the cost model, the planner and the generators read
/// them. With a rank-2 B the batch dims fold into the rows of A (a [B, M, K]
/// row-major tensor is a [B*M, K] matrix); with a batched B each batch is
/// one grid z slice. A sibling pair (one A, two [N, K] weights:
/// whyNotSiblingMatmuls) is one shape of `siblings` = 2 weights, `n`
/// columns each, run as one matmul of twice the width.
struct MatmulShape {
  int64_t batch = 1; // grid z slices (1 when folded)
  int64_t rows = 0;  // rows of A per slice
  int64_t n = 0;     // columns of each weight
  int64_t k = 0;
  /// Weights sharing A: 1, or 2 for a sibling pair, whose tiles hold
  /// tile_n / 2 columns of each.
  int64_t siblings = 1;
  bool transposeB = false;
  /// Element type of A, and of B unless the matmul is weight-only fp8
  /// (null: no matmul).
  Type elementType;
  /// Element type of B: elementType, another fp8 kind in an fp8 pair, or
  /// fp8 codes against a 16-bit A (weight-only fp8).
  Type weightType;
  /// A and B are arguments of the kernel (not computed inside it): what a
  /// TMA map, made on the host for a buffer, can describe.
  bool operandsAreKernelArgs = false;
  /// The matmul has block-wise fp8 scales (MatmulOp::hasBlockScales): each
  /// K block's partial sum is scaled during accumulation, which only a path
  /// that promotes partial sums (wgmma_tma) generates.
  bool blockScales = false;

  /// Whether either operand is fp8.
  bool hasFp8Operand() const;
  /// Whether a 16-bit A reads fp8 weight codes (docs/fp8.md, "Weight-only"):
  /// a path takes it only if it converts the weight alone, which gemv does.
  bool isWeightOnlyFp8() const;

  /// Rows over all slices: what the cost model tiles (it prices a batched
  /// B's slices as more rows).
  int64_t getFoldedRows() const { return batch * rows; }
  /// Output columns over all weights.
  int64_t getTotalN() const { return n * siblings; }
  /// Output tiles along N for tiles `tileN` wide over all weights: each
  /// holds tileN / siblings columns of every weight (a width the siblings do
  /// not divide is priced as one concatenated weight; no plan has one).
  int64_t tilesAlongN(int64_t tileN) const;
  /// Output tiles along the rows of one slice for tiles `tileM` tall.
  int64_t tilesAlongM(int64_t tileM) const {
    return llvm::divideCeilSigned(rows, tileM);
  }
};

/// The shape of a matmul of `lhs` and `rhs` (static types), or failure when
/// the batch dims times M overflow int64 (a row count no path may accept).
FailureOr<MatmulShape> getMatmulShape(RankedTensorType lhs,
                                      RankedTensorType rhs, bool transposeB);
/// The same read off a sol.matmul with static shapes, which also says
/// whether its operands are the kernel's arguments.
FailureOr<MatmulShape> getMatmulShape(MatmulOp matmul);

/// Work and minimum traffic of a group of sol ops that would run as one
/// kernel. Device-independent.
struct KernelWork {
  /// 2*M*N*K per matmul, batch included.
  int64_t tcFlops = 0;
  /// Elementwise FLOPs (per-op convention of ElementwiseOpInterface).
  int64_t ewFlops = 0;
  /// Each kernel input read once plus each output written once.
  int64_t bytes = 0;
  /// Every output has 16-bit elements (f16, bf16): what a fragment
  /// epilogue's wide stores need (KernelPathInfo::storesFragmentQuads).
  bool halfWidthOutputs = false;
  /// Bytes of the matmul operands (A and B, both weights of a sibling
  /// pair), for the tile re-read model.
  int64_t matmulLhsBytes = 0, matmulRhsBytes = 0;
  /// The group's largest matmul (or sibling pair), which the re-read and
  /// tile models follow; no element type without a matmul.
  MatmulShape matmul;
  /// Non-empty when some shape is dynamic: the model cannot bound it.
  std::string unknownReason;
  /// Non-empty when no cost exists at all: a count overflows int64 (a
  /// tensor's bytes, the FLOPs) or a matmul is empty. The counts are then 0;
  /// estimateCost says unknown, and the passes refuse the kernel with this
  /// reason.
  std::string invalidReason;

  bool hasMatmul() const { return static_cast<bool>(matmul.elementType); }
  int64_t totalFlops() const { return tcFlops + ewFlops; }
};

/// Counts the work of `ops` run as one kernel whose global inputs are
/// `inputs` and whose written results are `outputs`. Values produced and
/// consumed inside `ops` cost no traffic.
KernelWork countKernelWork(ArrayRef<Operation *> ops, ValueRange inputs,
                           ValueRange outputs);

/// The same with every dynamic leading dim set to `dim`: the work of the
/// static instance at that M, without building it (fusion prices a
/// dynamic group so at each sample point of its range).
KernelWork countKernelWork(ArrayRef<Operation *> ops, ValueRange inputs,
                           ValueRange outputs, int64_t dim);

/// The work of a formed kernel, or of one sol op run as a kernel of its own.
/// A kernel's input types are its body arguments', so that the static clone
/// of a dynamic kernel (cloneKernelAtDim) is counted at its M.
KernelWork countKernelWork(KernelOp kernel);
KernelWork countOpWork(Operation *op);

/// Traffic of the same ops with every sol op a kernel of its own: what the
/// unfused graph moves.
int64_t countUnfusedBytes(ArrayRef<Operation *> ops);

/// Microseconds from a warp's 128-bit global loads to their data while HBM
/// streams: what a K loop that waits on its own loads pays per trip, and,
/// with the bytes it keeps in flight, each SM's rate (Little's law). Fitted
/// on the H200 (2026-12-04, bench/results/2026-12-04-h200-s13-skinny,
/// bench/NOTES.md section 35) with swap_ab's HBM share: median error 8 %
/// over the 369 swap_ab plans of 1-32 rows timed there (7 % at 1-8 rows).
constexpr double kLoadedHbmRoundTripUs = 0.8;

/// How a matmul kernel is cut, as far as the prediction model cares: the
/// block tile and K split, and the facts of the path that runs it
/// (KernelPathInfo::getMatmulTiling fills them from a plan). Without a
/// plan the model assumes the default below (128x256 tiles on the tensor
/// cores).
struct MatmulTiling {
  int64_t tileM = 128, tileN = 256, splitK = 1;
  bool tensorCores = true;
  /// Thread blocks the kernel launches; 0 derives it from the tiles.
  int64_t blocks = 0;
  /// The path, which says what share of the target's mma_efficiency it
  /// reaches (KernelPathInfo::getMmaEfficiencyShare); none: all of it.
  std::optional<KernelPath> path;
  /// The warps that compute also copy the operand tiles (cp.async paths).
  bool copiedByConsumers = false;
  /// The epilogue stores four n8 fragment blocks per 16-byte store where
  /// the outputs allow (KernelPathInfo::storesFragmentQuads).
  bool storesFragmentQuads = false;
  /// Microseconds of one K step where the path measured its own
  /// (KernelPathInfo::getKStep); 0: the model's pipelined floor.
  double kStepUs = 0;
  /// Microseconds each round of resident blocks pays once besides its K
  /// steps, where the path measured it (KernelPathInfo::getKStep).
  double kRoundUs = 0;
  /// The share of hbm_efficiency its loads reach
  /// (KernelPathInfo::getHbmEfficiencyShare).
  double hbmEfficiencyShare = 1.0;
  /// Weight bytes each warp keeps in flight where its loads go straight to
  /// registers (KernelPathInfo::getWeightBytesInFlightPerWarp); 0 with no
  /// bytesInFlightPerBlock either: the model's share of SMs with work
  /// bounds the HBM rate instead.
  int64_t weightBytesInFlightPerWarp = 0;
  /// Bytes each block's load pipeline keeps in flight where a producer
  /// issues them ahead of use (KernelPathInfo::getBytesInFlightPerBlock: a
  /// TMA stage ring); 0: not such a path.
  int64_t bytesInFlightPerBlock = 0;
  /// Bytes per microsecond each SM with work copies into shared memory
  /// where the path measured it (KernelPathInfo::getSmCopyBytesPerUs); 0:
  /// the target's L2 rate bounds the operand re-reads.
  double smCopyBytesPerUs = 0;
  /// Microseconds a split-K tile's partials' arrival and last-arrival sum
  /// add after the K loop where the path measured its own
  /// (KernelPathInfo::getSplitKRoundTripUs); none: the model's default.
  std::optional<double> splitKRoundTripUs;
  /// Whether the split's partials are priced as HBM traffic of their own
  /// (the path's round trip was measured without them); else through L2
  /// where they fit.
  bool partialsThroughHbm = false;
  /// Warps of a block that run the MMAs and then the epilogue of one tile
  /// (0: all).
  int64_t consumerWarps = 0;
  /// Ping-pong consumers: one warpgroup's epilogue overlaps the other's K
  /// loop, so only what exceeds it (and the last tile's) is exposed.
  bool pingpong = false;
  /// K extent of one pipeline step (0: the model prices no K loop), and the
  /// block's shared memory and threads, which bound how many blocks share
  /// an SM.
  int64_t tileK = 0, smemBytes = 0, threads = 0;
  /// The blocks per SM its registers are budgeted for
  /// (LaunchGeometry::minBlocksPerSm; 0: bound by threads and shared memory
  /// alone).
  int64_t registerBoundBlocksPerSm = 0;
  /// Blocks per cluster along M sharing each B tile by multicast.
  int64_t cluster = 1;
};

struct LaunchSizes;
/// The tiling of a #sol.plan over `sizes` (getKernelLaunchSizes): its
/// path's facts and geometry
/// (lookupKernelPath(plan.getPath()).getMatmulTiling(plan, sizes)).
MatmulTiling getMatmulTiling(PlanAttr plan, const LaunchSizes &sizes);

/// Applies the roofline and the prediction model of `target` to `work`.
/// Never fails: what it cannot bound comes back with Bound::unknown and a
/// reason. `tiling` is the plan the kernel will run with; null means the
/// model's default plan.
CostAttr estimateCost(const KernelWork &work, TargetAttr target,
                      const MatmulTiling *tiling = nullptr);

/// Convenience: the cost of `ops` as one kernel (see countKernelWork).
CostAttr estimateCost(ArrayRef<Operation *> ops, ValueRange inputs,
                      ValueRange outputs, TargetAttr target);
/// The cost of `ops` as one kernel with the dynamic leading dim at `dim`.
CostAttr estimateCost(ArrayRef<Operation *> ops, ValueRange inputs,
                      ValueRange outputs, TargetAttr target, int64_t dim);

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

/// One kernel's line in a report. A dynamic kernel's `cost` is the one at
/// its range's max (what the totals count) and `points` its cost at each
/// report point (getDimReportPoints), one line each.
struct CostRecord {
  std::string kernel;
  CostAttr cost;
  SmallVector<std::pair<int64_t, CostAttr>> points = {};
};

/// Totals over `records` (see #sol.cost_summary); `unfusedBytes` is the
/// traffic of the same graph unfused. A dynamic kernel counts at its
/// range's max: the totals bound the module's largest step.
CostSummaryAttr summarizeCosts(MLIRContext *context,
                               ArrayRef<CostRecord> records,
                               int64_t unfusedBytes);

/// A table read at a glance, in the manner of Nsight Compute's Speed Of
/// Light section: one line per kernel, then the module totals.
void printCostTable(raw_ostream &os, TargetAttr target,
                    ArrayRef<CostRecord> records, CostSummaryAttr summary);

/// The same as JSON, for tools, the benchmark and the PyTorch backend:
/// {"target": {...}, "kernels": [{"kernel": ..., "bound": ..., ...}],
///  "summary": {...}}.
void printCostJSON(raw_ostream &os, TargetAttr target,
                   ArrayRef<CostRecord> records, CostSummaryAttr summary);

} // namespace mlir::sol

#endif // SOLDIALECT_COSTMODEL_H
