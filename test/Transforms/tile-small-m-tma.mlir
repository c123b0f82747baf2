// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile | FileCheck %s
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="small-m-tma=false" | FileCheck %s --check-prefix=WITHOUT
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma split-k=3" | FileCheck %s --check-prefix=SPLIT3

// small-m-tma (issue 19) lets wgmma_tma offer 64-row ping-pong tiles and K
// split over 2, 3, 4, 6 or 8 units, priced by the cost model like every
// other plan, the split's partials included (through HBM, at 2/3 of the
// weight's rate: bench/NOTES.md section 37).
// On by default since the sweep timed them (bench/results/2026-12-03-h200-
// s8-smallm); small-m-tma=false gives the plans sol chose without them.
// split-k=N (test-only) keeps the plans that split K exactly N ways.

// 16-token o_proj decode (M = 16, N = K = 4096): swap_ab stays ahead
// (12.7 us against 17.0 for 64x128 TMA tiles split 6 ways).
// CHECK-LABEL: func.func @o_proj_decode16_keeps_swap_ab
//       CHECK:   t_pred_us = 12.67, {{.*}}plan = #sol.plan<path = swap_ab, tile = [16, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>
// WITHOUT-LABEL: func.func @o_proj_decode16_keeps_swap_ab
//       WITHOUT:   plan = #sol.plan<path = swap_ab, tile = [16, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>

// 64-token down projection (K = 14336): 64-row tiles, K split 2 ways (64
// blocks whose stage rings stream the weight at the HBM rate; more splits
// only add partials): 34.7 us against mma.sync's 69.2 (78.5 measured on
// the H200, bench/results/2026-12-05-h200-s14-mid). Measured on an H100
// (2026-12-05, bench/results/2026-12-05-h100-s15-refit): 46.9 us, the
// model's next three plans 47.7-49.6, cuBLAS 47.3.
// CHECK-LABEL: func.func @down_decode64_takes_short_split_tiles
//       CHECK:   t_pred_us = 34.681, {{.*}}plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 2, schedule = pingpong>
// WITHOUT-LABEL: func.func @down_decode64_takes_short_split_tiles
//       WITHOUT:   t_pred_us = 69.195, {{.*}}plan = #sol.plan<path = mma_sync, tile = [32, 64, 64], warps = [1, 4], stages = 4, split_k = 1>

// A narrow deep weight (N = 256, K = 7168) at 512 rows: 16 tiles of 64x128
// leave most SMs idle until K is split 6 ways (10.5 us against mma.sync's
// 30.7 unsplit).
// CHECK-LABEL: func.func @narrow_deep512_splits_k
//       CHECK:   t_pred_us = 10.547, {{.*}}plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 6, schedule = pingpong>
// WITHOUT-LABEL: func.func @narrow_deep512_splits_k
//       WITHOUT:   t_pred_us = 30.729, {{.*}}plan = #sol.plan<path = mma_sync, tile = [16, 64, 64], warps = [1, 4], stages = 4, split_k = 1>
// SPLIT3-LABEL: func.func @narrow_deep512_splits_k
//       SPLIT3:   plan = #sol.plan<path = wgmma_tma, {{.*}}split_k = 3

// Prefill fills the SMs with whole tiles: no split is offered and no
// 64-row tile wins, so the plan is the default one.
// CHECK-LABEL: func.func @prefill2048_keeps_its_plan
//       CHECK:   plan = #sol.plan<path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>
// WITHOUT-LABEL: func.func @prefill2048_keeps_its_plan
//       WITHOUT:   plan = #sol.plan<path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @o_proj_decode16_keeps_swap_ab(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>, %r: tensor<16x4096xbf16>) -> tensor<16x4096xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  %s = sol.add %m, %r : tensor<16x4096xbf16>, tensor<16x4096xbf16> -> tensor<16x4096xbf16>
  return %s : tensor<16x4096xbf16>
}
func.func @down_decode64_takes_short_split_tiles(%x: tensor<64x14336xbf16>, %w: tensor<4096x14336xbf16>, %r: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<64x14336xbf16>, tensor<4096x14336xbf16> -> tensor<64x4096xbf16>
  %s = sol.add %m, %r : tensor<64x4096xbf16>, tensor<64x4096xbf16> -> tensor<64x4096xbf16>
  return %s : tensor<64x4096xbf16>
}
func.func @narrow_deep512_splits_k(%x: tensor<512x7168xbf16>, %w: tensor<256x7168xbf16>) -> tensor<512x256xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<512x7168xbf16>, tensor<256x7168xbf16> -> tensor<512x256xbf16>
  return %m : tensor<512x256xbf16>
}
func.func @prefill2048_keeps_its_plan(%x: tensor<2048x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
  %s = sol.add %m, %r : tensor<2048x2560xf16>, tensor<2048x2560xf16> -> tensor<2048x2560xf16>
  return %s : tensor<2048x2560xf16>
}
}
