// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics

// Weight-only fp8 (docs/fp8.md, "Weight-only"): a 16-bit A against fp8
// weight codes, dequantised by scale_b. gemv and swap_ab are the paths that
// convert the weight alone (gemv to f32 for its FMAs, swap_ab to A's type
// for its MMAs); every other path refuses it with what it would need, so no
// kernel reads codes as 16-bit values.

// Decode: the codes are 6.6 MB where the bf16 weight is 13.1, and both
// converting paths are priced on them; at one row on the H200 the model
// puts swap_ab's 8-row tile (its converted fragments on tensor cores) a
// little ahead of gemv's SIMT FMAs (5.34 us). This pins today's model, not
// the faster plan: measured on an H100 (bench/NOTES.md section 40) gemv ran
// this shape 1.2x faster (5.4 against 6.5 us); the refit is open.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_decode_takes_a_converting_path(%x: tensor<1x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<1x2560xbf16> {
  // expected-remark @+1 {{plan swap_ab: 8 rows, 16 columns per block, K over 8 warps, predicted 5.0672 us; next swap_ab: 8 rows, 32 columns per block, K over 8 warps at 5.0673 us (35 candidates; no mma.sync: fp8 is not generated here yet: mma.sync reads both operands as one type, and a weight-only fp8 matmul (bf16 A, f8E4M3FN weight codes) needs the weight's fragments converted to 16 bits (gemv and swap_ab convert the weight alone))}}
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

// Up to 16 rows the codes may take twice the loads a trip (bench/NOTES.md
// section 42: on an H100, 8 warps of 8 loads ran 0.79-0.88x the time of 16
// warps of 4 at 1-16 rows of 4096x4096). The model prices the two alike
// (the same bytes in flight) and the tie goes to the doubled trip, listed
// first; at K = 2560 above, the doubled trip's fewer warps price slower.
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @weight_only_doubles_loads_a_trip(%x: tensor<8x4096xbf16>, %w: tensor<4096x4096xf8E4M3FN>, %sw: tensor<4096xf32>) -> tensor<8x4096xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 8 rows, 16 columns per block, K over 8 warps, 8 loads a trip, predicted {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<8x4096xbf16>, tensor<4096x4096xf8E4M3FN>, tensor<4096xf32>) -> tensor<8x4096xbf16> {
  ^bb0(%a: tensor<8x4096xbf16>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<4096xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<4096xf32>)
        : tensor<8x4096xbf16>, tensor<4096x4096xf8E4M3FN> -> tensor<8x4096xbf16>
    sol.yield %m : tensor<8x4096xbf16>
  }
  return %0 : tensor<8x4096xbf16>
}
}

// -----

// 29 rows (past gemv's 16): swap_ab's four n8 token tiles.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_past_gemv_rows_takes_swap_ab(%x: tensor<29x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<29x2560xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 32 rows, {{.*}} columns per block, K over {{.*}} warps, predicted {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<29x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<29x2560xbf16> {
  ^bb0(%a: tensor<29x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<29x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<29x2560xbf16>
    sol.yield %m : tensor<29x2560xbf16>
  }
  return %0 : tensor<29x2560xbf16>
}
}

// -----

// Past 32 rows no other path converts the codes: swap_ab stacks 32-row
// blocks along M (two here), each streaming the codes again, mostly from
// L2, as the model prices them. On 32-row tiles of codes a K step converts
// and feeds four n8 tiles (1.22 us) and each round of resident blocks pays
// 2.66 us besides (bench/NOTES.md section 45: measured on an H100, where
// the 8-warp plan the bytes alone chose ran 1.5x slower than 4 warps);
// blocks of one or two warps are not offered (6 candidates, not 8).
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_past_32_rows_stacks_swap_ab_blocks(%x: tensor<64x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<64x2560xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 32 rows, 16 columns per block, K over 4 warps, predicted 12.303 us; next swap_ab: 32 rows, 32 columns per block, K over 4 warps at 12.414 us (6 candidates; {{.*}}}}
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

// A weight whose K is not a multiple of 16 codes fits neither path's
// 128-bit loads.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_unaligned_k_is_refused(%x: tensor<8x200xbf16>, %w: tensor<64x200xf8E4M3FN>, %sw: tensor<64xf32>) -> tensor<8x64xbf16> {
  // expected-error-re @+1 {{sol-tile: cannot plan kernel @k: no path takes this weight-only fp8 (bf16 x f8E4M3FN) matmul; gemv: {{.*}}; swap_ab: K = 200 is not a multiple of 16: swap_ab's 128-bit loads need aligned rows{{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<8x200xbf16>, tensor<64x200xf8E4M3FN>, tensor<64xf32>) -> tensor<8x64xbf16> {
  ^bb0(%a: tensor<8x200xbf16>, %b: tensor<64x200xf8E4M3FN>, %sb: tensor<64xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<64xf32>)
        : tensor<8x200xbf16>, tensor<64x200xf8E4M3FN> -> tensor<8x64xbf16>
    sol.yield %m : tensor<8x64xbf16>
  }
  return %0 : tensor<8x64xbf16>
}
}

// -----

// Decode's dynamic range (the torch backend's weight-only set, 1..32 rows
// in full): the model's plan per M range, one swap_ab 8-row kernel for 1..4
// rows here.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_dynamic_decode_plans_each_range(%x: tensor<?x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<?x2560xbf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4>} {
  // expected-remark @+1 {{plan for M in 1..4: swap_ab: 8 rows, 16 columns per block, K over 8 warps, predicted 5.076 us at M = 4; ends at the range's max}}
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

// The torch backend's weight-only set (1..64 rows): a plan per M range,
// the 32-row tile from 17 rows on, its grid's rows following M (one block
// row to 32, two past it). Two block rows make twice the blocks, so twice
// the rounds of 8-warp blocks at a round's fixed cost (section 45): past
// 32 rows the 4-warp blocks, each walking twice the K, price faster.
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_dynamic_to_64_rows_plans_each_range(%x: tensor<?x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<?x2560xbf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-remark-re @+5 {{plan for M in 1..6: swap_ab: 8 rows, 16 columns per block, {{.*}}}}
  // expected-remark-re @+4 {{plan for M in 7..8: swap_ab: 8 rows, 32 columns per block, {{.*}}}}
  // expected-remark-re @+3 {{plan for M in 9..16: swap_ab: 16 rows, 32 columns per block, {{.*}}}}
  // expected-remark-re @+2 {{plan for M in 17..32: swap_ab: 32 rows, 16 columns per block, K over 8 warps, predicted 9.7468 us at M = 32; ends where the next plan wins{{.*}}}}
  // expected-remark-re @+1 {{plan for M in 33..64: swap_ab: 32 rows, 16 columns per block, K over 4 warps, predicted 12.303 us at M = 64; ends at the range's max}}
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

// A K of 64 codes gives one warp a trip and no more: the 32-row tile's
// blocks of one or two warps are all there is, and they stay (four warps
// or more are preferred only where K gives them work).
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @weight_only_short_k_keeps_small_blocks(%x: tensor<40x64xbf16>, %w: tensor<16x64xf8E4M3FN>, %sw: tensor<16xf32>) -> tensor<40x16xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: 32 rows, {{.*}} columns per block, K over 1 warp, predicted {{.*}} (2 candidates; {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<40x64xbf16>, tensor<16x64xf8E4M3FN>, tensor<16xf32>) -> tensor<40x16xbf16> {
  ^bb0(%a: tensor<40x64xbf16>, %b: tensor<16x64xf8E4M3FN>, %sb: tensor<16xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<16xf32>)
        : tensor<40x64xbf16>, tensor<16x64xf8E4M3FN> -> tensor<40x16xbf16>
    sol.yield %m : tensor<40x16xbf16>
  }
  return %0 : tensor<40x16xbf16>
}
}
