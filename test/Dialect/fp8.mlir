// RUN: sol-opt %s -split-input-file | sol-opt -split-input-file | FileCheck %s
// RUN: sol-opt %s -split-input-file --mlir-print-op-generic | sol-opt -split-input-file | FileCheck %s

// fp8 in the sol IR (docs/fp8.md): sol.matmul over e4m3/e5m2 operands with
// its scales as operands, and sol.cast to and from fp8. Each form prints and
// parses back (custom and generic).

// Per-tensor scales on both sides, a bf16 result: the seed o_proj in fp8.
// CHECK-LABEL: func.func @per_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<512x2560xf8E4M3FN>, %[[W:.*]]: tensor<2560x2560xf8E4M3FN>, %[[SX:.*]]: tensor<f32>, %[[SW:.*]]: tensor<f32>)
// CHECK: sol.matmul %[[X]], %[[W]] transpose_b scale_a(%[[SX]] : tensor<f32>) scale_b(%[[SW]] : tensor<f32>) : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<512x2560xbf16>
func.func @per_tensor(%x: tensor<512x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>,
                      %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<512x2560xbf16> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<f32>) scale_b(%sw : tensor<f32>)
      : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<512x2560xbf16>
  return %y : tensor<512x2560xbf16>
}

// -----

// Per token ([M, 1]) and per output channel ([N]), odd shapes, f16 result.
// CHECK-LABEL: func.func @per_token_per_channel
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%{{.*}} : tensor<7x1xf32>) scale_b(%{{.*}} : tensor<24xf32>) : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E4M3FN> -> tensor<7x24xf16>
func.func @per_token_per_channel(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E4M3FN>,
                                 %sx: tensor<7x1xf32>, %sw: tensor<24xf32>) -> tensor<7x24xf16> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x1xf32>) scale_b(%sw : tensor<24xf32>)
      : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E4M3FN> -> tensor<7x24xf16>
  return %y : tensor<7x24xf16>
}

// -----

// The four operand pairs wgmma takes, [1] scales, f32 results, one scale or
// none (a missing scale is 1).
// CHECK-LABEL: func.func @mixed_kinds
// CHECK: sol.matmul {{.*}} transpose_b : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf32>
// CHECK: sol.matmul {{.*}} transpose_b scale_a(%{{.*}} : tensor<1xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E5M2> -> tensor<16x8xf32>
// CHECK: sol.matmul {{.*}} transpose_b scale_b(%{{.*}} : tensor<1xf32>) : tensor<16x32xf8E5M2>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf32>
// CHECK: sol.matmul {{.*}} transpose_b scale_a(%{{.*}} : tensor<1xf32>) scale_b(%{{.*}} : tensor<1xf32>) : tensor<16x32xf8E5M2>, tensor<8x32xf8E5M2> -> tensor<16x8xf32>
func.func @mixed_kinds(%a4: tensor<16x32xf8E4M3FN>, %a5: tensor<16x32xf8E5M2>,
                       %b4: tensor<8x32xf8E4M3FN>, %b5: tensor<8x32xf8E5M2>,
                       %s: tensor<1xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sol.matmul %a4, %b4 transpose_b : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf32>
  %1 = sol.matmul %a4, %b5 transpose_b scale_a(%s : tensor<1xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E5M2> -> tensor<16x8xf32>
  %2 = sol.matmul %a5, %b4 transpose_b scale_b(%s : tensor<1xf32>) : tensor<16x32xf8E5M2>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf32>
  %3 = sol.matmul %a5, %b5 transpose_b scale_a(%s : tensor<1xf32>) scale_b(%s : tensor<1xf32>) : tensor<16x32xf8E5M2>, tensor<8x32xf8E5M2> -> tensor<16x8xf32>
  return %0, %1, %2, %3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// An fp8 result with its output scale; a sol.constant as a scale.
// CHECK-LABEL: func.func @fp8_result
// CHECK: %[[S:.*]] = sol.constant 2.500000e-01 : f32
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b scale_b(%{{.*}} : tensor<64xf32>) scale_out(%[[S]] : tensor<f32>) : tensor<33x80xf8E4M3FN>, tensor<64x80xf8E4M3FN> -> tensor<33x64xf8E4M3FN>
func.func @fp8_result(%x: tensor<33x80xf8E4M3FN>, %w: tensor<64x80xf8E4M3FN>,
                      %sw: tensor<64xf32>) -> tensor<33x64xf8E4M3FN> {
  %s = sol.constant 2.500000e-01 : f32
  %y = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<64xf32>) scale_out(%s : tensor<f32>)
      : tensor<33x80xf8E4M3FN>, tensor<64x80xf8E4M3FN> -> tensor<33x64xf8E4M3FN>
  return %y : tensor<33x64xf8E4M3FN>
}

// -----

// Rows folded from leading dims ([16, 7, K] against an [N, K] weight): the
// per-token scale is A's shape with K replaced by 1.
// CHECK-LABEL: func.func @per_token_folded_rows
// CHECK: scale_a(%{{.*}} : tensor<16x7x1xf32>)
func.func @per_token_folded_rows(%x: tensor<16x7x32xf8E4M3FN>, %w: tensor<40x32xf8E4M3FN>,
                                 %sx: tensor<16x7x1xf32>) -> tensor<16x7x40xbf16> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<16x7x1xf32>)
      : tensor<16x7x32xf8E4M3FN>, tensor<40x32xf8E4M3FN> -> tensor<16x7x40xbf16>
  return %y : tensor<16x7x40xbf16>
}

// -----

// Dynamic M: A's rows and the per-token scale's follow the one dynamic dim.
// CHECK-LABEL: func.func @dynamic_per_token
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%{{.*}} : tensor<?x1xf32>) scale_b(%{{.*}} : tensor<256xf32>) : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<?x256xf16>
func.func @dynamic_per_token(%x: tensor<?x128xf8E4M3FN>, %w: tensor<256x128xf8E4M3FN>,
                             %sx: tensor<?x1xf32>, %sw: tensor<256xf32>) -> tensor<?x256xf16> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<?x1xf32>) scale_b(%sw : tensor<256xf32>)
      : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<?x256xf16>
  return %y : tensor<?x256xf16>
}

// -----

// sol.cast to fp8 (saturating, docs/fp8.md) and back.
// CHECK-LABEL: func.func @casts
// CHECK: sol.cast %{{.*}} : tensor<7x24xf16> to tensor<7x24xf8E4M3FN>
// CHECK: sol.cast %{{.*}} : tensor<7x24xf8E4M3FN> to tensor<7x24xf32>
// CHECK: sol.cast %{{.*}} : tensor<7x24xbf16> to tensor<7x24xf8E5M2>
// CHECK: sol.cast %{{.*}} : tensor<7x24xf8E5M2> to tensor<7x24xf16>
func.func @casts(%h: tensor<7x24xf16>, %b: tensor<7x24xbf16>) -> (tensor<7x24xf32>, tensor<7x24xf16>) {
  %q = sol.cast %h : tensor<7x24xf16> to tensor<7x24xf8E4M3FN>
  %d = sol.cast %q : tensor<7x24xf8E4M3FN> to tensor<7x24xf32>
  %q5 = sol.cast %b : tensor<7x24xbf16> to tensor<7x24xf8E5M2>
  %d5 = sol.cast %q5 : tensor<7x24xf8E5M2> to tensor<7x24xf16>
  return %d, %d5 : tensor<7x24xf32>, tensor<7x24xf16>
}

// -----

// A kernel takes and yields fp8 tensors.
// CHECK-LABEL: func.func @kernel_boundary
// CHECK: sol.kernel @quantise ins(%{{.*}} : tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN>
// CHECK: sol.yield %{{.*}} : tensor<9x16xf8E4M3FN>
func.func @kernel_boundary(%h: tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  %0 = sol.kernel @quantise ins(%h : tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  ^bb0(%a: tensor<9x16xf16>):
    %q = sol.cast %a : tensor<9x16xf16> to tensor<9x16xf8E4M3FN>
    sol.yield %q : tensor<9x16xf8E4M3FN>
  }
  return %0 : tensor<9x16xf8E4M3FN>
}

// -----

// Canonicalization: a constant cast to fp8 stays a cast (a sol.constant holds
// f16, bf16 or f32 only); fp8 -> f32 -> fp8 is exact and folds away.
// RUN: sol-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func.func @canonical_casts
// CANON: %[[C:.*]] = sol.constant 5.000000e+02 : f32
// CANON: %[[Q:.*]] = sol.cast %[[C]] : tensor<f32> to tensor<f8E4M3FN>
// CANON: return %[[Q]], %arg0
func.func @canonical_casts(%q: tensor<4x16xf8E5M2>) -> (tensor<f8E4M3FN>, tensor<4x16xf8E5M2>) {
  %c = sol.constant 5.000000e+02 : f32
  %s = sol.cast %c : tensor<f32> to tensor<f8E4M3FN>
  %w = sol.cast %q : tensor<4x16xf8E5M2> to tensor<4x16xf32>
  %n = sol.cast %w : tensor<4x16xf32> to tensor<4x16xf8E5M2>
  return %s, %n : tensor<f8E4M3FN>, tensor<4x16xf8E5M2>
}

// -----

// Block-wise scales (DeepSeek-V3's checkpoints): A per token and 128-deep
// group of K ([M, ceil(K/128)]), B per 128 x 128 block ([ceil(N/128),
// ceil(K/128)]); K and N not multiples of 128; a dynamic M's groups follow it.
// CHECK-LABEL: func.func @block_wise
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%{{.*}} : tensor<7x3xf32>) scale_b(%{{.*}} : tensor<2x3xf32>) : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xbf16>
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%{{.*}} : tensor<?x3xf32>) scale_b(%{{.*}} : tensor<2x3xf32>) : tensor<?x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<?x200xbf16>
func.func @block_wise(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>,
                      %sx: tensor<7x3xf32>, %sw: tensor<2x3xf32>,
                      %xd: tensor<?x300xf8E4M3FN>, %sxd: tensor<?x3xf32>) -> (tensor<7x200xbf16>, tensor<?x200xbf16>) {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x3xf32>) scale_b(%sw : tensor<2x3xf32>)
      : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xbf16>
  %z = sol.matmul %xd, %w transpose_b scale_a(%sxd : tensor<?x3xf32>) scale_b(%sw : tensor<2x3xf32>)
      : tensor<?x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<?x200xbf16>
  return %y, %z : tensor<7x200xbf16>, tensor<?x200xbf16>
}
