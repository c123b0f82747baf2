// RUN: sol-opt %s --split-input-file --sol-tile="remarks=true swap-ab-row-tile-64=true" -verify-diagnostics

// swap-ab-row-tile-64 (bench/NOTES.md section 46, not yet measured): past
// 32 rows weight-only swap_ab takes one 64-row tile alone instead of
// stacking 32-row blocks. Its candidates: one or two loads a trip x blocks
// whose partial sums fit 32 KB (warps over K x 16 columns x groups x 64
// rows x 4 bytes: 8, 4, 2, 1 warps over K on 16 columns, 4, 2, 1 on 32),
// less those under four warps (K = 2560 gives four warps work): 2 x 4 = 8.
// Off (every other test), no 64-row plan is allowed.
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @weight_only_past_32_rows_takes_row_tile_64(%x: tensor<64x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<64x2560xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 64 rows, {{.*}} (8 candidates; {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<64x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<64x2560xbf16> {
  ^bb0(%a: tensor<64x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<64x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<64x2560xbf16>
    sol.yield %m : tensor<64x2560xbf16>
  }
  return %0 : tensor<64x2560xbf16>
}
}

// -----

// At 32 rows nothing stacks: the 32-row tile, the option aside.
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @weight_only_at_32_rows_keeps_row_tile_32(%x: tensor<32x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<32x2560xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 32 rows, {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<32x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<32x2560xbf16> {
  ^bb0(%a: tensor<32x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<32x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<32x2560xbf16>
    sol.yield %m : tensor<32x2560xbf16>
  }
  return %0 : tensor<32x2560xbf16>
}
}
