// RUN: sol-opt %s --split-input-file --sol-tile="remarks=true" -verify-diagnostics
// (The other cases fail under paths=mma_sync, so that run exits non-zero.)
// RUN: not sol-opt %s --split-input-file --sol-tile="remarks=true hopper-mma-sync-fp8=true paths=mma_sync" 2>&1 | FileCheck %s --check-prefix=HOPPER

// mma.sync's fp8 form (m16n8k32, e4m3/e5m2 in either operand; docs/fp8.md).
// On sm_89 (the l40s preset) it is the only fp8 tensor-core instruction, so
// fp8 matmuls take it by default. Its tiles are the 16-bit table's with
// twice the K, so every stage and row moves the same bytes as the tile the
// table's measurements are of: 16x64x64 becomes 16x64x128.
module attributes {sol.target = #sol.target<"l40s">} {
func.func @fp8_on_ada_takes_mma_sync_k32(%x: tensor<40x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<40x1xf32>, %sw: tensor<2560xf32>) -> tensor<40x2560xbf16> {
  // expected-remark-re @+1 {{plan mma_sync: 16x64x128 tile, {{.*}} (10 candidates)}}
  %0 = sol.kernel @k ins(%x, %w, %sx, %sw : tensor<40x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<40x1xf32>, tensor<2560xf32>) -> tensor<40x2560xbf16> {
  ^bb0(%a: tensor<40x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<40x1xf32>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<40x1xf32>) scale_b(%sb : tensor<2560xf32>)
        : tensor<40x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<40x2560xbf16>
    sol.yield %m : tensor<40x2560xbf16>
  }
  return %0 : tensor<40x2560xbf16>
}
}

// -----

// Both fp8 kinds, one per operand: the instruction names each.
module attributes {sol.target = #sol.target<"l40s">} {
func.func @mixed_kinds_on_ada(%x: tensor<40x1024xf8E5M2>, %w: tensor<1000x1024xf8E4M3FN>, %sx: tensor<40x1xf32>, %sw: tensor<1000xf32>) -> tensor<40x1000xbf16> {
  // expected-remark-re @+1 {{plan mma_sync: {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}} tile, {{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sx, %sw : tensor<40x1024xf8E5M2>, tensor<1000x1024xf8E4M3FN>, tensor<40x1xf32>, tensor<1000xf32>) -> tensor<40x1000xbf16> {
  ^bb0(%a: tensor<40x1024xf8E5M2>, %b: tensor<1000x1024xf8E4M3FN>, %sa: tensor<40x1xf32>, %sb: tensor<1000xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<40x1xf32>) scale_b(%sb : tensor<1000xf32>)
        : tensor<40x1024xf8E5M2>, tensor<1000x1024xf8E4M3FN> -> tensor<40x1000xbf16>
    sol.yield %m : tensor<40x1000xbf16>
  }
  return %0 : tensor<40x1000xbf16>
}
}

// -----

// 16-byte cp.async rows of 1-byte codes: K % 16, with the rule's reason.
module attributes {sol.target = #sol.target<"l40s">} {
func.func @fp8_k_not_16_aligned_is_refused_on_ada(%x: tensor<40x40xf8E4M3FN>, %w: tensor<256x40xf8E4M3FN>, %sx: tensor<40x1xf32>, %sw: tensor<256xf32>) -> tensor<40x256xbf16> {
  // expected-error-re @+1 {{sol-tile: cannot plan kernel @k: no path takes this f8E4M3FN matmul; {{.*}}mma_sync: K = 40 is not a multiple of 16: the 16-byte cp.async loads need each row of A to start 16-byte aligned{{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sx, %sw : tensor<40x40xf8E4M3FN>, tensor<256x40xf8E4M3FN>, tensor<40x1xf32>, tensor<256xf32>) -> tensor<40x256xbf16> {
  ^bb0(%a: tensor<40x40xf8E4M3FN>, %b: tensor<256x40xf8E4M3FN>, %sa: tensor<40x1xf32>, %sb: tensor<256xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<40x1xf32>) scale_b(%sb : tensor<256xf32>)
        : tensor<40x40xf8E4M3FN>, tensor<256x40xf8E4M3FN> -> tensor<40x256xbf16>
    sol.yield %m : tensor<40x256xbf16>
  }
  return %0 : tensor<40x256xbf16>
}
}

// -----

// sm_80 has no fp8 instruction at all: each path says why.
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @fp8_before_sm_89_has_no_mma_sync(%x: tensor<40x256xf8E4M3FN>, %w: tensor<256x256xf8E4M3FN>, %sx: tensor<40x1xf32>, %sw: tensor<256xf32>) -> tensor<40x256xbf16> {
  // expected-error-re @+1 {{{{.*}}mma_sync: mma.sync's fp8 form (m16n8k32 e4m3/e5m2) needs sm_89 or newer; the target is sm_80{{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sx, %sw : tensor<40x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<40x1xf32>, tensor<256xf32>) -> tensor<40x256xbf16> {
  ^bb0(%a: tensor<40x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>, %sa: tensor<40x1xf32>, %sb: tensor<256xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<40x1xf32>) scale_b(%sb : tensor<256xf32>)
        : tensor<40x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<40x256xbf16>
    sol.yield %m : tensor<40x256xbf16>
  }
  return %0 : tensor<40x256xbf16>
}
}

// -----

// On sm_90 wgmma is fp8's full-rate path and mma.sync's fp8 form has not
// run on a Hopper GPU: the remark says mma.sync is held back and by which
// option. With hopper-mma-sync-fp8=true and paths=mma_sync (the GPU
// matrix's variant; second RUN line) the same kernel takes it.
// HOPPER: tile-mma-sync-fp8.mlir:[[@LINE+4]]:{{[0-9]+}}: remark: plan mma_sync: 16x64x128 tile
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @fp8_on_hopper_keeps_wgmma(%x: tensor<40x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<40x1xf32>, %sw: tensor<2560xf32>) -> tensor<40x2560xbf16> {
  // expected-remark-re @+1 {{plan wgmma_tma: {{.*}}no mma_sync: fp8 takes wgmma on sm_90a (hopper-mma-sync-fp8=true lets mma.sync's m16n8k32 take it){{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sx, %sw : tensor<40x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<40x1xf32>, tensor<2560xf32>) -> tensor<40x2560xbf16> {
  ^bb0(%a: tensor<40x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<40x1xf32>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<40x1xf32>) scale_b(%sb : tensor<2560xf32>)
        : tensor<40x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<40x2560xbf16>
    sol.yield %m : tensor<40x2560xbf16>
  }
  return %0 : tensor<40x2560xbf16>
}
}

// -----

// Weight-only fp8 (16-bit A) stays with the paths that convert the codes:
// mma.sync's fp8 form wants both operands in fp8.
module attributes {sol.target = #sol.target<"l40s">} {
func.func @weight_only_fp8_on_ada_converts_on_swap_ab(%x: tensor<40x2560xbf16>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<40x2560xbf16> {
  // expected-remark-re @+1 {{plan swap_ab: {{.*}}no mma.sync: fp8 is not generated here yet: mma.sync reads both operands as one type, and a weight-only fp8 matmul{{.*}}}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<40x2560xbf16>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<40x2560xbf16> {
  ^bb0(%a: tensor<40x2560xbf16>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<40x2560xbf16>, tensor<2560x2560xf8E4M3FN> -> tensor<40x2560xbf16>
    sol.yield %m : tensor<40x2560xbf16>
  }
  return %0 : tensor<40x2560xbf16>
}
}
