//===- TilePlan.cpp - the planner of sol kernels --------------------------===//
//
// The choice of each kernel's plan among the candidates every registered
// kernel path offers (KernelPath.h; each path's catalogue is in its file
// under KernelPaths/), and the plan tables of dynamic kernels built from
// that choice. The choice is the cost model's: each candidate is priced with
// the same prediction the annotations show, so what sol-tile picks is what
// sol-cost-model then reports, and a calibration of the model moves both.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/TilePlan.h"
#include "KernelPaths/KernelPaths.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Target.h"

#include "llvm/ADT/STLExtras.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::sol;

//===----------------------------------------------------------------------===//
// What the options hold back
//===----------------------------------------------------------------------===//

std::string PlanConstraints::whyHeldBack(KernelPath path,
                                         const MatmulShape &shape,
                                         TargetAttr target) const {
  if (!nMajorTma && path == KernelPath::wgmma_tma && !shape.transposeB)
    return "n-major-tma=false holds a [K, N] weight back from it";
  if (!hopperMmaSyncFp8 && path == KernelPath::mma_sync &&
      MatmulOp::isFp8(shape.elementType) && !isMmaSyncFp8DefaultOnChip(target))
    return "fp8 takes wgmma on " + target.getChip().str() +
           " (hopper-mma-sync-fp8=true lets mma.sync's m16n8k32 take it)";
  return "";
}

//===----------------------------------------------------------------------===//
// The choice among the paths' candidates
//===----------------------------------------------------------------------===//

static std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The plan of a kernel one path takes alone (a kernel without a matmul,
/// the SIMT fallback): its one candidate, priced, with why it is the one.
static FailureOr<PlanChoice> chooseLonePlan(const KernelPathInfo &path,
                                            const PlanRequest &request,
                                            const KernelWork &work,
                                            const LaunchSizes &sizes,
                                            std::string &failureReason) {
  SmallVector<PlanCandidate, 1> candidates;
  path.getCandidates(request, candidates);
  assert(candidates.size() == 1 && "a lone path offers one plan");
  const PlanCandidate &candidate = candidates.front();
  if (!candidate.plan) {
    failureReason = candidate.whyUnlaunchable;
    return failure();
  }
  PlanChoice choice;
  choice.plan = candidate.plan;
  MatmulTiling tiling = getMatmulTiling(choice.plan, sizes);
  choice.cost = estimateCost(work, request.target, &tiling);
  choice.reason = candidate.note.empty()
                      ? candidate.description
                      : candidate.description + ": " + candidate.note;
  choice.description = candidate.description + ", predicted " +
                       formatReal(choice.cost.getTPredUs()) + " us";
  return choice;
}

FailureOr<PlanChoice>
mlir::sol::chooseKernelPlan(KernelOp kernel, TargetAttr target,
                            std::string &failureReason,
                            const PlanConstraints &constraints) {
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
  // Every path converts fp8 in the epilogue with the same instructions, so
  // the chip's rule is the kernel's, not a path's.
  if (convertsFp8(kernel.getBodyBlock())) {
    failureReason =
        paths::whyNotFp8ConversionOnChip("the kernel's epilogue", target);
    if (!failureReason.empty())
      return failure();
  }

  SmallVector<MatmulOp, 2> &matmuls = *kernelMatmuls;
  ArrayRef<const KernelPathInfo *> paths = getKernelPaths();
  // What the candidates' geometry, and so their price, follows.
  FailureOr<LaunchSizes> sizes =
      getKernelLaunchSizes(kernel, target, failureReason);
  if (failed(sizes))
    return failure();
  if (matmuls.empty()) {
    PlanRequest request{kernel, target, nullptr};
    for (const KernelPathInfo *path : paths)
      if (!path->isMatmulPath() && path->whyNot(request).empty())
        return chooseLonePlan(*path, request, work, *sizes, failureReason);
    failureReason = "no path takes a kernel without a matmul";
    return failure();
  }

  FailureOr<MatmulShape> shape = getMatmulShape(matmuls.front());
  if (failed(shape)) {
    failureReason = "the matmul has a dynamic shape";
    return failure();
  }
  bool siblings = matmuls.size() == 2;
  if (siblings) {
    shape->siblings = 2;
    shape->operandsAreKernelArgs = shape->operandsAreKernelArgs &&
                                   isa<BlockArgument>(matmuls.back().getRhs());
    std::string why = whyNotSiblingWgmmaTma(*shape, target);
    if (!why.empty()) {
      failureReason = "sibling matmuls: " + why;
      return failure();
    }
  }
  PlanRequest request{kernel, target, &*shape};
  // Every plan a path offers for this matmul, priced by the same model; the
  // cheapest wins.
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
  // The refusals the remark names (the paths a user would expect).
  std::string refusals;
  for (const KernelPathInfo *path : paths) {
    if (!path->isMatmulPath() || path->isFallback() ||
        (siblings && !path->takesSiblings()))
      continue;
    std::string remark = path->getRefusalRemark(request);
    if (!remark.empty())
      refusals += "; " + remark;
    if (!path->whyNot(request).empty())
      continue;
    // A path the shape is held back from says so: an option decides it.
    if (std::string why =
            constraints.whyHeldBack(path->getPath(), *shape, target);
        !why.empty()) {
      refusals +=
          "; no " + stringifyKernelPath(path->getPath()).str() + ": " + why;
      continue;
    }
    SmallVector<PlanCandidate> offered;
    path->getCandidates(request, offered);
    for (PlanCandidate &candidate : offered) {
      if (!candidate.plan) {
        ++unlaunchable;
        continue;
      }
      if (!constraints.allows(candidate.plan, *shape))
        continue;
      MatmulTiling tiling = getMatmulTiling(candidate.plan, *sizes);
      double padded = static_cast<double>(shape->tilesAlongM(candidate.tileM)) *
                      candidate.tileM * shape->tilesAlongN(candidate.tileN) *
                      candidate.tileN;
      candidates.push_back({candidate.plan, estimateCost(work, target, &tiling),
                            padded, std::move(candidate.description)});
    }
  }

  if (candidates.empty()) {
    // The fallback takes what no other path can, whatever the constraints.
    if (!siblings)
      for (const KernelPathInfo *path : paths)
        if (path->isMatmulPath() && path->isFallback() &&
            path->whyNot(request).empty())
          return chooseLonePlan(*path, request, work, *sizes, failureReason);
    if (unlaunchable > 0) {
      failureReason = "every plan's grid exceeds CUDA's launch limits (x <= "
                      "2^31 - 1, y and z <= 65535) for " +
                      std::to_string(shape->rows) +
                      " rows, N = " + std::to_string(shape->n) + ", batch " +
                      std::to_string(shape->batch);
      return failure();
    }
    // Only the chip rules the tensor-core paths out.
    bool chipRulesOut = llvm::all_of(paths, [&](const KernelPathInfo *path) {
      return !path->isMatmulPath() || !path->usesTensorCores() ||
             !path->whyNotOnChip(target).empty();
    });
    if (!siblings && chipRulesOut) {
      failureReason = "no path for " + typeName(shape->elementType) +
                      " matmuls on " + target.getChip().str() +
                      ": mma.sync needs sm_80 or newer, wgmma sm_90a";
      for (const KernelPathInfo *path : paths) {
        if (!path->isMatmulPath() || path->isFallback() ||
            path->usesTensorCores())
          continue;
        std::string why = path->whyNot(request);
        if (!why.empty())
          failureReason +=
              ", and " + path->getName().str() + " does not apply: " + why;
      }
      return failure();
    }
    // Only wgmma_tma takes fp8 (docs/fp8.md): say why each path refused.
    if (shape->hasFp8Operand() && constraints.paths.empty() &&
        !constraints.narrowsPlans()) {
      failureReason =
          "no path takes this " +
          (shape->isWeightOnlyFp8()
               ? "weight-only fp8 (" + typeName(shape->elementType) + " x " +
                     typeName(shape->weightType) + ")"
               : typeName(shape->elementType)) +
          " matmul";
      for (const KernelPathInfo *path : paths)
        if (path->isMatmulPath())
          if (std::string why = path->whyNot(request); !why.empty())
            failureReason += "; " + path->getName().str() + ": " + why;
      return failure();
    }
    if (!constraints.paths.empty()) {
      // Say why each allowed path refused: the user named them.
      failureReason = "no allowed path can compute this matmul";
      for (const KernelPathInfo *path : paths) {
        if (!path->isMatmulPath() || path->isFallback() ||
            !llvm::is_contained(constraints.paths, path->getPath()))
          continue;
        std::string why = path->whyNot(request);
        if (why.empty())
          why = constraints.whyHeldBack(path->getPath(), *shape, target);
        if (!why.empty())
          failureReason += "; " + path->getName().str() + ": " + why;
      }
      return failure();
    }
    failureReason = constraints.narrowsPlans()
                        ? "no plan the constraints allow (tiles, schedules, "
                          "min-cluster, split-k) can compute this matmul"
                        : "no tile fits the target's shared memory";
    if (constraints.splitK > 1 && shape->blockScales &&
        !constraints.blockSplitK)
      failureReason += " (block-wise scales split K only with "
                       "block-split-k=true)";
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
  // The cost model's order, as far as the rank asks (and one past it, for
  // the remark's runner-up): each place holds the best of those not yet
  // placed, so place 0 is the best and place 1 the runner-up.
  int64_t rank =
      std::clamp<int64_t>(constraints.rank, 0, candidates.size() - 1);
  SmallVector<const Candidate *> order;
  SmallVector<bool> placed(candidates.size(), false);
  while (static_cast<int64_t>(order.size()) <= rank + 1 &&
         order.size() < candidates.size()) {
    int64_t next = -1;
    for (auto [i, candidate] : llvm::enumerate(candidates))
      if (!placed[i] && (next < 0 || better(candidate, candidates[next])))
        next = i;
    placed[next] = true;
    order.push_back(&candidates[next]);
  }
  const Candidate *chosen = order[rank];
  const Candidate *cached = nullptr;
  if (constraints.cachedPlan)
    for (const Candidate &candidate : candidates)
      if (candidate.plan == constraints.cachedPlan)
        cached = &candidate;
  if (cached)
    chosen = cached;

  PlanChoice choice;
  choice.plan = chosen->plan;
  choice.cost = chosen->cost;
  llvm::raw_string_ostream reason(choice.reason);
  // A cached or ranked choice says so, and names the cost model's own
  // against it.
  if (cached)
    reason << "from the plan cache: ";
  else if (constraints.rank > 0) {
    reason << "rank " << rank << " of " << candidates.size();
    if (rank != constraints.rank)
      reason << " (asked " << constraints.rank << ": the last candidate)";
    reason << ": ";
  }
  reason << chosen->description << ", predicted "
         << formatReal(chosen->cost.getTPredUs()) << " us";
  choice.description = choice.reason;
  if (chosen == order.front() && cached)
    reason << "; the cost model's best too";
  else if (chosen != order.front())
    reason << "; best " << order.front()->description << " at "
           << formatReal(order.front()->cost.getTPredUs()) << " us";
  else if (order.size() > 1)
    reason << "; next " << order[1]->description << " at "
           << formatReal(order[1]->cost.getTPredUs()) << " us";
  if (constraints.cachedPlan && !cached)
    reason << "; the plan cache's " << constraints.cachedPlan
           << " is not a candidate here (the kernel or the paths changed "
              "since it was measured), so the cost model chose";
  reason << " (" << candidates.size() << " candidates" << refusals << ")";
  return choice;
}

//===----------------------------------------------------------------------===//
// Dynamic M: the grid rule of each path (KernelPathInfo::getDynamicGridRule)
//===----------------------------------------------------------------------===//

DynamicGridRule mlir::sol::getDynamicGridRule(KernelOp kernel, PlanAttr plan,
                                              const LaunchGeometry &atMax) {
  return lookupKernelPath(plan.getPath())
      .getDynamicGridRule(kernel, plan, atMax);
}

FailureOr<LaunchGeometry>
mlir::sol::getPlanEntryLaunchGeometry(KernelOp kernel, PlanEntryAttr entry,
                                      TargetAttr target, std::string &reason) {
  return getPlanLaunchGeometry(entry.getPlan(), kernel, target, reason,
                               getPlanEntryBuildDim(entry));
}

SmallVector<int64_t, 3>
mlir::sol::evaluateDynamicGridRule(PlanAttr plan, const LaunchGeometry &atMax,
                                   const DynamicGridRule &rule, int64_t dim) {
  SmallVector<int64_t, 3> grid(atMax.grid);
  int64_t extent = paths::saturate(
      CheckedCount(llvm::divideCeilSigned(
          paths::saturate(CheckedCount(dim) * rule.elementsPerDim),
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
  // A plan built for its exact rows has them in tile[0], which follows M.
  ArrayRef<int64_t> tileA = a.getTile(), tileB = b.getTile();
  if (lookupKernelPath(a.getPath()).buildsForExactRows())
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
  std::string ignored;
  FailureOr<PlanChoice> choice = chooseKernelPlanAtDim(
      kernel, dim, target, ignored, constraints.pinnedTo({family}));
  if (failed(choice) || !isSamePlanFamily(choice->plan, family))
    return failure();
  return choice;
}

/// A short name of a plan family for remarks: path, tile, split, schedule
/// and cluster.
static std::string describePlanFamily(PlanAttr plan) {
  std::string s;
  llvm::raw_string_ostream os(s);
  const KernelPathInfo &path = lookupKernelPath(plan.getPath());
  os << path.getName();
  if (path.namesTile()) {
    os << " ";
    llvm::interleave(plan.getTile(), os, "x");
  }
  if (plan.getSplitK() > 1)
    os << " split_k " << plan.getSplitK();
  if (path.hasConsumerSchedule())
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
    std::string ignored;
    FailureOr<PlanChoice> choice = chooseKernelPlanAtDim(
        kernel, m, target, ignored, constraints.pinnedTo({prev, next}));
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
    // A path built for its exact rows gets a row per M: each but the last
    // ends where the next M's rows are built.
    if (lookupKernelPath(family.getPath()).buildsForExactRows()) {
      for (int64_t m = std::max<int64_t>(mMin, 1); m < span.mMax; ++m) {
        FailureOr<PlanChoice> built =
            buildFamilyAt(kernel, family, m, target, constraints);
        if (failed(built))
          break;
        rows.push_back({mMin, m, *built,
                        "ends at " + std::to_string(m) +
                            ": the plan is built for its exact rows"});
        mMin = m + 1;
      }
    }
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
