// RUN: sol-opt %s --split-input-file --sol-form-kernels | FileCheck %s

// A lone op becomes a single-op kernel named <func>_<op kind>_<n>.
// CHECK-LABEL: func.func @wrap_lone_add
//       CHECK:   %[[K:.*]] = sol.kernel @wrap_lone_add_add_0 ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16> {
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<8xf16>):
//  CHECK-NEXT:     %[[S:.*]] = sol.add %[[A]], %[[B]]
//  CHECK-NEXT:     sol.yield %[[S]]
//       CHECK:   return %[[K]]
func.func @wrap_lone_add(%x: tensor<4x8xf16>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %y = sol.add %x, %b : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// Ops already in a kernel stay; n continues the function's kernel count.
// CHECK-LABEL: func.func @number_after_existing_kernels
//       CHECK:   sol.kernel @number_after_existing_kernels_matmul_0
//       CHECK:   sol.kernel @number_after_existing_kernels_exp_1
//   CHECK-NOT:   sol.kernel
func.func @number_after_existing_kernels(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %k = sol.kernel @number_after_existing_kernels_matmul_0 ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    %m = sol.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    sol.yield %m : tensor<4x8xf32>
  }
  %e = sol.exp %k : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// A name already taken in the module (here a function) is skipped.
// CHECK-LABEL: func.func @skip_taken_names
//       CHECK:   sol.kernel @skip_taken_names_neg_1
func.func @skip_taken_names(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = sol.neg %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @skip_taken_names_neg_0() {
  return
}

// -----

// The op's sol.cost moves onto the kernel; the op inside carries none.
// CHECK-LABEL: func.func @move_cost_to_kernel
//       CHECK:   sol.kernel @move_cost_to_kernel_relu_0 {{.*}} attributes {cost = #sol.cost<bound = memory
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     sol.relu %{{.*}} : tensor<8xf16>
//   CHECK-NOT:     sol.cost
func.func @move_cost_to_kernel(%x: tensor<8xf16>) -> tensor<8xf16> {
  %y = sol.relu %x {sol.cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 8, bytes = 32, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 2.0, sol_pred = 0.0, limiter = launch>} : tensor<8xf16>
  return %y : tensor<8xf16>
}

// -----

// A scalar constant is cloned into the kernel, not passed in, and the now
// unused original is erased.
// CHECK-LABEL: func.func @clone_scalar_constant
//   CHECK-NOT:   sol.constant
//       CHECK:   sol.kernel @clone_scalar_constant_mul_0 ins(%{{.*}} : tensor<8xf16>)
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: tensor<8xf16>):
//  CHECK-NEXT:     %[[C:.*]] = sol.constant 5.000000e-01 : f16
//  CHECK-NEXT:     sol.mul %[[A]], %[[C]]
func.func @clone_scalar_constant(%x: tensor<8xf16>) -> tensor<8xf16> {
  %c = sol.constant 5.000000e-01 : f16
  %y = sol.mul %x, %c : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  return %y : tensor<8xf16>
}

// -----

// Every lone op gets its own kernel, in program order.
// CHECK-LABEL: func.func @one_kernel_per_op
//       CHECK:   %[[M:.*]] = sol.kernel @one_kernel_per_op_matmul_0
//       CHECK:   %[[T:.*]] = sol.kernel @one_kernel_per_op_tanh_1 ins(%[[M]] :
//       CHECK:   return %[[T]]
func.func @one_kernel_per_op(%x: tensor<4x8xf16>, %w: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  %t = sol.tanh %m : tensor<4x8xf16>
  return %t : tensor<4x8xf16>
}

// -----

// A function name outside [A-Za-z0-9_] gives a sanitised kernel name (it
// becomes the PTX entry and the kernel's file names).
// CHECK-LABEL: func.func @"a b/c"
//       CHECK:   sol.kernel @a_b_c_exp_0 ins
func.func @"a b/c"(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = sol.exp %x : tensor<8xf32>
  return %e : tensor<8xf32>
}

// -----

// Dynamic M: a lone op with a dynamic leading dim becomes a dynamic kernel.
// CHECK-LABEL: func.func @wrap_lone_dynamic_matmul
//       CHECK:   sol.kernel @wrap_lone_dynamic_matmul_matmul_0 ins(%{{.*}}, %{{.*}} : tensor<?x2560xf16>, tensor<2560x2560xf16>) -> tensor<?x2560xf16> {
//  CHECK-NEXT:   ^bb0(%{{.*}}: tensor<?x2560xf16>, %{{.*}}: tensor<2560x2560xf16>):
//  CHECK-NEXT:     sol.matmul {{.*}} : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
func.func @wrap_lone_dynamic_matmul(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x2560xf16> {
  %0 = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
  return %0 : tensor<?x2560xf16>
}
