//===- FusionPatterns.cpp - legality, profitability, kernel formation -----===//
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
#include "SolDialect/Fusion.h"
#include "SolDialect/TilePlan.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

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

FusionDecision mlir::sol::checkSiblingMatmul(MatmulOp anchor, MatmulOp sibling,
                                             TargetAttr target,
                                             unsigned maxEpilogueOps) {
  std::string why = whyNotSiblingMatmuls(anchor, sibling);
  if (!why.empty())
    return FusionDecision::forbid("not a sibling: " + why);
  if (!target)
    return FusionDecision::forbid(
        "no target to say whether a generator takes sibling matmuls");
  FailureOr<MatmulProblem> problem = getMatmulProblem(anchor);
  if (failed(problem))
    return FusionDecision::forbid("the matmul has a dynamic shape");
  problem->siblings = 2;
  problem->operandsAreKernelArgs = true; // no prologue fusion
  why = whyNotSiblingWgmmaTma(*problem, target);
  if (!why.empty())
    return FusionDecision::forbid("no generator takes the pair: " + why);
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
  bool larger = true;
  if (type.hasStaticShape() && !ShapedType::isDynamicShape(iterationSpace))
    larger = type.getNumElements() > ShapedType::getNumElements(iterationSpace);
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

FusionDecision mlir::sol::checkCycle(ArrayRef<Operation *> group,
                                     Operation *candidate) {
  Block *block = candidate->getBlock();
  llvm::DenseSet<Operation *> members(group.begin(), group.end());
  members.insert(candidate);
  Operation *last = candidate;
  for (Operation *op : group)
    if (last->isBeforeInBlock(op))
      last = op;

  // Walk forward from the outside users of every member. The block is in
  // topological order, so nothing after the last member can lead back in.
  // Each entry remembers the outside op that first consumed the group.
  SmallVector<std::pair<Operation *, Operation *>> worklist;
  for (Operation *op : members)
    for (Value result : op->getResults()) {
      SmallVector<Operation *> users;
      collectOutsideUsers(result, block, members, users);
      for (Operation *user : users)
        if (user->getBlock() == block)
          worklist.push_back({user, user});
    }
  llvm::DenseSet<Operation *> visited;
  while (!worklist.empty()) {
    auto [op, origin] = worklist.pop_back_val();
    if (!visited.insert(op).second || last->isBeforeInBlock(op))
      continue;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *owner = ancestorIn(block, user);
        if (!owner)
          continue;
        if (members.contains(owner))
          return FusionDecision::forbid(
              "would create a cycle: '" + opName(origin) +
              "' outside the kernel consumes a value of the kernel and feeds "
              "it");
        worklist.push_back({owner, origin});
      }
  }
  return FusionDecision::allow();
}

FusionDecision mlir::sol::checkEpilogueBudget(unsigned numEpilogueOps,
                                              unsigned maxEpilogueOps) {
  if (numEpilogueOps < maxEpilogueOps)
    return FusionDecision::allow();
  return FusionDecision::forbid(llvm::formatv(
      "the epilogue already holds {0} elementwise op(s) (max-epilogue-ops={1})",
      numEpilogueOps, maxEpilogueOps));
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

/// The cost of `ops` run as one kernel, inputs and outputs as formKernel would
/// make them.
static CostAttr costAsKernel(ArrayRef<Operation *> ops, TargetAttr target) {
  return estimateCost(ops, getGroupInputs(ops), getGroupOutputs(ops), target);
}

FusionProfitabilityFn mlir::sol::getCostModelProfitability(TargetAttr target) {
  return [target](ArrayRef<Operation *> group,
                  ArrayRef<Operation *> candidates) -> FusionDecision {
    SmallVector<Operation *> fused(group);
    fused.append(candidates.begin(), candidates.end());
    CostAttr fusedCost = costAsKernel(fused, target);
    CostAttr groupCost = costAsKernel(group, target);
    CostAttr candidateCost = costAsKernel(candidates, target);
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
    return FusionDecision::allow("predicted " + formatMicros(fusedUs) +
                                 " <= " + formatMicros(unfusedUs) +
                                 " unfused; saves " + formatBytes(saved));
  };
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
  return llvm::formatv("{0}_{1}_{2}", prefix, kind, n).str();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

namespace {

/// Fuses one block: grows a group from each seed, decides every candidate,
/// and outlines each group of two or more ops at once.
class BlockFuser {
public:
  BlockFuser(Block &block, StringRef namePrefix, const FusionOptions &options,
             unsigned &counter)
      : block(block), namePrefix(namePrefix), options(options),
        counter(counter), rewriter(block.getParent()->getContext()) {}

  void run() {
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
  SmallVector<Operation *> snapshot() {
    return llvm::map_to_vector(block.without_terminator(),
                               [](Operation &op) { return &op; });
  }

  void remark(Operation *op, const Twine &text) {
    if (options.emitRemarks)
      op->emitRemark() << text;
  }

  /// Candidates of `group`: consumers of its values and, for elementwise
  /// groups, sol producers of its inputs; not yet considered.
  SmallVector<Operation *>
  collectCandidates(ArrayRef<Operation *> group, bool epilogue,
                    const llvm::DenseSet<Operation *> &considered) {
    llvm::SetVector<Operation *> candidates;
    for (Operation *op : group) {
      for (Operation *user : op->getUsers()) {
        Operation *owner = ancestorIn(&block, user);
        // A kernel formed earlier is settled; a terminator is no candidate.
        if (owner && !considered.contains(owner) && !isa<KernelOp>(owner) &&
            !owner->hasTrait<OpTrait::IsTerminator>())
          candidates.insert(owner);
      }
      if (epilogue)
        continue; // an epilogue grows downward only: no prologue fusion
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == &block && !considered.contains(def) &&
            isa_and_nonnull<SolDialect>(def->getDialect()) &&
            !isa<ConstantOp, KernelOp>(def))
          candidates.insert(def);
      }
    }
    return candidates.takeVector();
  }

  /// Every legality predicate, then the profitability callback.
  FusionDecision decide(ArrayRef<Operation *> group, Operation *candidate,
                        bool epilogue, unsigned numEpilogueOps) {
    if (FusionDecision d = checkMatmulFeedsMatmul(group, candidate); !d)
      return d;
    if (FusionDecision d = isFusibleElementwise(candidate); !d)
      return d;
    if (epilogue)
      if (FusionDecision d =
              checkEpilogueBudget(numEpilogueOps, options.maxEpilogueOps);
          !d)
        return d;
    if (FusionDecision d =
            checkIterationSpace(resultShape(group.front()), candidate);
        !d)
      return d;
    if (FusionDecision d = checkCycle(group, candidate); !d)
      return d;

    FusionDecision profit =
        options.force == FusionForce::always || !options.profitability
            ? getAlwaysProfitable()(group, candidate)
            : options.profitability(group, candidate);
    if (!profit)
      return profit;
    profit.addNote(describeDtypeChange(candidate).getExplanation());
    profit.addNote(
        producerHasUsersOutsideGroup(group, candidate).getExplanation());
    return profit;
  }

  /// Takes the first sibling of matmul `seed` (in program order) that may
  /// join its kernel into `group`. A sibling already tried as a seed of
  /// its own is not asked again.
  void growSibling(MatmulOp seed, SmallVectorImpl<Operation *> &group,
                   llvm::DenseSet<Operation *> &considered) {
    SmallVector<Operation *> siblings;
    for (Operation *user : seed.getLhs().getUsers())
      if (isa<MatmulOp>(user) && user != seed && user->getBlock() == &block &&
          !erased.contains(user) && !seeded.contains(user))
        siblings.push_back(user);
    for (Operation *op : sortedByPosition(llvm::to_vector(
             llvm::SetVector<Operation *>(siblings.begin(), siblings.end())))) {
      auto sibling = cast<MatmulOp>(op);
      considered.insert(sibling);
      FusionDecision decision = checkSiblingMatmul(
          seed, sibling, options.target, options.maxEpilogueOps);
      if (decision)
        decision = checkCycle(group, sibling);
      if (decision)
        decision =
            options.force == FusionForce::always || !options.profitability
                ? getAlwaysProfitable()(group, sibling.getOperation())
                : options.profitability(group, sibling.getOperation());
      if (!decision) {
        remark(sibling, "not fused as the sibling of " + opName(seed) + ": " +
                            decision.getExplanation());
        continue;
      }
      remark(sibling, "fused as the sibling of " + opName(seed) +
                          (decision.getExplanation().empty() ? "" : ": ") +
                          decision.getExplanation());
      group.push_back(sibling);
      return;
    }
  }

  /// Grows a group from `seed` one candidate at a time, earliest in program
  /// order first, and outlines it when it holds more than the seed.
  void growAndForm(Operation *seed, bool epilogue) {
    SmallVector<Operation *> group = {seed};
    llvm::DenseSet<Operation *> considered = {seed};
    std::string where =
        (epilogue ? "epilogue of " : "elementwise kernel of ") + opName(seed);
    if (auto matmul = dyn_cast<MatmulOp>(seed);
        matmul && epilogue && options.fuseSiblingMatmuls) {
      growSibling(matmul, group, considered);
      seeded.insert(seed);
    }
    unsigned numEpilogueOps = 0;
    while (true) {
      SmallVector<Operation *> candidates =
          collectCandidates(group, epilogue, considered);
      if (candidates.empty())
        break;
      Operation *candidate = sortedByPosition(candidates).front();
      considered.insert(candidate);
      FusionDecision decision =
          decide(group, candidate, epilogue, numEpilogueOps);
      if (!decision) {
        remark(candidate,
               "not fused into " + where + ": " + decision.getExplanation());
        continue;
      }
      remark(candidate, "fused into " + where +
                            (decision.getExplanation().empty() ? "" : ": ") +
                            decision.getExplanation());
      group.push_back(candidate);
      ++numEpilogueOps;
    }
    if (group.size() > 1)
      form(group, seed);
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
    std::string name = getKernelName(namePrefix, anchor, counter++);
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
  IRRewriter rewriter;
  /// Ops outlined so far: entries of a snapshot that must be skipped.
  llvm::DenseSet<Operation *> erased;
  /// Matmuls whose kernels were grown (their sibling question asked).
  llvm::DenseSet<Operation *> seeded;
  llvm::SetVector<ConstantOp> constantsUsed;
};

} // namespace

void mlir::sol::fuseBlock(Block &block, StringRef namePrefix,
                          const FusionOptions &options, unsigned &counter) {
  BlockFuser(block, namePrefix, options, counter).run();
}
