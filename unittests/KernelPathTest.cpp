//===- KernelPathTest.cpp - the kernel path registry ----------------------===//
//
// Every path of #sol.plan has one registry entry, the registry's order is
// the planner's tie order, and each entry's facts are the ones the cost
// model, the planner and the GPU conversion rely on: a new path's entry
// gets its rows here (KernelPath.h's checklist).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/KernelPath.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

#include "SolDialect/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <functional>

#include "gtest/gtest.h"

#include <limits>

using namespace mlir;
using namespace mlir::sol;

namespace {

class KernelPathTest : public ::testing::Test {
protected:
  KernelPathTest() {
    context.loadDialect<SolDialect, func::FuncDialect>();
    h200 = getTargetPreset(&context, "h200");
    a100 = getTargetPreset(&context, "a100-80gb");
  }

  /// An fp16 [rows, K] x [N, K]^T matmul of kernel arguments.
  MatmulShape shape(int64_t rows, int64_t n, int64_t k) {
    MatmulShape s;
    s.rows = rows;
    s.n = n;
    s.k = k;
    s.transposeB = true;
    s.elementType = Float16Type::get(&context);
    s.operandsAreKernelArgs = true;
    return s;
  }

  /// The sizes of a matmul of `s` on the H200 (132 SMs).
  static LaunchSizes sizes(const MatmulShape &s) {
    LaunchSizes out;
    out.matmul = s;
    out.smCount = 132;
    return out;
  }

  MLIRContext context;
  TargetAttr h200, a100;
};

TEST_F(KernelPathTest, EveryPathHasOneEntry) {
  for (unsigned i = 0; i <= getMaxEnumValForKernelPath(); ++i) {
    std::optional<KernelPath> path = symbolizeKernelPath(i);
    ASSERT_TRUE(path);
    EXPECT_EQ(llvm::count_if(getKernelPaths(),
                             [&](const KernelPathInfo *info) {
                               return info->getPath() == *path;
                             }),
              1)
        << stringifyKernelPath(*path).str();
    EXPECT_EQ(lookupKernelPath(*path).getPath(), *path);
    EXPECT_EQ(lookupKernelPath(*path).getName(), stringifyKernelPath(*path));
  }
  EXPECT_EQ(getKernelPaths().size(), getMaxEnumValForKernelPath() + 1);
}

TEST_F(KernelPathTest, RegistryOrderIsThePlannersTieOrder) {
  // gemv before the tiles (in a tie it computes no padding), swap_ab (8
  // padded rows at most), then the tiled tensor-core paths from the
  // oldest; the fallback and the one path
  // without a matmul are asked apart.
  SmallVector<KernelPath> order;
  for (const KernelPathInfo *info : getKernelPaths())
    order.push_back(info->getPath());
  EXPECT_EQ(order,
            (SmallVector<KernelPath>{KernelPath::gemv, KernelPath::swap_ab,
                                     KernelPath::mma_sync, KernelPath::wgmma,
                                     KernelPath::wgmma_tma, KernelPath::simt,
                                     KernelPath::elementwise}));
  for (const KernelPathInfo *info : getKernelPaths()) {
    EXPECT_EQ(info->isFallback(), info->getPath() == KernelPath::simt);
    EXPECT_EQ(info->isMatmulPath(), info->getPath() != KernelPath::elementwise);
    // The sibling pair and the TMA maps are wgmma_tma's alone.
    bool tma = info->getPath() == KernelPath::wgmma_tma;
    EXPECT_EQ(info->takesSiblings(), tma);
    EXPECT_EQ(info->getNumTensorMaps(2), tma ? 3u : 0u);
  }
}

TEST_F(KernelPathTest, OnlyConvertingPathsReadWeightOnlyFp8) {
  // A bf16 A against e4m3 codes: a path whose loads read both operands as
  // one type would read the codes as bf16 values, so every matmul path but
  // gemv and swap_ab (which convert the weight alone) refuses it by name (a
  // new path refuses it unless it converts the weight), at decode's rows
  // and past them; gemv up to its 16 rows, swap_ab at every M (past 32 it
  // stacks 32-row blocks: no other path converts the codes).
  for (int64_t rows : {1, 16, 32, 64, 1000}) {
    MatmulShape s = shape(rows, 2560, 2560);
    s.elementType = BFloat16Type::get(&context);
    s.weightType = Float8E4M3FNType::get(&context);
    ASSERT_TRUE(s.isWeightOnlyFp8());
    PlanRequest request{nullptr, h200, &s};
    for (const KernelPathInfo *info : getKernelPaths()) {
      if (!info->isMatmulPath())
        continue;
      std::string why = info->whyNot(request);
      bool converts = info->getPath() == KernelPath::gemv ||
                      info->getPath() == KernelPath::swap_ab;
      int64_t maxRows = info->getPath() == KernelPath::gemv
                            ? kGemvMaxRows
                            : std::numeric_limits<int64_t>::max();
      if (converts && rows <= maxRows) {
        EXPECT_EQ(why, "") << info->getName().str() << " at " << rows;
        continue;
      }
      EXPECT_NE(why, "") << info->getName().str() << " at " << rows;
      if (!converts)
        EXPECT_NE(why.find("weight-only fp8"), std::string::npos)
            << info->getName().str() << ": " << why;
    }
    // Before sm_89 there is no instruction to convert the codes with.
    PlanRequest onA100{nullptr, a100, &s};
    for (KernelPath path : {KernelPath::gemv, KernelPath::swap_ab})
      if (rows <= kGemvMaxRows)
        EXPECT_NE(lookupKernelPath(path).whyNot(onA100).find("sm_89"),
                  std::string::npos)
            << rows;
  }
  // The same shape with a bf16 weight is no weight-only matmul.
  MatmulShape plain = shape(1, 2560, 2560);
  plain.weightType = plain.elementType;
  EXPECT_FALSE(plain.isWeightOnlyFp8());
  EXPECT_FALSE(plain.hasFp8Operand());
}

TEST_F(KernelPathTest, ChipRulesAreThePaths) {
  // The A100 runs mma.sync, swap_ab (mma.sync's MMA, so its chip rule)
  // and gemv but not wgmma; the H200 all of them.
  EXPECT_TRUE(
      lookupKernelPath(KernelPath::mma_sync).whyNotOnChip(a100).empty());
  EXPECT_TRUE(lookupKernelPath(KernelPath::swap_ab).whyNotOnChip(a100).empty());
  EXPECT_TRUE(lookupKernelPath(KernelPath::gemv).whyNotOnChip(a100).empty());
  EXPECT_FALSE(lookupKernelPath(KernelPath::wgmma).whyNotOnChip(a100).empty());
  EXPECT_FALSE(
      lookupKernelPath(KernelPath::wgmma_tma).whyNotOnChip(a100).empty());
  for (const KernelPathInfo *info : getKernelPaths())
    EXPECT_TRUE(info->whyNotOnChip(h200).empty()) << info->getName().str();
}

TEST_F(KernelPathTest, CostFactsOfEachPath) {
  // The measured shares of the wgmma-calibrated MMA efficiency.
  Type f16 = Float16Type::get(&context);
  Type e4m3 = Float8E4M3FNType::get(&context);
  EXPECT_EQ(
      lookupKernelPath(KernelPath::mma_sync).getMmaEfficiencyShare(h200, f16),
      0.37);
  EXPECT_EQ(
      lookupKernelPath(KernelPath::mma_sync).getMmaEfficiencyShare(a100, f16),
      1.0);
  EXPECT_EQ(
      lookupKernelPath(KernelPath::wgmma).getMmaEfficiencyShare(h200, f16),
      0.96);
  EXPECT_EQ(lookupKernelPath(KernelPath::gemv).getMmaEfficiencyShare(h200, f16),
            0.18);
  EXPECT_EQ(
      lookupKernelPath(KernelPath::wgmma_tma).getMmaEfficiencyShare(h200, f16),
      1.0);
  // gemv's fp8 codes take more SIMT instructions than f16 ones; the tensor
  // core paths read fp8 as it is.
  EXPECT_LT(
      lookupKernelPath(KernelPath::gemv).getMmaEfficiencyShare(h200, e4m3),
      0.18);
  EXPECT_EQ(
      lookupKernelPath(KernelPath::wgmma_tma).getMmaEfficiencyShare(h200, e4m3),
      1.0);

  // wgmma_tma: 12 warps, 4 of them the producer; 8 consumers share each
  // cooperative tile, 4 own each ping-pong tile.
  MatmulShape prefill = shape(8192, 2560, 2560);
  MatmulTiling cooperative = getMatmulTiling(
      getWgmmaTmaPlan(&context, prefill, 128, 6, 1, 132), sizes(prefill));
  EXPECT_EQ(cooperative.consumerWarps, 8);
  EXPECT_FALSE(cooperative.pingpong);
  EXPECT_FALSE(cooperative.copiedByConsumers);
  MatmulTiling pingpong =
      getMatmulTiling(getWgmmaTmaPlan(&context, prefill, 128, 6, 1, 132,
                                      ConsumerSchedule::pingpong),
                      sizes(prefill));
  EXPECT_EQ(pingpong.consumerWarps, 4);
  EXPECT_TRUE(pingpong.pingpong);
  EXPECT_EQ(pingpong.threads, kWgmmaTmaThreads);
  EXPECT_EQ(pingpong.path, KernelPath::wgmma_tma);
  // The cp.async paths copy with the consumer warps. mma.sync's step costs
  // 0.1 us at least, each SM with work copies 42 bytes a ns of 64-deep
  // tiles and 24 of 32-deep ones, a split's round trip is 1 us, and its
  // 16-row tiles reach part of the HBM rate (0.72 with 64 columns and more,
  // 0.54 with 16). gemv is no tensor-core
  // path; its warps walk K 32 x 8 halves a step, its 4 steps in flight at
  // once (0.07 us a step, 0.01 more for each row past the first), with the
  // registers for them: K = 64 is one step, so 1 x (1 + 4 rows) vectors and
  // 4 sums, 40 registers a thread, 12 blocks of 128 threads an SM.
  MatmulTiling mma = getMatmulTiling(
      getMmaSyncPlan(&context, prefill, getMmaSyncTiles()[0]), sizes(prefill));
  EXPECT_TRUE(mma.copiedByConsumers);
  EXPECT_TRUE(mma.tensorCores);
  EXPECT_EQ(mma.consumerWarps, 0);
  EXPECT_EQ(mma.kStepUs, 0.1);
  EXPECT_EQ(mma.tileK, 32);
  EXPECT_EQ(mma.smCopyBytesPerUs, 24000);
  EXPECT_EQ(mma.hbmEfficiencyShare, 0.72);
  EXPECT_EQ(mma.registerBoundBlocksPerSm, 0);
  MatmulShape wide = shape(8, 14336, 4096);
  EXPECT_EQ(
      getMatmulTiling(getMmaSyncPlan(&context, wide, {16, 16, 64, 1, 1, 6}),
                      sizes(wide))
          .hbmEfficiencyShare,
      0.54);
  EXPECT_EQ(
      getMatmulTiling(getMmaSyncPlan(&context, wide, {16, 16, 64, 1, 1, 6}),
                      sizes(wide))
          .smCopyBytesPerUs,
      42000);
  MatmulTiling gemv = getMatmulTiling(getGemvPlan(&context, shape(4, 64, 64)),
                                      sizes(shape(4, 64, 64)));
  EXPECT_FALSE(gemv.tensorCores);
  EXPECT_EQ(gemv.tileK, 256);
  EXPECT_DOUBLE_EQ(gemv.kStepUs, 0.07 + 3 * 0.01);
  EXPECT_EQ(gemv.threads, 128);
  EXPECT_EQ(gemv.registerBoundBlocksPerSm, 12);
  EXPECT_EQ(gemv.weightBytesInFlightPerWarp, 0);
  // swap_ab: each trip waits on its own loads (a loaded round trip a step
  // of tile[2]), 4 loads of two weight rows per lane in flight (4 KB a
  // warp), at 0.84 of the HBM rate. Registers for a trip: 4 x (2 + 1)
  // vectors, 4 accumulators and 16 more, 68 a thread: one 512-thread block
  // an SM.
  MatmulShape decode = shape(8, 2048, 2048);
  MatmulTiling swapAb =
      getMatmulTiling(getSwapAbPlan(&context, decode, 16, 1), sizes(decode));
  EXPECT_TRUE(swapAb.tensorCores);
  EXPECT_EQ(swapAb.tileK, 16 * 128);
  EXPECT_EQ(swapAb.kStepUs, kLoadedHbmRoundTripUs);
  EXPECT_EQ(swapAb.hbmEfficiencyShare, 0.84);
  EXPECT_EQ(swapAb.threads, 512);
  EXPECT_EQ(swapAb.registerBoundBlocksPerSm, 1);
  EXPECT_EQ(swapAb.weightBytesInFlightPerWarp, 4 * 2 * 32 * 16);
  // wgmma_tma: the whole stage ring in flight (8 stages of a 64-row A box
  // and a 128-row B box, 128 bytes a row), a 0.1 us K step, a 1 us split
  // round trip and the partials through HBM.
  MatmulShape mid = shape(64, 4096, 4096);
  MatmulTiling tma =
      getMatmulTiling(getWgmmaTmaPlan(&context, mid, 128, 8, 1, 132,
                                      ConsumerSchedule::pingpong, 64, 4),
                      sizes(mid));
  EXPECT_EQ(tma.bytesInFlightPerBlock, 8 * (64 + 128) * 128);
  EXPECT_EQ(tma.kStepUs, 0.1);
  EXPECT_EQ(tma.tileK, 64);
  EXPECT_EQ(tma.splitKRoundTripUs, 1.0);
  EXPECT_TRUE(tma.partialsThroughHbm);
  EXPECT_EQ(tma.smCopyBytesPerUs, 0);
  EXPECT_EQ(mma.bytesInFlightPerBlock, 0);
  EXPECT_EQ(mma.splitKRoundTripUs, 1.0);
  EXPECT_FALSE(mma.partialsThroughHbm);
  // 32 rows on 8 warps: 2 x (2 + 4) vectors, 16 accumulators and 16 more,
  // 80 registers: three 256-thread blocks an SM.
  MatmulShape tokens32 = shape(32, 2048, 2048);
  EXPECT_EQ(
      getMatmulTiling(getSwapAbPlan(&context, tokens32, 8, 1), sizes(tokens32))
          .registerBoundBlocksPerSm,
      3);
}

TEST_F(KernelPathTest, WeightOnlyFullRowTilesPayTheirConversionAndEachRound) {
  // bench/NOTES.md section 45: on a 32-row tile of fp8 codes each K step
  // converts the codes and feeds four n8 tiles (1.22 us a step) and each
  // round of resident blocks pays its start, the cross-warp reduction and
  // the stores once (2.66 us); 16-bit weights at 32 rows and codes on 8-row
  // tiles keep the plain loaded round trip, with no cost per round.
  auto weightOnly = [&](int64_t rows) {
    MatmulShape s = shape(rows, 2560, 2560);
    s.elementType = BFloat16Type::get(&context);
    s.weightType = Float8E4M3FNType::get(&context);
    return s;
  };
  MatmulShape codes40 = weightOnly(40);
  MatmulTiling full =
      getMatmulTiling(getSwapAbPlan(&context, codes40, 4, 1), sizes(codes40));
  EXPECT_EQ(full.kStepUs, 1.22);
  EXPECT_EQ(full.kRoundUs, 2.66);
  MatmulShape codes8 = weightOnly(8);
  MatmulTiling oneTile =
      getMatmulTiling(getSwapAbPlan(&context, codes8, 4, 1), sizes(codes8));
  EXPECT_EQ(oneTile.kStepUs, kLoadedHbmRoundTripUs);
  EXPECT_EQ(oneTile.kRoundUs, 0);
  MatmulShape halves32 = shape(32, 2560, 2560);
  MatmulTiling halves =
      getMatmulTiling(getSwapAbPlan(&context, halves32, 4, 1), sizes(halves32));
  EXPECT_EQ(halves.kStepUs, kLoadedHbmRoundTripUs);
  EXPECT_EQ(halves.kRoundUs, 0);
  // The converted vectors count against the register budget: 2 x (2 + 2 +
  // 4 x 2) vectors, 16 accumulators and 16 more, 128 registers a thread, so
  // eight 64-thread blocks an SM (the loads alone, 112 registers, gave 9).
  EXPECT_EQ(
      getMatmulTiling(getSwapAbPlan(&context, codes40, 2, 1), sizes(codes40))
          .registerBoundBlocksPerSm,
      8);
}

TEST_F(KernelPathTest, TheManifestLaunchesThePathsGeometry) {
  // A plan records its choices alone; sol-write-manifests writes the launch
  // its path derives over the kernel's shapes, which the generator follows
  // too. Each case: a kernel, a plan of one path, and its launch worked out
  // by hand from the path's rules.
  struct Case {
    std::string what, module;
    std::function<PlanAttr(KernelOp)> plan;
    SmallVector<int64_t, 3> grid, block;
    int64_t smem;
  };
  auto matmul = [](StringRef a, StringRef w, StringRef o, bool transposeB) {
    return (R"(module attributes {sol.target = #sol.target<"h200">} {
      func.func @f(%x: )" +
            a + ", %w: " + w + ") -> " + o + R"( {
        %0 = sol.kernel @k ins(%x, %w : )" +
            a + ", " + w + ") -> " + o + R"( {
        ^bb0(%a: )" +
            a + ", %b: " + w + R"():
          %mm = sol.matmul %a, %b)" +
            (transposeB ? " transpose_b" : "") + " : " + a + ", " + w + " -> " +
            o + R"(
          sol.yield %mm : )" +
            o + R"(
        }
        return %0 : )" +
            o + R"(
      }})")
        .str();
  };
  SmallVector<Case> cases = {
      // One warp per column: 2560 / 4 warps per block.
      {"gemv",
       matmul("tensor<4x2560xf16>", "tensor<2560x2560xf16>",
              "tensor<4x2560xf16>", true),
       [&](KernelOp) { return getGemvPlan(&context, shape(4, 2560, 2560)); },
       {640, 1, 1},
       {128, 1, 1},
       0},
      // 29 tokens (four n8 tiles) against 1000 weight rows, two groups of
      // 16 columns per block (32 columns: 32 blocks) and 4 warps splitting
      // K: 8 warps, and their f32 partials, 4 x 32 x 32 floats.
      {"swap_ab",
       matmul("tensor<29x512xf16>", "tensor<1000x512xf16>",
              "tensor<29x1000xf16>", true),
       [&](KernelOp) {
         return getSwapAbPlan(&context, shape(29, 1000, 512), 4, 2);
       },
       {32, 1, 1},
       {256, 1, 1},
       4 * 32 * 32 * 4},
      // 64x128 tiles over 1000 x 300: 3 column and 16 row tiles, 4 stages
      // of A (64 x (64 + 8) halves) and B (64 x (128 + 8) halves).
      {"mma_sync",
       matmul("tensor<1000x64xf16>", "tensor<64x300xf16>",
              "tensor<1000x300xf16>", false),
       [&](KernelOp) {
         MatmulShape s = shape(1000, 300, 64);
         s.transposeB = false;
         return getMmaSyncPlan(&context, s, {64, 128, 64, 2, 2, 4});
       },
       {3, 16, 1},
       {128, 1, 1},
       4 * (64 * 72 + 64 * 136) * 2},
      // 128x128 tiles over 256 x 128: 1 column and 2 row tiles, 4 stages of
      // a 128 x 64 A and a 128 x 64 B tile in halves.
      {"wgmma",
       matmul("tensor<256x64xf16>", "tensor<128x64xf16>", "tensor<256x128xf16>",
              true),
       [&](KernelOp) {
         return getWgmmaPlan(&context, shape(256, 128, 64), 128, 4);
       },
       {1, 2, 1},
       {256, 1, 1},
       4 * (128 + 128) * 64 * 2},
      // Persistent: 64 x 20 tiles in clusters of 2 fill the 132 SMs.
      {"wgmma_tma cluster 2",
       matmul("tensor<8192x2560xf16>", "tensor<2560x2560xf16>",
              "tensor<8192x2560xf16>", true),
       [&](KernelOp) {
         return getWgmmaTmaPlan(&context, shape(8192, 2560, 2560), 128, 6, 2,
                                132);
       },
       {132, 1, 1},
       {384, 1, 1},
       6 * (128 + 128) * 128 + 6 * 16 + 1024},
      // Fewer tiles than SMs: one cluster of 2 per column tile.
      {"wgmma_tma few tiles",
       matmul("tensor<128x64xf16>", "tensor<256x64xf16>", "tensor<128x256xf16>",
              true),
       [&](KernelOp) {
         return getWgmmaTmaPlan(&context, shape(128, 256, 64), 128, 6, 2, 132);
       },
       {4, 1, 1},
       {384, 1, 1},
       6 * (128 + 128) * 128 + 6 * 16 + 1024},
      // One thread per output of 16x16 blocks: 70 columns, 100 rows.
      {"simt",
       matmul("tensor<100x50xf32>", "tensor<50x70xf32>", "tensor<100x70xf32>",
              false),
       [&](KernelOp) {
         MatmulShape s = shape(100, 70, 50);
         s.transposeB = false;
         s.elementType = Float32Type::get(&context);
         return getSimtMatmulPlan(&context, s);
       },
       {5, 7, 1},
       {16, 16, 1},
       0},
      // 600 f16 elements, 8 per thread: one block of 2048.
      {"elementwise",
       R"(module attributes {sol.target = #sol.target<"h200">} {
         func.func @f(%x: tensor<600xf16>) -> tensor<600xf16> {
           %0 = sol.kernel @k ins(%x : tensor<600xf16>) -> tensor<600xf16> {
           ^bb0(%a: tensor<600xf16>):
             %y = sol.add %a, %a : tensor<600xf16>, tensor<600xf16> -> tensor<600xf16>
             sol.yield %y : tensor<600xf16>
           }
           return %0 : tensor<600xf16>
         }})",
       [&](KernelOp kernel) {
         return getElementwisePlan(&context, 600, getElementwiseVector(kernel));
       },
       {1, 1, 1},
       {256, 1, 1},
       0},
  };
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kernel-path-test", dir));
  for (const Case &c : cases) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(c.module, &context);
    ASSERT_TRUE(module) << c.what;
    KernelOp kernel;
    module->walk([&](KernelOp op) { kernel = op; });
    PlanAttr plan = c.plan(kernel);
    ASSERT_TRUE(plan) << c.what;
    kernel.setPlanAttr(plan);
    std::string reason;
    FailureOr<LaunchGeometry> derived =
        getPlanLaunchGeometry(plan, kernel, h200, reason);
    ASSERT_TRUE(succeeded(derived)) << c.what << ": " << reason;
    EXPECT_EQ(ArrayRef<int64_t>(derived->grid), ArrayRef<int64_t>(c.grid))
        << c.what;
    EXPECT_EQ(ArrayRef<int64_t>(derived->block), ArrayRef<int64_t>(c.block))
        << c.what;
    EXPECT_EQ(derived->smem, c.smem) << c.what;

    PassManager pm(&context);
    SolWriteManifestsPassOptions options;
    options.dir = dir.str().str();
    pm.addPass(createSolWriteManifestsPass(options));
    ASSERT_TRUE(succeeded(pm.run(*module))) << c.what;
    llvm::SmallString<128> file(dir);
    llvm::sys::path::append(file, "k.json");
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(buffer) << c.what;
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    ASSERT_TRUE(bool(json)) << c.what;
    const llvm::json::Object *launch = json->getAsObject()->getObject("launch");
    ASSERT_TRUE(launch) << c.what;
    auto dims = [](const llvm::json::Array *array) {
      SmallVector<int64_t, 3> out;
      for (const llvm::json::Value &v : *array)
        out.push_back(*v.getAsInteger());
      return out;
    };
    EXPECT_EQ(dims(launch->getArray("grid")), c.grid) << c.what;
    EXPECT_EQ(dims(launch->getArray("block")), c.block) << c.what;
    EXPECT_EQ(launch->getInteger("smem"), c.smem) << c.what;
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST_F(KernelPathTest, AHandWrittenPlanIsCheckedWhereItsGeometryIsDerived) {
  // The plan cannot carry an unlaunchable geometry any more; what its path
  // derives over the shapes is checked against CUDA's and the target's
  // limits instead.
  LaunchGeometry tooTall{{1, 70000, 1}, {128, 1, 1}, 0};
  EXPECT_EQ(whyNotLaunchableOn(tooTall, h200),
            "grid y = 70000, z = 1 exceed CUDA's limit of 65535");
  LaunchGeometry tooMuchSmem{{1, 1, 1}, {128, 1, 1}, 1 << 20};
  EXPECT_NE(whyNotLaunchableOn(tooMuchSmem, h200).find("shared memory"),
            std::string::npos);
  LaunchGeometry fits{{132, 1, 1}, {384, 1, 1}, 197728};
  EXPECT_EQ(whyNotLaunchableOn(fits, h200), "");
  // The path reads the extents of its plan: a matmul tile of two extents is
  // refused before any geometry is derived.
  PlanAttr flat = PlanAttr::get(&context, KernelPath::mma_sync, {64, 64},
                                {2, 2}, 3, 1, 1, ConsumerSchedule::cooperative);
  EXPECT_FALSE(
      lookupKernelPath(KernelPath::mma_sync).whyNotWellFormed(flat).empty());
}

TEST_F(KernelPathTest, OneCountOfTilesAlongN) {
  // A sibling pair's tiles hold half their columns from each weight.
  MatmulShape pair = shape(2048, 6912, 2560);
  pair.siblings = 2;
  EXPECT_EQ(pair.getTotalN(), 2 * 6912);
  EXPECT_EQ(pair.tilesAlongN(144), 96);
  EXPECT_EQ(pair.tilesAlongN(192), 72);
  MatmulShape one = shape(2048, 6912, 2560);
  EXPECT_EQ(one.tilesAlongN(256), 27);
  EXPECT_EQ(one.tilesAlongM(128), 16);
}

} // namespace
