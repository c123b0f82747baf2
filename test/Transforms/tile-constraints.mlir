// RUN: sol-opt %s --split-input-file --sol-tile="max-cluster=2" | FileCheck %s --check-prefix=CLUSTER
// RUN: sol-opt %s --split-input-file --sol-tile="paths=wgmma,mma_sync" | FileCheck %s --check-prefix=CPASYNC
// RUN: sol-opt %s --split-input-file --sol-tile="max-cluster=2 schedules=cooperative" | FileCheck %s --check-prefix=COOP
// RUN: not sol-opt %s --split-input-file --sol-tile="paths=tma" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not sol-opt %s --split-input-file --sol-tile="schedules=pingpong,zigzag" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-SCHEDULE
// RUN: not sol-opt %s --split-input-file --sol-tile="tiles=128x256 min-cluster=2 max-cluster=2" 2>/dev/null | FileCheck %s --check-prefix=FORCED
// RUN: not sol-opt %s --split-input-file --sol-tile="tiles=128x256,128" 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// RUN: not sol-opt %s --split-input-file --sol-tile="tiles=128x160 min-cluster=2 max-cluster=2" 2>&1 | FileCheck %s --check-prefix=WIDE-CLUSTER

// sol-tile's constraints widen or narrow the choice for A/B measurements:
// allowing 2-CTA clusters changes nothing for the prefill shape: its plan,
// cooperative 128x256 tiles, is bound by the tensor cores, not by the B
// re-reads a cluster would halve (ping-pong 128x128 tiles, which re-read
// more, pay their K-tile handoffs and, in a cluster, the coupling of the
// blocks). With only the cooperative schedule, the same plan.
// Allowing only the cp.async-fed paths, the cp.async wgmma kernel.
// CLUSTER-LABEL: func.func @prefill_under_constraints
//       CLUSTER:   plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>
// COOP-LABEL: func.func @prefill_under_constraints
//       COOP:   plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>
// CPASYNC-LABEL: func.func @prefill_under_constraints
//       CPASYNC:   plan = #sol.plan<path = wgmma, tile = [128, 256, 64]
// With tiles and min-cluster a measurement pins one plan the model would
// not take: cooperative 128x256 tiles on 2-CTA clusters.
// FORCED-LABEL: func.func @prefill_under_constraints
//       FORCED:   plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1, cluster = 2>
// BAD-TILE: error: sol-tile: tile '128' in tiles=128x256,128 is not MxN
// The ping-pong tiles wider than 128 ran on the GPU without clusters only,
// so they are not offered with one: pinning 128x160 on clusters leaves the
// prefill no plan.
// WIDE-CLUSTER: error: sol-tile: cannot plan kernel @k: no plan the constraints allow (tiles, schedules, min-cluster, split-k) can compute this matmul
// UNKNOWN: error: sol-tile: unknown path 'tma' in paths=tma
// UNKNOWN-SCHEDULE: error: sol-tile: unknown schedule 'zigzag' in schedules=pingpong,zigzag
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

// -----

// Constraints can leave a matmul with no path: on an A100 (no wgmma) with
// only wgmma_tma allowed, the f16 matmul cannot be planned, and sol-tile
// says so rather than pick a path it was told not to.
// RUN: not sol-opt %s --split-input-file --sol-tile="paths=wgmma_tma" 2>&1 | FileCheck %s --check-prefix=NOPATH
// NOPATH: error: sol-tile: cannot plan kernel @k: no allowed path can compute this matmul
// The A100 has no clusters, so min-cluster=2 leaves it no plan either:
// RUN: not sol-opt %s --split-input-file --sol-tile="tiles=128x256 min-cluster=2 max-cluster=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOCLUSTER
// NOCLUSTER: error: sol-tile: cannot plan kernel @k: no plan the constraints allow (tiles, schedules, min-cluster, split-k) can compute this matmul
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @a100_only_tma(%x: tensor<256x256xf16>, %w: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %0 = sol.kernel @k ins(%x, %w : tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf16> {
  ^bb0(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    sol.yield %m : tensor<256x256xf16>
  }
  return %0 : tensor<256x256xf16>
}
}

