// RUN: sol-opt %s --split-input-file --sol-tile="paths=swap_ab" -verify-diagnostics

// Where the user allows swap_ab alone and it cannot compute the matmul, the
// error says why: it serves at most four n8 tiles of tokens
module attributes {sol.target = #sol.target<"h200">} {
func.func @rows_past_four_n8_tiles(%x: tensor<33x2048xbf16>, %w: tensor<2048x2048xbf16>) -> tensor<33x2048xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: no allowed path can compute this matmul; swap_ab: 33 rows of A exceed swap_ab's 32 (four n8 tiles)}}
  %0 = sol.kernel @k ins(%x, %w : tensor<33x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<33x2048xbf16> {
  ^bb0(%a: tensor<33x2048xbf16>, %b: tensor<2048x2048xbf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<33x2048xbf16>, tensor<2048x2048xbf16> -> tensor<33x2048xbf16>
    sol.yield %m : tensor<33x2048xbf16>
  }
  return %0 : tensor<33x2048xbf16>
}
}

// -----

// and loads the weight's rows ([N, K]) into fragments. (A K that 128-bit
// loads cannot reach falls to the SIMT fallback, which takes any matmul.)
module attributes {sol.target = #sol.target<"h200">} {
func.func @k_by_n_weight(%x: tensor<8x2048xbf16>, %w: tensor<2048x512xbf16>) -> tensor<8x512xbf16> {
  // expected-error @+1 {{no allowed path can compute this matmul; swap_ab: swap_ab loads rows of an [N, K] weight into MMA fragments; B is [K, N]}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x2048xbf16>, tensor<2048x512xbf16>) -> tensor<8x512xbf16> {
  ^bb0(%a: tensor<8x2048xbf16>, %b: tensor<2048x512xbf16>):
    %m = sol.matmul %a, %b : tensor<8x2048xbf16>, tensor<2048x512xbf16> -> tensor<8x512xbf16>
    sol.yield %m : tensor<8x512xbf16>
  }
  return %0 : tensor<8x512xbf16>
}
}

