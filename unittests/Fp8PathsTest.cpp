//===- Fp8PathsTest.cpp - which kernel paths take fp8 ---------------------===//
//
// The wgmma_tma path generates fp8 matmuls (docs/fp8.md, section 5); every
// other path's whyNot must refuse an fp8 kernel with MatmulOp::kNoFp8PathYet,
// at every shape the path would otherwise take (gemv's decode rows, the
// cp.async wgmma path's prefill, the SIMT fallback's K that 16-byte loads
// cannot reach), instead of reading fp8 as another float. The same shapes in
// f16 are taken, so a refusal that is not fp8's would show. wgmma_tma takes
// every shape whose K is a multiple of 16 and refuses the others with that
// reason. sol-tile's messages are in tile-fp8.mlir.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/KernelPath.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sol;

namespace {

class Fp8PathsTest : public ::testing::Test {
protected:
  Fp8PathsTest() {
    context.loadDialect<SolDialect, func::FuncDialect>();
    h200 = getTargetPreset(&context, "h200");
  }

  MatmulShape shape(int64_t rows, int64_t n, int64_t k, Type elementType) {
    MatmulShape s;
    s.rows = rows;
    s.n = n;
    s.k = k;
    s.transposeB = true;
    s.elementType = elementType;
    s.operandsAreKernelArgs = true;
    return s;
  }

  /// The one sol.kernel of `source`.
  KernelOp parseKernel(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    KernelOp kernel;
    module->walk([&](KernelOp k) { kernel = k; });
    EXPECT_TRUE(kernel);
    return kernel;
  }

  MLIRContext context;
  TargetAttr h200;
  OwningOpRef<ModuleOp> module;
};

TEST_F(Fp8PathsTest, WgmmaTmaGemvAndMmaSyncTakeFp8AtShapesEveryPathTakesInF16) {
  KernelOp kernel = parseKernel(R"mlir(
    func.func @f(%x: tensor<1x64xf8E4M3FN>, %w: tensor<64x64xf8E4M3FN>) -> tensor<1x64xf16> {
      %0 = sol.kernel @k ins(%x, %w : tensor<1x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>) -> tensor<1x64xf16> {
      ^bb0(%a: tensor<1x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>):
        %m = sol.matmul %a, %b transpose_b : tensor<1x64xf8E4M3FN>, tensor<64x64xf8E4M3FN> -> tensor<1x64xf16>
        sol.yield %m : tensor<1x64xf16>
      }
      return %0 : tensor<1x64xf16>
    })mlir");
  ASSERT_TRUE(kernel);
  Type f16 = Float16Type::get(&context);
  Type fp8Types[] = {Float8E4M3FNType::get(&context),
                     Float8E5M2Type::get(&context)};
  // Decode (gemv's), prefill (the tensor-core paths'), and K = 40, which
  // the 16-byte loads of fp8 rows cannot reach.
  struct Shape {
    int64_t rows, n, k;
  } shapes[] = {{1, 2560, 2560}, {512, 2560, 2560}, {7, 24, 40}};
  for (const Shape &s : shapes) {
    MatmulShape f16Shape = shape(s.rows, s.n, s.k, f16);
    PlanRequest f16Request{kernel, h200, &f16Shape};
    int64_t takenInF16 = 0;
    for (const KernelPathInfo *path : getKernelPaths())
      if (path->isMatmulPath() && path->whyNot(f16Request).empty())
        ++takenInF16;
    EXPECT_GT(takenInF16, 0) << s.rows << "x" << s.n << "x" << s.k;

    for (Type type : fp8Types) {
      MatmulShape fp8Shape = shape(s.rows, s.n, s.k, type);
      PlanRequest request{kernel, h200, &fp8Shape};
      for (const KernelPathInfo *path : getKernelPaths()) {
        if (!path->isMatmulPath())
          continue;
        std::string why = path->whyNot(request);
        // wgmma_tma, and mma.sync's m16n8k32 (sm_89+; on sm_90 sol-tile
        // holds it back unless hopper-mma-sync-fp8, a constraint, not the
        // path's rule), take both operands in fp8 where their 16-byte rows
        // reach.
        if (path->getPath() == KernelPath::wgmma_tma ||
            path->getPath() == KernelPath::mma_sync) {
          if (s.k % 16 == 0)
            EXPECT_EQ(why, "") << s.rows << "x" << s.n << "x" << s.k;
          else
            EXPECT_NE(why.find("K = 40 is not a multiple of 16"),
                      std::string::npos)
                << why;
          continue;
        }
        if (path->getPath() == KernelPath::gemv) {
          // gemv converts fp8 codes (sm_89+): it takes them where it takes
          // f16, and refuses for the same shape reasons elsewhere, but for
          // K: its 128-bit loads hold 16 codes where they hold 8 halves.
          if (s.k % 16 == 0)
            EXPECT_EQ(why, path->whyNot(f16Request))
                << s.rows << "x" << s.n << "x" << s.k;
          else
            EXPECT_NE(why.find("K = 40 is not a multiple of 16"),
                      std::string::npos)
                << why;
          continue;
        }
        EXPECT_TRUE(StringRef(why).starts_with(MatmulOp::kNoFp8PathYet))
            << path->getName().str() << " at " << s.rows << "x" << s.n << "x"
            << s.k << ": \"" << why << "\"";
      }
    }
  }
}

TEST_F(Fp8PathsTest, TheTensorCorePathsSayWhatKTheyWillNeed) {
  MatmulShape odd = shape(512, 2560, 40, Float8E4M3FNType::get(&context));
  std::string why = whyNotWgmmaTensorCores(odd, h200);
  EXPECT_NE(why.find("K = 40 is not a multiple of 16"), std::string::npos)
      << why;
  MatmulShape even = shape(512, 2560, 2560, Float8E4M3FNType::get(&context));
  EXPECT_EQ(whyNotWgmmaTensorCores(even, h200).find("multiple of 16"),
            std::string::npos);
}

/// A cast to fp8 converts in registers (convertsFp8), which every path
/// does from sm_89: the elementwise path takes it on the H200, and the
/// planner refuses it on the A100 for the kernel, not for a path. A cast
/// between 16- and 32-bit floats converts nothing of fp8's.
TEST_F(Fp8PathsTest, ACastToFp8IsElementwiseFromSm89) {
  KernelOp quantise = parseKernel(R"mlir(
    func.func @f(%h: tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
      %0 = sol.kernel @quantise ins(%h : tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
      ^bb0(%a: tensor<9x16xf16>):
        %q = sol.cast %a : tensor<9x16xf16> to tensor<9x16xf8E4M3FN>
        sol.yield %q : tensor<9x16xf8E4M3FN>
      }
      return %0 : tensor<9x16xf8E4M3FN>
    })mlir");
  ASSERT_TRUE(quantise);
  EXPECT_TRUE(convertsFp8(quantise.getBodyBlock()));
  const KernelPathInfo &elementwise = lookupKernelPath(KernelPath::elementwise);
  EXPECT_EQ(elementwise.whyNot(PlanRequest{quantise, h200, nullptr}), "");
  std::string why;
  FailureOr<PlanChoice> onH200 = chooseKernelPlan(quantise, h200, why);
  ASSERT_TRUE(succeeded(onH200)) << why;
  EXPECT_EQ(onH200->plan.getPath(), KernelPath::elementwise);
  FailureOr<PlanChoice> onA100 = chooseKernelPlan(
      quantise, getTargetPreset(&context, "a100-80gb"), why);
  EXPECT_TRUE(failed(onA100));
  EXPECT_EQ(why, "the kernel's epilogue converts fp8 in registers (cvt's "
                 "e4m3x2 and e5m2x2 forms), which needs sm_89 or newer; the "
                 "target is sm_80");

  KernelOp f16Cast = parseKernel(R"mlir(
    func.func @f(%h: tensor<9x16xf16>) -> tensor<9x16xf32> {
      %0 = sol.kernel @widen ins(%h : tensor<9x16xf16>) -> tensor<9x16xf32> {
      ^bb0(%a: tensor<9x16xf16>):
        %q = sol.cast %a : tensor<9x16xf16> to tensor<9x16xf32>
        sol.yield %q : tensor<9x16xf32>
      }
      return %0 : tensor<9x16xf32>
    })mlir");
  ASSERT_TRUE(f16Cast);
  EXPECT_FALSE(convertsFp8(f16Cast.getBodyBlock()));
}

} // namespace
