// RUN: sol-opt %s --split-input-file --sol-tile="paths=wgmma_tma max-cluster=1" | FileCheck %s --check-prefix=NOCLUSTER
// RUN: sol-opt %s --split-input-file --sol-tile="paths=wgmma,mma_sync" | FileCheck %s --check-prefix=CPASYNC
// RUN: not sol-opt %s --split-input-file --sol-tile="paths=tma" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// sol-tile's constraints pin the path for A/B measurements: TMA without a
// cluster (persistent, one block per SM, cluster elided from the plan), or
// only the cp.async-fed paths.
// NOCLUSTER-LABEL: func.func @prefill_under_constraints
//       NOCLUSTER:   plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1, grid = [132, 1, 1], block = [384, 1, 1], smem = 197696>
// CPASYNC-LABEL: func.func @prefill_under_constraints
//       CPASYNC:   plan = #sol.plan<path = wgmma, tile = [128, 256, 64]
// UNKNOWN: error: sol-tile: unknown path 'tma' in paths=tma
module attributes {sol.target = #sol.target<"h200">} {
func.func @prefill_under_constraints(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  ^bb0(%a: tensor<16x512x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x512x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %s = sol.add %m, %c : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    sol.yield %s : tensor<16x512x2560xf16>
  }
  return %0 : tensor<16x512x2560xf16>
}
}
