// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics | FileCheck %s

// Eight decode tokens against a GQA k/v projection (512 x 2048): swap_ab.
// The weight is mma.sync's 16-row operand and the tokens one n8 tile, so
// no MMA row is padding past 8; 16 warps split each block's K (2048 in one
// trip), so the 32 blocks' loads are in flight at once: 32 SMs of 16 warps,
// each warp 4 KB in flight per loaded round trip (0.8 us), pull more than
// their 32/132 of HBM. Measured on the H200 (bench/results/2026-12-04-h200-
// s13-skinny): 3.2 us against cuBLAS's 5.8.
// CHECK-LABEL: func.func @gqa_kv_decode8_takes_swap_ab
//       CHECK:   plan = #sol.plan<path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @gqa_kv_decode8_takes_swap_ab(%x: tensor<8x2048xbf16>, %w: tensor<512x2048xbf16>) -> tensor<8x512xbf16> {
  // expected-remark @+1 {{plan swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 4.0434 us; next swap_ab: 16 rows, 16 columns per block, K over 16 warps at 4.0711 us (112 candidates)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x2048xbf16>, tensor<512x2048xbf16>) -> tensor<8x512xbf16> {
  ^bb0(%a: tensor<8x2048xbf16>, %b: tensor<512x2048xbf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<8x2048xbf16>, tensor<512x2048xbf16> -> tensor<8x512xbf16>
    sol.yield %m : tensor<8x512xbf16>
  }
  return %0 : tensor<8x512xbf16>
}
}

// -----

// A wide weight (a 14336 x 4096 gate projection, 117 MB) at 8 rows: swap_ab
// streams it at 0.84 of the HBM rate (35.8 us), and the 64-row TMA tiles,
// 112 blocks whose stage rings keep ~200 KB each in flight, at the whole
// rate (32.2 us; bench/NOTES.md section 37). Measured, the two are close:
// on the H200 (2026-12-04, bench/results/2026-12-04-h200-s13-skinny)
// swap_ab ran 34.3 us (cuBLAS 32.2) and these tiles 34.4 at 64 rows
// (2026-12-05, -s14-mid); on an H100 in one run (2026-12-05,
// -h100-s15-refit) 43.9 us against swap_ab's 44.5 (cuBLAS 41.7).
// CHECK-LABEL: func.func @wide_weight_takes_tma_tiles
//       CHECK:   plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 1, schedule = pingpong>
module attributes {sol.target = #sol.target<"h200">} {
func.func @wide_weight_takes_tma_tiles(%x: tensor<8x4096xbf16>, %w: tensor<14336x4096xbf16>) -> tensor<8x14336xbf16> {
  // expected-remark @+1 {{plan wgmma_tma: 64x128x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 32.062 us; next wgmma_tma: 64x192x64 tile, TMA producer + 2 ping-pong consumer warpgroups, 6 stages, persistent at 32.866 us (112 candidates)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x4096xbf16>, tensor<14336x4096xbf16>) -> tensor<8x14336xbf16> {
  ^bb0(%a: tensor<8x4096xbf16>, %b: tensor<14336x4096xbf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<8x4096xbf16>, tensor<14336x4096xbf16> -> tensor<8x14336xbf16>
    sol.yield %m : tensor<8x14336xbf16>
  }
  return %0 : tensor<8x14336xbf16>
}
}
