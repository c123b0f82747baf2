// RUN: sol-opt %s -split-input-file --sol-fuse=remarks=true 2>&1 | FileCheck %s

// Fusion of dynamic-M graphs: legality does not depend on M; a priced choice
// is taken at every sample point of the range and must agree.

// CHECK: remark: fused into epilogue of sol.matmul: at every M over the dim range 1..4096
// CHECK-LABEL: func.func @oproj_residual_dynamic
// CHECK: sol.kernel @oproj_residual_dynamic_matmul_0 ins({{.*}} : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16>
// CHECK: sol.matmul
// CHECK-NEXT: sol.add
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 4096, hints = [16]>} {
  func.func @oproj_residual_dynamic(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %z = sol.add %y, %r : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    return %z : tensor<?x2560xf16>
  }
}

// -----

// CHECK-LABEL: func.func @mlp_up_gelu_dynamic
// CHECK: sol.kernel @mlp_up_gelu_dynamic_matmul_0 {{.*}} -> tensor<?x10240xf16>
// CHECK: sol.matmul
// CHECK-NEXT: sol.add
// CHECK-NEXT: sol.gelu
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mlp_up_gelu_dynamic(%x: tensor<?x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<?x10240xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<10240x2560xf16> -> tensor<?x10240xf16>
    %z = sol.add %y, %b : tensor<?x10240xf16>, tensor<10240xf16> -> tensor<?x10240xf16>
    %g = sol.gelu tanh %z : tensor<?x10240xf16>
    return %g : tensor<?x10240xf16>
  }
}

// -----

// A 3-D dynamic batch and a per-row scale [?, 1].
// CHECK-LABEL: func.func @batch_3d_row_scale_dynamic
// CHECK: sol.kernel @batch_3d_row_scale_dynamic_matmul_0 {{.*}} -> tensor<?x512x2560xf16>
// CHECK: sol.matmul
// CHECK-NEXT: sol.mul
module attributes {sol.target = #sol.target<"h200">} {
  func.func @batch_3d_row_scale_dynamic(%x: tensor<?x512x2560xf16>, %w: tensor<2560x2560xf16>, %s: tensor<?x512x1xf16>) -> tensor<?x512x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<?x512x2560xf16>, tensor<2560x2560xf16> -> tensor<?x512x2560xf16>
    %z = sol.mul %y, %s : tensor<?x512x2560xf16>, tensor<?x512x1xf16> -> tensor<?x512x2560xf16>
    return %z : tensor<?x512x2560xf16>
  }
}
