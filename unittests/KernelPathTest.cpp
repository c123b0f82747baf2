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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

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

  static std::string print(Attribute attr) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << attr;
    return s;
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
  // gemv before the tiles (in a tie it computes no padding), then the
  // tensor-core paths from the oldest; the fallback and the one path
  // without a matmul are asked apart.
  SmallVector<KernelPath> order;
  for (const KernelPathInfo *info : getKernelPaths())
    order.push_back(info->getPath());
  EXPECT_EQ(order, (SmallVector<KernelPath>{
                       KernelPath::gemv, KernelPath::mma_sync,
                       KernelPath::wgmma, KernelPath::wgmma_tma,
                       KernelPath::simt, KernelPath::elementwise}));
  for (const KernelPathInfo *info : getKernelPaths()) {
    EXPECT_EQ(info->isFallback(), info->getPath() == KernelPath::simt);
    EXPECT_EQ(info->isMatmulPath(), info->getPath() != KernelPath::elementwise);
    // The sibling pair and the TMA maps are wgmma_tma's alone.
    bool tma = info->getPath() == KernelPath::wgmma_tma;
    EXPECT_EQ(info->takesSiblings(), tma);
    EXPECT_EQ(info->getNumTensorMaps(2), tma ? 3u : 0u);
  }
}

TEST_F(KernelPathTest, ChipRulesAreThePaths) {
  // The A100 runs mma.sync and gemv but not wgmma; the H200 all three.
  EXPECT_TRUE(
      lookupKernelPath(KernelPath::mma_sync).whyNotOnChip(a100).empty());
  EXPECT_TRUE(lookupKernelPath(KernelPath::gemv).whyNotOnChip(a100).empty());
  EXPECT_FALSE(lookupKernelPath(KernelPath::wgmma).whyNotOnChip(a100).empty());
  EXPECT_FALSE(
      lookupKernelPath(KernelPath::wgmma_tma).whyNotOnChip(a100).empty());
  for (const KernelPathInfo *info : getKernelPaths())
    EXPECT_TRUE(info->whyNotOnChip(h200).empty()) << info->getName().str();
}

TEST_F(KernelPathTest, CostFactsOfEachPath) {
  // The measured shares of the wgmma-calibrated MMA efficiency.
  EXPECT_EQ(lookupKernelPath(KernelPath::mma_sync).getMmaEfficiencyShare(h200),
            0.37);
  EXPECT_EQ(lookupKernelPath(KernelPath::mma_sync).getMmaEfficiencyShare(a100),
            1.0);
  EXPECT_EQ(lookupKernelPath(KernelPath::wgmma).getMmaEfficiencyShare(h200),
            0.96);
  EXPECT_EQ(lookupKernelPath(KernelPath::gemv).getMmaEfficiencyShare(h200),
            0.18);
  EXPECT_EQ(lookupKernelPath(KernelPath::wgmma_tma).getMmaEfficiencyShare(h200),
            1.0);

  // wgmma_tma: 12 warps, 4 of them the producer; 8 consumers share each
  // cooperative tile, 4 own each ping-pong tile.
  MatmulShape prefill = shape(8192, 2560, 2560);
  MatmulTiling cooperative =
      getMatmulTiling(getWgmmaTmaPlan(&context, prefill, 128, 6, 1, 132));
  EXPECT_EQ(cooperative.consumerWarps, 8);
  EXPECT_FALSE(cooperative.pingpong);
  EXPECT_FALSE(cooperative.copiedByConsumers);
  MatmulTiling pingpong = getMatmulTiling(getWgmmaTmaPlan(
      &context, prefill, 128, 6, 1, 132, ConsumerSchedule::pingpong));
  EXPECT_EQ(pingpong.consumerWarps, 4);
  EXPECT_TRUE(pingpong.pingpong);
  EXPECT_EQ(pingpong.threads, kWgmmaTmaThreads);
  EXPECT_EQ(pingpong.path, KernelPath::wgmma_tma);
  // The cp.async paths copy with the consumer warps; gemv and the SIMT
  // matmul are no tensor-core paths and price no K loop.
  MatmulTiling mma =
      getMatmulTiling(getMmaSyncPlan(&context, prefill, getMmaSyncTiles()[0]));
  EXPECT_TRUE(mma.copiedByConsumers);
  EXPECT_TRUE(mma.tensorCores);
  EXPECT_EQ(mma.consumerWarps, 0);
  MatmulTiling gemv = getMatmulTiling(getGemvPlan(&context, shape(4, 64, 64)));
  EXPECT_FALSE(gemv.tensorCores);
  EXPECT_EQ(gemv.tileK, 0);
}

TEST_F(KernelPathTest, PlansRecordTheirPathsGeometry) {
  // A plan's grid, block and shared memory are its path's geometry of its
  // choices over the shape: what a generator can re-derive from the plan.
  MatmulShape decode = shape(16, 2560, 2560);
  MatmulShape prefill = shape(8192, 2560, 2560);
  LaunchSizes sizes;
  sizes.smCount = 132;
  SmallVector<PlanAttr> plans = {
      getGemvPlan(&context, decode),
      getMmaSyncPlan(&context, decode, getMmaSyncTiles().back()),
      getWgmmaPlan(&context, prefill, 256, 4),
      getWgmmaTmaPlan(&context, prefill, 192, 5, 1, 132,
                      ConsumerSchedule::pingpong),
      getWgmmaTmaPlan(&context, prefill, 128, 6, 2, 132),
      getSimtMatmulPlan(&context, prefill),
  };
  for (PlanAttr plan : plans) {
    ASSERT_TRUE(plan);
    sizes.matmul = plan.getPath() == KernelPath::gemv ||
                           plan.getPath() == KernelPath::mma_sync
                       ? decode
                       : prefill;
    LaunchGeometry geometry =
        lookupKernelPath(plan.getPath())
            .getLaunchGeometry(PlanChoices::of(plan), sizes);
    EXPECT_EQ(ArrayRef<int64_t>(geometry.grid), plan.getGrid()) << print(plan);
    EXPECT_EQ(ArrayRef<int64_t>(geometry.block), plan.getBlock())
        << print(plan);
    EXPECT_EQ(geometry.smem, plan.getSmem()) << print(plan);
  }
  // The persistent grid: min(tiles in cluster groups, SMs) whole clusters.
  EXPECT_EQ(plans[4].getGrid()[0], 132);
  EXPECT_EQ(plans[3].getGrid()[0], 132);
  sizes.matmul = shape(128, 256, 64);
  EXPECT_EQ(lookupKernelPath(KernelPath::wgmma_tma)
                .getLaunchGeometry(PlanChoices::of(plans[4]), sizes)
                .grid[0],
            4); // one cluster of 2 over each of the 2 column tiles
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
