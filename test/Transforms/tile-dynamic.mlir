// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics | FileCheck %s

// The seed's o_proj + residual (x[M, 2560] @ W[2560, 2560]^T + r) with the
// token count open over the default range, 1..65536. The table follows the
// static planner's choices as M grows: gemv while the weight stream of a
// warp per column beats every tile grid (M <= 2: launch-bound at 1, each
// further row more SIMT work); swap_ab from 3 (6.88 against gemv's 8.01 us
// there): the weight is mma.sync's 16-row operand and the tokens its n8
// operand, so 3..8 rows pad to 8, 9..16 to 16 and 17..32 to 32, on blocks
// of 16 warps that split K (a K step is priced at a loaded round trip, 0.8
// us, the weight's stream at 0.84 of the HBM rate): K over 16 warps at 8
// rows, over 8 at 16 and 32, two groups of 16 columns a block, whose 80
// blocks re-read the tokens through L2 half as often as 160; then the
// persistent TMA-fed wgmma: 64-row ping-pong tiles (small-m-tma) with K
// split 2 ways to 192 rows (the split fills SMs the tiles leave idle; its
// partials cost their bytes at 2/3 of the weight's rate, bench/NOTES.md
// section 37, so more splits lose), unsplit 64x128 to 384 and
// 64x192 to 576 (their tiles fill more SMs than 128-row ones), ping-pong
// 128x160 where its tile count fills the last wave better (577..1024),
// cooperative 256x160 to 6144 rows (8 x 16 = 128 tiles, one wave of 132
// SMs, at 2048; its wide-stored tile turnaround a quarter of the pair
// stores', getStoreInstructionShare, where ping-pong tiles idle at each K
// tile's handoff), cooperative 128x256, the static prefill plan
// (tile.mlir), to 8448, and past it whichever of ping-pong 128x160,
// 128x128 and cooperative 128x256 fills its last wave best. Each row's plan is built
// at its m_max, every grid the largest
// the row launches (the launch
// computes the rest by getDynamicGridRule), except gemv's: it is built for
// its exact rows, so each M to 2 has its own row (tile[0] = M).
// CHECK-LABEL: func.func @oproj_takes_gemv_then_swap_ab_then_wgmma_tma
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 1340.1,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 6.2377{{[^>]*}}>>, #sol.cost_point<m = 65536, cost = <{{[^>]*}}t_pred_us = 1340.1{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 8, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 9, m_max = 16, plan = <path = swap_ab, tile = [16, 32, 1024], warps = [8, 2], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 17, m_max = 32, plan = <path = swap_ab, tile = [32, 32, 512], warps = [8, 2], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 33, m_max = 192, plan = <path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 2, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 193, m_max = 384, plan = <path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 385, m_max = 576, plan = <path = wgmma_tma, tile = [64, 192, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 577, m_max = 1024, plan = <path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 1025, m_max = 6144, plan = <path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 6145, m_max = 8448, plan = <path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 8449, m_max = 26368, plan = <path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 26369, m_max = 51456, plan = <path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 51457, m_max = 65536, plan = <path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]}
module attributes {sol.target = #sol.target<"h200">} {
func.func @oproj_takes_gemv_then_swap_ab_then_wgmma_tma(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  // expected-remark @below {{plan for M in 1..1: gemv: 1 rows, a warp per column, predicted 6.2377 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: gemv: 2 rows, a warp per column, predicted 6.4072 us at M = 2}}
  // expected-remark @below {{plan for M in 3..8: swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.9025 us at M = 8}}
  // expected-remark @below {{plan for M in 9..16: swap_ab: 16 rows, 32 columns per block, K over 8 warps, predicted 6.9931 us at M = 16}}
  // expected-remark @below {{plan for M in 17..32: swap_ab: 32 rows, 32 columns per block, K over 8 warps, predicted 7.5768 us at M = 32}}
  // expected-remark @below {{plan for M in 33..192: wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, K split over 2 units, predicted 11.874 us at M = 192}}
  // expected-remark @below {{plan for M in 385..576: wgmma_tma: 64x192x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 20.586 us at M = 576}}
  // expected-remark @below {{plan for M in 577..1024: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 27.129 us at M = 1024}}
  // expected-remark @below {{plan for M in 193..384: wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 16.003 us at M = 384}}
  // expected-remark @below {{plan for M in 1025..6144: wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 131.7 us at M = 6144}}
  // expected-remark @below {{plan for M in 6145..8448: wgmma_tma: 128x256x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 174.61 us at M = 8448}}
  // expected-remark @below {{plan for M in 8449..26368: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 536.78 us at M = 26368}}
  // expected-remark @below {{plan for M in 26369..51456: wgmma_tma: 128x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 1058.3 us at M = 51456}}
  // expected-remark @below {{plan for M in 51457..65536: wgmma_tma: 128x256x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 1340.1 us at M = 65536}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<?x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %s = sol.add %m, %c : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    sol.yield %s : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}
}

// -----

// The MLP up projection + bias + GELU (2560 -> 10240). Its weight is 4x
// o_proj's, 52 MB: gemv to two tokens (a warp on each of 10240 columns
// streams it at the full HBM rate, 12.1 us, where swap_ab's loads reach 0.84
// of it, 14.5 us; at 3 tokens gemv's SIMT work costs more: 22.5 against 17.1
// us), then the 64-row TMA tiles, unsplit, to 64 rows: 17.1-17.4 us to 32
// rows against swap_ab's 17.8-19.0, a near-tie (their 80 blocks' stage
// rings stream the weight at the full HBM rate, swap_ab's loads at 0.84 of
// it). Measured on an H100 (2026-12-05, bench/NOTES.md section 37) these
// tiles beat swap_ab on the 117 MB weights at 4-32 rows and lost to it by
// 9 % on a 33 MB one at 4-8 rows; this 52 MB weight was not timed. Then
// cooperative 128x128 tiles to 128 rows and 128-row wgmma_tma tiles,
// whose best width changes with how the tiles fill the last wave of 132 SMs:
// ping-pong 128x160 to 256, cooperative 256x160 to 1024 (one wave to 512:
// ping-pong would leave each consumer one tile, nothing to overlap; two at
// 1024, its wide-stored tile turnaround a quarter of the pair stores'), and
// the static prefill plan's 128x192 from 1025.
// CHECK-LABEL: func.func @mlp_up_gelu_takes_gemv_then_wgmma_tma
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 5319.2,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 15.349{{[^>]*}}>>, #sol.cost_point<m = 65536, cost = <{{[^>]*}}t_pred_us = 5319.2{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 64, plan = <path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 65, m_max = 128, plan = <path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 129, m_max = 256, plan = <path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 257, m_max = 1024, plan = <path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 1025, m_max = 65536, plan = <path = wgmma_tma, tile = [128, 192, 64], warps = [1, 1], stages = 5, split_k = 1, schedule = pingpong>>]} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @mlp_up_gelu_takes_gemv_then_wgmma_tma(%x: tensor<?x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<?x10240xf16> {
  // expected-remark @below {{plan for M in 1..1: gemv: 1 rows, a warp per column, predicted 15.349 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: gemv: 2 rows, a warp per column, predicted 16.035 us at M = 2}}
  // expected-remark @below {{plan for M in 3..64: wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 17.731 us at M = 64}}
  // expected-remark @below {{plan for M in 65..128: wgmma_tma: 128x128x64 tile, TMA producer + 2 consumer warpgroups, 6 stages, persistent, predicted 21.649 us at M = 128}}
  // expected-remark @below {{plan for M in 129..256: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 34.827 us at M = 256}}
  // expected-remark @below {{plan for M in 257..1024: wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 100.15 us at M = 1024}}
  // expected-remark @below {{plan for M in 1025..65536: wgmma_tma: 128x192x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 5 stages, persistent, predicted 5319.2 us at M = 65536}}
  %0 = sol.kernel @k ins(%x, %w, %b : tensor<?x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>) -> tensor<?x10240xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %wa: tensor<10240x2560xf16>, %ba: tensor<10240xf16>):
    %m = sol.matmul %a, %wa transpose_b : tensor<?x2560xf16>, tensor<10240x2560xf16> -> tensor<?x10240xf16>
    %s = sol.add %m, %ba : tensor<?x10240xf16>, tensor<10240xf16> -> tensor<?x10240xf16>
    %g = sol.gelu tanh %s : tensor<?x10240xf16>
    sol.yield %g : tensor<?x10240xf16>
  }
  return %0 : tensor<?x10240xf16>
}
}

// -----

// The SwiGLU gate/up sibling pair has one generator, wgmma_tma, and the
// static planner refuses it below one 128-row tile (whyNotSiblingWgmmaTma;
// sol-fuse does not pair siblings there, and a dynamic range reaching below
// 128 is refused the same way: tile-dynamic-invalid.mlir). A range from 128
// is planned on the sibling tiles alone, without clusters: cooperative
// 128x128 to 153, 128x256 to 256 (fewer, wider tiles while there are fewer
// tiles than SMs), then ping-pong 128x144 and, from 513, the static plan's
// 128x192 (tile.mlir). The persistent grid is the row's largest; the launch
// caps ceil(M / 128) x tiles_n at it.
// CHECK-LABEL: func.func @swiglu_siblings_from_128_rows_take_wgmma_tma_rows
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 891.36,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 128, cost = <{{[^>]*}}t_pred_us = 21.668{{[^>]*}}>>, #sol.cost_point<m = 8192, cost = <{{[^>]*}}t_pred_us = 891.36{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 128, m_max = 153, plan = <path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 154, m_max = 256, plan = <path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 257, m_max = 512, plan = <path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 513, m_max = 8192, plan = <path = wgmma_tma, tile = [128, 192, 64], warps = [1, 1], stages = 5, split_k = 1, schedule = pingpong>>]} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @swiglu_siblings_from_128_rows_take_wgmma_tma_rows(%x: tensor<?x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<?x6912xf16> attributes {sol.dim_range = #sol.dim_range<min = 128, max = 8192>} {
  // expected-remark @below {{plan for M in 128..153: wgmma_tma: 128x128x64 tile (64 columns of each weight), TMA producer + 2 consumer warpgroups, 6 stages, persistent, predicted 39.869 us at M = 153}}
  // expected-remark @below {{plan for M in 154..256: wgmma_tma: 128x256x64 tile (128 columns of each weight), TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 38.233 us at M = 256}}
  // expected-remark @below {{plan for M in 257..512: wgmma_tma: 128x144x64 tile (72 columns of each weight), TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 70.053 us at M = 512}}
  // expected-remark @below {{plan for M in 513..8192: wgmma_tma: 128x192x64 tile (96 columns of each weight), TMA producer + 2 ping-pong consumer warpgroups, 5 stages, persistent, predicted 891.36 us at M = 8192}}
  %0 = sol.kernel @k ins(%x, %wg, %wu : tensor<?x2560xf16>, tensor<6912x2560xf16>, tensor<6912x2560xf16>) -> tensor<?x6912xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %g: tensor<6912x2560xf16>, %u: tensor<6912x2560xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %s = sol.silu %mg : tensor<?x6912xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %p = sol.mul %s, %mu : tensor<?x6912xf16>, tensor<?x6912xf16> -> tensor<?x6912xf16>
    sol.yield %p : tensor<?x6912xf16>
  }
  return %0 : tensor<?x6912xf16>
}
}

// -----

// An elementwise chain has one plan at every M (256 threads of 8 halves,
// the block's 2048 elements): one row, its grid sized for the range's max;
// the launch computes ceil(M x 4096 / 2048).
// CHECK-LABEL: func.func @elementwise_chain_is_one_row
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 376.03,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 3.2076{{[^>]*}}>>, #sol.cost_point<m = 65536, cost = <{{[^>]*}}t_pred_us = 376.03{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 65536, plan = <path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>>]} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @elementwise_chain_is_one_row(%x: tensor<?x4096xf16>, %y: tensor<?x4096xf16>, %z: tensor<4096xf16>) -> tensor<?x4096xf16> {
  // expected-remark @below {{plan for M in 1..65536: elementwise: 268435456 elements, 256 threads per block, 8 per thread, predicted 376.03 us at M = 65536}}
  %0 = sol.kernel @k ins(%x, %y, %z : tensor<?x4096xf16>, tensor<?x4096xf16>, tensor<4096xf16>) -> tensor<?x4096xf16> {
  ^bb0(%a: tensor<?x4096xf16>, %b: tensor<?x4096xf16>, %c: tensor<4096xf16>):
    %s = sol.add %a, %b : tensor<?x4096xf16>, tensor<?x4096xf16> -> tensor<?x4096xf16>
    %g = sol.silu %s : tensor<?x4096xf16>
    %h = sol.mul %g, %c : tensor<?x4096xf16>, tensor<4096xf16> -> tensor<?x4096xf16>
    sol.yield %h : tensor<?x4096xf16>
  }
  return %0 : tensor<?x4096xf16>
}
}

// -----

// A module range from 0 with hints: the first row starts at 0 (M = 0
// launches nothing, so nothing is priced there), the rows are the default
// range's (the hints add sample points, no boundary moves), the last row
// ends at the range's max. `costs` has a point per hint and end but 0.
// CHECK-LABEL: func.func @range_from_zero_with_hints
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 174.53,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 6.2377{{[^>]*}}>>, #sol.cost_point<m = 16, cost = <{{[^>]*}}t_pred_us = 6.9931{{[^>]*}}>>, #sol.cost_point<m = 4096, cost = <{{[^>]*}}t_pred_us = 88.864{{[^>]*}}>>, #sol.cost_point<m = 8192, cost = <{{[^>]*}}t_pred_us = 174.53{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 0, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 8, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 9, m_max = 16, plan = <path = swap_ab, tile = [16, 32, 1024], warps = [8, 2], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 17, m_max = 32, plan = <path = swap_ab, tile = [32, 32, 512], warps = [8, 2], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 33, m_max = 192, plan = <path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 2, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 193, m_max = 384, plan = <path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 385, m_max = 576, plan = <path = wgmma_tma, tile = [64, 192, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 577, m_max = 1024, plan = <path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 1025, m_max = 6144, plan = <path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 6145, m_max = 8192, plan = <path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 0, max = 8192, hints = [1, 16, 4096]>} {
func.func @range_from_zero_with_hints(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  // expected-remark @below {{plan for M in 0..1: gemv: 1 rows, a warp per column, predicted 6.2377 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: gemv: 2 rows, a warp per column, predicted 6.4072 us at M = 2}}
  // expected-remark @below {{plan for M in 3..8: swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.9025 us at M = 8}}
  // expected-remark @below {{plan for M in 9..16: swap_ab: 16 rows, 32 columns per block, K over 8 warps, predicted 6.9931 us at M = 16}}
  // expected-remark @below {{plan for M in 17..32: swap_ab: 32 rows, 32 columns per block, K over 8 warps, predicted 7.5768 us at M = 32}}
  // expected-remark @below {{plan for M in 33..192: wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, K split over 2 units, predicted 11.874 us at M = 192}}
  // expected-remark @below {{plan for M in 385..576: wgmma_tma: 64x192x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 20.586 us at M = 576}}
  // expected-remark @below {{plan for M in 577..1024: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 27.129 us at M = 1024}}
  // expected-remark @below {{plan for M in 193..384: wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 16.003 us at M = 384}}
  // expected-remark @below {{plan for M in 1025..6144: wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 131.7 us at M = 6144}}
  // expected-remark @below {{plan for M in 6145..8192: wgmma_tma: 128x256x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 174.53 us at M = 8192}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<?x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %s = sol.add %m, %c : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    sol.yield %s : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}
}

// -----

// A decode-only range, 1..8: gemv to 2 rows and swap_ab from 3, where
// gemv's per-row work (each token another multiply of the whole weight on
// the SIMT units) costs more than swap_ab's 8-row tile, which computes 5
// rows of padding on the tensor cores: 8.0109 against 6.8806 us at 3.
// gemv's rows stay a row per M, gemv being built for its exact rows, also
// where the range ends one row past them
// (gemv_rows_are_one_per_m_then_swap_ab: 1..3, swap_ab at 3).
// CHECK-LABEL: func.func @narrow_decode_range_is_gemv_then_swap_ab
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 6.9025,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 6.2377{{[^>]*}}>>, #sol.cost_point<m = 8, cost = <{{[^>]*}}t_pred_us = 6.9025{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 8, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>]} {
// CHECK-LABEL: func.func @gemv_rows_are_one_per_m_then_swap_ab
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 6.8806,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 6.2377{{[^>]*}}>>, #sol.cost_point<m = 3, cost = <{{[^>]*}}t_pred_us = 6.8806{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 3, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>]} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @narrow_decode_range_is_gemv_then_swap_ab(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 8>} {
  // expected-remark @below {{plan for M in 1..1: gemv: 1 rows, a warp per column, predicted 6.2377 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: gemv: 2 rows, a warp per column, predicted 6.4072 us at M = 2}}
  // expected-remark @below {{plan for M in 3..8: swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.9025 us at M = 8}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<?x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %s = sol.add %m, %c : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    sol.yield %s : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}
func.func @gemv_rows_are_one_per_m_then_swap_ab(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 3>} {
  // expected-remark @below {{plan for M in 1..1: gemv: 1 rows, a warp per column, predicted 6.2377 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: gemv: 2 rows, a warp per column, predicted 6.4072 us at M = 2}}
  // expected-remark @below {{plan for M in 3..3: swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.8806 us at M = 3}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<?x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %s = sol.add %m, %c : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    sol.yield %s : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}
}

// -----

// A [?, 512, 2560] A against a rank-2 B: the 512 rows per unit of M fold
// into the matmul's rows, so even M = 1 is 512 rows (wgmma_tma from the
// start: 64x192 ping-pong tiles while 512 rows are all there is, 128x160
// at 2 x 512, cooperative 256x160 to 12 x 512, 128x256 to 59 x 512, then
// ping-pong 128x128) and
// the grid rule counts 512 rows per unit of the dim.
// CHECK-LABEL: func.func @batched_rows_fold_into_m
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 677.79,
//  CHECK-SAME:     costs = [#sol.cost_point<m = 1, cost = <{{[^>]*}}t_pred_us = 18.415{{[^>]*}}>>, #sol.cost_point<m = 64, cost = <{{[^>]*}}t_pred_us = 677.79{{[^>]*}}>>], plans = [
//  CHECK-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = wgmma_tma, tile = [64, 192, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 3, m_max = 12, plan = <path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 13, m_max = 59, plan = <path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>,
//  CHECK-SAME:     #sol.plan_entry<m_min = 60, m_max = 64, plan = <path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @batched_rows_fold_into_m(%x: tensor<?x512x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x512x2560xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-remark @below {{plan for M in 1..1: wgmma_tma: 64x192x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 18.415 us at M = 1}}
  // expected-remark @below {{plan for M in 2..2: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 26.502 us at M = 2}}
  // expected-remark @below {{plan for M in 3..12: wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 129.81 us at M = 12}}
  // expected-remark @below {{plan for M in 13..59: wgmma_tma: 128x256x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 610.95 us at M = 59}}
  // expected-remark @below {{plan for M in 60..64: wgmma_tma: 128x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 677.79 us at M = 64}}
  %0 = sol.kernel @k ins(%x, %w : tensor<?x512x2560xf16>, tensor<2560x2560xf16>) -> tensor<?x512x2560xf16> {
  ^bb0(%a: tensor<?x512x2560xf16>, %b: tensor<2560x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x512x2560xf16>, tensor<2560x2560xf16> -> tensor<?x512x2560xf16>
    sol.yield %m : tensor<?x512x2560xf16>
  }
  return %0 : tensor<?x512x2560xf16>
}
}

// -----

// A static kernel is planned as before: `plan`, `cost`, no table (the
// 16-token decode of tile.mlir).
// CHECK-LABEL: func.func @static_kernel_keeps_one_plan
//       CHECK:   sol.kernel @k
//  CHECK-SAME:     cost = #sol.cost<{{[^>]*}}t_pred_us = 6.9931,
//  CHECK-SAME:     limiter = hbm>, plan = #sol.plan<path = swap_ab, tile = [16, 32, 1024], warps = [8, 2], stages = 1, split_k = 1>} {
module attributes {sol.target = #sol.target<"h200">} {
func.func @static_kernel_keeps_one_plan(%x: tensor<16x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x2560xf16>) -> tensor<16x2560xf16> {
  // expected-remark @below {{plan swap_ab: 16 rows, 32 columns per block, K over 8 warps, predicted 6.9931 us; next swap_ab: 16 rows, 16 columns per block, K over 16 warps at 7.3184 us (103 candidates)}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<16x2560xf16>, tensor<2560x2560xf16>, tensor<16x2560xf16>) -> tensor<16x2560xf16> {
  ^bb0(%a: tensor<16x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<16x2560xf16>, tensor<2560x2560xf16> -> tensor<16x2560xf16>
    %s = sol.add %m, %c : tensor<16x2560xf16>, tensor<16x2560xf16> -> tensor<16x2560xf16>
    sol.yield %s : tensor<16x2560xf16>
  }
  return %0 : tensor<16x2560xf16>
}
}
