// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics | FileCheck %s

// Eight decode tokens against a GQA k/v projection (512 x 2048): swap_ab.
// The weight is mma.sync's 16-row operand and the tokens one n8 tile, so
// no MMA row is padding past 8; 16 warps split each block's K (2048 in one
// trip), so the 32 blocks' loads are in flight at once. Each K step costs a
// loaded HBM round trip (1.9 us, measured): the most warps take the fewest
// steps. Measured on the H200 (bench/results/2026-12-04-h200-s12-skinny):
// 3.4 us against cuBLAS's 5.9 and gemv's 9.1.
// CHECK-LABEL: func.func @gqa_kv_decode8_takes_swap_ab
//       CHECK:   plan = #sol.plan<path = swap_ab, tile = [8, 16, 2048], warps = [16, 1], stages = 1, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @gqa_kv_decode8_takes_swap_ab(%x: tensor<8x2048xbf16>, %w: tensor<512x2048xbf16>) -> tensor<8x512xbf16> {
  // expected-remark @+1 {{plan swap_ab: 8 rows, 16 columns per block, K over 16 warps, predicted 6.6304 us; next swap_ab: 16 rows, 16 columns per block, K over 16 warps at 6.6581 us (112 candidates)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x2048xbf16>, tensor<512x2048xbf16>) -> tensor<8x512xbf16> {
  ^bb0(%a: tensor<8x2048xbf16>, %b: tensor<512x2048xbf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<8x2048xbf16>, tensor<512x2048xbf16> -> tensor<8x512xbf16>
    sol.yield %m : tensor<8x512xbf16>
  }
  return %0 : tensor<8x512xbf16>
}
}

// -----

// A wide weight (a 14336 x 4096 gate projection, 117 MB) leaves swap_ab:
// its fragment-shaped loads (16 rows x 64 bytes an instruction) stream HBM
// at 0.6 of the rate coalesced loads reach (measured on the H200,
// 2026-12-04: 41-60 us on every plan of 2 or more warps, where cuBLAS took
// 30-32), so the cp.async-fed mma.sync tiles are priced faster.
// CHECK-LABEL: func.func @wide_weight_leaves_swap_ab
//       CHECK:   plan = #sol.plan<path = mma_sync, tile = [16, 16, 64], warps = [1, 1], stages = 6, split_k = 1>
module attributes {sol.target = #sol.target<"h200">} {
func.func @wide_weight_leaves_swap_ab(%x: tensor<8x4096xbf16>, %w: tensor<14336x4096xbf16>) -> tensor<8x14336xbf16> {
  // expected-remark @+1 {{plan mma_sync: 16x16x64 tile, 1x1 warps, 6 stages, predicted 30.842 us; next mma_sync: 16x64x64 tile, 1x4 warps, 4 stages at 30.897 us (112 candidates)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x4096xbf16>, tensor<14336x4096xbf16>) -> tensor<8x14336xbf16> {
  ^bb0(%a: tensor<8x4096xbf16>, %b: tensor<14336x4096xbf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<8x4096xbf16>, tensor<14336x4096xbf16> -> tensor<8x14336xbf16>
    sol.yield %m : tensor<8x14336xbf16>
  }
  return %0 : tensor<8x14336xbf16>
}
}
