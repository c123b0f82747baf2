// RUN: sol-opt %s -split-input-file | sol-opt -split-input-file | FileCheck %s
// RUN: sol-opt %s -split-input-file --mlir-print-op-generic | sol-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul_rank2
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf16>, %[[B:.*]]: tensor<32x128xf16>)
// CHECK: sol.matmul %[[A]], %[[B]] : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf16>
func.func @matmul_rank2(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>) -> tensor<64x128xf16> {
  %0 = sol.matmul %a, %b : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// -----

// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<64x32xf16>, tensor<128x32xf16> -> tensor<64x128xf16>
func.func @matmul_transpose_b(%a: tensor<64x32xf16>, %b: tensor<128x32xf16>) -> tensor<64x128xf16> {
  %0 = sol.matmul %a, %b transpose_b : tensor<64x32xf16>, tensor<128x32xf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// -----

// CHECK-LABEL: func.func @matmul_batched_lhs_shared_rhs
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
func.func @matmul_batched_lhs_shared_rhs(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<16x512x2560xf16> {
  %0 = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
  return %0 : tensor<16x512x2560xf16>
}

// -----

// CHECK-LABEL: func.func @matmul_batched_rhs_same_batch
// CHECK: sol.matmul %{{.*}}, %{{.*}} : tensor<2x8x64x32xbf16>, tensor<2x8x32x16xbf16> -> tensor<2x8x64x16xbf16>
func.func @matmul_batched_rhs_same_batch(%a: tensor<2x8x64x32xbf16>, %b: tensor<2x8x32x16xbf16>) -> tensor<2x8x64x16xbf16> {
  %0 = sol.matmul %a, %b : tensor<2x8x64x32xbf16>, tensor<2x8x32x16xbf16> -> tensor<2x8x64x16xbf16>
  return %0 : tensor<2x8x64x16xbf16>
}

// -----

// CHECK-LABEL: func.func @matmul_f32
// CHECK: sol.matmul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
func.func @matmul_f32(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = sol.matmul %a, %b : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_f16_to_f32_result
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<4x8xf16>, tensor<2x8xf16> -> tensor<4x2xf32>
func.func @matmul_f16_to_f32_result(%a: tensor<4x8xf16>, %b: tensor<2x8xf16>) -> tensor<4x2xf32> {
  %0 = sol.matmul %a, %b transpose_b : tensor<4x8xf16>, tensor<2x8xf16> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_dynamic_leading_dim
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<?x8x2560xf16>, tensor<64x2560xf16> -> tensor<?x8x64xf16>
func.func @matmul_dynamic_leading_dim(%x: tensor<?x8x2560xf16>, %w: tensor<64x2560xf16>) -> tensor<?x8x64xf16> {
  %0 = sol.matmul %x, %w transpose_b : tensor<?x8x2560xf16>, tensor<64x2560xf16> -> tensor<?x8x64xf16>
  return %0 : tensor<?x8x64xf16>
}

// -----

// CHECK-LABEL: func.func @binary_same_shape
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>, %[[Y:.*]]: tensor<8x16xf16>)
// CHECK: %[[ADD:.*]] = sol.add %[[X]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: %[[SUB:.*]] = sol.sub %[[ADD]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: %[[MUL:.*]] = sol.mul %[[SUB]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: %[[DIV:.*]] = sol.div %[[MUL]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: %[[MAX:.*]] = sol.max %[[DIV]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: %[[MIN:.*]] = sol.min %[[MAX]], %[[Y]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK: return %[[MIN]]
func.func @binary_same_shape(%x: tensor<8x16xf16>, %y: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.add %x, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %1 = sol.sub %0, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %2 = sol.mul %1, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %3 = sol.div %2, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %4 = sol.max %3, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %5 = sol.min %4, %y : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  return %5 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast_bias
// CHECK: sol.add %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>
// CHECK: sol.sub %{{.*}}, %{{.*}} : tensor<16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
func.func @binary_broadcast_bias(%x: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = sol.add %x, %b : tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>
  %1 = sol.sub %b, %x : tensor<16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast_row_scale
// CHECK: sol.mul %{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<8x1xbf16> -> tensor<8x16xbf16>
// CHECK: sol.div %{{.*}}, %{{.*}} : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xbf16>
func.func @binary_broadcast_row_scale(%x: tensor<8x16xbf16>, %s: tensor<8x1xbf16>, %c: tensor<1x16xbf16>) -> (tensor<8x16xbf16>, tensor<8x16xbf16>) {
  %0 = sol.mul %x, %s : tensor<8x16xbf16>, tensor<8x1xbf16> -> tensor<8x16xbf16>
  %1 = sol.div %s, %c : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xbf16>
  return %0, %1 : tensor<8x16xbf16>, tensor<8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast_scalar
// CHECK: sol.max %{{.*}}, %{{.*}} : tensor<2x8x16xf16>, tensor<f16> -> tensor<2x8x16xf16>
// CHECK: sol.min %{{.*}}, %{{.*}} : tensor<f16>, tensor<2x8x16xf16> -> tensor<2x8x16xf16>
// CHECK: sol.add %{{.*}}, %{{.*}} : tensor<f16>, tensor<f16> -> tensor<f16>
func.func @binary_broadcast_scalar(%x: tensor<2x8x16xf16>, %s: tensor<f16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<f16>) {
  %0 = sol.max %x, %s : tensor<2x8x16xf16>, tensor<f16> -> tensor<2x8x16xf16>
  %1 = sol.min %s, %x : tensor<f16>, tensor<2x8x16xf16> -> tensor<2x8x16xf16>
  %2 = sol.add %s, %s : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0, %1, %2 : tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<f16>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast_dynamic
// CHECK: sol.add %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
func.func @binary_broadcast_dynamic(%x: tensor<?x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = sol.add %x, %b : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// CHECK-LABEL: func.func @unary_ops
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK: %[[NEG:.*]] = sol.neg %[[X]] : tensor<8x16xf16>
// CHECK: %[[ABS:.*]] = sol.abs %[[NEG]] : tensor<8x16xf16>
// CHECK: %[[EXP:.*]] = sol.exp %[[ABS]] : tensor<8x16xf16>
// CHECK: %[[TANH:.*]] = sol.tanh %[[EXP]] : tensor<8x16xf16>
// CHECK: %[[ERF:.*]] = sol.erf %[[TANH]] : tensor<8x16xf16>
// CHECK: %[[SIG:.*]] = sol.sigmoid %[[ERF]] : tensor<8x16xf16>
// CHECK: %[[RELU:.*]] = sol.relu %[[SIG]] : tensor<8x16xf16>
// CHECK: %[[SILU:.*]] = sol.silu %[[RELU]] : tensor<8x16xf16>
// CHECK: return %[[SILU]]
func.func @unary_ops(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.neg %x : tensor<8x16xf16>
  %1 = sol.abs %0 : tensor<8x16xf16>
  %2 = sol.exp %1 : tensor<8x16xf16>
  %tanh3 = sol.tanh %2 : tensor<8x16xf16>
  %3 = sol.erf %tanh3 : tensor<8x16xf16>
  %4 = sol.sigmoid %3 : tensor<8x16xf16>
  %5 = sol.relu %4 : tensor<8x16xf16>
  %6 = sol.silu %5 : tensor<8x16xf16>
  return %6 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @unary_bf16_f32_scalar
// CHECK: sol.exp %{{.*}} : tensor<4xbf16>
// CHECK: sol.neg %{{.*}} : tensor<f32>
func.func @unary_bf16_f32_scalar(%x: tensor<4xbf16>, %s: tensor<f32>) -> (tensor<4xbf16>, tensor<f32>) {
  %0 = sol.exp %x : tensor<4xbf16>
  %1 = sol.neg %s : tensor<f32>
  return %0, %1 : tensor<4xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @gelu_erf_and_tanh
// CHECK: %[[ERF:.*]] = sol.gelu erf %{{.*}} : tensor<8x16xf16>
// CHECK: sol.gelu tanh %[[ERF]] : tensor<8x16xf16>
func.func @gelu_erf_and_tanh(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.gelu erf %x : tensor<8x16xf16>
  %1 = sol.gelu tanh %0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @cast_f32_to_f16_to_bf16
// CHECK: %[[H:.*]] = sol.cast %{{.*}} : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK: sol.cast %[[H]] : tensor<8x16xf16> to tensor<8x16xbf16>
func.func @cast_f32_to_f16_to_bf16(%x: tensor<8x16xf32>) -> tensor<8x16xbf16> {
  %0 = sol.cast %x : tensor<8x16xf32> to tensor<8x16xf16>
  %1 = sol.cast %0 : tensor<8x16xf16> to tensor<8x16xbf16>
  return %1 : tensor<8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @constants
// CHECK: sol.constant 5.000000e-01 : f16
// CHECK: sol.constant -2.500000e+00 : bf16
// CHECK: sol.constant 1.000000e+00 : f32
func.func @constants() -> (tensor<f16>, tensor<bf16>, tensor<f32>) {
  %0 = sol.constant 5.000000e-01 : f16
  %1 = sol.constant -2.500000e+00 : bf16
  %2 = sol.constant 1.000000e+00 : f32
  return %0, %1, %2 : tensor<f16>, tensor<bf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @kernel_several_inputs_and_results
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>, %[[Y:.*]]: tensor<8x16xf16>, %[[B:.*]]: tensor<16xf16>)
// CHECK: %[[K:.*]]:2 = sol.kernel @two_outputs ins(%[[X]], %[[Y]], %[[B]] : tensor<8x16xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<8x16xf16>, tensor<8x16xf16> {
// CHECK-NEXT: ^bb0(%[[XA:.*]]: tensor<8x16xf16>, %[[YA:.*]]: tensor<8x16xf16>, %[[BA:.*]]: tensor<16xf16>):
// CHECK-NEXT: %[[S:.*]] = sol.add %[[XA]], %[[YA]] : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: %[[T:.*]] = sol.add %[[S]], %[[BA]] : tensor<8x16xf16>, tensor<16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: sol.yield %[[S]], %[[T]] : tensor<8x16xf16>, tensor<8x16xf16>
// CHECK-NEXT: }
// CHECK: return %[[K]]#0, %[[K]]#1
func.func @kernel_several_inputs_and_results(%x: tensor<8x16xf16>, %y: tensor<8x16xf16>, %b: tensor<16xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
  %0:2 = sol.kernel @two_outputs ins(%x, %y, %b : tensor<8x16xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<8x16xf16>, tensor<8x16xf16> {
  ^bb0(%xa: tensor<8x16xf16>, %ya: tensor<8x16xf16>, %ba: tensor<16xf16>):
    %s = sol.add %xa, %ya : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
    %t = sol.add %s, %ba : tensor<8x16xf16>, tensor<16xf16> -> tensor<8x16xf16>
    sol.yield %s, %t : tensor<8x16xf16>, tensor<8x16xf16>
  }
  return %0#0, %0#1 : tensor<8x16xf16>, tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @kernel_matmul_epilogue
// CHECK: sol.kernel @oproj_residual ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
// CHECK-NEXT: ^bb0(%[[XA:.*]]: tensor<16x512x2560xf16>, %[[WA:.*]]: tensor<2560x2560xf16>, %[[RA:.*]]: tensor<16x512x2560xf16>):
// CHECK-NEXT: %[[MM:.*]] = sol.matmul %[[XA]], %[[WA]] transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf32>
// CHECK-NEXT: %[[C:.*]] = sol.cast %[[MM]] : tensor<16x512x2560xf32> to tensor<16x512x2560xf16>
// CHECK-NEXT: %[[Y:.*]] = sol.add %[[C]], %[[RA]] : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
// CHECK-NEXT: %[[G:.*]] = sol.gelu tanh %[[Y]] : tensor<16x512x2560xf16>
// CHECK-NEXT: sol.yield %[[G]] : tensor<16x512x2560xf16>
func.func @kernel_matmul_epilogue(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  %0 = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  ^bb0(%xa: tensor<16x512x2560xf16>, %wa: tensor<2560x2560xf16>, %ra: tensor<16x512x2560xf16>):
    %mm = sol.matmul %xa, %wa transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf32>
    %c = sol.cast %mm : tensor<16x512x2560xf32> to tensor<16x512x2560xf16>
    %y = sol.add %c, %ra : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    %g = sol.gelu tanh %y : tensor<16x512x2560xf16>
    sol.yield %g : tensor<16x512x2560xf16>
  }
  return %0 : tensor<16x512x2560xf16>
}

// -----

// CHECK-LABEL: func.func @kernel_with_attributes
// CHECK: sol.kernel @tagged ins(%{{.*}} : tensor<4xf32>) -> tensor<4xf32> attributes {note = "kept"} {
func.func @kernel_with_attributes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sol.kernel @tagged ins(%x : tensor<4xf32>) -> tensor<4xf32> attributes {note = "kept"} {
  ^bb0(%xa: tensor<4xf32>):
    %r = sol.relu %xa : tensor<4xf32>
    sol.yield %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
