// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics | FileCheck %s

// The seed prefill shape is compute-bound: on sm_90a the TMA-fed wgmma path
// wins (mma.sync is priced at its measured share of the tensor-core rate,
// the cp.async-fed wgmma kernel at 0.96 of the TMA one): a persistent grid
// of 132 blocks, a TMA producer warpgroup and two ping-pong consumer
// warpgroups on 128x256x64 tiles, 4 stages, no cluster (max-cluster
// defaults to 1). With wide stores the cooperative tile's turnaround is a
// quarter of what pair stores cost, while ping-pong 128x128 tiles (the
// pick before, 164.8 + 12.8 us of K-tile handoffs now) idle the tensor
// cores at each K tile: on an H100 the plain matmul of this shape ran 176.4
// and 178.6 us on ping-pong 128x128, 173.8 and 167.5 on cooperative
// 128x256 (2026-12-07, bench/NOTES.md section 55). 256x128 ties.
// CHECK-LABEL: func.func @prefill_takes_wgmma_tma
//       CHECK:   t_pred_us = 174.53, {{.*}}, plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @prefill_takes_wgmma_tma(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  // expected-remark @+1 {{plan wgmma_tma: 128x256x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 174.53 us; next wgmma_tma: 256x128x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent at 174.53 us (24 candidates)}}
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

// Ping-pong tiles are 128 rows by 128, 144, 160 or 192 columns: the width
// that fills the last wave of 132 SMs wins. SwiGLU's gate projection
// (2048x6912): 768 tiles of 128x144 in 5.8 waves against 864 of 128x128 in
// 6.5 (H200, 2026-11-30, heated and interleaved: 126.8 against 133.1 us).
// Its down projection (2048x2560, K = 6912) has too few tiles for
// ping-pong: 256 of 128x160 leave each consumer one tile, nothing to
// overlap, so cooperative 256x160 tiles (both warpgroups on each, one tile
// per block) win: 107.0 against 121.2 us (bench/NOTES.md section 27). The
// o_proj prefill above keeps 128x128 (9.7 waves).
// CHECK-LABEL: func.func @swiglu_down_takes_256x160
//       CHECK:   plan = #sol.plan<path = wgmma_tma, tile = [256, 160, 64], warps = [2, 1], stages = 4
// CHECK-LABEL: func.func @swiglu_gate_takes_128x144
//       CHECK:   plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6
module attributes {sol.target = #sol.target<"h200">} {
func.func @swiglu_down_takes_256x160(%x: tensor<2048x6912xf16>, %w: tensor<2560x6912xf16>) -> tensor<2048x2560xf16> {
  // expected-remark @+1 {{plan wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, predicted 113.38 us; next wgmma_tma: 256x160x64 tile, TMA producer + 2 consumer warpgroups, 4 stages, persistent, K split over 2 units at 123.26 us (34 candidates)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<2048x6912xf16>, tensor<2560x6912xf16>) -> tensor<2048x2560xf16> {
  ^bb0(%a: tensor<2048x6912xf16>, %b: tensor<2560x6912xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2048x6912xf16>, tensor<2560x6912xf16> -> tensor<2048x2560xf16>
    sol.yield %m : tensor<2048x2560xf16>
  }
  return %0 : tensor<2048x2560xf16>
}
func.func @swiglu_gate_takes_128x144(%x: tensor<2048x2560xf16>, %w: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
  // expected-remark @+1 {{plan wgmma_tma: 128x144x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent}}
  %0 = sol.kernel @k ins(%x, %w : tensor<2048x2560xf16>, tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
  ^bb0(%a: tensor<2048x2560xf16>, %b: tensor<6912x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    sol.yield %m : tensor<2048x6912xf16>
  }
  return %0 : tensor<2048x6912xf16>
}
}

// -----

// Sibling matmuls (SwiGLU's gate and up over one x) run as one matmul of
// twice the width: only wgmma_tma tiles, no cluster, each tile holding half
// its columns from each weight. 128x192 (96 of each: 1152 tiles in 8.7
// waves) against 128x160 (1392 in 10.5) and 128x144 (1536 in 11.6): on the
// H200, 236.9 / 251.0 / 257.8 us, cuBLAS's two GEMMs and the product
// 280.9 (2026-11-30, bench/results/2026-11-30-h200-s5-siblings). Llama
// 1B's pair (2048 x 8192 x 2048) on the same tiles ran 238.1 us on an
// H100, where the model now says 229.1 and said 226.0 before it priced
// ping-pong's K-tile handoffs (bench/NOTES.md section 55).
// CHECK-LABEL: func.func @sibling_matmuls_take_128x192
//       CHECK:   t_pred_us = 234.23, {{.*}}, plan = #sol.plan<path = wgmma_tma, tile = [128, 192, 64], warps = [1, 1], stages = 5, split_k = 1, schedule = pingpong>
module attributes {sol.target = #sol.target<"h200">} {
func.func @sibling_matmuls_take_128x192(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
  // expected-remark @+1 {{plan wgmma_tma: 128x192x64 tile (96 columns of each weight), TMA producer + 2 ping-pong consumer warpgroups, 5 stages, persistent, predicted 234.23 us; next wgmma_tma: 128x256x64 tile (128 columns of each weight), TMA producer + 2 consumer warpgroups, 4 stages, persistent at 249.7 us (9 candidates)}}
  %0 = sol.kernel @k ins(%x, %wg, %wu : tensor<2048x2560xf16>, tensor<6912x2560xf16>, tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
  ^bb0(%a: tensor<2048x2560xf16>, %g: tensor<6912x2560xf16>, %u: tensor<6912x2560xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %s = sol.silu %mg : tensor<2048x6912xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %p = sol.mul %s, %mu : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
    sol.yield %p : tensor<2048x6912xf16>
  }
  return %0 : tensor<2048x6912xf16>
}
}

// -----

// One decode token: gemv (a warp on each of the 2560 weight rows, launch-
// bound: one pass over K, 10 steps of 0.07 us) against swap_ab, whose
// loads stream the weight at 0.84 of the HBM rate (measured on the H200,
// SwapAbPath.cpp): priced at 3.6 us for the 13.1 MB where gemv's coalesced
// rows take 3.0.
// CHECK-LABEL: func.func @decode_takes_gemv
//       CHECK:   plan = #sol.plan<path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode_takes_gemv(%x: tensor<1x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
  // expected-remark @+1 {{plan gemv: 1 rows, a warp per column, predicted 6.2377 us; next swap_ab: 8 rows, 16 columns per block, K over 16 warps at 6.8718 us (112 candidates)}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<1x1x2560xf16>, tensor<2560x2560xf16>, tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
  ^bb0(%a: tensor<1x1x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<1x1x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
    %s = sol.add %m, %c : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
    sol.yield %s : tensor<1x1x2560xf16>
  }
  return %0 : tensor<1x1x2560xf16>
}
}

// -----

// A batched B is one grid z slice per batch: the plan's choices here; the
// grid [3, 1, 3] its path derives from them is pinned where it is written,
// in the manifest (write-manifests.mlir, static_batched).
// CHECK-LABEL: func.func @batched_rhs_slices_grid_z
//       CHECK:   plan = #sol.plan<path = mma_sync, tile = [16, 16, 64], warps = [1, 1], stages = 6, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @batched_rhs_slices_grid_z(%x: tensor<3x7x64xbf16>, %w: tensor<3x64x40xbf16>) -> tensor<3x7x40xbf16> {
  // expected-remark @+1 {{plan mma_sync}}
  %0 = sol.kernel @k ins(%x, %w : tensor<3x7x64xbf16>, tensor<3x64x40xbf16>) -> tensor<3x7x40xbf16> {
  ^bb0(%a: tensor<3x7x64xbf16>, %b: tensor<3x64x40xbf16>):
    %m = sol.matmul %a, %b : tensor<3x7x64xbf16>, tensor<3x64x40xbf16> -> tensor<3x7x40xbf16>
    sol.yield %m : tensor<3x7x40xbf16>
  }
  return %0 : tensor<3x7x40xbf16>
}
}

// -----

// f32 operands have no mma.sync path.
// CHECK-LABEL: func.func @f32_takes_simt
//       CHECK:   plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @f32_takes_simt(%x: tensor<33x64xf32>, %w: tensor<77x64xf32>) -> tensor<33x77xf32> {
  // expected-remark @+1 {{plan simt: f32 operands have no mma.sync path (f16, bf16 and fp8 do)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<33x64xf32>, tensor<77x64xf32>) -> tensor<33x77xf32> {
  ^bb0(%a: tensor<33x64xf32>, %b: tensor<77x64xf32>):
    %m = sol.matmul %a, %b transpose_b : tensor<33x64xf32>, tensor<77x64xf32> -> tensor<33x77xf32>
    sol.yield %m : tensor<33x77xf32>
  }
  return %0 : tensor<33x77xf32>
}
}

// -----

// Few rows of f32: gemv has no dtype rule, so it computes them instead of
// the SIMT tile grid.
// CHECK-LABEL: func.func @few_f32_rows_take_gemv
//       CHECK:   plan = #sol.plan<path = gemv, tile = [7, 4, 4]
module attributes {sol.target = #sol.target<"h200">} {
func.func @few_f32_rows_take_gemv(%x: tensor<7x64xf32>, %w: tensor<77x64xf32>) -> tensor<7x77xf32> {
  // expected-remark @+1 {{plan gemv: 7 rows, a warp per column, predicted 3.33 us (1 candidates; no mma.sync: f32 operands have no mma.sync path (f16, bf16 and fp8 do))}}
  %0 = sol.kernel @k ins(%x, %w : tensor<7x64xf32>, tensor<77x64xf32>) -> tensor<7x77xf32> {
  ^bb0(%a: tensor<7x64xf32>, %b: tensor<77x64xf32>):
    %m = sol.matmul %a, %b transpose_b : tensor<7x64xf32>, tensor<77x64xf32> -> tensor<7x77xf32>
    sol.yield %m : tensor<7x77xf32>
  }
  return %0 : tensor<7x77xf32>
}
}

// -----

// A K that is not a multiple of 8 leaves rows of A unaligned for 16-byte
// cp.async: the SIMT path computes it instead of a wrong answer.
// CHECK-LABEL: func.func @odd_k_takes_simt
//       CHECK:   path = simt
module attributes {sol.target = #sol.target<"h200">} {
func.func @odd_k_takes_simt(%x: tensor<7x129xf16>, %w: tensor<77x129xf16>) -> tensor<7x77xf16> {
  // expected-remark @+1 {{plan simt: K = 129 is not a multiple of 8: the 16-byte cp.async loads need each row of A to start 16-byte aligned}}
  %0 = sol.kernel @k ins(%x, %w : tensor<7x129xf16>, tensor<77x129xf16>) -> tensor<7x77xf16> {
  ^bb0(%a: tensor<7x129xf16>, %b: tensor<77x129xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<7x129xf16>, tensor<77x129xf16> -> tensor<7x77xf16>
    sol.yield %m : tensor<7x77xf16>
  }
  return %0 : tensor<7x77xf16>
}
}

// -----

// In the [K, N] layout N must be a multiple of 8 too; in [N, K] it need not.
// CHECK-LABEL: func.func @odd_n_kn_layout_takes_simt
//       CHECK:   path = simt
module attributes {sol.target = #sol.target<"h200">} {
func.func @odd_n_kn_layout_takes_simt(%x: tensor<7x64xf16>, %w: tensor<64x77xf16>) -> tensor<7x77xf16> {
  // expected-remark @+1 {{plan simt: N = 77 is not a multiple of 8: the 16-byte cp.async loads of a [K, N] B need each row to start 16-byte aligned}}
  %0 = sol.kernel @k ins(%x, %w : tensor<7x64xf16>, tensor<64x77xf16>) -> tensor<7x77xf16> {
  ^bb0(%a: tensor<7x64xf16>, %b: tensor<64x77xf16>):
    %m = sol.matmul %a, %b : tensor<7x64xf16>, tensor<64x77xf16> -> tensor<7x77xf16>
    sol.yield %m : tensor<7x77xf16>
  }
  return %0 : tensor<7x77xf16>
}
}

// -----

// Without a matmul: one thread per element, a grid that covers them all.
// CHECK-LABEL: func.func @elementwise_plan
//       CHECK:   plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @elementwise_plan(%x: tensor<7x77xf16>) -> tensor<7x77xf16> {
  // expected-remark @+1 {{plan elementwise: 539 elements, 256 threads per block, 1 per thread}}
  %0 = sol.kernel @k ins(%x : tensor<7x77xf16>) -> tensor<7x77xf16> {
  ^bb0(%a: tensor<7x77xf16>):
    %s = sol.silu %a : tensor<7x77xf16>
    sol.yield %s : tensor<7x77xf16>
  }
  return %0 : tensor<7x77xf16>
}
}

// -----

// 16 bytes per thread when the innermost dim allows it: 8 f16 elements.
// CHECK-LABEL: func.func @elementwise_vectorized
//       CHECK:   plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @elementwise_vectorized(%x: tensor<7x64xf16>, %b: tensor<64xf16>) -> tensor<7x64xf16> {
  // expected-remark @+1 {{plan elementwise: 448 elements, 256 threads per block, 8 per thread}}
  %0 = sol.kernel @k ins(%x, %b : tensor<7x64xf16>, tensor<64xf16>) -> tensor<7x64xf16> {
  ^bb0(%a: tensor<7x64xf16>, %c: tensor<64xf16>):
    %s = sol.add %a, %c : tensor<7x64xf16>, tensor<64xf16> -> tensor<7x64xf16>
    sol.yield %s : tensor<7x64xf16>
  }
  return %0 : tensor<7x64xf16>
}
}

// -----

// Without sm_90a (an A100) the same shape takes the largest mma.sync tile.
// CHECK-LABEL: func.func @a100_prefill_takes_mma_sync
//       CHECK:   plan = #sol.plan<path = mma_sync, tile = [128, 128, 32], warps = [2, 2], stages = 3
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @a100_prefill_takes_mma_sync(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
  // expected-remark @+1 {{plan mma_sync: 128x128x32 tile, 2x2 warps, 3 stages}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
  ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
    sol.yield %m : tensor<8192x2560xf16>
  }
  return %0 : tensor<8192x2560xf16>
}
}

// -----

// Sixteen decode tokens: gemv would convert and multiply every element on
// the SIMT units (measured 27.85 us on the H200, priced ~29 us), so a
// tensor-core path wins: swap_ab. The weight is mma.sync's 16-row operand
// and the tokens its n8 operand (two n8 tiles, no padding); each block's 16
// warps are two groups of 16 columns, each splitting K over 8 warps: 3 trips
// of 1024, each priced at a loaded round trip of 0.8 us (2.4 us), under the
// weight's stream at 0.84 of the HBM rate (3.7 us): 7.0 us, against 7.3 for
// 16 columns with K over 16 warps, whose 160 blocks (one to an SM by the
// register budget) take two waves and re-read the tokens through L2 once a
// block (4.0 us). On mma.sync alone a tile is set by its serial K steps: 40
// of 64 at the 0.28 us floor (16x16 and 16x32 tiles, 14.5 us), 10 of 256
// (16x16x256, 160 blocks), each 0.92 us while its one warp copies 16 KB:
// 12.5 us, or 10 of 64 with K split over 4 blocks per 16x64 tile (160
// blocks), whose cp.async copies stream the weight at 0.72 of the HBM rate
// (4.3 us), plus the partials' measured 4.2 us round trip: 12.1 us (9.8-11.2
// measured).
// CHECK-LABEL: func.func @decode16_takes_swap_ab
//       CHECK:   sol_pred = {{.*}}, limiter = {{.*}}>, plan = #sol.plan<path = swap_ab, tile = [16, 32, 1024], warps = [8, 2], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode16_takes_swap_ab(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
  // expected-remark @+1 {{plan swap_ab: 16 rows, 32 columns per block, K over 8 warps, predicted 6.9931 us; next swap_ab: 16 rows, 16 columns per block, K over 16 warps at 7.3184 us (103 candidates)}}
  %0 = sol.kernel @k ins(%x, %w, %r : tensor<16x1x2560xf16>, tensor<2560x2560xf16>, tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
  ^bb0(%a: tensor<16x1x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x1x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
    %s = sol.add %m, %c : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
    sol.yield %s : tensor<16x1x2560xf16>
  }
  return %0 : tensor<16x1x2560xf16>
}
}

// -----

// A batched B (one weight per batch, a grid z slice each) is not a TMA map's
// one matrix: the cp.async-fed wgmma path takes it, and the remark says why
// TMA was out.
// CHECK-LABEL: func.func @batched_b_takes_cp_async_wgmma
//       CHECK:   plan = #sol.plan<path = wgmma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @batched_b_takes_cp_async_wgmma(%x: tensor<4x1024x1024xf16>, %w: tensor<4x1024x1024xf16>) -> tensor<4x1024x1024xf16> {
  // expected-remark @+1 {{plan wgmma: 128x256x64 tile, 2 warpgroups, 4 stages, predicted 32.937 us; next wgmma: 128x128x64 tile, 2 warpgroups, 4 stages at 37.015 us (11 candidates; no wgmma_tma: TMA maps describe one B; B is batched)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<4x1024x1024xf16>, tensor<4x1024x1024xf16>) -> tensor<4x1024x1024xf16> {
  ^bb0(%a: tensor<4x1024x1024xf16>, %b: tensor<4x1024x1024xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<4x1024x1024xf16>, tensor<4x1024x1024xf16> -> tensor<4x1024x1024xf16>
    sol.yield %m : tensor<4x1024x1024xf16>
  }
  return %0 : tensor<4x1024x1024xf16>
}
}

// -----

// TMA maps describe buffers the launcher holds: an A computed inside the
// kernel keeps the prefill shape on the cp.async-fed wgmma path.
// CHECK-LABEL: func.func @computed_lhs_takes_cp_async_wgmma
//       CHECK:   plan = #sol.plan<path = wgmma, tile = [128, 256, 64]
module attributes {sol.target = #sol.target<"h200">} {
func.func @computed_lhs_takes_cp_async_wgmma(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
  // expected-remark @+1 {{plan wgmma: 128x256x64 tile, 2 warpgroups, 4 stages, predicted 181.19 us; next wgmma: 128x128x64 tile, 2 warpgroups, 4 stages at 193.99 us (12 candidates; no wgmma_tma: TMA maps describe kernel arguments; an operand of the matmul is computed in the kernel)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
  ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
    %n = sol.neg %a : tensor<8192x2560xf16>
    %m = sol.matmul %n, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
    sol.yield %m : tensor<8192x2560xf16>
  }
  return %0 : tensor<8192x2560xf16>
}
}
