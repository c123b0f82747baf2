// RUN: sol-opt %s --split-input-file --sol-tile=remarks=true -verify-diagnostics
// RUN: rm -rf %t.d && not sol-opt %s --split-input-file --sol-to-ptx=out-dir=%t.d 2>&1 | FileCheck %s --check-prefix=PTX

// The wgmma_tma path takes fp8 matmuls (docs/fp8.md, section 5) with a K
// tile of 128 fp8 elements (one 128-byte swizzle row); every other path
// refuses them with its reason (the remark names the runner-up refusal), so
// nothing reads fp8 as another float. Quantising (a cast to fp8, an fp8
// result) is every generator's epilogue's (cvt.rn.satfinite, sm_89 and
// newer): before sm_89 sol-tile and the whole pipeline refuse it at the
// kernel, with the reason.

// Prefill, per-token and per-channel scales: 256 rows fill more SMs with
// 64-row ping-pong tiles (80 tiles) than with 128-row ones (40).
module attributes {sol.target = #sol.target<"h200">} {
func.func @prefill(%x: tensor<256x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<256x1xf32>, %sw: tensor<2560xf32>) -> tensor<256x2560xbf16> {
  // expected-remark @+1 {{plan wgmma_tma: 64x128x128 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 8.3937 us}}
  %0 = sol.kernel @fp8_oproj ins(%x, %w, %sx, %sw : tensor<256x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<256x1xf32>, tensor<2560xf32>) -> tensor<256x2560xbf16> {
  ^bb0(%a: tensor<256x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<256x1xf32>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<256x1xf32>) scale_b(%sb : tensor<2560xf32>)
        : tensor<256x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<256x2560xbf16>
    sol.yield %m : tensor<256x2560xbf16>
  }
  return %0 : tensor<256x2560xbf16>
}
}

// -----

// Decode (gemv's shape: one row, an [N, K] weight, K a multiple of 16),
// e5m2 x e4m3: gemv converts both operands' codes pairwise to f16 and
// streams the weight once, 6.6 MB where the bf16 weight is 13.1.
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode(%x: tensor<1x2560xf8E5M2>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<1x2560xf16> {
  // expected-remark @+1 {{plan gemv: 1 rows, a warp per column, predicted 5.3381 us; next wgmma_tma: 64x128x128 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, K split over 2 units}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<1x2560xf8E5M2>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<1x2560xf16> {
  ^bb0(%a: tensor<1x2560xf8E5M2>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<1x2560xf8E5M2>, tensor<2560x2560xf8E4M3FN> -> tensor<1x2560xf16>
    sol.yield %m : tensor<1x2560xf16>
  }
  return %0 : tensor<1x2560xf16>
}
}

// -----

// Decode at 8 rows of the same shape: the cost model prices gemv's SIMT
// work for eight rows of codes past the TMA kernel's 64-row tile.
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode_8_rows(%x: tensor<8x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<8x1xf32>) -> tensor<8x2560xbf16> {
  // expected-remark @+1 {{plan wgmma_tma: 64x128x128 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, K split over 2 units}}
  %0 = sol.kernel @k8 ins(%x, %w, %sx : tensor<8x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<8x1xf32>) -> tensor<8x2560xbf16> {
  ^bb0(%a: tensor<8x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<8x1xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<8x1xf32>)
        : tensor<8x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<8x2560xbf16>
    sol.yield %m : tensor<8x2560xbf16>
  }
  return %0 : tensor<8x2560xbf16>
}
}

// -----

// Before sm_89 PTX has no fp8 conversion, so gemv refuses fp8 there, with
// its reason (a hypothetical sm_80 part with an fp8 peak: the cost model
// would price it; no path generates it).
module attributes {sol.target = #sol.target<name = "sm80-fp8", chip = "sm_80", sm_count = 108, clock_mhz = 1410, f16_tflops = 312.0, bf16_tflops = 312.0, tf32_tflops = 156.0, fp8_tflops = 624.0, f32_simt_tflops = 19.5, hbm_gbps = 2039.0, l2_gbps = 7219.0, l2_bytes = 41943040, smem_per_sm_bytes = 167936, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
func.func @decode_before_sm89(%x: tensor<1x256xf8E4M3FN>, %w: tensor<64x256xf8E4M3FN>) -> tensor<1x64xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k80: no path takes this f8E4M3FN matmul; gemv: gemv converts fp8 in registers (cvt's e4m3x2 and e5m2x2 forms), which needs sm_89 or newer; the target is sm_80}}
  %0 = sol.kernel @k80 ins(%x, %w : tensor<1x256xf8E4M3FN>, tensor<64x256xf8E4M3FN>) -> tensor<1x64xbf16> {
  ^bb0(%a: tensor<1x256xf8E4M3FN>, %b: tensor<64x256xf8E4M3FN>):
    %m = sol.matmul %a, %b transpose_b : tensor<1x256xf8E4M3FN>, tensor<64x256xf8E4M3FN> -> tensor<1x64xbf16>
    sol.yield %m : tensor<1x64xbf16>
  }
  return %0 : tensor<1x64xbf16>
}
}

// -----

// A lone fp8 matmul, which sol-to-ptx wraps into a kernel itself (sol-tile
// alone plans kernels only); the pipeline compiles it.
module attributes {sol.target = #sol.target<"h200">} {
func.func @lone(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E5M2>, %sx: tensor<7x1xf32>) -> tensor<7x24xf32> {
  %0 = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x1xf32>)
      : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E5M2> -> tensor<7x24xf32>
  return %0 : tensor<7x24xf32>
}
}

// -----

// Dynamic M: gemv's rows up to its 16 (each built for its exact rows), then
// one wgmma_tma row (K = 128 is one K tile, so nothing splits, and the
// 64-row tile wins to the range's max on this narrow, memory-bound shape).
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic(%x: tensor<?x128xf8E4M3FN>, %w: tensor<256x128xf8E4M3FN>, %sx: tensor<?x1xf32>) -> tensor<?x256xf16> {
  // expected-remark @+17 {{plan for M in 1..1: gemv: 1 rows, a warp per column}}
  // expected-remark @+16 {{plan for M in 2..2: gemv: 2 rows, a warp per column}}
  // expected-remark @+15 {{plan for M in 3..3: gemv: 3 rows, a warp per column}}
  // expected-remark @+14 {{plan for M in 4..4: gemv: 4 rows, a warp per column}}
  // expected-remark @+13 {{plan for M in 5..5: gemv: 5 rows, a warp per column}}
  // expected-remark @+12 {{plan for M in 6..6: gemv: 6 rows, a warp per column}}
  // expected-remark @+11 {{plan for M in 7..7: gemv: 7 rows, a warp per column}}
  // expected-remark @+10 {{plan for M in 8..8: gemv: 8 rows, a warp per column}}
  // expected-remark @+9 {{plan for M in 9..9: gemv: 9 rows, a warp per column}}
  // expected-remark @+8 {{plan for M in 10..10: gemv: 10 rows, a warp per column}}
  // expected-remark @+7 {{plan for M in 11..11: gemv: 11 rows, a warp per column}}
  // expected-remark @+6 {{plan for M in 12..12: gemv: 12 rows, a warp per column}}
  // expected-remark @+5 {{plan for M in 13..13: gemv: 13 rows, a warp per column}}
  // expected-remark @+4 {{plan for M in 14..14: gemv: 14 rows, a warp per column}}
  // expected-remark @+3 {{plan for M in 15..15: gemv: 15 rows, a warp per column}}
  // expected-remark @+2 {{plan for M in 16..16: gemv: 16 rows, a warp per column}}
  // expected-remark @+1 {{plan for M in 17..65536: wgmma_tma: 64x128x128 tile}}
  %0 = sol.kernel @dyn ins(%x, %w, %sx : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<?x1xf32>) -> tensor<?x256xf16> {
  ^bb0(%a: tensor<?x128xf8E4M3FN>, %b: tensor<256x128xf8E4M3FN>, %sa: tensor<?x1xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<?x1xf32>)
        : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<?x256xf16>
    sol.yield %m : tensor<?x256xf16>
  }
  return %0 : tensor<?x256xf16>
}
}

// -----

// Quantising (a cast to fp8, saturating) needs sm_89's conversions, which
// the A100 lacks (it has no fp8 at all: the cost model's no-bound
// annotation, cost-fp8.mlir).
// PTX: error: sol-tile: cannot plan kernel @quantise_before_sm89: the kernel's epilogue converts fp8 in registers (cvt's e4m3x2 and e5m2x2 forms), which needs sm_89 or newer; the target is sm_80
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @quantise_before_sm89(%h: tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @quantise_before_sm89: the kernel's epilogue converts fp8 in registers (cvt's e4m3x2 and e5m2x2 forms), which needs sm_89 or newer; the target is sm_80}}
  %0 = sol.kernel @quantise_before_sm89 ins(%h : tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  ^bb0(%a: tensor<9x16xf16>):
    %q = sol.cast %a : tensor<9x16xf16> to tensor<9x16xf8E4M3FN>
    sol.yield %q : tensor<9x16xf8E4M3FN>
  }
  return %0 : tensor<9x16xf8E4M3FN>
}
}

// -----

// On Hopper a static quantisation (scale, then cast) is an elementwise
// kernel: 16 fp8 codes per thread (one 128-bit store).
module attributes {sol.target = #sol.target<"h200">} {
func.func @quantise_elementwise(%h: tensor<9x32xbf16>, %inv: tensor<bf16>) -> tensor<9x32xf8E4M3FN> {
  // expected-remark @+1 {{plan elementwise: 288 elements, 256 threads per block, 16 per thread}}
  %0 = sol.kernel @quantise_elementwise ins(%h, %inv : tensor<9x32xbf16>, tensor<bf16>) -> tensor<9x32xf8E4M3FN> {
  ^bb0(%a: tensor<9x32xbf16>, %s: tensor<bf16>):
    %m = sol.mul %a, %s : tensor<9x32xbf16>, tensor<bf16> -> tensor<9x32xbf16>
    %q = sol.cast %m : tensor<9x32xbf16> to tensor<9x32xf8E4M3FN>
    sol.yield %q : tensor<9x32xf8E4M3FN>
  }
  return %0 : tensor<9x32xf8E4M3FN>
}
}

// -----

// An fp8 result (scale_out) is the wgmma_tma path's like any other: its
// epilogue divides by scale_out and converts with cvt.rn.satfinite.
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_result_takes_wgmma_tma(%x: tensor<64x64xf8E4M3FN>, %w: tensor<32x64xf8E4M3FN>, %so: tensor<f32>) -> tensor<64x32xf8E4M3FN> {
  // expected-remark @+1 {{plan wgmma_tma: 64x128x128 tile}}
  %0 = sol.kernel @fp8_result ins(%x, %w, %so : tensor<64x64xf8E4M3FN>, tensor<32x64xf8E4M3FN>, tensor<f32>) -> tensor<64x32xf8E4M3FN> {
  ^bb0(%a: tensor<64x64xf8E4M3FN>, %b: tensor<32x64xf8E4M3FN>, %s: tensor<f32>):
    %m = sol.matmul %a, %b transpose_b scale_out(%s : tensor<f32>) : tensor<64x64xf8E4M3FN>, tensor<32x64xf8E4M3FN> -> tensor<64x32xf8E4M3FN>
    sol.yield %m : tensor<64x32xf8E4M3FN>
  }
  return %0 : tensor<64x32xf8E4M3FN>
}
}

// -----

// K = 40 is no multiple of 16 (TMA's 16-byte rows of 1-byte elements): no
// path takes it, and sol-tile says why for each.
// PTX: error: sol-tile: cannot plan kernel @odd_k: no path takes this f8E4M3FN matmul; gemv: 64 rows of A exceed gemv's 16; {{.*}}; wgmma_tma: K = 40 is not a multiple of 16: TMA moves 16-byte rows, 16 fp8 elements; simt: fp8 is not generated here yet: the SIMT fallback does not convert fp8 operands
module attributes {sol.target = #sol.target<"h200">} {
func.func @odd_k(%x: tensor<64x40xf8E4M3FN>, %w: tensor<32x40xf8E4M3FN>) -> tensor<64x32xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @odd_k: no path takes this f8E4M3FN matmul; gemv: 64 rows of A exceed gemv's 16}}
  %0 = sol.kernel @odd_k ins(%x, %w : tensor<64x40xf8E4M3FN>, tensor<32x40xf8E4M3FN>) -> tensor<64x32xbf16> {
  ^bb0(%a: tensor<64x40xf8E4M3FN>, %b: tensor<32x40xf8E4M3FN>):
    %m = sol.matmul %a, %b transpose_b : tensor<64x40xf8E4M3FN>, tensor<32x40xf8E4M3FN> -> tensor<64x32xbf16>
    sol.yield %m : tensor<64x32xbf16>
  }
  return %0 : tensor<64x32xbf16>
}
}

// -----

// Block-wise scales (DeepSeek-V3's 128 x 128 weight blocks) scale each K
// block's partial sum: wgmma_tma alone promotes them (one fp8 K tile is one
// block), on tiles whose consumer holds both accumulator sets (64x128
// ping-pong, 128x128 cooperative) and without split K; every other path
// refuses with the reason.
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_wise(%x: tensor<256x512xf8E4M3FN>, %w: tensor<384x512xf8E4M3FN>, %sx: tensor<256x4xf32>, %sw: tensor<3x4xf32>) -> tensor<256x384xbf16> {
  // expected-remark @+1 {{plan wgmma_tma: 64x128x128 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 4.8132 us; next wgmma_tma: 128x128x128 tile, TMA producer + 2 consumer warpgroups, 6 stages, persistent at 5.8273 us (2 candidates; no mma.sync: fp8 is not generated here yet: mma.sync does not scale each K block's partial sum, which block-wise scales need (wgmma_tma does))}}
  %0 = sol.kernel @block_wise ins(%x, %w, %sx, %sw : tensor<256x512xf8E4M3FN>, tensor<384x512xf8E4M3FN>, tensor<256x4xf32>, tensor<3x4xf32>) -> tensor<256x384xbf16> {
  ^bb0(%a: tensor<256x512xf8E4M3FN>, %b: tensor<384x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %sb: tensor<3x4xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<256x4xf32>) scale_b(%sb : tensor<3x4xf32>)
        : tensor<256x512xf8E4M3FN>, tensor<384x512xf8E4M3FN> -> tensor<256x384xbf16>
    sol.yield %m : tensor<256x384xbf16>
  }
  return %0 : tensor<256x384xbf16>
}
}

// -----

// A K that TMA cannot load (not a multiple of 16) leaves block-wise scales
// no path: each says why.
// PTX: error: sol-tile: cannot plan kernel @block_wise_odd_k: no path takes this f8E4M3FN matmul; gemv: fp8 is not generated here yet: gemv does not scale each K block's partial sum, which block-wise scales need (wgmma_tma does)
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_wise_odd_k(%x: tensor<7x200xf8E4M3FN>, %w: tensor<64x200xf8E4M3FN>, %sx: tensor<7x2xf32>, %sw: tensor<1x2xf32>) -> tensor<7x64xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @block_wise_odd_k: no path takes this f8E4M3FN matmul; gemv: fp8 is not generated here yet: gemv does not scale each K block's partial sum, which block-wise scales need (wgmma_tma does)}}
  %0 = sol.kernel @block_wise_odd_k ins(%x, %w, %sx, %sw : tensor<7x200xf8E4M3FN>, tensor<64x200xf8E4M3FN>, tensor<7x2xf32>, tensor<1x2xf32>) -> tensor<7x64xbf16> {
  ^bb0(%a: tensor<7x200xf8E4M3FN>, %b: tensor<64x200xf8E4M3FN>, %sa: tensor<7x2xf32>, %sb: tensor<1x2xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<7x2xf32>) scale_b(%sb : tensor<1x2xf32>)
        : tensor<7x200xf8E4M3FN>, tensor<64x200xf8E4M3FN> -> tensor<7x64xbf16>
    sol.yield %m : tensor<7x64xbf16>
  }
  return %0 : tensor<7x64xbf16>
}
}
