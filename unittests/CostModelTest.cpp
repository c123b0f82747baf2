//===- CostModelTest.cpp - the cost model against the seed's numbers ------===//
//
// The seed documents' worked case (o_proj + residual) on their illustrative
// device and on the H200 preset, plus properties every prediction must keep
// on random shapes: T_pred never beats T_ideal, and wave quantisation shows.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"
#include "SolDialect/TilePlan.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::sol;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    context.loadDialect<SolDialect, func::FuncDialect>();
    auto emit = [&] { return emitError(UnknownLoc::get(&context)); };
    // The seed's illustrative device: 1000 TFLOP/s, 4 TB/s (balance 250),
    // no launch cost.
    seed = *parseTargetJSON(&context,
                            R"({"base": "h200", "name": "seed",
                                "f16_tflops": 1000, "bf16_tflops": 1000,
                                "hbm_gbps": 4000, "launch_us": 0})",
                            emit);
    h200 = getTargetPreset(&context, "h200");
    // The H200 with an L2 too fast to limit anything: the tensor-core
    // term, the one waves quantise, shows alone.
    fastL2 = *parseTargetJSON(
        &context,
        R"({"base": "h200", "name": "h200-fast-l2", "l2_gbps": 100000})", emit);
    prefill = oprojResidual(16, 512, 2560);
  }

  /// o_proj + residual as one kernel: x[B,S,H] @ W[H,H]^T + r, fp16.
  OwningOpRef<ModuleOp> oprojResidual(int64_t b, int64_t s, int64_t h) {
    std::string x = "tensor<" + std::to_string(b) + "x" + std::to_string(s) +
                    "x" + std::to_string(h) + "xf16>";
    std::string w =
        "tensor<" + std::to_string(h) + "x" + std::to_string(h) + "xf16>";
    std::string ir = R"(
      func.func @f(%x: X, %w: W, %r: X) -> X {
        %0 = sol.kernel @oproj ins(%x, %w, %r : X, W, X) -> X {
        ^bb0(%a: X, %b: W, %c: X):
          %mm = sol.matmul %a, %b transpose_b : X, W -> X
          %y = sol.add %mm, %c : X, X -> X
          sol.yield %y : X
        }
        return %0 : X
      })";
    std::string text;
    for (char ch : ir) {
      if (ch == 'X')
        text += x;
      else if (ch == 'W')
        text += w;
      else
        text += ch;
    }
    return parseSourceString<ModuleOp>(text, &context);
  }

  /// A lone matmul a[M,K] @ b[K,N], fp16.
  OwningOpRef<ModuleOp> matmul(int64_t m, int64_t n, int64_t k) {
    auto t = [](int64_t r, int64_t c) {
      return "tensor<" + std::to_string(r) + "x" + std::to_string(c) + "xf16>";
    };
    std::string text =
        "func.func @f(%a: " + t(m, k) + ", %b: " + t(k, n) + ") -> " + t(m, n) +
        " {\n %y = sol.matmul %a, %b : " + t(m, k) + ", " + t(k, n) + " -> " +
        t(m, n) + "\n return %y : " + t(m, n) + "\n}";
    return parseSourceString<ModuleOp>(text, &context);
  }

  static KernelOp firstKernel(ModuleOp module) {
    KernelOp kernel;
    module.walk([&](KernelOp k) { kernel = k; });
    return kernel;
  }

  static MatmulOp firstMatmul(ModuleOp module) {
    MatmulOp op;
    module.walk([&](MatmulOp m) { op = m; });
    return op;
  }

  static SmallVector<Operation *> bodyOps(KernelOp kernel) {
    SmallVector<Operation *> ops;
    for (Operation &op : kernel.getBodyBlock().without_terminator())
      ops.push_back(&op);
    return ops;
  }

  /// The tiling sol-tile's wgmma_tma plan of `module`'s matmul records (no
  /// cluster, the H200's 132 SMs).
  MatmulTiling wgmmaTmaTiling(ModuleOp module, int64_t tileN, int64_t stages,
                              ConsumerSchedule schedule) {
    FailureOr<MatmulShape> shape = getMatmulShape(firstMatmul(module));
    EXPECT_TRUE(succeeded(shape));
    LaunchSizes sizes;
    sizes.matmul = *shape;
    sizes.smCount = 132;
    return getMatmulTiling(getWgmmaTmaPlan(&context, *shape, tileN, stages,
                                           /*cluster=*/1, 132, schedule),
                           sizes);
  }

  /// What `work`'s elementwise FLOPs add to its prediction under `tiling`.
  double epilogueShownUs(const KernelWork &work, const MatmulTiling &tiling) {
    KernelWork noEpilogue = work;
    noEpilogue.ewFlops = 0;
    return estimateCost(work, h200, &tiling).getTPredUs() -
           estimateCost(noEpilogue, h200, &tiling).getTPredUs();
  }

  /// The seed prefill's work as one kernel (o_proj + residual, x[16,512,
  /// 2560]), the shape most tests price.
  KernelWork prefillWork() { return countKernelWork(firstKernel(*prefill)); }

  MLIRContext context;
  TargetAttr seed, h200, fastL2;
  OwningOpRef<ModuleOp> prefill;
};

TEST_F(CostModelTest, SeedPrefillOnTheIllustrativeDevice) {
  ASSERT_TRUE(prefill);
  KernelOp kernel = firstKernel(*prefill);
  KernelWork work = countKernelWork(kernel);
  EXPECT_EQ(work.tcFlops, 2ll * 8192 * 2560 * 2560);
  EXPECT_EQ(work.ewFlops, 8192ll * 2560);
  // x, r, out: 41.9 MB each; W 13.1 MB: ~139 MB.
  EXPECT_EQ(work.bytes, 3ll * 8192 * 2560 * 2 + 2560ll * 2560 * 2);
  EXPECT_NEAR(work.bytes / 1e6, 139, 0.5);
  // Unfused: the matmul's 41.9 MB result is written, then read back: ~223 MB,
  // 84 MB more than fused.
  int64_t unfused = countUnfusedBytes(bodyOps(kernel));
  EXPECT_NEAR(unfused / 1e6, 223, 0.5);
  EXPECT_NEAR((unfused - work.bytes) / 1e6, 84, 0.5);

  CostAttr cost = estimateCost(work, seed);
  EXPECT_EQ(cost.getBound(), Bound::compute);
  EXPECT_NEAR(cost.getIntensity(), 770, 5);  // "~770 FLOP/B"
  EXPECT_NEAR(cost.getBalance(), 250, 1e-9); // 1000 TFLOP/s / 4 TB/s
  EXPECT_NEAR(cost.getTComputeUs(), 107, 0.5);
  EXPECT_NEAR(cost.getTMemoryUs(), 35, 0.5);
  EXPECT_DOUBLE_EQ(cost.getTIdealUs(), cost.getTComputeUs());
}

TEST_F(CostModelTest, SeedDecodeIsMemoryBoundByTheWeight) {
  OwningOpRef<ModuleOp> module = oprojResidual(1, 1, 2560);
  ASSERT_TRUE(module);
  KernelWork work = countKernelWork(firstKernel(*module));
  EXPECT_NEAR(work.totalFlops(), 1.3e7, 0.05e7);
  int64_t weightBytes = 2560ll * 2560 * 2; // 13.1 MB
  EXPECT_GT(static_cast<double>(weightBytes) / work.bytes, 0.998);
  CostAttr cost = estimateCost(work, seed);
  EXPECT_EQ(cost.getBound(), Bound::memory);
  EXPECT_NEAR(cost.getIntensity(), 1.0, 0.01);
}

TEST_F(CostModelTest, H200PresetSpeedOfLight) {
  OwningOpRef<ModuleOp> decode = oprojResidual(1, 1, 2560);
  ASSERT_TRUE(prefill && decode);
  CostAttr p = estimateCost(prefillWork(), h200);
  CostAttr d = estimateCost(countKernelWork(firstKernel(*decode)), h200);
  EXPECT_NEAR(p.getTIdealUs(), 108.6, 0.05);
  EXPECT_EQ(p.getBound(), Bound::compute);
  EXPECT_NEAR(d.getTIdealUs(), 2.73, 0.01);
  // 2.73 us of traffic is less than the H200's 3.2 us launch cost.
  EXPECT_EQ(d.getBound(), Bound::latency);
  EXPECT_EQ(d.getLimiter(), Limiter::launch);
}

TEST_F(CostModelTest, PredictionNeverBeatsSpeedOfLightOnRandomShapes) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<int64_t> dim(1, 12000);
  for (int trial = 0; trial < 40; ++trial) {
    int64_t m = dim(rng), n = dim(rng), k = dim(rng);
    OwningOpRef<ModuleOp> module = matmul(m, n, k);
    ASSERT_TRUE(module);
    CostAttr cost = estimateCost(countOpWork(firstMatmul(*module)), h200);
    ASSERT_NE(cost.getBound(), Bound::unknown);
    // Rounded to 5 significant digits, hence the slack.
    EXPECT_GE(cost.getTPredUs() * (1 + 1e-4), cost.getTIdealUs())
        << "M=" << m << " N=" << n << " K=" << k;
    EXPECT_LE(cost.getSolPred(), 1.0);
    EXPECT_GT(cost.getSolPred(), 0.0);
  }
}

TEST_F(CostModelTest, WaveQuantisationShowsInThePrediction) {
  // 12 x 11 tiles of 128x256 fill the H200's 132 SMs exactly; one more
  // column of tiles needs a second, mostly idle wave. The L2 is made fast
  // so that the tensor-core term, the one waves quantise, dominates.
  int64_t k = 16384;
  OwningOpRef<ModuleOp> full = matmul(128 * 12, 256 * 11, k);
  OwningOpRef<ModuleOp> spill = matmul(128 * 12, 256 * 11 + 1, k);
  ASSERT_TRUE(full && spill);
  CostAttr a = estimateCost(countOpWork(firstMatmul(*full)), fastL2);
  CostAttr b = estimateCost(countOpWork(firstMatmul(*spill)), fastL2);
  EXPECT_EQ(a.getLimiter(), Limiter::matmul);
  // Same speed of light (one more column), about twice the predicted time.
  EXPECT_NEAR(b.getTIdealUs() / a.getTIdealUs(), 1.0, 0.001);
  EXPECT_GT(b.getTPredUs() / a.getTPredUs(), 1.7);
}

TEST_F(CostModelTest, EpilogueOnTheMmaWarpsAddsItsSimtTime) {
  // The same prefill matmul planned for wgmma_tma: the epilogue (one add per
  // output here) runs after the K loop on the 8 consumer warps of the SM's
  // 64 warp slots, so it adds ewFlops / (SIMT peak / 8) to the prediction.
  ASSERT_TRUE(prefill);
  KernelWork work = prefillWork();
  MatmulTiling tiling =
      wgmmaTmaTiling(*prefill, 256, 4, ConsumerSchedule::cooperative);
  EXPECT_EQ(tiling.consumerWarps, 8);
  double expectedUs = work.ewFlops / (66.9e12 * 8 / 64) * 1e6;
  EXPECT_NEAR(epilogueShownUs(work, tiling), expectedUs, 0.02);
  // The mma.sync warps of many small blocks share an SM: 5 blocks of 4 warps
  // fit (shared memory bounds them), 20 of the 64 warp slots.
  MatmulTiling small = tiling;
  small.consumerWarps = 0;
  small.threads = 128;
  small.smemBytes = 40000;
  small.blocks = 0;
  EXPECT_NEAR(epilogueShownUs(work, small), expectedUs * 8 / 20, 0.02);
}

TEST_F(CostModelTest, PingPongShowsOnlyTheEpilogueBeyondTheOtherKLoop) {
  // The same prefill matmul on ping-pong consumers: the epilogue of one
  // warpgroup (4 warps) overlaps the other's K loop, which is far longer,
  // so only the last tile's epilogue (its 4-warp time over 5 tiles per
  // block) shows.
  ASSERT_TRUE(prefill);
  KernelWork work = prefillWork();
  MatmulTiling tiling =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::pingpong);
  EXPECT_TRUE(tiling.pingpong);
  EXPECT_EQ(tiling.consumerWarps, 4);
  int64_t tilesPerBlock = (64 * 20 + 131) / 132;
  double fourWarpUs = work.ewFlops / (66.9e12 * 4 / 64) * 1e6;
  EXPECT_NEAR(epilogueShownUs(work, tiling), fourWarpUs / tilesPerBlock, 0.02);
}

TEST_F(CostModelTest, CooperativeTilesPayTheirTurnaroundPingPongHidesIt) {
  // Between two tiles a block drains, stores and restarts: 7.1 us per
  // 128x256 tile stored in column pairs on the H200 (2026-11-30).
  // Cooperative consumers do it with no wgmma in flight: the prefill's 5
  // tiles of 128x256 per SM add 5 x 7.1 us where the outputs are not all
  // 16-bit (pairs), a quarter of that where the wgmma epilogue stores them
  // in quads (a quarter of the store instructions: the o_proj on an H100,
  // 2026-12-07). Ping-pong consumers do it during the other's K loop: of
  // the 10 128x128 tiles' turnaround, only the last tile's shows; their K
  // loops pay a handoff per K tile instead (0.032 us for each of 10 tiles x
  // 40 K tiles, which the cooperative consumers cover for each other).
  ASSERT_TRUE(prefill);
  KernelWork work = prefillWork();
  work.ewFlops = 0;
  ASSERT_TRUE(work.halfWidthOutputs);
  KernelWork pairs = work;
  pairs.halfWidthOutputs = false;
  // On the fast-L2 H200 the tensor-core term decides with and without the
  // handoffs, so they show whole.
  auto turnaroundUs = [&](const KernelWork &work, const MatmulTiling &tiling) {
    MatmulTiling noKLoop = tiling;
    noKLoop.tileK = 0; // no K loop priced, so no epilogue either
    return estimateCost(work, fastL2, &tiling).getTPredUs() -
           estimateCost(work, fastL2, &noKLoop).getTPredUs();
  };
  MatmulTiling cooperative =
      wgmmaTmaTiling(*prefill, 256, 4, ConsumerSchedule::cooperative);
  MatmulTiling pingpong =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::pingpong);
  EXPECT_NEAR(turnaroundUs(pairs, cooperative), 5 * 7.1, 0.01);
  EXPECT_NEAR(turnaroundUs(work, cooperative), 5 * 7.1 / 4, 0.01);
  double handoffUs = 10 * 40 * 0.032;
  EXPECT_NEAR(turnaroundUs(pairs, pingpong), handoffUs + 7.1 / 2, 0.01);
  EXPECT_NEAR(turnaroundUs(work, pingpong), handoffUs + 7.1 / 2 / 4, 0.01);
  // A path whose epilogue stores pairs pays the whole term whatever the
  // outputs.
  MatmulTiling pairPath = cooperative;
  pairPath.storesFragmentQuads = false;
  EXPECT_NEAR(turnaroundUs(work, pairPath), 5 * 7.1, 0.01);
}

TEST_F(CostModelTest, KTileHandoffsIdleOnlyAnSmItsBlockHoldsAlone) {
  // Ping-pong 128x128 on the prefill: 10 tiles per SM x 40 K tiles, each
  // handoff 0.032 us of idle tensor cores (bench/NOTES.md section 55). Where
  // a second block shared the SM, its warpgroups would issue during the
  // wait: no handoff is priced.
  ASSERT_TRUE(prefill);
  KernelWork work = prefillWork();
  work.ewFlops = 0;
  MatmulTiling alone =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::pingpong);
  MatmulTiling shared = alone;
  shared.smemBytes = 100000;
  shared.registerBoundBlocksPerSm = 2;
  EXPECT_NEAR(estimateCost(work, fastL2, &alone).getTPredUs() -
                  estimateCost(work, fastL2, &shared).getTPredUs(),
              10 * 40 * 0.032, 0.01);
  // Cooperative 128x256 tiles cover each other's waits; cooperative
  // 128x128 ones, each warpgroup issuing 64x128 wgmmas, pay as ping-pong
  // does (the same 10 tiles x 40 K tiles per SM).
  auto handoffUs = [&](const KernelWork &work, const MatmulTiling &tiling) {
    MatmulTiling shared = tiling;
    shared.smemBytes = 100000;
    shared.registerBoundBlocksPerSm = 2;
    return estimateCost(work, fastL2, &tiling).getTPredUs() -
           estimateCost(work, fastL2, &shared).getTPredUs();
  };
  EXPECT_NEAR(handoffUs(work, wgmmaTmaTiling(*prefill, 256, 4,
                                             ConsumerSchedule::cooperative)),
              0.0, 0.01);
  MatmulTiling narrow =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::cooperative);
  EXPECT_EQ(narrow.tileM, 128);
  EXPECT_NEAR(handoffUs(work, narrow), 10 * 40 * 0.032, 0.01);
  // With at most two tiles per SM (256 rows: 40 tiles of 128x128 on 132
  // SMs, one each) cooperative tiles pay none: the small-M fits priced them
  // as they are.
  OwningOpRef<ModuleOp> small = matmul(256, 2560, 2560);
  ASSERT_TRUE(small);
  KernelWork smallWork = countOpWork(firstMatmul(*small));
  EXPECT_NEAR(
      handoffUs(smallWork,
                wgmmaTmaTiling(*small, 128, 6, ConsumerSchedule::cooperative)),
      0.0, 0.01);
}

TEST_F(CostModelTest, QuadStoresSaveOnTheRowsATileHolds) {
  // 64-row tiles holding 16 rows (decode): the quads save on those 16 rows'
  // stores only, a quarter of the tile; the empty rows keep the pair-store
  // price the decode calibration was fitted with. 128x144 tiles store 16 of
  // their 18 n8 blocks in quads and 2 in pairs: (16 / 4 + 2) / 18 = 1/3.
  // Split 4 ways, only the last of a tile's 4 units stores the output; the
  // others' f32 partials keep the fitted price.
  auto turnaroundUs = [&](int64_t m, int64_t n, int64_t tileM, int64_t tileN,
                          bool halfWidth, int64_t splitK = 1) {
    OwningOpRef<ModuleOp> module = matmul(m, n, 2560);
    KernelWork work = countOpWork(firstMatmul(*module));
    work.halfWidthOutputs = halfWidth;
    MatmulTiling tiling;
    tiling.tileM = tileM;
    tiling.tileN = tileN;
    tiling.tileK = 64;
    tiling.threads = 384;
    tiling.storesFragmentQuads = true;
    tiling.splitK = splitK;
    MatmulTiling noKLoop = tiling;
    noKLoop.tileK = 0;
    return estimateCost(work, h200, &tiling).getTPredUs() -
           estimateCost(work, h200, &noKLoop).getTPredUs();
  };
  double heldQuarter = turnaroundUs(16, 2560, 64, 128, true) /
                       turnaroundUs(16, 2560, 64, 128, false);
  EXPECT_NEAR(heldQuarter, 1 - 0.75 * 0.25, 1e-3);
  double leftover = turnaroundUs(8192, 2304, 128, 144, true) /
                    turnaroundUs(8192, 2304, 128, 144, false);
  EXPECT_NEAR(leftover, 1.0 / 3, 1e-3);
  double lastSplit = turnaroundUs(512, 2560, 128, 128, true, 4) /
                     turnaroundUs(512, 2560, 128, 128, false, 4);
  EXPECT_NEAR(lastSplit, 1 - 0.75 / 4, 1e-3);
}

TEST_F(CostModelTest, L2RateFallsWhereBTakesMostOfL2) {
  // Re-reads through L2 stream at l2_gbps while B leaves room in L2, at 0.8
  // of it once B takes over 3/4 of it (H200: 60 MiB), each SM pulling its
  // own tiles: 8192 tiles fill 63 waves of 132 SMs, the last one partly. The
  // L2 is made the limit with 64-row tiles and a fast tensor core.
  auto slowTensor = cast<TargetAttr>(parseAttribute(
      "#sol.target<name = \"h200-fast-tc\", chip = \"sm_90a\", sm_count = "
      "132, clock_mhz = 1830, f16_tflops = 100000.0, bf16_tflops = 100000.0, "
      "tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, "
      "hbm_gbps = 100000.0, l2_gbps = 10800.0, l2_bytes = 62914560, "
      "smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, "
      "mma_efficiency = 0.7, hbm_efficiency = 0.9>",
      &context));
  MatmulTiling tiling;
  tiling.tileM = 64;
  tiling.tileN = 64;
  // B = 4096 x K x 2 bytes: 44 MB (under 3/4 of 60 MiB) and 48 MB (over).
  auto l2Us = [&](int64_t k) {
    OwningOpRef<ModuleOp> module = matmul(8192, 4096, k);
    KernelWork work = countOpWork(firstMatmul(*module));
    double reads = static_cast<double>(work.matmulLhsBytes) * (4096 / 64) +
                   static_cast<double>(work.matmulRhsBytes) * (8192 / 64);
    CostAttr cost = estimateCost(work, slowTensor, &tiling);
    EXPECT_EQ(cost.getLimiter(), Limiter::l2);
    double waveEfficiency = 8192.0 / (63 * 132);
    return std::make_pair(cost.getTPredUs() - 3.2,
                          reads / 10800e3 / waveEfficiency);
  };
  auto [under, underReads] = l2Us(5376);
  EXPECT_NEAR(under / underReads, 1.0, 1e-3);
  auto [over, overReads] = l2Us(5888);
  EXPECT_NEAR(over / overReads, 1 / 0.8, 1e-3);
}

TEST_F(CostModelTest, PingPongClustersPayTheirCoupling) {
  // The prefill on ping-pong 128x128 tiles with a fast L2 (the tensor cores
  // the limit): a 2-CTA cluster halves B's re-reads, which do not matter
  // here, and couples the pair, which costs 13 % of the K loops.
  ASSERT_TRUE(prefill);
  KernelWork work = prefillWork();
  MatmulTiling single =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::pingpong);
  MatmulTiling paired = single;
  paired.cluster = 2;
  // 1280 tiles in 10 waves of 132 SMs at 0.7 of 989 TFLOP/s.
  double tensorUs =
      2.0 * 8192 * 2560 * 2560 / (989e12 * 0.7 * 1280 / 1320) * 1e6;
  EXPECT_NEAR(estimateCost(work, fastL2, &paired).getTPredUs() -
                  estimateCost(work, fastL2, &single).getTPredUs(),
              0.13 * tensorUs, 0.01);
}

TEST_F(CostModelTest, SplitKPaysThePartialsRoundTrip) {
  // The 16-token decode on 16x64 tiles split 4 ways: the round trip of a
  // path that measured none (a hand-made tiling: no path facts), 4.2 us
  // more than the same plan unsplit; the path's own (1 us on mma.sync)
  // where the tiling carries it.
  OwningOpRef<ModuleOp> module = oprojResidual(16, 1, 2560);
  ASSERT_TRUE(module);
  KernelWork work = countKernelWork(firstKernel(*module));
  MatmulTiling split;
  split.tileM = 16;
  split.tileN = 64;
  split.splitK = 4;
  split.path = KernelPath::mma_sync;
  split.blocks = 160;
  MatmulTiling whole = split;
  whole.splitK = 1;
  // The same block count for both (it sets the HBM share) and no K loop
  // term: on this memory-bound shape they differ only by the round trip.
  double delta = estimateCost(work, h200, &split).getTPredUs() -
                 estimateCost(work, h200, &whole).getTPredUs();
  EXPECT_NEAR(delta, 4.2, 0.05);
  split.splitKRoundTripUs = 1.0;
  EXPECT_NEAR(estimateCost(work, h200, &split).getTPredUs() -
                  estimateCost(work, h200, &whole).getTPredUs(),
              1.0, 0.05);
}

TEST_F(CostModelTest, SplitKPartialsGoThroughHbmWhenTheySpillL2) {
  // 128 rows against a 14336 x 4096 weight (117 MB) on 128x128 tiles, 112
  // of them, on 132 blocks. Split 8 ways, the 896 units' f32 partials take
  // 58.7 MB, over 3/4 of the H200's L2: written and read back through HBM
  // beside the weight (the sweep's 104 us against 45.7 unsplit,
  // 2026-12-03). Split 2 ways (14.7 MB) they are L2 traffic, beside the
  // operands' re-reads (at 0.8 of l2_gbps: B is over 3/4 of L2 too).
  OwningOpRef<ModuleOp> module = matmul(128, 14336, 4096);
  ASSERT_TRUE(module);
  KernelWork work = countOpWork(firstMatmul(*module));
  MatmulTiling splitEight;
  splitEight.tileM = 128;
  splitEight.tileN = 128;
  splitEight.blocks = 132;
  splitEight.splitK = 8;
  MatmulTiling splitTwo = splitEight;
  splitTwo.splitK = 2;
  double launchUs = h200.getLaunchUs(), roundTripUs = 4.2;

  double partialsEight = 4.0 * 112 * 8 * 128 * 128;
  double hbmRate = h200.getHbmBytesPerSecond() * h200.getHbmEfficiency();
  CostAttr eight = estimateCost(work, h200, &splitEight);
  EXPECT_EQ(eight.getLimiter(), Limiter::hbm);
  EXPECT_NEAR(eight.getTPredUs(),
              launchUs + (work.bytes + 2 * partialsEight) / hbmRate * 1e6 +
                  roundTripUs,
              0.01);

  double partialsTwo = 4.0 * 112 * 2 * 128 * 128;
  double reReads = static_cast<double>(work.matmulLhsBytes) * 112 +
                   static_cast<double>(work.matmulRhsBytes);
  double waveEfficiency = 224.0 / (2 * 132);
  CostAttr two = estimateCost(work, h200, &splitTwo);
  EXPECT_EQ(two.getLimiter(), Limiter::l2);
  EXPECT_NEAR(two.getTPredUs(),
              launchUs +
                  (reReads + 2 * partialsTwo) / (h200.getL2Gbps() * 1e9 * 0.8) /
                      waveEfficiency * 1e6 +
                  roundTripUs,
              0.01);
}

TEST_F(CostModelTest, TmaRingStreamsAFewBlocksAtItsInFlightRate) {
  // 64 rows against a 4096 x 4096 weight on 64x256 tiles split 8 ways
  // (128 units) on 16 blocks, each keeping 200 KB in flight: the SMs stream
  // 16 x 200 KB per loaded round trip (4.0 TB/s, under the 4.32 the H200's
  // HBM reaches), not the 16/132 share of SMs with work (0.52 TB/s). The
  // partials (128 units of 64x256 f32, 8.4 MB) are written and read at 2/3
  // of the weight's rate, and the split's round trip is the path's 1 us.
  OwningOpRef<ModuleOp> module = matmul(64, 4096, 4096);
  ASSERT_TRUE(module);
  KernelWork work = countOpWork(firstMatmul(*module));
  MatmulTiling ring;
  ring.tileM = 64;
  ring.tileN = 256;
  ring.splitK = 8;
  ring.blocks = 16;
  ring.bytesInFlightPerBlock = 200000;
  ring.partialsThroughHbm = true;
  ring.splitKRoundTripUs = 1.0;
  double partials = 4.0 * 128 * 64 * 256;
  double rate = 16 * 200000 / (kLoadedHbmRoundTripUs * 1e-6);
  ASSERT_LT(rate, h200.getHbmBytesPerSecond() * h200.getHbmEfficiency());
  CostAttr cost = estimateCost(work, h200, &ring);
  EXPECT_EQ(cost.getLimiter(), Limiter::hbm);
  EXPECT_NEAR(cost.getTPredUs(),
              h200.getLaunchUs() + 1.0 +
                  (work.bytes + 1.5 * 2 * partials) / rate * 1e6,
              0.01);
  // Without a ring the share of SMs with work bounds the rate.
  MatmulTiling share = ring;
  share.bytesInFlightPerBlock = 0;
  double shareRate =
      h200.getHbmBytesPerSecond() * h200.getHbmEfficiency() * 16 / 132;
  EXPECT_NEAR(estimateCost(work, h200, &share).getTPredUs(),
              h200.getLaunchUs() + 1.0 +
                  (work.bytes + 1.5 * 2 * partials) / shareRate * 1e6,
              0.01);
}

TEST_F(CostModelTest, CopiesOfTheComputeWarpsMoveAtEachSmsRate) {
  // 64 rows against a 4096 x 4096 weight on 16x64 tiles: A is re-read once
  // per column of tiles (64), B once per row (4), 168 MB through L2. Where
  // the compute warps copy them (cp.async), each SM with work moves 42
  // bytes a ns: 132 SMs of the 256 blocks' grid give 5.5 TB/s, not the
  // target's 10.8; a grid of 64 blocks has 64 SMs' worth. The 256 tiles
  // fill 256 of two waves' 264 slots.
  OwningOpRef<ModuleOp> module = matmul(64, 4096, 4096);
  ASSERT_TRUE(module);
  KernelWork work = countOpWork(firstMatmul(*module));
  MatmulTiling copied;
  copied.tileM = 16;
  copied.tileN = 64;
  copied.blocks = 256;
  copied.smCopyBytesPerUs = 42000;
  double l2Bytes = static_cast<double>(work.matmulLhsBytes) * 64 +
                   static_cast<double>(work.matmulRhsBytes) * 4;
  double waveEfficiency = 256.0 / 264;
  CostAttr cost = estimateCost(work, h200, &copied);
  EXPECT_EQ(cost.getLimiter(), Limiter::l2);
  EXPECT_NEAR(cost.getTPredUs(),
              h200.getLaunchUs() +
                  l2Bytes / (42000 * 1e6 * 132) / waveEfficiency * 1e6,
              0.01);
  MatmulTiling fewer = copied;
  fewer.blocks = 64;
  EXPECT_NEAR(estimateCost(work, h200, &fewer).getTPredUs(),
              h200.getLaunchUs() +
                  l2Bytes / (42000 * 1e6 * 64) / waveEfficiency * 1e6,
              0.01);
  // Without the path's rate, the target's.
  MatmulTiling target = copied;
  target.smCopyBytesPerUs = 0;
  EXPECT_NEAR(estimateCost(work, h200, &target).getTPredUs(),
              h200.getLaunchUs() +
                  l2Bytes / (h200.getL2Gbps() * 1e9) / waveEfficiency * 1e6,
              0.01);
}

TEST_F(CostModelTest, DynamicShapesAreUnknownNeverANumber) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"(func.func @f(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>) -> tensor<?x64xf16> {
           %y = sol.matmul %a, %b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
           return %y : tensor<?x64xf16>
         })",
      &context);
  ASSERT_TRUE(module);
  CostAttr cost = estimateCost(countOpWork(firstMatmul(*module)), h200);
  EXPECT_EQ(cost.getBound(), Bound::unknown);
  EXPECT_EQ(cost.getTIdealUs(), 0.0);
  EXPECT_NE(cost.getReason().find("static shapes"), StringRef::npos);
}

// The counts every pass derives from shapes: overflow is remembered, never
// wrapped into a small or negative number (issue 15: K = INT64_MAX gave
// tc_flops = -128).
TEST(CheckedCountTest, OverflowIsStickyAndExact) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ((CheckedCount(3) * 4 + 5).get(), 17);
  EXPECT_EQ((CheckedCount(kMax) * 1).get(), kMax);
  EXPECT_TRUE((CheckedCount(kMax) + 1).overflowed());
  EXPECT_TRUE((CheckedCount(kMax) * 2).overflowed());
  EXPECT_TRUE(
      (CheckedCount(int64_t(1) << 32) * (int64_t(1) << 31)).overflowed());
  // Once overflowed, a product with 0 stays overflowed: the count was lost.
  EXPECT_TRUE((CheckedCount(kMax) * 2 * 0).overflowed());
  EXPECT_TRUE((CheckedCount(kMax) * -2).overflowed());
  EXPECT_EQ(countElements({}).get(), 1);
  EXPECT_EQ(countElements({2, 3, 7}).get(), 42);
  EXPECT_TRUE(countElements({2, kMax}).overflowed());
}

TEST_F(CostModelTest, OverflowingCountsHaveNoCost) {
  // 2 * 2^20 * 2^20 * 2^30 = 2^71 FLOPs; every tensor fits.
  OwningOpRef<ModuleOp> module = matmul(1 << 20, 1 << 20, 1 << 30);
  ASSERT_TRUE(module);
  KernelWork work = countOpWork(firstMatmul(*module));
  EXPECT_NE(work.invalidReason.find("FLOPs"), std::string::npos)
      << work.invalidReason;
  EXPECT_EQ(work.tcFlops, 0);
  CostAttr cost = estimateCost(work, h200);
  EXPECT_EQ(cost.getBound(), Bound::unknown);
  EXPECT_EQ(cost.getReason(), work.invalidReason);
}

TEST_F(CostModelTest, DegenerateWorkAndPlansNeverDivideByZero) {
  // countKernelWork refuses these; a KernelWork built by hand (the C API,
  // fusion's what-ifs) must still come back unknown, not trap.
  OwningOpRef<ModuleOp> module = matmul(64, 64, 64);
  ASSERT_TRUE(module);
  KernelWork work = countOpWork(firstMatmul(*module));
  for (int64_t MatmulShape::*extent :
       {&MatmulShape::rows, &MatmulShape::n, &MatmulShape::k}) {
    KernelWork empty = work;
    empty.matmul.*extent = 0;
    EXPECT_EQ(estimateCost(empty, h200).getBound(), Bound::unknown);
  }
  MatmulTiling zeroTile;
  zeroTile.tileM = 0;
  EXPECT_EQ(estimateCost(work, h200, &zeroTile).getBound(), Bound::unknown);
  MatmulTiling hugeSplit;
  hugeSplit.tileM = hugeSplit.tileN = 1;
  hugeSplit.splitK = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(estimateCost(work, h200, &hugeSplit).getBound(), Bound::unknown);
  // A plan with fewer than a warp's threads still has a K loop to price.
  MatmulTiling tiny;
  tiny.tileK = 64;
  tiny.threads = 16;
  tiny.copiedByConsumers = true;
  CostAttr cost = estimateCost(work, h200, &tiny);
  EXPECT_NE(cost.getBound(), Bound::unknown) << cost.getReason().str();
  EXPECT_TRUE(std::isfinite(cost.getTPredUs()));
}

} // namespace

TEST_F(CostModelTest, SiblingMatmulsCountAsOneMatmulOfTwiceTheWidth) {
  // SwiGLU's gate and up projections over one x: both products' FLOPs, A
  // read once, N counting both weights' columns; a tile holds half its
  // width from each weight, and the generator walks whole halves.
  auto swiglu = [&](int64_t n) {
    std::string w = "tensor<" + std::to_string(n) + "x2560xf16>";
    std::string y = "tensor<2048x" + std::to_string(n) + "xf16>";
    std::string x = "tensor<2048x2560xf16>";
    std::string text =
        "func.func @f(%x: " + x + ", %g: " + w + ", %u: " + w + ") -> " + y +
        " {\n %0 = sol.kernel @swiglu ins(%x, %g, %u : " + x + ", " + w + ", " +
        w + ") -> " + y + " {\n ^bb0(%a: " + x + ", %wg: " + w + ", %wu: " + w +
        "):\n %mg = sol.matmul %a, %wg transpose_b : " + x + ", " + w + " -> " +
        y + "\n %s = sol.silu %mg : " + y +
        "\n %mu = sol.matmul %a, %wu transpose_b : " + x + ", " + w + " -> " +
        y + "\n %p = sol.mul %s, %mu : " + y + ", " + y + " -> " + y +
        "\n sol.yield %p : " + y + "\n }\n return %0 : " + y + "\n}";
    return parseSourceString<ModuleOp>(text, &context);
  };
  OwningOpRef<ModuleOp> module = swiglu(6912);
  ASSERT_TRUE(module);
  KernelWork work = countKernelWork(firstKernel(*module));
  EXPECT_EQ(work.matmul.siblings, 2);
  EXPECT_EQ(work.matmul.n, 6912);
  EXPECT_EQ(work.matmul.getTotalN(), 2 * 6912);
  EXPECT_EQ(work.tcFlops, 2 * 2 * int64_t(2048) * 6912 * 2560);
  EXPECT_EQ(work.matmulLhsBytes, int64_t(2048) * 2560 * 2);
  EXPECT_EQ(work.matmulRhsBytes, 2 * int64_t(6912) * 2560 * 2);
  // x, both weights and the output once each: neither projection's result
  // goes to memory.
  EXPECT_EQ(work.bytes, (int64_t(2048) * 2560 + 2 * int64_t(6912) * 2560 +
                         int64_t(2048) * 6912) *
                            2);
  EXPECT_EQ(work.matmul.tilesAlongN(144), 96);
  EXPECT_EQ(work.matmul.tilesAlongN(192), 72);
  // 76 columns per weight at 72 per tile take two tile columns, where one
  // 144-wide tile would cover a concatenated weight's 152.
  OwningOpRef<ModuleOp> odd = swiglu(76);
  ASSERT_TRUE(odd);
  EXPECT_EQ(countKernelWork(firstKernel(*odd)).matmul.tilesAlongN(144), 2);
}

TEST_F(CostModelTest, PingPongWithOneTilePerConsumerPaysTheLoneIssue) {
  // SwiGLU's down projection: 256 ping-pong tiles of 128x160 on 132 blocks
  // leave each consumer at most one tile, and its K loops cost 1.11x. On
  // the fast-L2 H200 the tensor-core term decides: 2 waves (256 of 264
  // block slots) at 0.7 of 989 TFLOP/s, times 1.11, plus the launch and the
  // ping-pong epilogue share (two 128x160 tiles' turnaround per SM, half of
  // it shown with two tiles per block).
  OwningOpRef<ModuleOp> down = matmul(2048, 2560, 6912);
  ASSERT_TRUE(down);
  KernelWork work = countOpWork(firstMatmul(*down));
  MatmulTiling lone = wgmmaTmaTiling(*down, 160, 6, ConsumerSchedule::pingpong);
  double tensorUs = 2.0 * 2048 * 2560 * 6912 / (989e12 * 0.7 * 256 / 264) * 1e6;
  // Its f16 results go out in quads: a quarter of the pair stores' term.
  double turnaroundUs = 2 * 128 * 160 * 7.1 / (128 * 256) / 4;
  EXPECT_NEAR(estimateCost(work, fastL2, &lone).getTPredUs(),
              3.2 + 1.11 * tensorUs + turnaroundUs / 2, 0.05);
  // The prefill's 1280 tiles (9.7 per block) pay no 1.11x: their tensor
  // cores idle at each K tile's handoff instead (bench/NOTES.md section
  // 55), 0.032 us for each of 10 tiles x 40 K tiles per block.
  ASSERT_TRUE(prefill);
  MatmulTiling many =
      wgmmaTmaTiling(*prefill, 128, 6, ConsumerSchedule::pingpong);
  KernelWork manyWork = prefillWork();
  manyWork.ewFlops = 0;
  double prefillTensorUs =
      2.0 * 8192 * 2560 * 2560 / (989e12 * 0.7 * 1280 / 1320) * 1e6;
  double prefillTurnaroundUs = 10 * 128 * 128 * 7.1 / (128 * 256) / 4;
  CostAttr prefillCost = estimateCost(manyWork, fastL2, &many);
  prefillTensorUs += 10 * 40 * 0.032;
  double kLoops = prefillTensorUs;
  double shown = std::max(0.0, prefillTurnaroundUs - kLoops) / 2 +
                 prefillTurnaroundUs / 10;
  EXPECT_NEAR(prefillCost.getTPredUs(), 3.2 + prefillTensorUs + shown, 0.05);
}
