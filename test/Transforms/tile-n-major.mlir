// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-tile="remarks=true n-major-tma=false" 2>&1 | FileCheck %s --check-prefix=OFF

// n-major-tma=false (for A/B measurements) keeps a [K, N] weight off
// wgmma_tma's N-major reading, and the remark says the option did it.
//       OFF: remark: plan mma_sync: {{.*}}; no wgmma_tma: n-major-tma=false holds a [K, N] weight back from it)
// OFF-LABEL: func.func @n_major_weight_takes_wgmma_tma
//       OFF:   plan = #sol.plan<path = mma_sync
// OFF-LABEL: func.func @n_major_weight_with_odd_n_has_no_tma
//       OFF:   plan = #sol.plan<path = simt

// A [K, N] weight (GPT-2's Conv1D) takes the TMA kernel, which reads it
// N-major in 64-column boxes: only tiles whose width is a multiple of 64
// are offered, without a cluster (19 candidates); on by default since the
// GPU matrix passed it (H200, 2026-12-01, bench/results/
// 2026-12-01-h200-s6-matrix). Before, only mma.sync
// took such a weight: 108-157 us against cuBLAS's 36-52 us at GPT-2's
// 2048-row layers (H200, 2026-12-01, bench/results/
// 2026-12-01-h200-models-gpt2-sol-report.txt).
// CHECK-LABEL: func.func @n_major_weight_takes_wgmma_tma
//       CHECK:   t_pred_us = 47.775, {{.*}}, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>
module attributes {sol.target = #sol.target<"h200">} {
func.func @n_major_weight_takes_wgmma_tma(%x: tensor<2048x1280xf16>, %w: tensor<1280x5120xf16>, %b: tensor<5120xf16>) -> tensor<2048x5120xf16> {
  // expected-remark @+1 {{plan wgmma_tma: 128x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent, predicted 47.775 us; next wgmma_tma: 128x128x64 tile, TMA producer + 2 consumer warpgroups, 6 stages, persistent at 52.078 us (19 candidates)}}
  %0 = sol.kernel @k ins(%x, %w, %b : tensor<2048x1280xf16>, tensor<1280x5120xf16>, tensor<5120xf16>) -> tensor<2048x5120xf16> {
  ^bb0(%a: tensor<2048x1280xf16>, %bw: tensor<1280x5120xf16>, %c: tensor<5120xf16>):
    %m = sol.matmul %a, %bw : tensor<2048x1280xf16>, tensor<1280x5120xf16> -> tensor<2048x5120xf16>
    %s = sol.add %m, %c : tensor<2048x5120xf16>, tensor<5120xf16> -> tensor<2048x5120xf16>
    sol.yield %s : tensor<2048x5120xf16>
  }
  return %0 : tensor<2048x5120xf16>
}
}

// -----

// The same [K, N] weight with N = 5124: a TMA map's rows must be 16-byte
// aligned, and so must mma.sync's cp.async rows: SIMT.
// CHECK-LABEL: func.func @n_major_weight_with_odd_n_has_no_tma
//       CHECK:   plan = #sol.plan<path = simt
module attributes {sol.target = #sol.target<"h200">} {
func.func @n_major_weight_with_odd_n_has_no_tma(%x: tensor<2048x1280xf16>, %w: tensor<1280x5124xf16>) -> tensor<2048x5124xf16> {
  // expected-remark @+1 {{plan simt: N = 5124 is not a multiple of 8: the 16-byte cp.async loads of a [K, N] B need each row to start 16-byte aligned}}
  %0 = sol.kernel @k ins(%x, %w : tensor<2048x1280xf16>, tensor<1280x5124xf16>) -> tensor<2048x5124xf16> {
  ^bb0(%a: tensor<2048x1280xf16>, %bw: tensor<1280x5124xf16>):
    %m = sol.matmul %a, %bw : tensor<2048x1280xf16>, tensor<1280x5124xf16> -> tensor<2048x5124xf16>
    sol.yield %m : tensor<2048x5124xf16>
  }
  return %0 : tensor<2048x5124xf16>
}
}
