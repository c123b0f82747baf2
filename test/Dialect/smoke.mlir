// RUN: sol-opt %s | sol-opt | FileCheck %s

// CHECK-LABEL: func.func @oproj_residual
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b
func.func @oproj_residual(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
  %y = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
  %z = sol.add %y, %r : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
  return %z : tensor<16x512x2560xf16>
}
