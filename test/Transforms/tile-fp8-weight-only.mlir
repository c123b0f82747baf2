// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics

// Weight-only fp8 (docs/fp8.md, "Weight-only"): a 16-bit A against fp8
// weight codes, dequantised by scale_b. gemv is the one path that converts
// the weight alone; every other path refuses it with what it would need,
// so no kernel reads codes as 16-bit values.

// Decode: gemv streams 6.6 MB of codes where the bf16 weight is 13.1; the
// cost model prices the codes' conversion as the fp8 pair's.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_decode_takes_gemv(%x: tensor<1x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<1x2560xbf16> {
  // expected-remark @+1 {{plan gemv: 1 rows, a warp per column, predicted 5.3381 us (1 candidates; no mma.sync: fp8 is not generated here yet: mma.sync reads both operands as one type, and a weight-only fp8 matmul (bf16 A, f8E4M3FN weight codes) needs the weight's fragments converted to 16 bits (gemv converts the weight alone))}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<1x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<1x2560xbf16> {
  ^bb0(%a: tensor<1x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<1x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<1x2560xbf16>
    sol.yield %m : tensor<1x2560xbf16>
  }
  return %0 : tensor<1x2560xbf16>
}
}

// -----

// Past gemv's 16 rows no path takes it: each says why.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_past_gemv_rows_is_refused(%x: tensor<64x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<64x2560xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: no path takes this weight-only fp8 (bf16 x f8E4M3FN) matmul; gemv: 64 rows of A exceed gemv's 16; swap_ab: fp8 is not generated here yet: swap_ab reads both operands as one type}}
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

// Decode's dynamic range (the torch backend's weight-only set, 1..16 rows
// in full): a gemv kernel per M.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_dynamic_decode_takes_gemv_rows(%x: tensor<?x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<?x2560xbf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4>} {
  // expected-remark @+4 {{plan for M in 1..1: gemv: 1 rows, a warp per column}}
  // expected-remark @+3 {{plan for M in 2..2: gemv: 2 rows, a warp per column}}
  // expected-remark @+2 {{plan for M in 3..3: gemv: 3 rows, a warp per column}}
  // expected-remark @+1 {{plan for M in 4..4: gemv: 4 rows, a warp per column}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<?x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<?x2560xbf16> {
  ^bb0(%a: tensor<?x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<?x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<?x2560xbf16>
    sol.yield %m : tensor<?x2560xbf16>
  }
  return %0 : tensor<?x2560xbf16>
}
}

// -----

// A dynamic M past 16 rows names the first M no path takes.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_dynamic_past_gemv_rows_is_refused(%x: tensor<?x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<?x2560xbf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: at M = 32 (of its range 1..64): no path takes this weight-only fp8 (bf16 x f8E4M3FN) matmul; gemv: 32 rows of A exceed gemv's 16}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<?x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<?x2560xbf16> {
  ^bb0(%a: tensor<?x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<?x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<?x2560xbf16>
    sol.yield %m : tensor<?x2560xbf16>
  }
  return %0 : tensor<?x2560xbf16>
}
}

