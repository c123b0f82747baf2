//===- Fusion.cpp - legality, profitability, kernel formation -------------===//
//
// The fusion library behind sol-fuse (Fusion.h). Legality is a list of small
// named predicates, each returning a FusionDecision that says why; the cost
// model is the default profitability callback; the driver grows one group at
// a time and outlines it into a sol.kernel at once, so that every later
// decision sees the kernels already formed (a cycle through two groups cannot
// slip past two separate checks).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/TilePlan.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>
#include <optional>
#include <set>

using namespace mlir;
using namespace mlir::sol;

FusionDecision &FusionDecision::addNote(const Twine &note) {
  std::string text = note.str();
  if (!allowed || text.empty())
    return *this;
  if (!explanation.empty())
    explanation += "; ";
  explanation += text;
  return *this;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// `sol.add` -> "sol.add"; used in every reason.
static std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

static ArrayRef<int64_t> resultShape(Operation *op) {
  return cast<ShapedType>(op->getResult(0).getType()).getShape();
}

/// Microseconds with at least three significant digits for decode-sized
/// kernels, one decimal otherwise.
static std::string formatMicros(double us) {
  return llvm::formatv(us < 10 ? "{0:f2} us" : "{0:f1} us", us).str();
}

/// Decimal units, as the cost report and DESIGN.md use them.
static std::string formatBytes(int64_t bytes) {
  double b = static_cast<double>(bytes);
  if (std::abs(b) >= 1e6)
    return llvm::formatv("{0:f1} MB", b / 1e6).str();
  if (std::abs(b) >= 1e3)
    return llvm::formatv("{0:f1} KB", b / 1e3).str();
  return llvm::formatv("{0} B", bytes).str();
}

/// The group's ops in block order.
static SmallVector<Operation *> sortedByPosition(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> sorted(ops);
  llvm::sort(sorted, [](Operation *a, Operation *b) {
    return a != b && a->isBeforeInBlock(b);
  });
  return sorted;
}

/// The op of `block` that is or contains `op`, or null when `op` is outside.
static Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Users of `value` as ops of `block` that are not in `members`.
static void collectOutsideUsers(Value value, Block *block,
                                const llvm::DenseSet<Operation *> &members,
                                SmallVectorImpl<Operation *> &users) {
  for (Operation *user : value.getUsers()) {
    Operation *owner = ancestorIn(block, user);
    if (!owner || !members.contains(owner))
      users.push_back(owner ? owner : user);
  }
}

//===----------------------------------------------------------------------===//
// Group analysis
//===----------------------------------------------------------------------===//

SmallVector<Value> mlir::sol::getGroupInputs(ArrayRef<Operation *> group) {
  llvm::DenseSet<Operation *> members(group.begin(), group.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : sortedByPosition(group))
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && (members.contains(def) || isa<ConstantOp>(def)))
        continue;
      inputs.insert(operand);
    }
  return inputs.takeVector();
}

SmallVector<Value> mlir::sol::getGroupOutputs(ArrayRef<Operation *> group) {
  llvm::DenseSet<Operation *> members(group.begin(), group.end());
  SmallVector<Value> outputs;
  for (Operation *op : sortedByPosition(group))
    for (Value result : op->getResults()) {
      SmallVector<Operation *> users;
      collectOutsideUsers(result, op->getBlock(), members, users);
      if (!users.empty())
        outputs.push_back(result);
    }
  return outputs;
}

//===----------------------------------------------------------------------===//
// Legality predicates
//===----------------------------------------------------------------------===//

FusionDecision mlir::sol::isFusibleElementwise(Operation *op) {
  if (auto kernel = dyn_cast<KernelOp>(op))
    return FusionDecision::forbid("already outlined into sol.kernel @" +
                                  kernel.getSymName());
  if (!isa_and_nonnull<SolDialect>(op->getDialect()))
    return FusionDecision::forbid("'" + opName(op) +
                                  "' is not a sol op; it stays between "
                                  "kernels");
  if (isa<MatmulOp>(op))
    return FusionDecision::forbid(
        "sol.matmul is not elementwise: a matmul anchors its own kernel and "
        "takes only elementwise consumers");
  if (isa<ConstantOp>(op))
    return FusionDecision::forbid(
        "a scalar sol.constant is an immediate, cloned into each kernel");
  if (!isa<ElementwiseOpInterface>(op))
    return FusionDecision::forbid("'" + opName(op) + "' is not elementwise");
  if (op->getParentOfType<KernelOp>())
    return FusionDecision::forbid("already inside a sol.kernel");
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return FusionDecision::forbid("'" + opName(op) +
                                  "' does not have one ranked tensor result");
  return FusionDecision::allow();
}

/// The most ops a recomputed scalar may take (with its producers): a scale's
/// cast or reciprocal is one or two; a longer scalar program stays a kernel
/// of its own rather than being copied into every reader.
static constexpr size_t kMaxRecomputedScalarOps = 8;

bool mlir::sol::isRecomputedScalar(Operation *op) {
  auto isScalar = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.getRank() == 0;
  };
  // A worklist over the scalar's producers, each visited once (a DAG of
  // scalar ops, x1 = x0 + x0, x2 = x1 + x1, ..., is linear, not 2^depth),
  // and at most kMaxRecomputedScalarOps of them: every reader gets a copy
  // of them all.
  SmallVector<Operation *> worklist = {op};
  llvm::SmallPtrSet<Operation *, 8> visited = {op};
  while (!worklist.empty()) {
    if (visited.size() > kMaxRecomputedScalarOps)
      return false;
    Operation *current = worklist.pop_back_val();
    if (!isFusibleElementwise(current) || !isScalar(current->getResult(0)))
      return false;
    for (Value operand : current->getOperands()) {
      if (!isScalar(operand))
        return false;
      Operation *def = operand.getDefiningOp();
      if (def && !isa<ConstantOp>(def) && visited.insert(def).second)
        worklist.push_back(def);
    }
  }
  return true;
}

FusionDecision mlir::sol::checkMatmulFeedsMatmul(ArrayRef<Operation *> group,
                                                 Operation *candidate) {
  if (!isa<MatmulOp>(candidate))
    return FusionDecision::allow();
  for (Operation *op : group) {
    if (!isa<MatmulOp>(op))
      continue;
    bool feeds = llvm::any_of(candidate->getOperands(),
                              [&](Value v) { return v.getDefiningOp() == op; });
    if (feeds)
      return FusionDecision::forbid(
          "sol.matmul consumes the result of the kernel's sol.matmul; two "
          "matmuls never share a kernel in sequence (the second needs all "
          "of the first's output, not one tile)");
    return FusionDecision::forbid(
        "the kernel already holds a sol.matmul; another joins only as its "
        "sibling over the same A, before the epilogue");
  }
  return FusionDecision::allow();
}

/// The fusible elementwise ops of `value`'s block reachable from `value`
/// through at most `depth` elementwise ops.
static llvm::DenseSet<Operation *> elementwiseUsersWithin(Value value,
                                                          unsigned depth) {
  llvm::DenseSet<Operation *> reached;
  SmallVector<Value> frontier = {value};
  for (unsigned level = 0; level < depth && !frontier.empty(); ++level) {
    SmallVector<Value> next;
    for (Value v : frontier)
      for (Operation *user : v.getUsers())
        if (user->getBlock() == value.getParentBlock() &&
            isFusibleElementwise(user) && reached.insert(user).second)
          next.push_back(user->getResult(0));
    frontier = std::move(next);
  }
  return reached;
}

/// The sibling pair of `anchor` (whose A has a dynamic leading dim) at
/// every sample point of its range: a generator must take it at each.
static FusionDecision checkSiblingPairAcrossRange(MatmulOp anchor,
                                                  TargetAttr target) {
  SmallVector<int64_t> points = getDimSamplePoints(lookupDimRange(anchor));
  llvm::erase(points, 0); // M = 0 runs nothing
  // A's batch dims and M fold into the rows (a dynamic A takes a rank-2 B,
  // which the verifier requires), as getMatmulShape reads a static A.
  auto lhs = cast<RankedTensorType>(anchor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(anchor.getRhs().getType());
  for (int64_t m : points) {
    SmallVector<int64_t> lhsShape(lhs.getShape());
    lhsShape[0] = m;
    CheckedCount rows = countElements(ArrayRef(lhsShape).drop_back(1));
    std::optional<MatmulShape> problem;
    if (!rows.overflowed()) {
      problem.emplace();
      problem->rows = rows.get();
      problem->k = lhsShape.back();
      problem->transposeB = anchor.getTransposeB();
      problem->n = rhs.getDimSize(problem->transposeB ? 0 : 1);
      problem->elementType = lhs.getElementType();
      problem->weightType = rhs.getElementType();
    }
    if (!problem)
      return FusionDecision::forbid("the matmul's rows at m = " +
                                    std::to_string(m) + " overflow int64");
    problem->siblings = 2;
    problem->operandsAreKernelArgs = true; // no prologue fusion
    std::string why = whyNotSiblingWgmmaTma(*problem, target);
    if (!why.empty())
      return FusionDecision::forbid(
          "no generator takes the pair at m = " + std::to_string(m) +
          " of the dim range (fusion takes a pair only if one does at every "
          "sample point; the conservative choice is two kernels): " + why);
  }
  return FusionDecision::allow();
}

FusionDecision mlir::sol::checkSiblingMatmul(MatmulOp anchor, MatmulOp sibling,
                                             TargetAttr target,
                                             unsigned maxEpilogueOps) {
  std::string why = whyNotSiblingMatmuls(anchor, sibling);
  if (!why.empty())
    return FusionDecision::forbid("not a sibling: " + why);
  if (!target)
    return FusionDecision::forbid(
        "no target to say whether a generator takes sibling matmuls");
  if (hasDynamicLeadingDim(anchor.getLhs().getType())) {
    // Whether a generator takes the pair depends on M (wgmma_tma needs a
    // full 128-row tile): it must at every sample point of the range, or
    // a row of the plan table would have no plan.
    if (FusionDecision d = checkSiblingPairAcrossRange(anchor, target); !d)
      return d;
  } else {
    FailureOr<MatmulShape> problem = getMatmulShape(anchor);
    if (failed(problem))
      return FusionDecision::forbid("the matmul's shape cannot be read");
    problem->siblings = 2;
    problem->operandsAreKernelArgs = true; // no prologue fusion
    why = whyNotSiblingWgmmaTma(*problem, target);
    if (!why.empty())
      return FusionDecision::forbid("no generator takes the pair: " + why);
  }
  llvm::DenseSet<Operation *> fromAnchor =
      elementwiseUsersWithin(anchor.getResult(), maxEpilogueOps);
  llvm::DenseSet<Operation *> fromSibling =
      elementwiseUsersWithin(sibling.getResult(), maxEpilogueOps);
  if (llvm::none_of(fromSibling,
                    [&](Operation *op) { return fromAnchor.contains(op); }))
    return FusionDecision::forbid(
        "the results never meet in an elementwise op; one kernel would write "
        "two unrelated outputs");
  return FusionDecision::allow();
}

FusionDecision mlir::sol::checkIterationSpace(ArrayRef<int64_t> iterationSpace,
                                              Operation *candidate) {
  ArrayRef<int64_t> shape = resultShape(candidate);
  if (shape == iterationSpace)
    return FusionDecision::allow();
  auto type = cast<ShapedType>(candidate->getResult(0).getType());
  // A dynamic dim counts as the largest it may be: it takes every value.
  auto elements = [](ArrayRef<int64_t> dims) {
    CheckedCount n = 1;
    for (int64_t d : dims)
      n *= ShapedType::isDynamic(d) ? kMaxDynamicDim : d;
    return n.getOptional().value_or(std::numeric_limits<int64_t>::max());
  };
  bool larger = true;
  if (type.hasRank())
    larger = elements(type.getShape()) > elements(iterationSpace);
  std::string result = formatShape(shape), space = formatShape(iterationSpace);
  if (larger)
    return FusionDecision::forbid(
        "shape-changing: its result " + result +
        " is larger than the kernel's iteration space " + space +
        "; the kernel would be recomputed per broadcast element");
  return FusionDecision::forbid("shape-changing: its result " + result +
                                " is smaller than the kernel's iteration "
                                "space " +
                                space +
                                "; it would be recomputed per broadcast "
                                "element");
}

/// The cycle check over a group its caller keeps: `members` (acyclic), its
/// first and last op in block order, and the candidate. A cycle the candidate
/// would close runs through it, so only two kinds of path are followed:
/// forward from the candidate's outside users back into the group, and
/// backward from the candidate's outside producers to a member. The block is
/// in topological order, so the forward walk stops after the last op of the
/// group and the backward walk before its first.
static FusionDecision
checkCycleThrough(Block *block, const llvm::DenseSet<Operation *> &members,
                  Operation *first, Operation *last, Operation *candidate) {
  auto cycle = [](Operation *origin) {
    return FusionDecision::forbid(
        "would create a cycle: '" + opName(origin) +
        "' outside the kernel consumes a value of the kernel and feeds it");
  };
  auto isMember = [&](Operation *op) {
    return op == candidate || members.contains(op);
  };
  if (!first || candidate->isBeforeInBlock(first))
    first = candidate;
  if (!last || last->isBeforeInBlock(candidate))
    last = candidate;

  // Candidate -> outside op -> ... -> member. Each entry remembers the
  // outside op that consumed the candidate.
  SmallVector<std::pair<Operation *, Operation *>> forward;
  for (Value result : candidate->getResults())
    for (Operation *user : result.getUsers())
      if (Operation *owner = ancestorIn(block, user); owner && !isMember(owner))
        forward.push_back({owner, owner});
  llvm::DenseSet<Operation *> visited;
  while (!forward.empty()) {
    auto [op, origin] = forward.pop_back_val();
    if (!visited.insert(op).second || last->isBeforeInBlock(op))
      continue;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *owner = ancestorIn(block, user);
        if (!owner)
          continue;
        if (isMember(owner))
          return cycle(origin);
        forward.push_back({owner, origin});
      }
  }

  // Member -> outside op -> ... -> candidate, walked backward from the
  // candidate. An op reached this way that reads a member's value (in its
  // regions too) is the outside op closing the cycle.
  SmallVector<Operation *> backward;
  auto pushProducers = [&](Operation *op) -> Operation * {
    Operation *readsMember = nullptr;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *owner = def ? ancestorIn(block, def) : nullptr;
        if (!owner || owner == op)
          continue;
        if (isMember(owner))
          readsMember = op;
        else
          backward.push_back(owner);
      }
    });
    return readsMember;
  };
  // The candidate's own reads of members are the fusion, not a cycle.
  for (Value operand : candidate->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && def->getBlock() == block && !isMember(def))
      backward.push_back(def);
  visited.clear();
  while (!backward.empty()) {
    Operation *op = backward.pop_back_val();
    if (!visited.insert(op).second || op->isBeforeInBlock(first))
      continue;
    if (Operation *origin = pushProducers(op))
      return cycle(origin);
  }
  return FusionDecision::allow();
}

FusionDecision mlir::sol::checkCycle(ArrayRef<Operation *> group,
                                     Operation *candidate) {
  llvm::DenseSet<Operation *> members(group.begin(), group.end());
  Operation *first = nullptr, *last = nullptr;
  for (Operation *op : group) {
    if (!first || op->isBeforeInBlock(first))
      first = op;
    if (!last || last->isBeforeInBlock(op))
      last = op;
  }
  return checkCycleThrough(candidate->getBlock(), members, first, last,
                           candidate);
}

FusionDecision mlir::sol::checkEpilogueBudget(unsigned epilogueWeight,
                                              unsigned candidateWeight,
                                              unsigned maxEpilogueOps) {
  if (epilogueWeight + candidateWeight <= maxEpilogueOps)
    return FusionDecision::allow();
  return FusionDecision::forbid(llvm::formatv(
      "the epilogue already weighs {0} and this op {1} (max-epilogue-ops={2}, "
      "ops weighed by their FLOPs per element)",
      epilogueWeight, candidateWeight, maxEpilogueOps));
}

unsigned mlir::sol::getKernelBudgetWeight(Operation *op) {
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op))
    return std::max<int64_t>(1, elementwise.getFlopsPerElement());
  return 1;
}

FusionDecision mlir::sol::checkKernelBudget(unsigned kernelWeight,
                                            unsigned candidateWeight,
                                            unsigned maxKernelWeight) {
  if (maxKernelWeight == 0 || kernelWeight + candidateWeight <= maxKernelWeight)
    return FusionDecision::allow();
  return FusionDecision::forbid(llvm::formatv(
      "the kernel already weighs {0} and this op {1} (max-kernel-ops={2}, ops "
      "weighed by their FLOPs per element); the chain goes on in another "
      "kernel",
      kernelWeight, candidateWeight, maxKernelWeight));
}

FusionDecision
mlir::sol::producerHasUsersOutsideGroup(ArrayRef<Operation *> group,
                                        Operation *candidate) {
  SmallVector<Operation *> members(group);
  members.push_back(candidate);
  SmallVector<Operation *> sorted = sortedByPosition(members);
  llvm::DenseSet<Operation *> memberSet(members.begin(), members.end());
  FusionDecision decision = FusionDecision::allow();
  // The last op's result is the kernel's natural output; an earlier member's
  // result still needed outside is written as well (materialised).
  for (Operation *op : ArrayRef(sorted).drop_back())
    for (Value result : op->getResults()) {
      SmallVector<Operation *> users;
      collectOutsideUsers(result, op->getBlock(), memberSet, users);
      if (users.empty())
        continue;
      decision.addNote(llvm::formatv(
          "materialises the {0} result for {1} user(s) outside the kernel",
          opName(op), users.size()));
    }
  return decision;
}

FusionDecision mlir::sol::describeDtypeChange(Operation *candidate) {
  auto cast = dyn_cast<CastOp>(candidate);
  if (!cast)
    return FusionDecision::allow();
  std::string note;
  llvm::raw_string_ostream os(note);
  os << "changes dtype " << cast.getInput().getType().getElementType() << " -> "
     << cast.getResult().getType().getElementType() << " via sol.cast";
  return FusionDecision::allow(note);
}

//===----------------------------------------------------------------------===//
// Profitability
//===----------------------------------------------------------------------===//

/// Fuse when the fused kernel's predicted time is no worse than the group's
/// and the candidate's apart; a cost the model cannot judge forbids it. One
/// rule for a static group and for a dynamic one at each of its points.
static FusionDecision decideFromCosts(CostAttr fusedCost, CostAttr groupCost,
                                      CostAttr candidateCost) {
  for (CostAttr cost : {fusedCost, groupCost, candidateCost})
    if (cost.getBound() == Bound::unknown)
      return FusionDecision::forbid("the cost model cannot judge it: " +
                                    cost.getReason());
  double fusedUs = fusedCost.getTPredUs();
  double unfusedUs = groupCost.getTPredUs() + candidateCost.getTPredUs();
  if (fusedUs > unfusedUs)
    return FusionDecision::forbid("predicted " + formatMicros(fusedUs) +
                                  " fused > " + formatMicros(unfusedUs) +
                                  " unfused");
  int64_t saved =
      groupCost.getBytes() + candidateCost.getBytes() - fusedCost.getBytes();
  return FusionDecision::allow("predicted " + formatMicros(fusedUs) + " <= " +
                               formatMicros(unfusedUs) + " unfused; saves " +
                               formatBytes(saved));
}

/// The inputs and outputs `ops` would have as one kernel, as formKernel would
/// make them (in `ops`' order, not the block's: the cost does not depend on
/// it, and sorting would cost every step of a long chain a sort of its
/// group).
static void getKernelBoundary(ArrayRef<Operation *> ops,
                              llvm::SetVector<Value> &inputs,
                              SmallVector<Value> &outputs) {
  llvm::DenseSet<Operation *> members(ops.begin(), ops.end());
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || (!members.contains(def) && !isa<ConstantOp>(def)))
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *owner = ancestorIn(op->getBlock(), user);
            return !owner || !members.contains(owner);
          }))
        outputs.push_back(result);
  }
}

/// The cost of `ops` run as one kernel.
static CostAttr costAsKernel(ArrayRef<Operation *> ops, TargetAttr target) {
  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  getKernelBoundary(ops, inputs, outputs);
  return estimateCost(ops, inputs.getArrayRef(), outputs, target);
}

namespace {
/// The work of a growing elementwise group, kept up to date one op at a
/// time. A kernel's FLOPs are its ops' and its bytes its inputs' and
/// outputs' (KernelWork), and an op joining changes the inputs and outputs
/// only around itself, so pricing the next candidate costs that candidate's
/// operands and uses instead of a recount of the group: without this, a
/// chain of n ops costs n recounts of up to max-kernel-ops ops each. Every
/// piece is counted by countKernelWork itself; a group it cannot keep
/// exactly (a matmul, a shape the model cannot count, a sum that would
/// overflow) is recounted in full instead.
class IncrementalGroupWork {
public:
  /// Brings the state to `group`: kept when it is the group last priced,
  /// advanced when it is that group plus its last candidate (the driver
  /// took it), recounted otherwise. False when the group cannot be kept.
  bool sync(ArrayRef<Operation *> group) {
    if (valid && ArrayRef<Operation *>(ops) == group)
      return true;
    if (valid && pending && group.size() == ops.size() + 1 &&
        group.back() == pending && group.drop_back() == ArrayRef(ops)) {
      if (!apply(pending, /*commit=*/true))
        return valid = false;
      ops.push_back(pending);
      pending = nullptr;
      return true;
    }
    reset();
    for (Operation *op : group) {
      if (!apply(op, /*commit=*/true))
        return valid = false;
      ops.push_back(op);
    }
    return valid = true;
  }

  /// The group's work with `candidate` joined, if it can be kept exactly.
  std::optional<KernelWork> withCandidate(Operation *candidate) {
    pending = candidate;
    KernelWork saved = work;
    if (!apply(candidate, /*commit=*/false))
      return std::nullopt;
    KernelWork fused = work;
    work = saved;
    return fused;
  }

  const KernelWork &getWork() const { return work; }

private:
  void reset() {
    ops.clear();
    members.clear();
    inputs.clear();
    outsideUses.clear();
    work = KernelWork();
    pending = nullptr;
  }

  /// Adds `bytes` of `value` (as countKernelWork counts it as an input or
  /// an output) to the work, negated when `remove`.
  bool addBytes(Value value, bool asInput, bool remove) {
    KernelWork piece = asInput ? countKernelWork({}, value, {})
                               : countKernelWork({}, {}, value);
    if (!piece.unknownReason.empty() || !piece.invalidReason.empty())
      return false;
    std::optional<int64_t> sum =
        remove ? llvm::checkedSub(work.bytes, piece.bytes)
               : llvm::checkedAdd(work.bytes, piece.bytes);
    if (!sum)
      return false;
    work.bytes = *sum;
    return true;
  }

  /// Updates the work for `op` joining: its FLOPs; its operands become
  /// inputs unless a member or a constant defines them, and a member's
  /// result only `op` used outside stops being an output; its result stops
  /// being an input and becomes an output when used outside. With
  /// `commit`, the membership changes too. False when the group cannot be
  /// kept exactly.
  bool apply(Operation *op, bool commit) {
    if (isa<MatmulOp>(op) || op->getNumRegions() != 0)
      return false;
    KernelWork own = countKernelWork(op, {}, {});
    if (!own.unknownReason.empty() || !own.invalidReason.empty() ||
        own.hasMatmul())
      return false;
    std::optional<int64_t> ewFlops =
        llvm::checkedAdd(work.ewFlops, own.ewFlops);
    std::optional<int64_t> tcFlops =
        llvm::checkedAdd(work.tcFlops, own.tcFlops);
    if (!ewFlops || !tcFlops || !llvm::checkedAdd(*ewFlops, *tcFlops))
      return false;
    work.ewFlops = *ewFlops;
    work.tcFlops = *tcFlops;

    llvm::SmallDenseMap<Value, unsigned> usesOfMembers;
    llvm::SmallDenseSet<Value> newInputs;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && members.contains(def)) {
        ++usesOfMembers[operand];
      } else if ((!def || !isa<ConstantOp>(def)) && !inputs.contains(operand) &&
                 newInputs.insert(operand).second) {
        if (!addBytes(operand, /*asInput=*/true, /*remove=*/false))
          return false;
      }
    }
    for (auto [value, uses] : usesOfMembers)
      if (outsideUses.lookup(value) == uses &&
          !addBytes(value, /*asInput=*/false, /*remove=*/true))
        return false;
    Block *block = op->getBlock();
    SmallVector<std::pair<Value, unsigned>> resultUses;
    for (Value result : op->getResults()) {
      if (inputs.contains(result) &&
          !addBytes(result, /*asInput=*/true, /*remove=*/true))
        return false;
      unsigned outside = 0;
      for (Operation *user : result.getUsers()) {
        Operation *owner = ancestorIn(block, user);
        if (!owner || (owner != op && !members.contains(owner)))
          ++outside;
      }
      if (outside && !addBytes(result, /*asInput=*/false, /*remove=*/false))
        return false;
      resultUses.push_back({result, outside});
    }
    if (!commit)
      return true;
    members.insert(op);
    for (Value value : newInputs)
      inputs.insert(value);
    for (auto [value, uses] : usesOfMembers)
      outsideUses[value] -= uses;
    for (auto [result, outside] : resultUses) {
      inputs.erase(result);
      outsideUses[result] = outside;
    }
    return true;
  }

  bool valid = false;
  SmallVector<Operation *> ops;
  Operation *pending = nullptr;
  llvm::DenseSet<Operation *> members;
  llvm::DenseSet<Value> inputs;
  /// Uses of each member result by ops outside the group.
  llvm::DenseMap<Value, unsigned> outsideUses;
  KernelWork work;
};
} // namespace

/// A value of `ops` (operand or result) with a dynamic leading dim.
static bool touchesDynamicDim(ArrayRef<Operation *> ops) {
  return llvm::any_of(ops, [](Operation *op) {
    return llvm::any_of(op->getOperandTypes(), hasDynamicLeadingDim) ||
           llvm::any_of(op->getResultTypes(), hasDynamicLeadingDim);
  });
}

/// The profitability of fusing `candidates` into `group` at one M.
static FusionDecision judgeAtDim(ArrayRef<Operation *> group,
                                 ArrayRef<Operation *> candidates,
                                 TargetAttr target, int64_t dim);

/// A dynamic group's choice, priced at every sample point of its range: it
/// is taken only where every point agrees; where they disagree, the
/// conservative choice (not fusing: the unfused ops run at every M) is
/// taken and the reason names a point of each side.
static FusionDecision judgeAcrossRange(ArrayRef<Operation *> group,
                                       ArrayRef<Operation *> candidates,
                                       TargetAttr target) {
  DimRangeAttr range = lookupDimRange(candidates.front());
  SmallVector<int64_t> points = getDimSamplePoints(range);
  llvm::erase(points, 0); // M = 0 runs nothing
  std::optional<int64_t> allowedAt, forbiddenAt;
  FusionDecision firstForbid = FusionDecision::allow();
  FusionDecision atMax = FusionDecision::allow();
  for (int64_t m : points) {
    FusionDecision d = judgeAtDim(group, candidates, target, m);
    if (d) {
      allowedAt = allowedAt.value_or(m);
    } else if (!forbiddenAt) {
      forbiddenAt = m;
      firstForbid = d;
    }
    if (m == points.back())
      atMax = d;
  }
  std::string where = " over the dim range " + std::to_string(range.getMin()) +
                      ".." + std::to_string(range.getMax()) + " (" +
                      std::to_string(points.size()) + " sample points)";
  if (forbiddenAt && !allowedAt)
    return FusionDecision::forbid("at every M" + where + "; at m = " +
                                  std::to_string(*forbiddenAt) + ": " +
                                  firstForbid.getExplanation().str());
  if (forbiddenAt)
    return FusionDecision::forbid(
        "the sample points disagree" + where + ": fused wins at m = " +
        std::to_string(*allowedAt) + ", not at m = " +
        std::to_string(*forbiddenAt) + " (" + firstForbid.getExplanation().str() +
        "); the conservative choice is not to fuse");
  return FusionDecision::allow("at every M" + where + "; at m = " +
                               std::to_string(points.back()) + ": " +
                               atMax.getExplanation().str());
}

FusionProfitabilityFn mlir::sol::getCostModelProfitability(TargetAttr target) {
  auto state = std::make_shared<IncrementalGroupWork>();
  return [target, state](ArrayRef<Operation *> group,
                         ArrayRef<Operation *> candidates) -> FusionDecision {
    if (touchesDynamicDim(group) || touchesDynamicDim(candidates))
      return judgeAcrossRange(group, candidates, target);
    CostAttr fusedCost, groupCost;
    CostAttr candidateCost = costAsKernel(candidates, target);
    if (candidates.size() == 1 && candidateCost.getBound() != Bound::unknown &&
        state->sync(group)) {
      if (std::optional<KernelWork> fused =
              state->withCandidate(candidates.front())) {
        groupCost = estimateCost(state->getWork(), target);
        fusedCost = estimateCost(*fused, target);
      }
    }
    if (!fusedCost) {
      SmallVector<Operation *> fused(group);
      fused.append(candidates.begin(), candidates.end());
      fusedCost = costAsKernel(fused, target);
      groupCost = costAsKernel(group, target);
    }
#ifdef EXPENSIVE_CHECKS
    {
      SmallVector<Operation *> fused(group);
      fused.append(candidates.begin(), candidates.end());
      assert(fusedCost == costAsKernel(fused, target) &&
             groupCost == costAsKernel(group, target) &&
             "incremental group work diverged from countKernelWork");
    }
#endif
    return decideFromCosts(fusedCost, groupCost, candidateCost);
  };
}

static CostAttr costAsKernelAtDim(ArrayRef<Operation *> ops,
                                  TargetAttr target, int64_t dim) {
  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  getKernelBoundary(ops, inputs, outputs);
  return estimateCost(ops, inputs.getArrayRef(), outputs, target, dim);
}

static FusionDecision judgeAtDim(ArrayRef<Operation *> group,
                                 ArrayRef<Operation *> candidates,
                                 TargetAttr target, int64_t dim) {
  SmallVector<Operation *> fused(group);
  fused.append(candidates.begin(), candidates.end());
  CostAttr fusedCost = costAsKernelAtDim(fused, target, dim);
  CostAttr groupCost = costAsKernelAtDim(group, target, dim);
  CostAttr candidateCost = costAsKernelAtDim(candidates, target, dim);
  return decideFromCosts(fusedCost, groupCost, candidateCost);
}

FusionProfitabilityFn mlir::sol::getAlwaysProfitable() {
  return [](ArrayRef<Operation *>, ArrayRef<Operation *>) {
    return FusionDecision::allow("force=always: profitability not checked");
  };
}

//===----------------------------------------------------------------------===//
// Kernel formation
//===----------------------------------------------------------------------===//

KernelOp mlir::sol::formKernel(RewriterBase &rewriter,
                               ArrayRef<Operation *> group, StringRef name) {
  SmallVector<Operation *> ops = sortedByPosition(group);
  Block *block = ops.front()->getBlock();
  SmallVector<Value> inputs = getGroupInputs(ops);
  SmallVector<Value> outputs = getGroupOutputs(ops);

  // The kernel goes at the first op, or after the last input defined in this
  // block when that comes later (an epilogue operand computed after the
  // matmul).
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *lastDef = nullptr;
  for (Value input : inputs) {
    Operation *def = input.getDefiningOp();
    if (def && def->getBlock() == block &&
        (!lastDef || lastDef->isBeforeInBlock(def)))
      lastDef = def;
  }
  if (lastDef && ops.front()->isBeforeInBlock(lastDef))
    rewriter.setInsertionPointAfter(lastDef);
  else
    rewriter.setInsertionPoint(ops.front());

  SmallVector<Location> locs =
      llvm::map_to_vector(ops, [](Operation *op) { return op->getLoc(); });
  Location loc = rewriter.getFusedLoc(locs);
  auto kernel = KernelOp::create(rewriter, loc, name,
                                 ValueRange(outputs).getTypes(), inputs);

  Block &body = kernel.getBodyBlock();
  IRMapping mapping;
  mapping.map(inputs, body.getArguments());
  rewriter.setInsertionPointToStart(&body);
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (auto constant = operand.getDefiningOp<ConstantOp>();
          constant && !mapping.contains(operand))
        mapping.map(operand, rewriter.clone(*constant)->getResult(0));
    rewriter.clone(*op, mapping);
  }
  SmallVector<Value> yielded =
      llvm::map_to_vector(outputs, [&](Value v) { return mapping.lookup(v); });
  YieldOp::create(rewriter, loc, yielded);

  llvm::DenseSet<Operation *> members(ops.begin(), ops.end());
  for (auto [output, result] : llvm::zip(outputs, kernel.getResults()))
    rewriter.replaceUsesWithIf(output, result, [&](OpOperand &use) {
      Operation *owner = ancestorIn(block, use.getOwner());
      return !owner || !members.contains(owner);
    });
  for (Operation *op : llvm::reverse(ops))
    rewriter.eraseOp(op);

  // An outside user that sat between the group's ops may now precede the
  // kernel; the group is acyclic, so a stable topological sort restores
  // dominance and moves nothing else.
  bool misplaced = llvm::any_of(kernel->getUsers(), [&](Operation *user) {
    Operation *owner = ancestorIn(block, user);
    return owner && owner->isBeforeInBlock(kernel);
  });
  if (misplaced)
    sortTopologically(block);
  return kernel;
}

std::string mlir::sol::getKernelName(StringRef prefix, Operation *anchor,
                                     unsigned n) {
  StringRef kind = anchor->getName().stripDialect();
  return llvm::formatv("{0}_{1}_{2}", sanitizeKernelNamePrefix(prefix), kind, n)
      .str();
}

static bool isKernelNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

std::string mlir::sol::sanitizeKernelNamePrefix(StringRef prefix) {
  std::string name;
  if (prefix.empty() || llvm::isDigit(prefix.front()))
    name = "_";
  for (char c : prefix)
    name += isKernelNameChar(c) ? c : '_';
  return name;
}

std::string mlir::sol::whyNotSafeKernelName(StringRef name) {
  std::string why;
  size_t bad = name.find_if_not(isKernelNameChar);
  if (name.empty())
    why = "is empty";
  else if (llvm::isDigit(name.front()))
    why = "starts with a digit";
  else if (name == "_")
    why = "is '_' alone";
  else if (bad == StringRef::npos)
    return "";
  else if (name.contains('/') || name.contains('\\'))
    why = "holds a path separator";
  else if (name.contains('\0'))
    why = "holds a NUL";
  else if (name.contains(".."))
    why = "holds '..'";
  else if (llvm::isPrint(name[bad]))
    why = std::string("holds '") + name[bad] + "'";
  else
    why = llvm::formatv("holds the byte {0:x2}",
                        static_cast<unsigned char>(name[bad]))
              .str();
  return why + "; a kernel name must match [A-Za-z_][A-Za-z0-9_]*";
}

KernelNamer::KernelNamer(Operation *op) {
  Operation *root = op;
  while (Operation *parent = root->getParentOp())
    root = parent;
  root->walk([&](Operation *nested) {
    if (auto kernel = dyn_cast<KernelOp>(nested))
      taken.insert(kernel.getSymName());
    else if (auto name = nested->getAttrOfType<StringAttr>(
                 SymbolTable::getSymbolAttrName()))
      taken.insert(name.getValue());
  });
}

std::string KernelNamer::next(StringRef prefix, Operation *anchor,
                              unsigned &counter) {
  std::string name;
  do
    name = getKernelName(prefix, anchor, counter++);
  while (!taken.insert(name).second);
  return name;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

namespace {

/// Orders ops of one block by position (the block is not changed while a
/// group grows, so the order stays valid).
struct BlockOrder {
  bool operator()(Operation *a, Operation *b) const {
    return a != b && a->isBeforeInBlock(b);
  }
};

/// The group being grown and what each step needs of it without walking it
/// again: its members, its first and last op, the candidates not yet
/// considered in program order, and whether it holds a matmul.
struct Group {
  SmallVector<Operation *> ops;
  /// The ops' getKernelBudgetWeight, summed.
  unsigned weight = 0;
  llvm::DenseSet<Operation *> members;
  llvm::DenseSet<Operation *> considered;
  std::set<Operation *, BlockOrder> frontier;
  Operation *first = nullptr, *last = nullptr;
};

/// Fuses one block: grows a group from each seed, decides every candidate,
/// and outlines each group of two or more ops at once.
class BlockFuser {
public:
  BlockFuser(Block &block, StringRef namePrefix, const FusionOptions &options,
             unsigned &counter, KernelNamer &namer)
      : block(block), namePrefix(namePrefix), options(options),
        counter(counter), namer(namer),
        rewriter(block.getParent()->getContext()) {}

  void run() {
    if (options.force != FusionForce::never)
      splitRecomputedScalars();
    if (options.force == FusionForce::never) {
      formOneKernelPerOp();
    } else {
      if (options.fuseEpilogues)
        for (Operation *op : snapshot())
          if (!erased.contains(op) && isa<MatmulOp>(op))
            growAndForm(op, /*epilogue=*/true);
      if (options.fuseElementwise)
        for (Operation *op : snapshot())
          if (!erased.contains(op) && isFusibleElementwise(op))
            growAndForm(op, /*epilogue=*/false);
    }
    // Constants cloned into kernels may have no other user left.
    for (ConstantOp constant : constantsUsed)
      if (constant->use_empty())
        rewriter.eraseOp(constant);
  }

private:
  /// Gives each reader of a recomputed scalar its own copy, so that each
  /// kernel takes its copy in and none writes the scalar out. Last first: a
  /// copy reads what its original reads, so a scalar is split after every
  /// scalar reading it was.
  void splitRecomputedScalars() {
    SmallVector<Operation *> ops = snapshot();
    for (Operation *op : llvm::reverse(ops)) {
      if (!isRecomputedScalar(op))
        continue;
      // One copy per reading op (an op reading it twice shares one).
      llvm::SetVector<Operation *> readers;
      for (Operation *user : op->getResult(0).getUsers())
        readers.insert(user);
      for (Operation *reader : llvm::drop_begin(readers)) {
        rewriter.setInsertionPoint(op);
        Value copy = rewriter.clone(*op)->getResult(0);
        rewriter.modifyOpInPlace(
            reader, [&] { reader->replaceUsesOfWith(op->getResult(0), copy); });
      }
    }
  }

  SmallVector<Operation *> snapshot() {
    return llvm::map_to_vector(block.without_terminator(),
                               [](Operation &op) { return &op; });
  }

  /// A remark at `op`'s location. Not op->emitRemark(): that prints the op
  /// with a fresh AsmState, which numbers (and verifies) the whole function,
  /// once per remark: quadratic in a long chain.
  void remark(Operation *op, const Twine &text) {
    if (options.emitRemarks)
      mlir::emitRemark(op->getLoc()) << text;
  }

  /// Adds `op` to the group and its neighbours to the frontier: consumers of
  /// its values and, for elementwise groups, its sol producers; none that was
  /// considered already. The frontier is thereby always the candidates of
  /// the whole group, without visiting the group again.
  void join(Group &group, Operation *op, bool epilogue) {
    group.ops.push_back(op);
    group.weight += getKernelBudgetWeight(op);
    group.members.insert(op);
    group.considered.insert(op);
    if (!group.first || op->isBeforeInBlock(group.first))
      group.first = op;
    if (!group.last || group.last->isBeforeInBlock(op))
      group.last = op;
    for (Operation *user : op->getUsers()) {
      Operation *owner = ancestorIn(&block, user);
      // A kernel formed earlier is settled; a terminator is no candidate.
      if (owner && !group.considered.contains(owner) && !isa<KernelOp>(owner) &&
          !owner->hasTrait<OpTrait::IsTerminator>())
        group.frontier.insert(owner);
    }
    // A recomputed scalar joins each kernel that reads it, also upward into
    // an epilogue (its copies: splitRecomputedScalars).
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == &block && !group.considered.contains(def) &&
          isRecomputedScalar(def))
        group.frontier.insert(def);
    }
    if (epilogue)
      return; // an epilogue grows downward only: no prologue fusion
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == &block && !group.considered.contains(def) &&
          isa_and_nonnull<SolDialect>(def->getDialect()) &&
          !isa<ConstantOp, KernelOp>(def))
        group.frontier.insert(def);
    }
  }

  FusionDecision profitability(ArrayRef<Operation *> group,
                               Operation *candidate) {
    return options.force == FusionForce::always || !options.profitability
               ? getAlwaysProfitable()(group, candidate)
               : options.profitability(group, candidate);
  }

  /// Every legality predicate, then the profitability callback. The notes
  /// of an allowed decision only ever reach a remark, so they are written
  /// only when remarks are (the materialisation note walks the group).
  /// `atCap` is set when the kernel-size cap alone refused.
  FusionDecision decide(Group &group, Operation *candidate, bool epilogue,
                        unsigned epilogueWeight, bool &atCap) {
    if (isRecomputedScalar(candidate))
      return FusionDecision::allow("a scalar computed in the kernel, not read "
                                   "from a kernel of its own");
    if (FusionDecision d = checkMatmulFeedsMatmul(group.ops, candidate); !d)
      return d;
    if (FusionDecision d = isFusibleElementwise(candidate); !d)
      return d;
    if (epilogue)
      if (FusionDecision d = checkEpilogueBudget(
              epilogueWeight, getKernelBudgetWeight(candidate),
              options.maxEpilogueOps);
          !d)
        return d;
    if (FusionDecision d =
            checkIterationSpace(resultShape(group.ops.front()), candidate);
        !d)
      return d;
    if (FusionDecision d = checkCycleThrough(&block, group.members, group.first,
                                             group.last, candidate);
        !d)
      return d;
    if (FusionDecision d =
            checkKernelBudget(group.weight, getKernelBudgetWeight(candidate),
                              options.maxKernelOps);
        !d) {
      atCap = true;
      return d;
    }

    FusionDecision profit = profitability(group.ops, candidate);
    if (!profit || !options.emitRemarks)
      return profit;
    profit.addNote(describeDtypeChange(candidate).getExplanation());
    profit.addNote(
        producerHasUsersOutsideGroup(group.ops, candidate).getExplanation());
    return profit;
  }

  /// The first sibling of matmul `seed` (in program order) that may join its
  /// kernel, or null. A sibling already tried as a seed of its own is not
  /// asked again; each one asked is marked `considered`.
  Operation *findSibling(MatmulOp seed,
                         llvm::DenseSet<Operation *> &considered) {
    SmallVector<Operation *> siblings;
    for (Operation *user : seed.getLhs().getUsers())
      if (isa<MatmulOp>(user) && user != seed && user->getBlock() == &block &&
          !erased.contains(user) && !seeded.contains(user))
        siblings.push_back(user);
    Operation *group[] = {seed};
    for (Operation *op : sortedByPosition(llvm::to_vector(
             llvm::SetVector<Operation *>(siblings.begin(), siblings.end())))) {
      auto sibling = cast<MatmulOp>(op);
      considered.insert(sibling);
      FusionDecision decision = checkSiblingMatmul(
          seed, sibling, options.target, options.maxEpilogueOps);
      if (decision)
        decision = checkCycle(group, sibling);
      if (decision)
        decision = profitability(group, sibling);
      if (!decision) {
        remark(sibling, "not fused as the sibling of " + opName(seed) + ": " +
                            decision.getExplanation());
        continue;
      }
      remark(sibling, "fused as the sibling of " + opName(seed) +
                          (decision.getExplanation().empty() ? "" : ": ") +
                          decision.getExplanation());
      return sibling;
    }
    return nullptr;
  }

  /// Grows a group from `seed` one candidate at a time, earliest in program
  /// order first, and outlines it when it holds more than the seed.
  void growAndForm(Operation *seed, bool epilogue) {
    Group group;
    group.considered.insert(seed);
    std::string where =
        (epilogue ? "epilogue of " : "elementwise kernel of ") + opName(seed);
    // The sibling is asked before the seed's consumers are.
    Operation *sibling = nullptr;
    if (auto matmul = dyn_cast<MatmulOp>(seed);
        matmul && epilogue && options.fuseSiblingMatmuls) {
      sibling = findSibling(matmul, group.considered);
      seeded.insert(seed);
    }
    join(group, seed, epilogue);
    if (sibling)
      join(group, sibling, epilogue);

    unsigned epilogueWeight = 0;
    bool splitReported = false;
    while (!group.frontier.empty()) {
      Operation *candidate = *group.frontier.begin();
      group.frontier.erase(group.frontier.begin());
      group.considered.insert(candidate);
      bool atCap = false;
      FusionDecision decision =
          decide(group, candidate, epilogue, epilogueWeight, atCap);
      if (!decision) {
        // The cap splits a chain whether or not remarks were asked for:
        // those kernels do not follow from the cost model. Once per kernel.
        if (atCap && !options.emitRemarks && !splitReported)
          mlir::emitRemark(candidate->getLoc())
              << "not fused into " << where << ": "
              << decision.getExplanation();
        splitReported |= atCap;
        remark(candidate,
               "not fused into " + where + ": " + decision.getExplanation());
        continue;
      }
      remark(candidate, "fused into " + where +
                            (decision.getExplanation().empty() ? "" : ": ") +
                            decision.getExplanation());
      join(group, candidate, epilogue);
      epilogueWeight += getKernelBudgetWeight(candidate);
    }
    if (group.ops.size() > 1)
      form(group.ops, seed);
  }

  /// force=never: each sol compute op becomes a kernel of its own, so that
  /// later passes see one unit kind.
  void formOneKernelPerOp() {
    for (Operation *op : snapshot()) {
      if (!isa<MatmulOp>(op) && !isFusibleElementwise(op))
        continue;
      remark(op, "not fused: force=never puts every op in a kernel of its "
                 "own");
      form({op}, op);
    }
  }

  void form(ArrayRef<Operation *> group, Operation *anchor) {
    std::string name = namer.next(namePrefix, anchor, counter);
    for (Operation *op : group) {
      erased.insert(op);
      for (Value operand : op->getOperands())
        if (auto constant = operand.getDefiningOp<ConstantOp>())
          constantsUsed.insert(constant);
    }
    formKernel(rewriter, group, name);
  }

  Block &block;
  StringRef namePrefix;
  const FusionOptions &options;
  unsigned &counter;
  KernelNamer &namer;
  IRRewriter rewriter;
  /// Ops outlined so far: entries of a snapshot that must be skipped.
  llvm::DenseSet<Operation *> erased;
  /// Matmuls whose kernels were grown (their sibling question asked).
  llvm::DenseSet<Operation *> seeded;
  llvm::SetVector<ConstantOp> constantsUsed;
};

} // namespace

void mlir::sol::fuseBlock(Block &block, StringRef namePrefix,
                          const FusionOptions &options, unsigned &counter,
                          KernelNamer &namer) {
  BlockFuser(block, namePrefix, options, counter, namer).run();
}

void mlir::sol::fuseBlock(Block &block, StringRef namePrefix,
                          const FusionOptions &options, unsigned &counter) {
  KernelNamer namer(block.getParentOp());
  fuseBlock(block, namePrefix, options, counter, namer);
}
