//===- CostModel.cpp - speed-of-light and predicted kernel times ----------===//
//
// Two numbers per kernel first: the FLOPs it must do and the fewest bytes
// it must move. Over the target's datasheet peaks
// they give the speed-of-light time T_ideal. T_pred then models the kernel
// sol will generate: a fixed launch cost, tensor-core work padded to whole
// tiles and quantised into waves over the SMs at the target's achievable
// fraction of peak, operand-panel re-reads served by L2, and HBM streaming
// at the target's achievable bandwidth. Every device number comes from the
// #sol.target or the kernel path's own measured facts (KernelPath.h); the
// constants here are the measured terms of the model, each with where and
// when it was measured.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/KernelPath.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::sol;

//===----------------------------------------------------------------------===//
// Counting work and traffic
//===----------------------------------------------------------------------===//

static int64_t elementBytes(Type elementType) {
  return llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
}

CheckedCount mlir::sol::countElements(ArrayRef<int64_t> shape) {
  CheckedCount elements = 1;
  for (int64_t d : shape)
    elements *= d;
  return elements;
}

CheckedCount mlir::sol::countBytes(RankedTensorType type) {
  return countElements(type.getShape()) * elementBytes(type.getElementType());
}

static bool isStatic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// A scalar sol.constant becomes an immediate of the kernel: no traffic.
static bool isImmediate(Value value) {
  return value.getDefiningOp<ConstantOp>() != nullptr;
}

static std::string describeDynamic(Type type, StringRef role, unsigned i) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << role << " #" << i << " has type " << type
     << "; the cost model needs static shapes";
  return s;
}

static std::string describeTooLarge(Type type, StringRef role, unsigned i) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << role << " #" << i << " has type " << type
     << ": its size in bytes overflows int64";
  return s;
}

static KernelWork invalidWork(std::string reason) {
  KernelWork work;
  work.invalidReason = std::move(reason);
  return work;
}

/// The work of `ops` with inputs `inputs` of types `inputTypes` (a formed
/// kernel's body arguments, which a static clone of a dynamic kernel has
/// retyped while its operands stay dynamic) and outputs `outputs`. Every
/// type is read at `dim`, the value of the dynamic leading dim
/// (ShapedType::kDynamic: none; a dynamic type then leaves the work
/// unknown).
static KernelWork countWork(ArrayRef<Operation *> ops, ValueRange inputs,
                            TypeRange inputTypes, ValueRange outputs,
                            int64_t dim) {
  auto typeOf = [&](Type type) -> Type {
    return ShapedType::isDynamic(dim) ? type : getTypeAtDim(type, dim);
  };
  auto tensorOf = [&](Value value) {
    return cast<RankedTensorType>(typeOf(value.getType()));
  };
  KernelWork work;
  for (auto [i, t] : llvm::enumerate(inputTypes))
    if (!isStatic(typeOf(t))) {
      work.unknownReason = describeDynamic(t, "input", i);
      return work;
    }
  for (auto [i, v] : llvm::enumerate(outputs))
    if (!isStatic(typeOf(v.getType()))) {
      work.unknownReason = describeDynamic(v.getType(), "output", i);
      return work;
    }
  for (Operation *op : ops)
    for (auto [i, v] : llvm::enumerate(op->getResults()))
      if (!isStatic(typeOf(v.getType()))) {
        work.unknownReason = describeDynamic(
            v.getType(), (op->getName().getStringRef() + " result").str(), i);
        return work;
      }

  // Every count below is checked: a shape near INT64_MAX (or a product of
  // large ones) must not wrap into a negative byte or FLOP count.
  for (Operation *op : ops)
    for (auto [i, v] : llvm::enumerate(op->getResults()))
      if (countBytes(tensorOf(v)).overflowed())
        return invalidWork(
            describeTooLarge(tensorOf(v),
                             (op->getName().getStringRef() + " result").str(),
                             i));
  CheckedCount bytes = 0;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, inputTypes))) {
    auto [v, t] = pair;
    auto type = cast<RankedTensorType>(typeOf(t));
    CheckedCount b = countBytes(type);
    if (b.overflowed())
      return invalidWork(describeTooLarge(type, "input", i));
    if (!isImmediate(v))
      bytes += b;
  }
  for (auto [i, v] : llvm::enumerate(outputs)) {
    CheckedCount b = countBytes(tensorOf(v));
    if (b.overflowed())
      return invalidWork(describeTooLarge(tensorOf(v), "output", i));
    bytes += b;
  }
  if (bytes.overflowed())
    return invalidWork("the kernel's inputs and outputs together hold more "
                       "than 2^63 - 1 bytes");
  work.bytes = bytes.get();
  work.halfWidthOutputs =
      !outputs.empty() && llvm::all_of(outputs, [&](Value v) {
        return tensorOf(v).getElementType().getIntOrFloatBitWidth() == 16;
      });

  CheckedCount tcFlops = 0, ewFlops = 0;
  auto flopsOverflow = [](int64_t m, int64_t n, int64_t k) {
    return "the matmul's 2*M*N*K FLOPs (M = " + std::to_string(m) +
           ", N = " + std::to_string(n) + ", K = " + std::to_string(k) +
           ") overflow int64";
  };
  MatmulOp counted;
  for (Operation *op : ops) {
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      // An fp8 matmul's scales multiply the f32 accumulator once per output
      // element each: the sol.mul each one stands for (docs/fp8.md). A
      // block-wise scale multiplies each K block's partial sum instead, and
      // the scaled partials are summed: per output element and K block, one
      // multiply per block-wise scale and one add.
      int64_t numBlockScales =
          (matmul.isBlockScaleA() ? 1 : 0) + (matmul.isBlockScaleB() ? 1 : 0);
      int64_t numScales = (matmul.getScaleA() ? 1 : 0) +
                          (matmul.getScaleB() ? 1 : 0) +
                          (matmul.getScaleOut() ? 1 : 0) - numBlockScales;
      CheckedCount outputs =
          countElements(tensorOf(matmul.getResult()).getShape());
      ewFlops += CheckedCount(numScales) * outputs;
      if (numBlockScales) {
        int64_t kBlocks = llvm::divideCeil(
            tensorOf(matmul.getLhs()).getShape().back(), MatmulOp::kScaleBlock);
        ewFlops += CheckedCount(numBlockScales + 1) * kBlocks * outputs;
      }
      // A sibling of the matmul counted runs as the other half of one matmul
      // of twice the width: A is read once for both.
      MatmulShape &shape = work.matmul;
      if (counted && shape.siblings == 1 &&
          whyNotSiblingMatmuls(counted, matmul).empty()) {
        int64_t m = shape.getFoldedRows();
        CheckedCount n = CheckedCount(shape.n) * 2;
        CheckedCount rhs = CheckedCount(work.matmulRhsBytes) +
                           countBytes(tensorOf(matmul.getRhs()));
        tcFlops += CheckedCount(2) * m * shape.n * shape.k;
        if (n.overflowed() || rhs.overflowed() || tcFlops.overflowed())
          return invalidWork(flopsOverflow(m, 2 * shape.n, shape.k));
        shape.siblings = 2;
        work.matmulRhsBytes = rhs.get();
        continue;
      }
      FailureOr<MatmulShape> read =
          getMatmulShape(tensorOf(matmul.getLhs()), tensorOf(matmul.getRhs()),
                         matmul.getTransposeB());
      if (failed(read))
        return invalidWork("the matmul's rows (batch dims times M) overflow "
                           "int64");
      // Batch dims and M fold into one row count.
      int64_t batchRows = read->getFoldedRows(), n = read->n, k = read->k;
      // The verifier refuses empty matmuls; a kernel built without it must
      // not reach the tile arithmetic below with nothing to tile.
      if (batchRows == 0 || n == 0 || k == 0)
        return invalidWork(
            "the matmul is empty (M = " + std::to_string(batchRows) +
            ", N = " + std::to_string(n) + ", K = " + std::to_string(k) + ")");
      CheckedCount mnk = CheckedCount(batchRows) * n * k;
      tcFlops += mnk * 2;
      if (tcFlops.overflowed())
        return invalidWork(flopsOverflow(batchRows, n, k));
      // The re-read model follows the largest matmul of the group.
      if (!work.hasMatmul() ||
          mnk.get() > shape.getFoldedRows() * shape.getTotalN() * shape.k) {
        shape = *read;
        work.matmulLhsBytes = countBytes(tensorOf(matmul.getLhs())).get();
        work.matmulRhsBytes = countBytes(tensorOf(matmul.getRhs())).get();
        counted = matmul;
      }
      continue;
    }
    if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
      RankedTensorType type = tensorOf(op->getResult(0));
      ewFlops += CheckedCount(elementwise.getFlopsPerElement()) *
                 countElements(type.getShape());
    }
  }
  if (ewFlops.overflowed() || (tcFlops + ewFlops).overflowed())
    return invalidWork("the kernel's FLOPs overflow int64");
  work.tcFlops = tcFlops.get();
  work.ewFlops = ewFlops.get();
  return work;
}

KernelWork mlir::sol::countKernelWork(ArrayRef<Operation *> ops,
                                      ValueRange inputs, ValueRange outputs) {
  return countWork(ops, inputs, inputs.getTypes(), outputs,
                   ShapedType::kDynamic);
}

KernelWork mlir::sol::countKernelWork(ArrayRef<Operation *> ops,
                                      ValueRange inputs, ValueRange outputs,
                                      int64_t dim) {
  return countWork(ops, inputs, inputs.getTypes(), outputs, dim);
}

int64_t MatmulShape::tilesAlongN(int64_t tileN) const {
  if (siblings > 1 && tileN % siblings == 0)
    return llvm::divideCeil(n, tileN / siblings);
  return llvm::divideCeil(getTotalN(), tileN);
}

FailureOr<MatmulShape> mlir::sol::getMatmulShape(RankedTensorType lhs,
                                                 RankedTensorType rhs,
                                                 bool transposeB) {
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape())
    return failure();
  MatmulShape shape;
  int64_t rank = lhs.getRank();
  // Checked: batch dims times M must not wrap into a small (or negative)
  // row count that some path would then accept.
  CheckedCount batchCount = countElements(lhs.getShape().drop_back(2));
  int64_t m = lhs.getDimSize(rank - 2);
  if (batchCount.overflowed() || (batchCount * m).overflowed())
    return failure();
  int64_t batch = batchCount.get();
  shape.k = lhs.getDimSize(rank - 1);
  shape.transposeB = transposeB;
  int64_t rhsRank = rhs.getRank();
  shape.n = rhs.getDimSize(transposeB ? rhsRank - 2 : rhsRank - 1);
  if (rhsRank == 2) {
    shape.rows = batch * m;
  } else {
    shape.batch = batch;
    shape.rows = m;
  }
  shape.elementType = lhs.getElementType();
  shape.weightType = rhs.getElementType();
  return shape;
}

bool MatmulShape::hasFp8Operand() const {
  return (elementType && MatmulOp::isFp8(elementType)) ||
         (weightType && MatmulOp::isFp8(weightType));
}

bool MatmulShape::isWeightOnlyFp8() const {
  return elementType && weightType && !MatmulOp::isFp8(elementType) &&
         MatmulOp::isFp8(weightType);
}

FailureOr<MatmulShape> mlir::sol::getMatmulShape(MatmulOp matmul) {
  FailureOr<MatmulShape> shape =
      getMatmulShape(cast<RankedTensorType>(matmul.getLhs().getType()),
                     cast<RankedTensorType>(matmul.getRhs().getType()),
                     matmul.getTransposeB());
  if (succeeded(shape)) {
    shape->operandsAreKernelArgs = isa<BlockArgument>(matmul.getLhs()) &&
                                   isa<BlockArgument>(matmul.getRhs());
    shape->blockScales = matmul.hasBlockScales();
  }
  return shape;
}

KernelWork mlir::sol::countKernelWork(KernelOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation &op : kernel.getBodyBlock().without_terminator())
    ops.push_back(&op);
  // Inputs are the kernel's operands (an immediate constant outside the
  // kernel still costs nothing), outputs what it yields.
  // The types are the body's: a static clone of a dynamic kernel
  // (cloneKernelAtDim) keeps the original's dynamic operands.
  return countWork(ops, kernel.getInputs(),
                   kernel.getBodyBlock().getArgumentTypes(),
                   kernel.getYield().getValues(), ShapedType::kDynamic);
}

KernelWork mlir::sol::countOpWork(Operation *op) {
  return countKernelWork({op}, op->getOperands(), op->getResults());
}

int64_t mlir::sol::countUnfusedBytes(ArrayRef<Operation *> ops) {
  CheckedCount bytes = 0;
  for (Operation *op : ops) {
    if (isa<ConstantOp>(op))
      continue;
    KernelWork work = countOpWork(op);
    bytes += work.bytes;
  }
  // Saturate: each op's own count is checked (an op too large to count is
  // refused on its own); only their sum can exceed int64 here.
  return bytes.overflowed() ? std::numeric_limits<int64_t>::max() : bytes.get();
}

//===----------------------------------------------------------------------===//
// The default launch plan
//===----------------------------------------------------------------------===//

namespace {
/// How a matmul is cut into thread-block tiles, as the model prices it:
/// from the plan sol-tile recorded (planFromTiling), or, before there is
/// one (fusion's comparisons), the default plan below.
struct MatmulPlan {
  int64_t tileM, tileN;
  int64_t tiles;  // output tiles
  int64_t splitK; // K slices per output tile
  int64_t units() const { return tiles * splitK; }
};
} // namespace

/// The plan the annotation prices before sol-tile has chosen one (fusion's
/// comparisons, sol-annotate's report). Large problems: 128x256 tiles (two
/// warpgroups of m64n256), half the L2 traffic per FLOP of 128x128; sol-tile
/// may then choose other tiles (ping-pong 128x128 for the seed prefill). Small
/// M (decode): rows padded to the 64-row (m64 wgmma) or 16-row (mma.sync m16)
/// granule, and K split until every SM has work, so the weight streams from all
/// SMs at once.
static MatmulPlan chooseDefaultPlan(const KernelWork &work, int64_t smCount) {
  MatmulPlan plan;
  int64_t m = work.matmul.getFoldedRows();
  plan.tileM = m >= 128 ? 128 : (m >= 64 ? 64 : 16);
  plan.tileN = 256;
  plan.tiles =
      llvm::divideCeil(m, plan.tileM) * work.matmul.tilesAlongN(plan.tileN);
  plan.splitK = 1;
  if (plan.tiles < smCount) {
    // Never slice K below 256: a slice must amortise its partial-sum store.
    int64_t maxSplit = std::max<int64_t>(1, work.matmul.k / 256);
    plan.splitK =
        std::min<int64_t>(maxSplit, llvm::divideCeil(smCount, plan.tiles));
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Roofline and prediction
//===----------------------------------------------------------------------===//

/// Rounds to `decimals` places. Dividing by an exact power of ten yields
/// the double nearest the decimal, which prints back as that decimal.
static double roundDecimals(double value, int decimals) {
  if (!std::isfinite(value))
    return value;
  if (decimals >= 0) {
    double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
  }
  double scale = std::pow(10.0, -decimals);
  return std::round(value / scale) * scale;
}

/// Rounds to `digits` significant digits: annotations are read by people;
/// the precision beyond this is below the model's own error.
static double roundSignificant(double value, int digits) {
  if (value == 0 || !std::isfinite(value))
    return value;
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  return roundDecimals(value, digits - 1 - exponent);
}

static CostAttr unknownCost(MLIRContext *context, const KernelWork &work,
                            StringRef reason) {
  return CostAttr::get(context, Bound::unknown, work.tcFlops, work.ewFlops,
                       work.bytes, 0, 0, 0, 0, 0, 0, 0, Limiter::unknown,
                       reason);
}

static StringRef peakFieldName(Type elementType) {
  if (elementType.isF16())
    return "f16_tflops";
  if (elementType.isBF16())
    return "bf16_tflops";
  if (elementType.isF32())
    return "f32_simt_tflops";
  return "fp8_tflops";
}

/// The share of the L2 rate left when the re-read B operand exceeds L2
/// (see its use).
static constexpr double kL2RateBeyondCapacity = 0.80;

/// Microseconds a finished tile holds its SM up per output element stored
/// in column pairs, between its K loop and the next tile's (see its use).
static constexpr double kTileTurnaroundUsPerElement = 7.1 / (128 * 256);

/// The share of the pair-store turnaround a tile pays: 1 for pair stores.
/// Where the path stores four n8 blocks of a row per 16-byte store
/// (storesFragmentQuads, where canStoreFragmentQuads), the rows it stores
/// issue a quarter of the instructions for those blocks and the leftover
/// blocks (getQuadStoredBlocks) in pairs. The saving is counted on the
/// rows the tiles hold, not their padding: the term was fitted with full
/// tiles, and decode's padded tiles (4 rows of a 64-row tile), which skip
/// the stores of empty rows, were calibrated with it as it was (bench/
/// NOTES.md section 37), so wide stores change nothing there. Split K
/// stores the output once per tile, from the last of its `splitK` units to
/// arrive; the others store f32 partials, one element per lane, as they
/// did when the small-M plans were fitted (sections 35-37).
static double getStoreInstructionShare(const KernelWork &work,
                                       const MatmulTiling &tiling) {
  const MatmulShape &shape = work.matmul;
  if (!tiling.storesFragmentQuads ||
      !canStoreFragmentQuads(work.halfWidthOutputs, shape.n) ||
      tiling.tileM <= 0)
    return 1.0;
  int64_t blocks = tiling.tileN / std::max<int64_t>(1, shape.siblings) / 8;
  if (blocks <= 0)
    return 1.0;
  int64_t quadBlocks = getQuadStoredBlocks(blocks);
  double quadShare =
      (quadBlocks / 4.0 + static_cast<double>(blocks - quadBlocks)) /
      static_cast<double>(blocks);
  double heldRows =
      static_cast<double>(shape.rows) /
      static_cast<double>(shape.tilesAlongM(tiling.tileM) * tiling.tileM);
  return 1.0 - (1.0 - quadShare) * heldRows /
                   static_cast<double>(std::max<int64_t>(1, tiling.splitK));
}

/// The slowdown of ping-pong blocks coupled in a cluster (see its use).
static constexpr double kPingPongClusterCoupling = 1.13;

/// The slowdown of ping-pong blocks whose consumers hold at most one tile
/// each (see its use).
static constexpr double kPingPongLoneTileSlowdown = 1.11;

/// Microseconds the tensor cores idle at each K tile of a tile that
/// idlesAtKTileHandoffs, on an SM its block holds alone (see its use). Measured
/// on the H100 (2026-12-07, bench/results/2026-12-07-h100-s29-ow-models,
/// bench/NOTES.md section 55; wide stores, ping-pong 128x128 against
/// cooperative 128x256 tiles, same run): K scaling of the o_proj's 8192 x 2560
/// (K = 2560 -> 5120) gave ping-pong 614 and cooperative 571 cycles per
/// 128x128x64 of work, 43 cycles a K tile; Llama 3 8B's q/k/v (4096 x 6144 x
/// 4096, 11.6 tiles per SM) 48, Llama 1B's 2048^3 35. At the ~1.36 GHz those
/// runs held under load, 0.032 us. Cooperative 128x256 tiles' rate is
/// mma_efficiency's.
static constexpr double kKTileHandoffUs = 0.032;

/// Whether a tile's tensor cores idle at each K tile's handoff, its
/// issuing warpgroup waiting for its wgmmas and its next stage with no
/// other warpgroup's in flight. Ping-pong consumers take the tensor cores
/// in turn (the other one is in its epilogue or waiting its turn): section
/// 55's 43 cycles a K tile. Cooperative consumers issue together, but on
/// 128x128 tiles (TMA-fed or cp.async-fed) each issues 64x128 wgmmas,
/// half a 128x256 tile's: on the H200 (2026-11-30, bench/results/
/// 2026-11-30-h200-s4-final, pair stores priced alike) TMA-fed ones ran
/// the o_proj at K = 1280, 2560, 5120 11-13 % slower than 128x256 tiles
/// (217.0 against 194.8 us at 2560), where the handoffs price 12.8 us.
static bool idlesAtKTileHandoffs(const MatmulTiling &tiling) {
  if (tiling.pingpong)
    return true;
  bool wgmma = tiling.path && (*tiling.path == KernelPath::wgmma ||
                               *tiling.path == KernelPath::wgmma_tma);
  return wgmma && tiling.tileM <= 128 && tiling.tileN <= 128;
}

/// The partial tiles' round trip of a split-K matmul on a path that
/// measured none (see its use).
static constexpr double kSplitKRoundTripUs = 4.2;

/// HBM bytes each byte of split K's partials costs, per trip (see its use).
static constexpr double kPartialsHbmCost = 1.5;

/// Whether `bytes` re-read through L2 take more than the 3/4 of it that a
/// matmul's streaming operands leave them (see the uses: B's re-reads, split
/// K's partials).
static bool exceedsL2Share(double bytes, TargetAttr target) {
  return 4.0 * bytes > 3.0 * static_cast<double>(target.getL2Bytes());
}

/// The blocks of `tiling` an SM holds at once: by threads, shared memory
/// and the register budget the plan asks ptxas for (a budget for fewer
/// blocks is one ptxas fills, keeping more loads in flight).
static int64_t getResidentBlocksPerSm(const MatmulTiling &tiling,
                                      TargetAttr target) {
  int64_t perSm = tiling.threads > 0 ? 2048 / tiling.threads : 1;
  if (tiling.smemBytes > 0)
    perSm =
        std::min<int64_t>(perSm, target.getSmemPerSmBytes() / tiling.smemBytes);
  if (tiling.registerBoundBlocksPerSm > 0)
    perSm = std::min(perSm, tiling.registerBoundBlocksPerSm);
  return std::clamp<int64_t>(perSm, 1, 32);
}

/// The f32 partial tiles a split-K plan stores to its workspace: one per
/// work unit (lib/Conversion/KernelsToGPU/SplitKReduction.cpp), read back
/// once by the tile's last arrival. 0 without a split.
static double getSplitKWorkspaceBytes(const MatmulPlan &plan) {
  if (plan.splitK <= 1)
    return 0;
  return 4.0 * static_cast<double>(plan.units()) * plan.tileM * plan.tileN;
}

/// Latency floor of one K step of a pipelined matmul loop (see its use).
static constexpr double kKTileLatencyUs = 0.28;
/// Bytes per microsecond one warp moves with cp.async while it also runs
/// its share of the K step: 16-token decode on 160 single-warp 16x16x256
/// blocks (16 KB per step) ran 12.4 us for 10 K steps, (12.4 - 3.2) / 10 =
/// 0.92 us per step (H200, 2026-11-30, bench/results/2026-11-30-h200-v10-
/// decode-deepk). Steps of up to ~5 KB per warp stay at the latency floor.
static constexpr double kWarpCopyBytesPerUs = 16384 / 0.92;

/// The share of the target's mma_efficiency (calibrated on wgmma-class
/// kernels) that the plan's path reaches: a fact of the path, measured
/// (KernelPaths/*.cpp); the default plan is a wgmma-class one.
/// The element type whose conversions price a path's SIMT work: a
/// weight-only fp8 matmul's codes (its A is 16-bit), else A's.
static Type getConvertedType(const MatmulShape &shape) {
  return shape.isWeightOnlyFp8() ? shape.weightType : shape.elementType;
}

static double pathShareOfMmaEfficiency(const MatmulTiling *tiling,
                                       TargetAttr target, Type elementType) {
  if (!tiling || !tiling->path)
    return 1.0;
  return lookupKernelPath(*tiling->path)
      .getMmaEfficiencyShare(target, elementType);
}

/// The plan sol-tile recorded, priced as it stands.
static MatmulPlan planFromTiling(const KernelWork &work,
                                 const MatmulTiling &tiling) {
  MatmulPlan plan;
  plan.tileM = tiling.tileM;
  plan.tileN = tiling.tileN;
  plan.tiles = llvm::divideCeil(work.matmul.getFoldedRows(), plan.tileM) *
               work.matmul.tilesAlongN(plan.tileN);
  plan.splitK = tiling.splitK;
  return plan;
}

MatmulTiling mlir::sol::getMatmulTiling(PlanAttr plan,
                                        const LaunchSizes &sizes) {
  return lookupKernelPath(plan.getPath()).getMatmulTiling(plan, sizes);
}

CostAttr mlir::sol::estimateCost(const KernelWork &work, TargetAttr target,
                                 const MatmulTiling *tiling) {
  MLIRContext *context = target.getContext();
  if (!work.invalidReason.empty())
    return unknownCost(context, work, work.invalidReason);
  if (!work.unknownReason.empty())
    return unknownCost(context, work, work.unknownReason);
  // Nothing to tile: countKernelWork refuses empty matmuls; a hand-made
  // KernelWork must not divide by its zero extents below.
  const MatmulShape &shape = work.matmul;
  if (work.hasMatmul() && (shape.getFoldedRows() <= 0 || shape.n <= 0 ||
                           shape.k <= 0 || shape.siblings <= 0))
    return unknownCost(context, work, "the matmul is empty");
  // The rows over all slices, the columns over all weights.
  int64_t m = shape.getFoldedRows(), n = shape.getTotalN(), k = shape.k;
  if (tiling && (tiling->tileM <= 0 || tiling->tileN <= 0 ||
                 tiling->splitK <= 0 || tiling->cluster <= 0))
    return unknownCost(context, work,
                       "the plan's tile, split_k or cluster is not positive");
  // The plan's work units (tiles times K slices) are the count the wave
  // arithmetic below multiplies: it must fit, then every product there does
  // (in doubles where it could not).
  if (tiling && work.hasMatmul() &&
      (CheckedCount(llvm::divideCeil(m, tiling->tileM)) *
       shape.tilesAlongN(tiling->tileN) * tiling->splitK)
          .overflowed())
    return unknownCost(context, work, "the plan's tile count overflows int64");

  double peakSimt = target.getSimtPeakFlops();
  double peakTc = 0, peakTcPath = 0;
  if (work.hasMatmul()) {
    peakTc = target.getMatmulPeakFlops(shape.elementType);
    // A matmul the tiler sent to the SIMT units runs at their peak, whatever
    // its dtype (T_ideal keeps the datasheet tensor-core peak: that is the
    // hardware limit the kernel is judged against).
    if (tiling && !tiling->tensorCores && peakTc > 0)
      peakTcPath = peakSimt;
    if (!(peakTc > 0)) {
      std::string reason;
      llvm::raw_string_ostream os(reason);
      os << "target '" << target.getName() << "' has no " << shape.elementType
         << " matmul path (" << peakFieldName(shape.elementType) << " = 0)";
      return unknownCost(context, work, reason);
    }
  }
  double bandwidth = target.getHbmBytesPerSecond();

  // Speed of light: datasheet peaks, minimum bytes.
  double tTensorCore = work.hasMatmul() ? work.tcFlops / peakTc : 0;
  double tSimt = work.ewFlops / peakSimt;
  double tCompute = std::max(tTensorCore, tSimt);
  double tMemory = work.bytes / bandwidth;
  double tIdeal = std::max(tCompute, tMemory);
  double launch = target.getLaunchUs() * 1e-6;

  double balance = (work.hasMatmul() ? peakTc : peakSimt) / bandwidth;
  double intensity =
      work.bytes > 0 ? static_cast<double>(work.totalFlops()) / work.bytes : 0;
  Bound bound = tCompute > tMemory ? Bound::compute : Bound::memory;
  if (launch > tIdeal)
    bound = Bound::latency;

  // Prediction for the kernel sol generates.
  double hbmBytes = work.bytes;
  double tTcPred = 0, tL2Pred = 0, tKLoopPred = 0, tEpiloguePred = 0;
  if (work.hasMatmul()) {
    MatmulPlan plan = tiling ? planFromTiling(work, *tiling)
                             : chooseDefaultPlan(work, target.getSmCount());
    double pathPeak = peakTcPath > 0 ? peakTcPath : peakTc;
    int64_t waves = llvm::divideCeil(plan.units(), target.getSmCount());
    double waveEfficiency = static_cast<double>(plan.units()) /
                            (static_cast<double>(waves) * target.getSmCount());
    // The tensor cores compute whole tiles, padding included.
    double paddedFlops = 2.0 * llvm::divideCeil(m, plan.tileM) * plan.tileM *
                         shape.tilesAlongN(plan.tileN) * plan.tileN * k;
    double scale = static_cast<double>(work.tcFlops) /
                   (2.0 * m * n * k); // other matmuls, if any
    tTcPred =
        paddedFlops * scale /
        (pathPeak * target.getMmaEfficiency() *
         pathShareOfMmaEfficiency(tiling, target, getConvertedType(shape)) *
         waveEfficiency);

    // Each output tile reads its A panel (tileM x K) and B panel (K x tileN)
    // through L2: A is re-read once per column of tiles, B once per row.
    // A cluster multicasting B to its blocks (stacked along M) reads each
    // B tile once per cluster.
    int64_t cluster = tiling ? std::max<int64_t>(1, tiling->cluster) : 1;
    double l2Bytes =
        static_cast<double>(work.matmulLhsBytes) *
            shape.tilesAlongN(plan.tileN) +
        static_cast<double>(work.matmulRhsBytes) *
            llvm::divideCeil(llvm::divideCeil(m, plan.tileM), cluster);
    // The tile walk sweeps all of B once per group of tile rows: where B
    // takes most of L2 (which also holds A's panels and the outputs), its
    // re-reads partly miss. Measured on the H200 (60 MiB of L2; 2026-11-30,
    // bench/results/2026-11-30-h200-s3-v16b-pingpong): ping-pong 128x128
    // tiles re-read 6.7 GB through L2 at 8.6 TB/s for the MLP (B = 52 MB,
    // 779 us), 0.80 of the 10.8 TB/s the prefill (B = 13 MB) reached on the
    // same tiles; with B = 35 MB (SwiGLU's gate projection, 2048x6912x2560)
    // they ran 121 us, 1.13 GB at 9.3 TB/s and not bound by it (-v18-swiglu-
    // shapes). The threshold, 3/4 of L2, lies between those two; where
    // exactly the rate falls is not measured. Caveat (bench/NOTES.md
    // section 20): at equal clocks ncu found the MLP shape's K loop as
    // efficient as the prefill's; the MLP, timed longer, sits at the power
    // cap. And (section 22) timed fairly, interleaved on a heated card, the
    // MLP's and the prefill's ping-pong re-reads ran at the same 9.2-9.4
    // TB/s: the factor stands for the old timings' order bias, not for L2.
    // It stays until l2_gbps and mma_efficiency are recalibrated to the
    // heated steady state together (section 23's next gains).
    double l2Rate = target.getL2Gbps() * 1e9;
    if (exceedsL2Share(work.matmulRhsBytes, target))
      l2Rate *= kL2RateBeyondCapacity;
    // Where the compute warps copy their own operands (cp.async), each SM
    // with work moves them at the path's measured rate, which is below what
    // L2 gives the TMA engine; measured with weights of up to 117 MB, so
    // L2's capacity is in that figure.
    if (tiling && tiling->smCopyBytesPerUs > 0) {
      int64_t blocks = tiling->blocks > 0 ? tiling->blocks : plan.units();
      l2Rate = std::min(
          target.getL2Gbps() * 1e9,
          tiling->smCopyBytesPerUs * 1e6 *
              static_cast<double>(std::min(blocks, target.getSmCount())));
    }
    // Split K's partials are written once and read back once by the tile's
    // last arrival. Where the path measured them apart from its round trip
    // (wgmma_tma), through HBM: the weight streaming through L2 beside them
    // evicts them whatever their size, and their scalar stores and the last
    // arrival's loads move at 2/3 of the weight stream's rate. Measured on
    // the H200 (2026-12-05, bench/results/2026-12-05-h200-s14-mid,
    // bench/NOTES.md section 37): at 64 rows, 14336x4096 on 64x128 tiles
    // ran 34.4 us unsplit and 54.6 split 8 ways (29 MB of partials), 2048 x
    // 8192 0.57 us more per MB of partials; fitted with the TMA path's
    // facts over 346 plans, factors 1.25-1.5 fit equally, 1 or 2 worse.
    // Elsewhere through L2 where they fit beside the streaming operands,
    // else through HBM, competing with the weight (2026-12-03, bench/
    // results/2026-12-03-h200-s8-smallm: 14336x4096 at M = 128 on 128x128
    // tiles split 8, 59 MB of partials, ran 104 us where the model without
    // them said 39.2); the mma.sync round trip measured below holds the
    // rest of their cost.
    if (tiling) {
      double workspaceBytes = getSplitKWorkspaceBytes(plan);
      if (tiling->partialsThroughHbm)
        hbmBytes += kPartialsHbmCost * 2 * workspaceBytes;
      else if (exceedsL2Share(workspaceBytes, target))
        hbmBytes += 2 * workspaceBytes;
      else
        l2Bytes += 2 * workspaceBytes;
    }
    // Each SM pulls its own tiles' panels: where the last wave leaves SMs
    // idle, the busy ones do not stream faster (2026-11-30, bench/results/
    // 2026-11-30-h200-s4-pp192: ping-pong tiles of 128x128 and 128x192 ran
    // the SwiGLU and MLP shapes in the ratio of their tiles per SM, not of
    // their L2 bytes). A single partial wave (decode) is priced by the HBM
    // term's share of SMs instead, as calibrated there.
    tL2Pred = l2Bytes / l2Rate / (waves > 1 ? waveEfficiency : 1.0);

    // Ping-pong blocks coupled in a cluster wait for each other's consumer
    // to free every multicast stage, so one block's epilogue stalls its
    // peer's K loop. Measured on the H200 (2026-11-30, bench/results/
    // 2026-11-30-h200-s4-gemm-variants, interleaved on a heated card): 2-CTA
    // clusters made ping-pong 128x128 tiles 6-16 % slower on five shapes
    // (median 13 %), where the model had them faster (halved B re-reads).
    // Cooperative blocks stall together anyway: -6 to +12 %, not priced.
    if (tiling && tiling->pingpong && tiling->cluster > 1) {
      tTcPred *= kPingPongClusterCoupling;
      tL2Pred *= kPingPongClusterCoupling;
    }

    // Ping-pong hands the tensor cores from one consumer warpgroup to the
    // other, tile by tile: with at most one tile per consumer there is no
    // epilogue to hide, and each K loop issues from one warpgroup alone.
    // Measured on the H200 (2026-11-30, bench/results/2026-11-30-h200-s5-
    // tall, interleaved on a heated card): SwiGLU's down projection
    // (2048x2560, K = 6912; 256 tiles of 128x160 on 132 blocks) ran 121.2 us
    // at 379.8 TFLOP/s per GHz where cooperative 256x160 tiles (both
    // warpgroups on each tile, one tile per block) ran 107.0 at 421.9: 1.11
    // per clock. Shapes with 8.7 to 26 tiles per block kept ping-pong
    // ahead of the 256-row tiles by 10-12 % (same run).
    if (tiling && tiling->pingpong) {
      int64_t blocks = tiling->blocks > 0 ? tiling->blocks : plan.units();
      if (llvm::divideCeil(plan.units(), blocks) <= 2) {
        tTcPred *= kPingPongLoneTileSlowdown;
        tL2Pred *= kPingPongLoneTileSlowdown;
      }
    }
    // With more tiles per SM, the tensor cores still idle at each K tile's
    // handoff where no other warpgroup's wgmmas cover the issuing one's wait
    // (idlesAtKTileHandoffs) and no other block shares the SM. The tiles an
    // SM runs pass through its tensor cores one after another: the gaps add
    // up over them times their K tiles. (At one or two tiles per SM
    // ping-pong's lone issue above holds it, and cooperative tiles were
    // fitted as they are: bench/NOTES.md section 37's small-M plans.)
    if (tiling && tiling->tileK > 0 && idlesAtKTileHandoffs(*tiling) &&
        getResidentBlocksPerSm(*tiling, target) == 1) {
      int64_t blocks = tiling->blocks > 0 ? tiling->blocks : plan.units();
      int64_t tilesPerSm = llvm::divideCeil(
          plan.units(), std::min<int64_t>(blocks, target.getSmCount()));
      int64_t steps = llvm::divideCeil(llvm::divideCeil(k, tiling->tileK),
                                       std::max<int64_t>(1, plan.splitK));
      if (tilesPerSm > 2)
        tTcPred +=
            static_cast<double>(tilesPerSm * steps) * kKTileHandoffUs * 1e-6;
    }

    // A pipelined K loop costs at least a barrier round trip and a dependent
    // load per step, however little each step computes: 0.28 us per K tile,
    // measured on the H200 (2026-11-29, bench/results/2026-11-29-h200-gpu-
    // check-v4-wgmma256): 16-token decode on 160 single-warp 16x16x64 blocks
    // (one wave, all resident) ran 14.3 us for 40 K tiles: (14.3 - 3.2)/40.
    if (tiling && tiling->tileK > 0) {
      int64_t perSm = getResidentBlocksPerSm(*tiling, target);
      int64_t blocks = tiling->blocks > 0 ? tiling->blocks : plan.units();
      int64_t residentWaves =
          llvm::divideCeil(blocks, target.getSmCount() * perSm);
      // A persistent grid (fewer blocks than tiles) walks its tiles in
      // turn, each through the whole K loop.
      int64_t tilesPerBlock = llvm::divideCeil(plan.units(), blocks);
      // Where the consumer warps copy their own operands (cp.async), a deep
      // step is as slow as its copies.
      double stepUs = tiling->kStepUs > 0 ? tiling->kStepUs : kKTileLatencyUs;
      if (tiling->copiedByConsumers && tiling->threads > 0) {
        double stepBytes = static_cast<double>(tiling->tileM + tiling->tileN) *
                           tiling->tileK *
                           (shape.elementType.getIntOrFloatBitWidth() / 8);
        stepUs = std::max(
            stepUs, stepBytes / std::max<int64_t>(1, tiling->threads / 32) /
                        kWarpCopyBytesPerUs);
      }
      // Split K: each of the tile's blocks walks 1/splitK of its K tiles.
      int64_t steps = llvm::divideCeil(llvm::divideCeil(k, tiling->tileK),
                                       std::max<int64_t>(1, plan.splitK));
      tKLoopPred = static_cast<double>(residentWaves) *
                   (tilesPerBlock * steps * stepUs + tiling->kRoundUs) * 1e-6;

      // The epilogue runs on the warps that issue the MMAs, after their K
      // loop: its SIMT work overlaps no tensor-core work and gets the share
      // of the SM's 64 warp slots those warps hold. Measured on the H200
      // (2026-11-30, bench/results/2026-11-30-h200-v8-epilogue): the MLP
      // (0.84 GFLOP of bias + GELU on 8 consumer warps per SM: 100 us by
      // this term) ran ~140 us over its plain-matmul rate, the o_proj
      // residual (21 MFLOP: 2.5 us) 7-8 us over.
      int64_t warps = tiling->consumerWarps > 0 ? tiling->consumerWarps
                                                : tiling->threads / 32;
      double warpShare =
          std::min(1.0, static_cast<double>(warps * perSm) / 64.0);
      if (warpShare > 0)
        tEpiloguePred = work.ewFlops / (peakSimt * warpShare);
      // Between one tile's K loop and the next, a block drains its wgmma,
      // converts and stores the accumulators and restarts the pipeline;
      // cooperative consumers do that together, with no wgmma in flight.
      // Measured on the H200, timed interleaved with the other plans on a
      // heated card (2026-11-30, bench/results/2026-11-30-h200-s4-gemm-
      // variants): cooperative 128x256 plain matmuls at the MLP shape
      // (8192x10240x2560, 20 tiles per block) ran 785 us, 142 us over this
      // model without the term: 7.1 us per 128x256 tile. K scaling puts it
      // at ~5-6 us per 128x256 tile and ~3.5 per 128x128 (proportional to
      // the tile), and f32 outputs (twice the bytes) cost the same
      // (-s4-final): a turnaround per output element, not store
      // bandwidth. With it, the ten cluster-free cooperative runs measure
      // 0.86-1.06 of the model, where they were up to 1.22, and ping-pong
      // (the turnaround hidden behind the other consumer's K loop) wins the
      // MLP as measured (778 vs 842 us with GELU). Every tensor-core path
      // turns its tiles around the same way; an SM's blocks share its
      // tensor cores, so the term counts the tiles each SM runs, whatever
      // the grid (measured on the H200 only).
      //
      // The turnaround is the store instructions': f32 outputs store a
      // pair per instruction as f16 does, and cost the same (above); wide
      // stores (a quarter of the instructions, getStoreInstructionShare)
      // took ~6 of the ~7.5 us per 128x256 tile off the cooperative o_proj
      // on the H100 (2026-12-07, bench/results/2026-12-07-h100-s27-wide-
      // stores: 8192x2560x2560, 5 tiles per SM, 200.3 us with pairs, 170.4
      // wide, where the model said 198.6 with pairs and says 172.0 with a
      // quarter of the term).
      if (tiling->tensorCores)
        tEpiloguePred += llvm::divideCeil(plan.units(), target.getSmCount()) *
                         static_cast<double>(tiling->tileM) * tiling->tileN *
                         kTileTurnaroundUsPerElement *
                         getStoreInstructionShare(work, *tiling) * 1e-6;
      // Ping-pong: a warpgroup's epilogue runs while the other warpgroup's
      // K loop keeps the tensor cores busy. Each warpgroup's cycle over two
      // tiles is max(2 K loops, K loop + epilogue), so only the epilogue
      // beyond the K loop shows, half the time, plus the last tile's. K
      // scaling measured ping-pong's per-tile cost at ~0.3 us on the H200
      // (section 23, pair stores) and ~0.4 us on the H100 (2026-12-07,
      // bench/NOTES.md section 55, wide stores): hidden. What wide stores
      // took off ping-pong on the H100 (section 52's 40.7 us) grew with K,
      // a K-loop cost of the pair epilogue's code, not its stores.
      if (tiling->pingpong && tilesPerBlock > 0) {
        double kLoops = std::max(tTcPred, tL2Pred);
        tEpiloguePred = std::max(0.0, tEpiloguePred - kLoops) / 2 +
                        tEpiloguePred / tilesPerBlock;
      }
    }

    // HBM is priced at each operand once: the CTAs of a wave walk K in
    // near lockstep, so the re-reads mostly hit in L2 (where B takes most
    // of L2 they partly miss; the L2 term above prices that).
  }
  // Too few thread blocks cannot pull the whole HBM bandwidth: each SM's
  // load path streams at most about its share, so the achievable fraction
  // is the share of SMs with work. Measured 2026-11-29 on the H200
  // (bench/results/2026-11-29-h200-gpu-check): o_proj decode on 40 blocks of
  // 132 SMs ran 13.4 us; 3.2 + 13.1 MB / (4.8 TB/s x 0.9 x 40/132) = 13.2.
  // The default plan splits K until the SMs have work, so the share only
  // prices plans sol-tile recorded.
  double hbmShare = tiling ? tiling->hbmEfficiencyShare : 1.0;
  double hbmRate = bandwidth * target.getHbmEfficiency() * hbmShare;
  if (work.hasMatmul() && tiling) {
    int64_t blocks = tiling->blocks > 0 ? tiling->blocks
                                        : planFromTiling(work, *tiling).units();
    int64_t smCount = target.getSmCount();
    // Loads a block keeps in flight: a producer's whole stage ring (TMA),
    // or each warp's own loads where the warps wait on them.
    double blockBytesInFlight =
        static_cast<double>(tiling->bytesInFlightPerBlock);
    if (blockBytesInFlight <= 0 && tiling->threads > 0)
      blockBytesInFlight = static_cast<double>(tiling->threads / 32) *
                           tiling->weightBytesInFlightPerWarp;
    if (blockBytesInFlight > 0) {
      // Each SM streams its resident blocks' bytes in flight per loaded
      // round trip (Little's law), which a few SMs with deep queues can
      // take more than their share of HBM with.
      int64_t resident =
          std::min<int64_t>(getResidentBlocksPerSm(*tiling, target),
                            llvm::divideCeil(blocks, smCount));
      double perSmRate = static_cast<double>(resident) * blockBytesInFlight /
                         (kLoadedHbmRoundTripUs * 1e-6);
      hbmRate = std::min(
          hbmRate,
          static_cast<double>(std::min<int64_t>(blocks, smCount)) * perSmRate);
    } else {
      hbmRate *= std::min<double>(1.0, static_cast<double>(blocks) / smCount);
    }
  }
  double tHbmPred = hbmBytes / hbmRate;

  struct Term {
    Limiter limiter;
    double seconds;
  } terms[] = {{Limiter::matmul, tTcPred},
               {Limiter::elementwise, tSimt},
               {Limiter::hbm, tHbmPred},
               {Limiter::kloop, tKLoopPred},
               {Limiter::l2, tL2Pred}};
  Term dominant = *llvm::max_element(terms, [](const Term &a, const Term &b) {
    return a.seconds < b.seconds;
  });
  double tPred = launch + dominant.seconds + tEpiloguePred;
  // Split K across blocks: each block's f32 partial tile goes through L2 and
  // an arrival count, and the last block of a tile sums them before its
  // epilogue. Each path that splits K measured its own round trip
  // (getSplitKRoundTripUs: 1 us on mma.sync and on wgmma_tma); the default
  // is the first figure, from before the K step was measured per path
  // (H200, 2026-11-30, bench/results/2026-11-30-h200-run2.json: 16-token
  // decode on 16x64 tiles split 4 ways ran 9.8-11.2 us where the K loop at
  // 0.28 us a step and the launch predicted 6.3), a conservative price for
  // a path that measured none.
  if (work.hasMatmul() && tiling && tiling->splitK > 1)
    tPred += tiling->splitKRoundTripUs.value_or(kSplitKRoundTripUs) * 1e-6;
  Limiter limiter =
      launch >= dominant.seconds ? Limiter::launch : dominant.limiter;

  double tIdealUs = tIdeal * 1e6, tPredUs = tPred * 1e6;
  double solPred = tPredUs > 0 ? tIdealUs / tPredUs : 0;
  // Counts below 2^63 over a validated target's figures give finite times;
  // should a term still come out NaN or infinite, it must not reach the
  // attribute (nor the manifests and reports, whose JSON cannot hold it).
  for (double v :
       {intensity, balance, tCompute, tMemory, tIdealUs, tPredUs, solPred})
    if (!std::isfinite(v))
      return unknownCost(context, work,
                         "the model's times are not finite for this kernel");
  return CostAttr::get(
      context, bound, work.tcFlops, work.ewFlops, work.bytes,
      roundSignificant(intensity, 4), roundSignificant(balance, 4),
      roundSignificant(tCompute * 1e6, 5), roundSignificant(tMemory * 1e6, 5),
      roundSignificant(tIdealUs, 5), roundSignificant(tPredUs, 5),
      roundDecimals(solPred, 4), limiter, "");
}

CostAttr mlir::sol::estimateCost(ArrayRef<Operation *> ops, ValueRange inputs,
                                 ValueRange outputs, TargetAttr target) {
  return estimateCost(countKernelWork(ops, inputs, outputs), target);
}

CostAttr mlir::sol::estimateCost(ArrayRef<Operation *> ops, ValueRange inputs,
                                 ValueRange outputs, TargetAttr target,
                                 int64_t dim) {
  return estimateCost(countKernelWork(ops, inputs, outputs, dim), target);
}
