//===- FusionTest.cpp - fusion decisions no .mlir file reaches ------------===//
//
// The cost model never predicts a legal fusion slower (the fused kernel saves
// a launch and moves no more bytes), so no lit case reaches a profitability
// refusal on timing. These tests plug in callbacks to check that the driver
// honours a refusal and that the cost-model callback states its comparison.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Fusion.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sol;

namespace {

constexpr StringLiteral kOprojResidual = R"mlir(
module attributes {sol.target = #sol.target<"h200">} {
  func.func @f(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
               %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %z = sol.add %y, %r : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %z : tensor<16x512x2560xf16>
  }
}
)mlir";

class FusionTest : public ::testing::Test {
protected:
  FusionTest() { context.loadDialect<SolDialect, func::FuncDialect>(); }

  OwningOpRef<ModuleOp> parse() {
    return parseSourceString<ModuleOp>(kOprojResidual, &context);
  }

  static Block &body(ModuleOp module) {
    return (*module.getOps<func::FuncOp>().begin()).getBody().front();
  }

  static unsigned countKernels(ModuleOp module) {
    unsigned n = 0;
    module.walk([&](KernelOp) { ++n; });
    return n;
  }

  MLIRContext context;
};

TEST_F(FusionTest, RefusingProfitabilityKeepsOpsApart) {
  OwningOpRef<ModuleOp> module = parse();
  ASSERT_TRUE(module);
  FusionOptions options;
  options.profitability = [](ArrayRef<Operation *>, ArrayRef<Operation *>) {
    return FusionDecision::forbid("predicted slower");
  };
  unsigned counter = 0;
  fuseBlock(body(*module), "f", options, counter);
  EXPECT_EQ(countKernels(*module), 0u);
  EXPECT_EQ(counter, 0u);
}

TEST_F(FusionTest, CostModelStatesTheComparison) {
  OwningOpRef<ModuleOp> module = parse();
  ASSERT_TRUE(module);
  TargetAttr target = lookupTarget(*module);
  ASSERT_TRUE(target);
  Block &block = body(*module);
  Operation *matmul = &block.front();
  Operation *add = matmul->getNextNode();
  FusionDecision decision = getCostModelProfitability(target)({matmul}, {add});
  ASSERT_TRUE(decision.isAllowed());
  EXPECT_EQ(decision.getExplanation(),
            "predicted 163.1 us <= 195.5 us unfused; saves 83.9 MB");
}

TEST_F(FusionTest, DecisionNotesJoinAndRefusalsKeepTheirReason) {
  FusionDecision allowed = FusionDecision::allow("a");
  allowed.addNote("b").addNote("");
  EXPECT_EQ(allowed.getExplanation(), "a; b");
  FusionDecision refused = FusionDecision::forbid("why");
  refused.addNote("ignored");
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.getExplanation(), "why");
}

} // namespace
