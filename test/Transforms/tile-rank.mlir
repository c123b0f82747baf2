// RUN: sol-opt %s --split-input-file --sol-tile > %t.default
// RUN: sol-opt %s --split-input-file --sol-tile=rank=0 > %t.rank0
// RUN: diff %t.default %t.rank0
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.default
// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT-REMARK
// RUN: sol-opt %s --split-input-file --sol-tile="remarks=true rank=1" 2> %t.rank1 | FileCheck %s --check-prefix=RANK1
// RUN: FileCheck %s --check-prefix=RANK1-REMARK < %t.rank1
// RUN: sol-opt %s --split-input-file --sol-tile="remarks=true rank=1000" 2> %t.last | FileCheck %s --check-prefix=LAST
// RUN: FileCheck %s --check-prefix=LAST-REMARK < %t.last
// RUN: not sol-opt %s --split-input-file --sol-tile=rank=-1 2>&1 | FileCheck %s --check-prefix=ERROR

// sol-tile's rank=K takes the K-th candidate in the cost model's order
// instead of the best: what measured plan choice (the torch backend's
// `tune`, issue 19) compiles in turn and times. rank=0 is the default
// choice, byte for byte (the diff above, over every case here).

// The seed's o_proj + residual at 2048 rows: 34 candidates, the cooperative
// 256x160 tile best (one wave of 128 tiles).
// DEFAULT-LABEL: func.func @rank_zero_is_the_default_plan
//       DEFAULT:   plan = #sol.plan<path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @rank_zero_is_the_default_plan(%x: tensor<2048x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<2048x2560xf16>, tensor<2560x2560xf16>, tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  ^bb0(%a: tensor<2048x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<2048x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    %s = sol.add %m, %c : tensor<2048x2560xf16>, tensor<2048x2560xf16> -> tensor<2048x2560xf16>
    sol.yield %s : tensor<2048x2560xf16>
  }
  return %0 : tensor<2048x2560xf16>
}
}

// -----

// rank=1 takes the runner-up the default remark names, and says so with
// the best beside it.
// RANK1-LABEL: func.func @rank_one_is_the_runner_up
//       RANK1:   plan = #sol.plan<path = wgmma_tma, tile = [128, 160, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>
module attributes {sol.target = #sol.target<"h200">} {
func.func @rank_one_is_the_runner_up(%x: tensor<2048x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  // DEFAULT-REMARK: {{.*}}tile-rank.mlir:[[@LINE+2]]:{{[0-9]+}}: remark: plan wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 46.032 us; next wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent at 49.321 us (34 candidates)
  // RANK1-REMARK: {{.*}}tile-rank.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: plan rank 1 of 34: wgmma_tma: 128x160x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 49.321 us; best wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent at 46.032 us (34 candidates)
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<2048x2560xf16>, tensor<2560x2560xf16>, tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  ^bb0(%a: tensor<2048x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<2048x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    %s = sol.add %m, %c : tensor<2048x2560xf16>, tensor<2048x2560xf16> -> tensor<2048x2560xf16>
    sol.yield %s : tensor<2048x2560xf16>
  }
  return %0 : tensor<2048x2560xf16>
}
}

// -----

// A rank past the candidates takes the last (the slowest predicted).
// LAST-LABEL: func.func @rank_past_the_candidates_is_the_last
//       LAST:   plan = #sol.plan<path = mma_sync, tile = [16, 16, 256], warps = [1, 1], stages = 4, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @rank_past_the_candidates_is_the_last(%x: tensor<2048x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  // LAST-REMARK: {{.*}}tile-rank.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: plan rank 33 of 34 (asked 1000: the last candidate): mma_sync: 16x16x256 tile, 1x1 warps, 4 stages, predicted 622.07 us; best wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent at 46.032 us (34 candidates)
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<2048x2560xf16>, tensor<2560x2560xf16>, tensor<2048x2560xf16>) -> tensor<2048x2560xf16> {
  ^bb0(%a: tensor<2048x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<2048x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    %s = sol.add %m, %c : tensor<2048x2560xf16>, tensor<2048x2560xf16> -> tensor<2048x2560xf16>
    sol.yield %s : tensor<2048x2560xf16>
  }
  return %0 : tensor<2048x2560xf16>
}
}

// -----

// A dynamic kernel's table takes the rank at each sample point, before
// neighbours of one plan merge: at rank 1 the runner-ups of M = 1..16
// (swap_ab's 8-row tile with K over 16 warps, gemv's runner-up at 1 and 2;
// the same tile with K over 8 warps, its runner-up at 4 and 8, a tie: both
// wait on the weight's HBM stream; at 16, where 16-row tiles of 32 columns
// with K over 8 warps are best, 16 columns with K over 16). Its boundaries
// are priced at rank 0 (the pair's own choice): where that never flips
// (here a tie all along), a row ends at the sample before the next row's
// plan.
// DEFAULT-LABEL: func.func @plan_table_takes_the_rank_at_each_sample_point
//      DEFAULT:   sol.kernel @k
//  DEFAULT-SAME:   plans = [
//  DEFAULT-SAME:     #sol.plan_entry<m_min = 1, m_max = 1, plan = <path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  DEFAULT-SAME:     #sol.plan_entry<m_min = 2, m_max = 2, plan = <path = gemv, tile = [2, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
//  DEFAULT-SAME:     #sol.plan_entry<m_min = 3, m_max = 8, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>,
//  DEFAULT-SAME:     #sol.plan_entry<m_min = 9, m_max = 16, plan = <path = swap_ab, tile = [16, 32, 1024], warps = [8, 2], stages = 1, split_k = 1>>]
// RANK1-LABEL: func.func @plan_table_takes_the_rank_at_each_sample_point
//        RANK1:   sol.kernel @k
//  RANK1-SAME:   plans = [
//  RANK1-SAME:     #sol.plan_entry<m_min = 1, m_max = 3, plan = <path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>,
//  RANK1-SAME:     #sol.plan_entry<m_min = 4, m_max = 8, plan = <path = swap_ab, tile = [8, 16, 1024], warps = [8, 1], stages = 1, split_k = 1>>,
//  RANK1-SAME:     #sol.plan_entry<m_min = 9, m_max = 16, plan = <path = swap_ab, tile = [16, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>>]}
module attributes {sol.target = #sol.target<"h200">} {
func.func @plan_table_takes_the_rank_at_each_sample_point(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x2560xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 16>} {
  // RANK1-REMARK: {{.*}}tile-rank.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: plan for M in 1..3: swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.8759 us at M = 3; ends where the next plan wins: at 3 swap_ab 8x16x2048 6.8759 us against swap_ab 8x16x1024 6.8759 us (a tie within 0.1%, to the fewer padded outputs, then to the plan listed first); at 4 swap_ab 8x16x1024 6.8787 us against swap_ab 8x16x2048 6.8787 us (a tie within 0.1%, to the fewer padded outputs, then to the plan listed first)
  // RANK1-REMARK: {{.*}}tile-rank.mlir:[[@LINE+2]]:{{[0-9]+}}: remark: plan for M in 4..8: swap_ab: 8 rows, 16 columns per block, K over 8 warps
  // RANK1-REMARK: {{.*}}tile-rank.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: plan for M in 9..16: swap_ab: 16 rows, 16 columns per block, K over 16 warps
  %0 = sol.kernel @k ins(%x, %w : tensor<?x2560xf16>, tensor<2560x2560xf16>) -> tensor<?x2560xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    sol.yield %m : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}
}

// -----

// A kernel one path takes alone has its one plan at every rank.
// LAST-LABEL: func.func @lone_plan_has_no_rank
//       LAST:   plan = #sol.plan<path = elementwise
module attributes {sol.target = #sol.target<"h200">} {
func.func @lone_plan_has_no_rank(%x: tensor<64x256xf16>, %y: tensor<64x256xf16>) -> tensor<64x256xf16> {
  // LAST-REMARK: {{.*}}tile-rank.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: plan elementwise: 16384 elements
  %0 = sol.kernel @k ins(%x, %y : tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16> {
  ^bb0(%a: tensor<64x256xf16>, %b: tensor<64x256xf16>):
    %s = sol.add %a, %b : tensor<64x256xf16>, tensor<64x256xf16> -> tensor<64x256xf16>
    sol.yield %s : tensor<64x256xf16>
  }
  return %0 : tensor<64x256xf16>
}
}

// -----

// A negative rank is an error on the module.
// ERROR: tile-rank.mlir:{{[0-9]+}}:{{[0-9]+}}: error: sol-tile: rank must be at least 0 (0: the cost model's best plan; got -1)
module attributes {sol.target = #sol.target<"h200">} {
func.func @negative_rank_is_an_error() {
  return
}
}
