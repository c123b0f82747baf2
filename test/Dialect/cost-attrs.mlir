// RUN: sol-opt %s -split-input-file | sol-opt -split-input-file | FileCheck %s

// #sol.cost on a kernel and on a lone op, #sol.cost_summary on the module:
// every field round-trips, reals in their shortest exact spelling.

// CHECK-LABEL: module @costs_round_trip
// CHECK-SAME: sol.cost_summary = #sol.cost_summary<kernels = 2, unknown_kernels = 1, t_ideal_us = 108.573, t_pred_us = 166.344, bytes = 138952704, unfused_bytes = 222838784, saved_bytes = 83886080>
module @costs_round_trip attributes {sol.cost_summary = #sol.cost_summary<kernels = 2, unknown_kernels = 1, t_ideal_us = 108.573, t_pred_us = 166.344, bytes = 138952704, unfused_bytes = 222838784, saved_bytes = 83886080>} {
  // CHECK: sol.kernel @k
  // CHECK-SAME: attributes {cost = #sol.cost<bound = compute, tc_flops = 107374182400, ew_flops = 20971520, bytes = 138936320, intensity = 773.0, balance = 206.0, t_compute_us = 108.57, t_memory_us = 28.945, t_ideal_us = 108.57, t_pred_us = 163.14, sol_pred = 0.6655, limiter = matmul>}
  // CHECK: sol.relu {{.*}} {sol.cost = #sol.cost<bound = unknown, tc_flops = 0, ew_flops = 0, bytes = 0, intensity = 0.0, balance = 0.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 0.0, sol_pred = 0.0, limiter = unknown, reason = "input #0 has type tensor<?xf16>">}
  func.func @f(%x: tensor<8xf16>, %d: tensor<?xf16>) -> (tensor<8xf16>, tensor<?xf16>) {
    %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> attributes {cost = #sol.cost<bound = compute, tc_flops = 107374182400, ew_flops = 20971520, bytes = 138936320, intensity = 773.0, balance = 206.0, t_compute_us = 108.57, t_memory_us = 28.945, t_ideal_us = 108.57, t_pred_us = 163.14, sol_pred = 0.6655, limiter = matmul>} {
    ^bb0(%a: tensor<8xf16>):
      %n = sol.neg %a : tensor<8xf16>
      sol.yield %n : tensor<8xf16>
    }
    %1 = sol.relu %d {sol.cost = #sol.cost<bound = unknown, tc_flops = 0, ew_flops = 0, bytes = 0, intensity = 0.0, balance = 0.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 0.0, sol_pred = 0.0, limiter = unknown, reason = "input #0 has type tensor<?xf16>">} : tensor<?xf16>
    return %0, %1 : tensor<8xf16>, tensor<?xf16>
  }
}

// -----

// Every bound and limiter keyword parses; tiny and huge reals keep an exact
// spelling MLIR's lexer reads back as a float.
// CHECK-LABEL: func.func @cost_keywords
// CHECK: #sol.cost<bound = memory, {{.*}}, t_pred_us = 1.0e-07, sol_pred = 1.0e+20, limiter = hbm>
// CHECK: #sol.cost<bound = latency, {{.*}}, limiter = launch>
// CHECK: #sol.cost<bound = compute, {{.*}}, limiter = l2>
// CHECK: #sol.cost<bound = compute, {{.*}}, limiter = elementwise>
func.func @cost_keywords() attributes {
    a = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 1.0e-07, sol_pred = 1.0e+20, limiter = hbm>,
    b = #sol.cost<bound = latency, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = launch>,
    c = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = l2>,
    d = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = elementwise>} {
  return
}
