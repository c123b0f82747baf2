// RUN: sol-opt %s -split-input-file --sol-fuse | FileCheck %s
// RUN: sol-opt %s -split-input-file --sol-fuse=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Fusion of dynamic-M graphs: legality does not depend on M; a priced choice
// is taken at every sample point of the range and must agree.

// REMARK: remark: fused into epilogue of sol.matmul: at every M over the dim range 1..4096
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

// -----

// SwiGLU: from 128 rows up a generator takes the gate/up pair at every
// sample point, so they share A in one kernel; down is its own.
// REMARK: remark: fused as the sibling of sol.matmul: at every M over the dim range 128..8192 (7 sample points)
// CHECK-LABEL: func.func @swiglu_pair_range_from_128
// CHECK: sol.kernel @swiglu_pair_range_from_128_matmul_0 ins({{.*}} : tensor<?x2560xf16>, tensor<6912x2560xf16>, tensor<6912x2560xf16>) -> tensor<?x6912xf16>
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 128, max = 8192>} {
  func.func @swiglu_pair_range_from_128(%x: tensor<?x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>, %wd: tensor<2560x6912xf16>) -> tensor<?x2560xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %s = sol.silu %g : tensor<?x6912xf16>
    %h = sol.mul %s, %u : tensor<?x6912xf16>, tensor<?x6912xf16> -> tensor<?x6912xf16>
    %d = sol.matmul %h, %wd transpose_b : tensor<?x6912xf16>, tensor<2560x6912xf16> -> tensor<?x2560xf16>
    return %d : tensor<?x2560xf16>
  }
}

// -----

// From M = 1 the pair has no generator below 128 rows: the points disagree,
// the conservative choice is two kernels (gate + silu, then up + mul).
// REMARK: remark: not fused as the sibling of sol.matmul: no generator takes the pair at m = 1 of the dim range
// CHECK-LABEL: func.func @swiglu_pair_default_range
// CHECK: sol.kernel @swiglu_pair_default_range_matmul_0 ins({{.*}} : tensor<?x2560xf16>, tensor<6912x2560xf16>, tensor<?x6912xf16>) -> tensor<?x6912xf16>
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 8192>} {
  func.func @swiglu_pair_default_range(%x: tensor<?x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>, %wd: tensor<2560x6912xf16>) -> tensor<?x2560xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %s = sol.silu %g : tensor<?x6912xf16>
    %h = sol.mul %s, %u : tensor<?x6912xf16>, tensor<?x6912xf16> -> tensor<?x6912xf16>
    %d = sol.matmul %h, %wd transpose_b : tensor<?x6912xf16>, tensor<2560x6912xf16> -> tensor<?x2560xf16>
    return %d : tensor<?x2560xf16>
  }
}
