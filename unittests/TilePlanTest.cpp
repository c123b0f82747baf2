//===- TilePlanTest.cpp - the dynamic grid rule against the static plans --===//
//
// A dynamic kernel's launch computes its grid by getDynamicGridRule from the
// row's plan, built at the row's m_max. For every path, every M up to m_max
// must get exactly the grid the static plan builder gives at M: the rule is
// one home of each builder's grid formula, and this test keeps them equal.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/TilePlan.h"
#include "SolDialect/DynamicShapes.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <functional>
#include <random>
#include <tuple>

using namespace mlir;
using namespace mlir::sol;

namespace {

using Grid = SmallVector<int64_t, 3>;

class TilePlanTest : public ::testing::Test {
protected:
  TilePlanTest() { context.loadDialect<SolDialect, func::FuncDialect>(); }

  /// Parses `ir` with every `A`, `W` and `O` replaced by the given types.
  OwningOpRef<ModuleOp> parse(std::string ir, const std::string &a,
                              const std::string &w, const std::string &o) {
    std::string text;
    for (char ch : ir)
      text += ch == 'A'   ? a
              : ch == 'W' ? w
              : ch == 'O' ? o
                          : std::string(1, ch);
    return parseSourceString<ModuleOp>(text, &context);
  }

  /// x[?, inner..., K] @ w[N, K]^T + residual, fp16, as one dynamic kernel.
  OwningOpRef<ModuleOp> matmulKernel(const std::string &inner, int64_t k,
                                     int64_t n) {
    std::string a = "tensor<?x" + inner + std::to_string(k) + "xf16>";
    std::string w =
        "tensor<" + std::to_string(n) + "x" + std::to_string(k) + "xf16>";
    std::string o = "tensor<?x" + inner + std::to_string(n) + "xf16>";
    return parse(R"(
      func.func @f(%x: A, %w: W, %r: O) -> O {
        %0 = sol.kernel @k ins(%x, %w, %r : A, W, O) -> O {
        ^bb0(%a: A, %b: W, %c: O):
          %mm = sol.matmul %a, %b transpose_b : A, W -> O
          %y = sol.add %mm, %c : O, O -> O
          sol.yield %y : O
        }
        return %0 : O
      })",
                 a, w, o);
  }

  /// The sibling pair x @ wg^T, x @ wu^T multiplied (SwiGLU's shape).
  OwningOpRef<ModuleOp> siblingKernel(int64_t k, int64_t n) {
    std::string a = "tensor<?x" + std::to_string(k) + "xf16>";
    std::string w =
        "tensor<" + std::to_string(n) + "x" + std::to_string(k) + "xf16>";
    std::string o = "tensor<?x" + std::to_string(n) + "xf16>";
    return parse(R"(
      func.func @f(%x: A, %g: W, %u: W) -> O {
        %0 = sol.kernel @k ins(%x, %g, %u : A, W, W) -> O {
        ^bb0(%a: A, %bg: W, %bu: W):
          %mg = sol.matmul %a, %bg transpose_b : A, W -> O
          %mu = sol.matmul %a, %bu transpose_b : A, W -> O
          %y = sol.mul %mg, %mu : O, O -> O
          sol.yield %y : O
        }
        return %0 : O
      })",
                 a, w, o);
  }

  static KernelOp getKernel(ModuleOp module) {
    KernelOp kernel;
    module.walk([&](KernelOp op) { kernel = op; });
    return kernel;
  }

  /// The static shape of `kernel` at `dim` (through the planner's clone).
  static MatmulShape problemAt(KernelOp kernel, int64_t dim) {
    OwningOpRef<KernelOp> clone = cloneKernelAtDim(kernel, dim);
    std::string reason;
    auto matmuls = getKernelMatmuls(clone->getBodyBlock(), reason);
    EXPECT_TRUE(succeeded(matmuls)) << reason;
    FailureOr<MatmulShape> problem = getMatmulShape(matmuls->front());
    EXPECT_TRUE(succeeded(problem));
    problem->siblings = static_cast<int64_t>(matmuls->size());
    return *problem;
  }

  /// The geometry of `plan` over `problem` on a chip of `smCount` SMs.
  static LaunchGeometry geometryOf(PlanAttr plan, const MatmulShape &problem,
                                   int64_t smCount) {
    LaunchSizes sizes;
    sizes.matmul = problem;
    sizes.smCount = smCount;
    return getPlanLaunchGeometry(plan, sizes);
  }

  /// For each m_max, the plan `build` makes at m_max, evaluated by its rule
  /// at every M of `ms` up to m_max, launches the grid `build` gives at M
  /// (on a chip of `smCount` SMs).
  void expectRuleMatches(KernelOp kernel, ArrayRef<int64_t> ms,
                         std::function<PlanAttr(const MatmulShape &)> build,
                         const std::string &what, int64_t smCount = 132) {
    for (int64_t mMax : ms) {
      MatmulShape atMaxProblem = problemAt(kernel, mMax);
      PlanAttr rowPlan = build(atMaxProblem);
      if (!rowPlan)
        continue;
      LaunchGeometry atMax = geometryOf(rowPlan, atMaxProblem, smCount);
      DynamicGridRule rule = getDynamicGridRule(kernel, rowPlan, atMax);
      for (int64_t m : ms) {
        if (m > mMax)
          break;
        MatmulShape problem = problemAt(kernel, m);
        PlanAttr plan = build(problem);
        ASSERT_TRUE(plan) << what << " at M = " << m;
        EXPECT_EQ(evaluateDynamicGridRule(rowPlan, atMax, rule, m),
                  Grid(geometryOf(plan, problem, smCount).grid))
            << what << ": the row's plan at m_max = " << mMax
            << ", launched at M = " << m;
      }
      // M = 0 launches nothing.
      EXPECT_EQ(evaluateDynamicGridRule(rowPlan, atMax, rule, 0)[rule.axis], 0)
          << what;
    }
  }

  /// Increasing values of M: the small ones, powers of two and their
  /// neighbours, and random ones.
  static SmallVector<int64_t> someDims(int64_t max) {
    SmallVector<int64_t> ms;
    for (int64_t m = 1; m <= 20; ++m)
      ms.push_back(m);
    for (int64_t p = 32; p <= max; p *= 2)
      for (int64_t m : {p - 1, p, p + 1})
        ms.push_back(m);
    std::mt19937_64 random(17);
    for (int i = 0; i < 12; ++i)
      ms.push_back(1 + static_cast<int64_t>(random() % max));
    llvm::sort(ms);
    ms.erase(llvm::unique(ms), ms.end());
    while (!ms.empty() && ms.back() > max)
      ms.pop_back();
    return ms;
  }

  MLIRContext context;
};

TEST_F(TilePlanTest, MmaSyncGridFollowsRowTiles) {
  for (std::string inner : {"", "7x"}) {
    OwningOpRef<ModuleOp> module = matmulKernel(inner, 2560, 2560);
    KernelOp kernel = getKernel(*module);
    for (const MmaSyncTile &tile : getMmaSyncTiles())
      expectRuleMatches(
          kernel, someDims(20000),
          [&](const MatmulShape &p) {
            return getMmaSyncPlan(&context, p, tile);
          },
          "mma_sync " + std::to_string(tile.tileM) + "x" +
              std::to_string(tile.tileN) + " split " +
              std::to_string(tile.kSplits) + " inner '" + inner + "'");
  }
}

TEST_F(TilePlanTest, WgmmaAndSimtGridsFollowRowTiles) {
  OwningOpRef<ModuleOp> module = matmulKernel("3x", 1024, 1000);
  KernelOp kernel = getKernel(*module);
  for (int64_t tileN : {128, 256})
    expectRuleMatches(
        kernel, someDims(30000),
        [&](const MatmulShape &p) {
          return getWgmmaPlan(&context, p, tileN, 4);
        },
        "wgmma 128x" + std::to_string(tileN));
  expectRuleMatches(
      kernel, someDims(30000),
      [&](const MatmulShape &p) { return getSimtMatmulPlan(&context, p); },
      "simt");
}

TEST_F(TilePlanTest, GemvGridIsFixedOverItsRows) {
  OwningOpRef<ModuleOp> module = matmulKernel("", 2560, 2560);
  KernelOp kernel = getKernel(*module);
  expectRuleMatches(
      kernel, someDims(kGemvMaxRows),
      [&](const MatmulShape &p) { return getGemvPlan(&context, p); }, "gemv");
}

TEST_F(TilePlanTest, WgmmaTmaPersistentGridCapsAtTheRowsGrid) {
  struct Case {
    int64_t tileM, tileN, cluster, smCount;
  };
  OwningOpRef<ModuleOp> module = matmulKernel("", 2560, 2560);
  KernelOp kernel = getKernel(*module);
  for (Case c :
       {Case{128, 128, 1, 132}, Case{128, 128, 2, 132}, Case{128, 256, 2, 132},
        Case{256, 160, 1, 132}, Case{128, 192, 1, 7}, Case{128, 144, 2, 9}})
    expectRuleMatches(
        kernel, someDims(65536),
        [&](const MatmulShape &p) {
          return getWgmmaTmaPlan(&context, p, c.tileN, 4, c.cluster, c.smCount,
                                 ConsumerSchedule::cooperative, c.tileM);
        },
        "wgmma_tma " + std::to_string(c.tileM) + "x" + std::to_string(c.tileN) +
            " cluster " + std::to_string(c.cluster) + " on " +
            std::to_string(c.smCount) + " SMs",
        c.smCount);
  // small-m-tma's plans: 64-row ping-pong tiles, and split K, whose units
  // are the tiles times the splits.
  for (auto [tileM, tileN, splitK] :
       {std::tuple<int64_t, int64_t, int64_t>{64, 128, 1}, {64, 256, 3},
        {128, 128, 4}, {256, 128, 8}})
    expectRuleMatches(
        kernel, someDims(65536),
        [&](const MatmulShape &p) {
          return getWgmmaTmaPlan(&context, p, tileN, 4, 1, 132,
                                 tileM == 64 ? ConsumerSchedule::pingpong
                                             : ConsumerSchedule::cooperative,
                                 tileM, splitK);
        },
        "wgmma_tma " + std::to_string(tileM) + "x" + std::to_string(tileN) +
            " split " + std::to_string(splitK));
  // Siblings: a tile_n-wide tile holds tile_n / 2 columns of each weight.
  OwningOpRef<ModuleOp> siblings = siblingKernel(2560, 6912);
  expectRuleMatches(
      getKernel(*siblings), someDims(65536),
      [&](const MatmulShape &p) {
        return getWgmmaTmaPlan(&context, p, 256, 4, 1, 132);
      },
      "sibling wgmma_tma");
}

TEST_F(TilePlanTest, ElementwiseGridFollowsElements) {
  for (auto [shape, vector] :
       {std::pair<std::string, int64_t>{"4096", 8}, {"3x100", 4}, {"7", 1}}) {
    std::string t = "tensor<?x" + shape + "xf16>";
    OwningOpRef<ModuleOp> module = parse(R"(
      func.func @f(%x: A, %y: A) -> A {
        %0 = sol.kernel @k ins(%x, %y : A, A) -> A {
        ^bb0(%a: A, %b: A):
          %s = sol.add %a, %b : A, A -> A
          sol.yield %s : A
        }
        return %0 : A
      })",
                                         t, t, t);
    KernelOp kernel = getKernel(*module);
    SmallVector<StringRef> dims;
    StringRef(shape).split(dims, 'x');
    int64_t inner = 1;
    for (StringRef d : dims)
      inner *= std::stoll(d.str());
    SmallVector<int64_t> ms = someDims(100000);
    auto geometryAt = [&](PlanAttr plan, int64_t m) {
      LaunchSizes sizes;
      sizes.elements = m * inner;
      return getPlanLaunchGeometry(plan, sizes);
    };
    for (int64_t mMax : ms) {
      PlanAttr rowPlan = getElementwisePlan(&context, mMax * inner, vector);
      LaunchGeometry atMax = geometryAt(rowPlan, mMax);
      DynamicGridRule rule = getDynamicGridRule(kernel, rowPlan, atMax);
      for (int64_t m : ms) {
        if (m > mMax)
          break;
        EXPECT_EQ(
            evaluateDynamicGridRule(rowPlan, atMax, rule, m),
            Grid(geometryAt(getElementwisePlan(&context, m * inner, vector), m)
                     .grid))
            << shape << " at M = " << m << " (row to " << mMax << ")";
      }
    }
  }
}

/// The plan table's promises (docs/dynamic-shapes.md, section 3) on random
/// ranges: rows disjoint, increasing and covering the range; at each sample
/// point the row holding it has the plan the static planner chooses there;
/// each row's plan is its plan family built at its m_max, whose grid the
/// rule reproduces there; each boundary is where the next row's plan wins
/// the choice between the two.
TEST_F(TilePlanTest, PlanTableCoversTheRangeWithTheBestPlanAtEachSample) {
  std::mt19937_64 random(2026);
  SmallVector<OwningOpRef<ModuleOp>> modules;
  modules.push_back(matmulKernel("", 2560, 2560));
  modules.push_back(matmulKernel("", 2560, 10240));
  modules.push_back(matmulKernel("3x", 1024, 1000));
  modules.push_back(parse(R"(
      func.func @f(%x: A, %y: A) -> A {
        %0 = sol.kernel @k ins(%x, %y : A, A) -> A {
        ^bb0(%a: A, %b: A):
          %s = sol.add %a, %b : A, A -> A
          sol.yield %s : A
        }
        return %0 : A
      })",
                          "tensor<?x4096xf16>", "", ""));
  TargetAttr h200 = getTargetPreset(&context, "h200");
  for (OwningOpRef<ModuleOp> &module : modules) {
    ASSERT_TRUE(module);
    (*module)->setAttr(SolDialect::kTargetAttrName, h200);
    KernelOp kernel = getKernel(*module);
    auto func = kernel->getParentOfType<func::FuncOp>();
    for (int trial = 0; trial < 8; ++trial) {
      int64_t min = trial % 3 == 0 ? 0 : 1 + random() % 300;
      int64_t max = min + random() % (trial % 2 ? 70000 : 600);
      SmallVector<int64_t> hints;
      if (max > min)
        hints.push_back(min + 1 + random() % (max - min));
      auto range = DimRangeAttr::get(&context, min, max, hints);
      func->setAttr(SolDialect::kDimRangeAttrName, range);
      std::string reason;
      FailureOr<SmallVector<PlanTableRow>> rows =
          choosePlanTable(kernel, h200, reason);
      ASSERT_TRUE(succeeded(rows)) << reason;
      std::string where =
          "range " + std::to_string(min) + ".." + std::to_string(max);
      ASSERT_FALSE(rows->empty()) << where;
      EXPECT_EQ(rows->front().mMin, min) << where;
      EXPECT_EQ(rows->back().mMax, max) << where;
      for (size_t i = 0; i < rows->size(); ++i) {
        const PlanTableRow &row = (*rows)[i];
        EXPECT_LE(row.mMin, row.mMax) << where;
        PlanAttr plan = row.choice.plan;
        // Built at m_max: the family's plan there, grid and rows included.
        int64_t at = std::max<int64_t>(row.mMax, 1);
        PlanConstraints pinned;
        pinned.families = {plan};
        FailureOr<PlanChoice> built =
            chooseKernelPlanAtDim(kernel, at, h200, reason, pinned);
        ASSERT_TRUE(succeeded(built)) << where << ": " << reason;
        EXPECT_EQ(built->plan, plan) << where << ", row " << i;
        FailureOr<LaunchGeometry> atMax =
            getPlanLaunchGeometry(plan, kernel, h200, reason, at);
        ASSERT_TRUE(succeeded(atMax)) << where << ": " << reason;
        EXPECT_EQ(
            evaluateDynamicGridRule(
                plan, *atMax, getDynamicGridRule(kernel, plan, *atMax), at),
            Grid(atMax->grid))
            << where << ", row " << i;
        if (i + 1 == rows->size())
          continue;
        const PlanTableRow &next = (*rows)[i + 1];
        EXPECT_EQ(next.mMin, row.mMax + 1) << where;
        // Neighbours differ in plan, but for a path built for its exact rows,
        // whose table has a row per M.
        if (!lookupKernelPath(plan.getPath()).buildsForExactRows())
          EXPECT_FALSE(isSamePlanFamily(plan, next.choice.plan)) << where;
        // The boundary: the pair's choice flips between m_max and m_max + 1.
        PlanConstraints pair;
        pair.families = {plan, next.choice.plan};
        FailureOr<PlanChoice> before =
            chooseKernelPlanAtDim(kernel, at, h200, reason, pair);
        FailureOr<PlanChoice> after =
            chooseKernelPlanAtDim(kernel, next.mMin, h200, reason, pair);
        ASSERT_TRUE(succeeded(before) && succeeded(after)) << where;
        EXPECT_TRUE(isSamePlanFamily(before->plan, plan)) << where;
        EXPECT_TRUE(isSamePlanFamily(after->plan, next.choice.plan)) << where;
      }
      for (int64_t m : getDimSamplePoints(range)) {
        if (m < 1)
          continue;
        const PlanTableRow *row =
            llvm::find_if(*rows, [&](const PlanTableRow &r) {
              return r.mMin <= m && m <= r.mMax;
            });
        ASSERT_NE(row, rows->end()) << where << ", M = " << m;
        FailureOr<PlanChoice> best =
            chooseKernelPlanAtDim(kernel, m, h200, reason, {});
        ASSERT_TRUE(succeeded(best)) << reason;
        EXPECT_TRUE(isSamePlanFamily(best->plan, row->choice.plan))
            << where << ": at sample M = " << m << " the row from " << row->mMin
            << " has another plan than the planner's";
      }
    }
  }
}

} // namespace
