// RUN: sol-opt %s -split-input-file | FileCheck %s
// RUN: sol-opt %s -split-input-file | sol-opt -split-input-file | FileCheck %s

// Dynamic-M IR that verifies and round-trips (docs/dynamic-shapes.md,
// section 1): the outermost dim of a tensor may be dynamic, the weights are
// static, and a dynamic dim broadcasts against a dynamic dim or a static 1.

// CHECK-LABEL: func.func @matmul_dynamic_m_transpose_b
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
func.func @matmul_dynamic_m_transpose_b(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x2560xf16> {
  %0 = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
  return %0 : tensor<?x2560xf16>
}

// -----

// A dynamic batch in front of a static [512, 2560] is the outermost dim too.
// CHECK-LABEL: func.func @matmul_dynamic_batch_3d
// CHECK: sol.matmul %{{.*}}, %{{.*}} transpose_b : tensor<?x512x2560xf16>, tensor<2560x2560xf16> -> tensor<?x512x2560xf16>
func.func @matmul_dynamic_batch_3d(%x: tensor<?x512x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x512x2560xf16> {
  %0 = sol.matmul %x, %w transpose_b : tensor<?x512x2560xf16>, tensor<2560x2560xf16> -> tensor<?x512x2560xf16>
  return %0 : tensor<?x512x2560xf16>
}

// -----

// CHECK-LABEL: func.func @bias_broadcast_dynamic
// CHECK: sol.add %{{.*}}, %{{.*}} : tensor<?x2560xf16>, tensor<2560xf16> -> tensor<?x2560xf16>
func.func @bias_broadcast_dynamic(%x: tensor<?x2560xf16>, %b: tensor<2560xf16>) -> tensor<?x2560xf16> {
  %0 = sol.add %x, %b : tensor<?x2560xf16>, tensor<2560xf16> -> tensor<?x2560xf16>
  return %0 : tensor<?x2560xf16>
}

// -----

// A per-row scale [?, 1]: the dynamic dims are the one dim of the kernel.
// CHECK-LABEL: func.func @row_scale_dynamic
// CHECK: sol.mul %{{.*}}, %{{.*}} : tensor<?x2560xf16>, tensor<?x1xf16> -> tensor<?x2560xf16>
func.func @row_scale_dynamic(%x: tensor<?x2560xf16>, %s: tensor<?x1xf16>) -> tensor<?x2560xf16> {
  %0 = sol.mul %x, %s : tensor<?x2560xf16>, tensor<?x1xf16> -> tensor<?x2560xf16>
  return %0 : tensor<?x2560xf16>
}

// -----

// A static 1 in the outermost dim broadcasts to the dynamic dim.
// CHECK-LABEL: func.func @static_one_against_dynamic
// CHECK: sol.sub %{{.*}}, %{{.*}} : tensor<1x2560xf32>, tensor<?x2560xf32> -> tensor<?x2560xf32>
func.func @static_one_against_dynamic(%a: tensor<1x2560xf32>, %x: tensor<?x2560xf32>) -> tensor<?x2560xf32> {
  %0 = sol.sub %a, %x : tensor<1x2560xf32>, tensor<?x2560xf32> -> tensor<?x2560xf32>
  return %0 : tensor<?x2560xf32>
}

// -----

// CHECK-LABEL: func.func @unary_and_cast_dynamic
// CHECK: sol.gelu tanh %{{.*}} : tensor<?x10240xf16>
// CHECK: sol.silu %{{.*}} : tensor<?x10240xf16>
// CHECK: sol.cast %{{.*}} : tensor<?x10240xf16> to tensor<?x10240xf32>
func.func @unary_and_cast_dynamic(%x: tensor<?x10240xf16>) -> tensor<?x10240xf32> {
  %0 = sol.gelu tanh %x : tensor<?x10240xf16>
  %1 = sol.silu %0 : tensor<?x10240xf16>
  %2 = sol.cast %1 : tensor<?x10240xf16> to tensor<?x10240xf32>
  return %2 : tensor<?x10240xf32>
}

// -----

// The range on the module, and a function's own that overrides it.
// CHECK: module attributes {sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [16, 4096]>}
// CHECK-LABEL: func.func @range_on_func
// CHECK-SAME: attributes {sol.dim_range = #sol.dim_range<min = 0, max = 256>}
module attributes {sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [16, 4096]>} {
  func.func @range_on_func(%x: tensor<?x16xf16>) -> tensor<?x16xf16> attributes {sol.dim_range = #sol.dim_range<min = 0, max = 256>} {
    %0 = sol.neg %x : tensor<?x16xf16>
    return %0 : tensor<?x16xf16>
  }
}

// -----

// A dynamic kernel with its cost points and its plan table: rows tile the
// function's range 1..4096, `cost` is the point at the max.
// CHECK-LABEL: func.func @dynamic_kernel_plans_costs
// CHECK: sol.kernel @oproj ins(%{{.*}}, %{{.*}} : tensor<?x2560xf16>, tensor<2560x2560xf16>) -> tensor<?x2560xf16> attributes {
// CHECK-SAME: costs = [#sol.cost_point<m = 1, cost = <bound = memory
// CHECK-SAME: #sol.cost_point<m = 4096, cost = <bound = compute
// CHECK-SAME: plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = <path = gemv
// CHECK-SAME: #sol.plan_entry<m_min = 17, m_max = 4096, plan = <path = wgmma
// CHECK: ^bb0(%{{.*}}: tensor<?x2560xf16>, %{{.*}}: tensor<2560x2560xf16>):
func.func @dynamic_kernel_plans_costs(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x2560xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4096>} {
  %0 = sol.kernel @oproj ins(%x, %w : tensor<?x2560xf16>, tensor<2560x2560xf16>) -> tensor<?x2560xf16> attributes {
    cost = #sol.cost<bound = compute, tc_flops = 53687091200, ew_flops = 0, bytes = 55050240, intensity = 975.2, balance = 206.0, t_compute_us = 54.26, t_memory_us = 11.47, t_ideal_us = 54.26, t_pred_us = 77.5, sol_pred = 0.7, limiter = matmul>,
    costs = [#sol.cost_point<m = 1, cost = #sol.cost<bound = memory, tc_flops = 13107200, ew_flops = 0, bytes = 13117440, intensity = 1.0, balance = 206.0, t_compute_us = 0.013, t_memory_us = 2.733, t_ideal_us = 2.733, t_pred_us = 5.9, sol_pred = 0.46, limiter = matmul>>,
             #sol.cost_point<m = 4096, cost = #sol.cost<bound = compute, tc_flops = 53687091200, ew_flops = 0, bytes = 55050240, intensity = 975.2, balance = 206.0, t_compute_us = 54.26, t_memory_us = 11.47, t_ideal_us = 54.26, t_pred_us = 77.5, sol_pred = 0.7, limiter = matmul>>],
    plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = gemv, tile = [16, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
             #sol.plan_entry<m_min = 17, m_max = 4096, plan = #sol.plan<path = wgmma, tile = [128, 128, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
  ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>):
    %mm = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    sol.yield %mm : tensor<?x2560xf16>
  }
  return %0 : tensor<?x2560xf16>
}

// -----

// A dynamic kernel the passes have not annotated yet.
// CHECK-LABEL: func.func @dynamic_kernel_bare
// CHECK: sol.kernel @mlp ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>) -> tensor<?x10240xf16> {
func.func @dynamic_kernel_bare(%x: tensor<?x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<?x10240xf16> {
  %0 = sol.kernel @mlp ins(%x, %w, %b : tensor<?x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>) -> tensor<?x10240xf16> {
  ^bb0(%xa: tensor<?x2560xf16>, %wa: tensor<10240x2560xf16>, %ba: tensor<10240xf16>):
    %mm = sol.matmul %xa, %wa transpose_b : tensor<?x2560xf16>, tensor<10240x2560xf16> -> tensor<?x10240xf16>
    %y = sol.add %mm, %ba : tensor<?x10240xf16>, tensor<10240xf16> -> tensor<?x10240xf16>
    %g = sol.gelu erf %y : tensor<?x10240xf16>
    sol.yield %g : tensor<?x10240xf16>
  }
  return %0 : tensor<?x10240xf16>
}
