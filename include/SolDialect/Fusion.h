//===- Fusion.h - forming sol.kernels from sol ops --------------*- C++ -*-===//
//
// The fusion library behind sol-fuse: legality predicates that each return a
// FusionDecision with its reason, a pluggable profitability callback (the cost
// model by default) and the driver that grows groups of ops and outlines each
// into a sol.kernel. Kept apart from the pass so that other drivers (the
// PyTorch partitioner, unit tests) can ask the same questions.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_FUSION_H
#define SOLDIALECT_FUSION_H

#include "SolDialect/SolDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <functional>
#include <string>

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::sol {

//===----------------------------------------------------------------------===//
// FusionDecision
//===----------------------------------------------------------------------===//

/// The answer to "may these ops share a kernel?", after XLA's FusionDecision:
/// either allowed, optionally with a note a person should see (a dtype change,
/// a materialised intermediate, the cost comparison), or refused with the
/// reason. Every decision sol-fuse makes is one of these, so every remark
/// says why.
class FusionDecision {
public:
  static FusionDecision allow(const Twine &note = "") {
    return FusionDecision(/*allowed=*/true, note.str());
  }
  static FusionDecision forbid(const Twine &reason) {
    return FusionDecision(/*allowed=*/false, reason.str());
  }

  bool isAllowed() const { return allowed; }
  explicit operator bool() const { return allowed; }

  /// The refusal's reason, or the notes of an allowed decision (may be empty).
  StringRef getExplanation() const { return explanation; }

  /// Appends `note` to an allowed decision's notes ("; "-separated).
  FusionDecision &addNote(const Twine &note);

private:
  FusionDecision(bool allowed, std::string explanation)
      : allowed(allowed), explanation(std::move(explanation)) {}

  bool allowed;
  std::string explanation;
};

//===----------------------------------------------------------------------===//
// Legality predicates
//===----------------------------------------------------------------------===//

/// A sol elementwise op that may join a kernel: not a scalar constant (those
/// are cloned into kernels as immediates), not already inside a kernel, one
/// ranked tensor result.
FusionDecision isFusibleElementwise(Operation *op);

/// Whether `op` is a scalar a kernel recomputes rather than reads: a fusible
/// elementwise op with a rank-0 result whose operands are all rank-0 block
/// arguments, constants or such scalars themselves (a 0-d scale cast to the
/// epilogue's type, as eager rounds it), at most eight ops with its
/// producers. Like a constant it joins every
/// kernel that reads it, in either direction and whatever the kernel's
/// iteration space (one value per element: nothing is recomputed per
/// broadcast element that matters), instead of becoming a one-element
/// kernel of its own; the fuser gives each reader its own copy.
bool isRecomputedScalar(Operation *op);

/// Refuses a sol.matmul as an epilogue candidate of a group that already
/// holds one: a matmul consuming another would have to wait for all of the
/// first's output, not one tile. (A sibling over the same A joins before
/// the epilogue grows, through checkSiblingMatmul.)
FusionDecision checkMatmulFeedsMatmul(ArrayRef<Operation *> group,
                                      Operation *candidate);

/// Allows matmul `sibling` into the kernel of matmul `anchor` as the other
/// weight over the same A (SwiGLU's up projection next to its gate): the
/// pair must be siblings (whyNotSiblingMatmuls), a generator must take the
/// pair on `target` (whyNotSiblingWgmmaTma; null target: refused), and
/// their results must meet in an elementwise op within `maxEpilogueOps`
/// ops of each, so that the kernel combines them instead of writing two
/// unrelated outputs. The profitability callback still decides.
FusionDecision checkSiblingMatmul(MatmulOp anchor, MatmulOp sibling,
                                  TargetAttr target, unsigned maxEpilogueOps);

/// Refuses a shape-changing candidate: every op of a kernel computes one
/// element per point of the kernel's iteration space (the anchor's result
/// shape). A consumer whose broadcast makes its result larger (an outer
/// product `[M,1] + [1,N]` grown from a `[M,1]` group) or a producer whose
/// result is smaller (a bias `[N]` computed inside an `[M,N]` kernel) would
/// be recomputed per broadcast element.
FusionDecision checkIterationSpace(ArrayRef<int64_t> iterationSpace,
                                   Operation *candidate);

/// Refuses a candidate when some op outside the group both consumes a value of
/// the group (candidate included) and feeds the group: the kernel would have
/// to run before and after that op. `group` must itself be acyclic (it is
/// when every member joined through this check): only paths through the
/// candidate are searched, between the group's first and last op, so a
/// chain's check costs the candidate's uses, not the group's size.
FusionDecision checkCycle(ArrayRef<Operation *> group, Operation *candidate);

/// Refuses an epilogue op that would take the epilogue's weight (each op's
/// getKernelBudgetWeight) past `maxEpilogueOps`. The accumulator tile stays
/// in registers while the epilogue runs, and the generators unroll the
/// epilogue over every accumulator element a thread holds (up to 192 on a
/// ping-pong 128x192 tile), so its code grows with weight times elements:
/// ptxas -O3 took 1.4 s on one silu after a 128x192 ping-pong tile, 6.8 s
/// on two, 22.4 s on three, and a whole compile with eight ran past 100 s
/// (sol-fuzz's input; the 2-core build machine while another build shared
/// it, 2026-12-03). The FLOP weight understates silu's division.
FusionDecision checkEpilogueBudget(unsigned epilogueWeight,
                                   unsigned candidateWeight,
                                   unsigned maxEpilogueOps);

/// What an op weighs in the kernel budget: the scalar code it expands to,
/// as the cost model counts it (its FLOPs per element, at least 1). A
/// tanh-GELU weighs 9: a budget counting it as one let 256 of them into
/// one kernel, which took ~40 s to compile (sol-fuzz, 2026-12-01).
unsigned getKernelBudgetWeight(Operation *op);

/// Refuses a candidate weighing `candidateWeight` when the kernel, already
/// weighing `kernelWeight`, would pass `maxKernelWeight` (0: no limit):
/// ptxas took 83 s on one kernel of 2 000 elementwise ops, so a longer
/// chain is split into kernels of at most that weight, each reading the
/// previous one's output.
FusionDecision checkKernelBudget(unsigned kernelWeight,
                                 unsigned candidateWeight,
                                 unsigned maxKernelWeight);

/// The multi-use policy. A group value also used by an op outside the group
/// does not block fusion: the kernel writes it as an extra output
/// (materialises it; never recomputes it), and the profitability check, which
/// counts that output's bytes, decides whether the fusion still pays. Always
/// allows; the note names what is materialised.
FusionDecision producerHasUsersOutsideGroup(ArrayRef<Operation *> group,
                                            Operation *candidate);

/// A sol.cast in a kernel is allowed (the conversion happens in registers);
/// the note says which dtype change the kernel now carries.
FusionDecision describeDtypeChange(Operation *candidate);

//===----------------------------------------------------------------------===//
// Profitability
//===----------------------------------------------------------------------===//

/// Decides whether running `group` and `candidates` as one kernel pays against
/// running them as two. The allowed decision's note, and the refusal's
/// reason, should carry the numbers compared.
using FusionProfitabilityFn = std::function<FusionDecision(
    ArrayRef<Operation *> group, ArrayRef<Operation *> candidates)>;

/// The cost model as profitability: fuse when the predicted time of the fused
/// kernel (estimateCost(...).t_pred_us) is not above the sum of the two
/// kernels' predicted times, e.g. "predicted 163.1 us <= 195.4 us unfused;
/// saves 83.9 MB".
FusionProfitabilityFn getCostModelProfitability(TargetAttr target);

/// Fuses whenever legal ("force=always").
FusionProfitabilityFn getAlwaysProfitable();

//===----------------------------------------------------------------------===//
// Group analysis and kernel formation
//===----------------------------------------------------------------------===//

/// Values the ops of `group` use but do not define, deduplicated in first-use
/// order: the kernel's inputs. Scalar sol.constants are not inputs; they are
/// cloned into the kernel.
SmallVector<Value> getGroupInputs(ArrayRef<Operation *> group);

/// Results of `group` used by an op outside it: what the kernel writes.
SmallVector<Value> getGroupOutputs(ArrayRef<Operation *> group);

/// Outlines `group` (ops of one block, any order) into `sol.kernel @name`:
/// inputs per getGroupInputs, results per getGroupOutputs, scalar constants
/// cloned into the body, outside uses replaced, originals erased. The kernel
/// goes where all its inputs are defined; ops of the block are reordered
/// (topologically, stable) only when an outside user would otherwise precede
/// it. The group must be acyclic (checkCycle).
KernelOp formKernel(RewriterBase &rewriter, ArrayRef<Operation *> group,
                    StringRef name);

/// The kernel naming scheme every pass that forms kernels shares:
/// `<prefix>_<anchor op kind>_<n>`, e.g. `oproj_residual_matmul_0` for a
/// kernel anchored at a sol.matmul in func @oproj_residual. The prefix is
/// sanitised (sanitizeKernelNamePrefix), so the name is always a safe one
/// (whyNotSafeKernelName); it may still be taken (KernelNamer).
std::string getKernelName(StringRef prefix, Operation *anchor, unsigned n);

/// `prefix` with every character outside [A-Za-z0-9_] replaced by '_', and a
/// '_' in front when it would start with a digit (or is empty): `a b` ->
/// `a_b`, `../x` -> `___x`. Names already made of those characters are kept.
std::string sanitizeKernelNamePrefix(StringRef prefix);

/// Why `name` cannot name a kernel, or empty. A kernel's name becomes its PTX
/// entry (an identifier: LLVM aborts on anything else) and the file names of
/// its manifest, PTX and cubin (`<dir>/<name>.json`: a '/', ".." or NUL would
/// leave the directory), so it must match [A-Za-z_][A-Za-z0-9_]*.
std::string whyNotSafeKernelName(StringRef name);

/// Hands out kernel names for a pass that forms kernels: getKernelName's
/// scheme, n counting on from the caller's counter and skipping every name
/// already taken in the module (its symbols, the kernels anywhere under it,
/// the names handed out so far), so that sanitised prefixes (`a b` and `a_b`)
/// cannot collide. Deterministic: the same module gets the same names.
class KernelNamer {
public:
  /// Takes the names in use under `op`'s outermost ancestor.
  explicit KernelNamer(Operation *op);

  /// The next free `<prefix>_<kind>_<n>`; advances `counter` past it.
  std::string next(StringRef prefix, Operation *anchor, unsigned &counter);

private:
  llvm::StringSet<> taken;
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

enum class FusionForce { none, always, never };

/// The default of FusionOptions::maxKernelOps (sol-fuse's max-kernel-ops).
constexpr unsigned kDefaultMaxKernelOps = 256;

struct FusionOptions {
  /// Grow each sol.matmul's kernel with its elementwise consumers.
  bool fuseEpilogues = true;
  /// Before its epilogue, take a sibling matmul into a sol.matmul's kernel
  /// (checkSiblingMatmul).
  bool fuseSiblingMatmuls = true;
  /// The device, for the legality questions that depend on what a
  /// generator builds for it (sibling matmuls); may be null.
  TargetAttr target;
  /// Group the remaining elementwise ops into chains, fan-ins and diamonds.
  bool fuseElementwise = true;
  /// Elementwise ops an epilogue may hold.
  unsigned maxEpilogueOps = 16;
  /// Ops one kernel may hold (0: no limit); a chain longer than that is
  /// split, with a remark (emitted with or without emitRemarks).
  unsigned maxKernelOps = kDefaultMaxKernelOps;
  /// Emit every decision as a remark at the op it concerns.
  bool emitRemarks = false;
  /// never: every sol compute op becomes a kernel of its own; always: the
  /// profitability callback is not consulted.
  FusionForce force = FusionForce::none;
  /// Consulted for every legal candidate unless force is set.
  FusionProfitabilityFn profitability;
};

/// Fuses the sol ops of `block` (not inside a sol.kernel): epilogues first,
/// matmul by matmul in program order, then elementwise groups. Kernels are
/// named `<prefix>_<anchor op kind>_<n>` by `namer`, with `counter`
/// supplying n. Linear in the block's size for a chain: each candidate is
/// taken from a frontier kept in program order, the cycle check follows only
/// the candidate's paths, and a group stops at options.maxKernelOps, which
/// bounds what the profitability callback is asked to price.
void fuseBlock(Block &block, StringRef namePrefix, const FusionOptions &options,
               unsigned &counter, KernelNamer &namer);

/// As above, with a namer over the module holding `block`.
void fuseBlock(Block &block, StringRef namePrefix, const FusionOptions &options,
               unsigned &counter);

} // namespace mlir::sol

#endif // SOLDIALECT_FUSION_H
