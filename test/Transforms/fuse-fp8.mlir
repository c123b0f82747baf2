// RUN: sol-opt %s --split-input-file --sol-fuse | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-fuse=force=never | FileCheck %s --check-prefix=NEVER
// RUN: sol-opt %s --split-input-file --sol-form-kernels | FileCheck %s --check-prefix=FORM

// An fp8 matmul's scales are operands like any other (docs/fp8.md,
// "Fusion"): sol-fuse and sol-form-kernels make each scale defined outside
// a kernel input of the kernel, read by the matmul through its block
// argument, and clone a sol.constant scale into the kernel as an immediate.

// The seed o_proj + residual in fp8: per-token and per-channel scales.
// CHECK-LABEL: func.func @fp8_oproj_residual
//  CHECK-SAME:   (%[[X:.*]]: tensor<512x2560xf8E4M3FN>, %[[W:.*]]: tensor<2560x2560xf8E4M3FN>, %[[SX:.*]]: tensor<512x1xf32>, %[[SW:.*]]: tensor<2560xf32>, %[[R:.*]]: tensor<512x2560xbf16>)
//       CHECK:   %[[K:.*]] = sol.kernel @fp8_oproj_residual_matmul_0 ins(%[[X]], %[[W]], %[[SX]], %[[SW]], %[[R]] : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<512x1xf32>, tensor<2560xf32>, tensor<512x2560xbf16>) -> tensor<512x2560xbf16> {
//  CHECK-NEXT:   ^bb0(%[[XA:.*]]: tensor<512x2560xf8E4M3FN>, %[[WA:.*]]: tensor<2560x2560xf8E4M3FN>, %[[SXA:.*]]: tensor<512x1xf32>, %[[SWA:.*]]: tensor<2560xf32>, %[[RA:.*]]: tensor<512x2560xbf16>):
//  CHECK-NEXT:     %[[MM:.*]] = sol.matmul %[[XA]], %[[WA]] transpose_b scale_a(%[[SXA]] : tensor<512x1xf32>) scale_b(%[[SWA]] : tensor<2560xf32>)
//  CHECK-NEXT:     %[[ADD:.*]] = sol.add %[[MM]], %[[RA]]
//  CHECK-NEXT:     sol.yield %[[ADD]] : tensor<512x2560xbf16>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[K]]
// NEVER-LABEL: func.func @fp8_oproj_residual
//       NEVER:   sol.kernel @fp8_oproj_residual_matmul_0 ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<512x1xf32>, tensor<2560xf32>) -> tensor<512x2560xbf16>
//       NEVER:     sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%{{.*}} : tensor<512x1xf32>) scale_b(%{{.*}} : tensor<2560xf32>)
//       NEVER:   sol.kernel @fp8_oproj_residual_add_1
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fp8_oproj_residual(%x: tensor<512x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>,
                                %sx: tensor<512x1xf32>, %sw: tensor<2560xf32>,
                                %r: tensor<512x2560xbf16>) -> tensor<512x2560xbf16> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<512x1xf32>) scale_b(%sw : tensor<2560xf32>)
        : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<512x2560xbf16>
    %z = sol.add %y, %r : tensor<512x2560xbf16>, tensor<512x2560xbf16> -> tensor<512x2560xbf16>
    return %z : tensor<512x2560xbf16>
  }
}

// -----

// A constant per-tensor scale is cloned into the kernel (no input, no
// bytes), as every sol.constant is; the weight's scale stays an input. The
// lone matmul becomes a kernel of its own (form-kernels) with the same
// operands.
// CHECK-LABEL: func.func @fp8_constant_scale_gelu
//       CHECK:   sol.kernel @fp8_constant_scale_gelu_matmul_0 ins(%{{.*}}, %{{.*}}, %[[SW:.*]] : tensor<7x48xf8E4M3FN>, tensor<40x48xf8E5M2>, tensor<40xf32>) -> tensor<7x40xf16> {
//  CHECK-NEXT:   ^bb0(%[[XA:.*]]: tensor<7x48xf8E4M3FN>, %[[WA:.*]]: tensor<40x48xf8E5M2>, %[[SWA:.*]]: tensor<40xf32>):
//  CHECK-NEXT:     %[[C:.*]] = sol.constant 1.250000e-01 : f32
//  CHECK-NEXT:     %[[MM:.*]] = sol.matmul %[[XA]], %[[WA]] transpose_b scale_a(%[[C]] : tensor<f32>) scale_b(%[[SWA]] : tensor<40xf32>)
//  CHECK-NEXT:     sol.gelu tanh %[[MM]]
//   CHECK-NOT:   sol.constant
// FORM-LABEL: func.func @fp8_constant_scale_gelu
//       FORM:   sol.kernel @fp8_constant_scale_gelu_matmul_0 ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<7x48xf8E4M3FN>, tensor<40x48xf8E5M2>, tensor<40xf32>) -> tensor<7x40xf16> {
//  FORM-NEXT:   ^bb0(%{{.*}}: tensor<7x48xf8E4M3FN>, %{{.*}}: tensor<40x48xf8E5M2>, %{{.*}}: tensor<40xf32>):
//  FORM-NEXT:     %[[C:.*]] = sol.constant 1.250000e-01 : f32
//  FORM-NEXT:     sol.matmul %{{.*}}, %{{.*}} transpose_b scale_a(%[[C]] : tensor<f32>) scale_b(%{{.*}} : tensor<40xf32>)
//  FORM-NEXT:     sol.yield
//       FORM:   sol.kernel @fp8_constant_scale_gelu_gelu_1
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fp8_constant_scale_gelu(%x: tensor<7x48xf8E4M3FN>, %w: tensor<40x48xf8E5M2>,
                                     %sw: tensor<40xf32>) -> tensor<7x40xf16> {
    %s = sol.constant 1.250000e-01 : f32
    %y = sol.matmul %x, %w transpose_b scale_a(%s : tensor<f32>) scale_b(%sw : tensor<40xf32>)
        : tensor<7x48xf8E4M3FN>, tensor<40x48xf8E5M2> -> tensor<7x40xf16>
    %g = sol.gelu tanh %y : tensor<7x40xf16>
    return %g : tensor<7x40xf16>
  }
}

// -----

// Quantising the activations for the next fp8 matmul: the cast to fp8 joins
// the epilogue, and the kernel writes fp8.
// CHECK-LABEL: func.func @fp8_quantise_epilogue
//       CHECK:   sol.kernel @fp8_quantise_epilogue_matmul_0 ins({{.*}}) -> tensor<16x64xf8E4M3FN> {
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.cast %{{.*}} : tensor<16x64xf16> to tensor<16x64xf8E4M3FN>
//  CHECK-NEXT:     sol.yield %{{.*}} : tensor<16x64xf8E4M3FN>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fp8_quantise_epilogue(%x: tensor<16x32xf8E4M3FN>, %w: tensor<64x32xf8E4M3FN>,
                                   %sx: tensor<16x1xf32>) -> tensor<16x64xf8E4M3FN> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<16x1xf32>)
        : tensor<16x32xf8E4M3FN>, tensor<64x32xf8E4M3FN> -> tensor<16x64xf16>
    %q = sol.cast %y : tensor<16x64xf16> to tensor<16x64xf8E4M3FN>
    return %q : tensor<16x64xf8E4M3FN>
  }
}
