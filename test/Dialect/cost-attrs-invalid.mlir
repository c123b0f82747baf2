// RUN: sol-opt %s -split-input-file -verify-diagnostics

// 'sol.cost' belongs on a sol compute op outside a kernel.
// expected-error @+1 {{'sol.cost' annotates a sol compute op outside a sol.kernel or a kernel function (a kernel carries its own 'cost')}}
func.func @cost_on_func() attributes {sol.cost = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = l2>} {
  return
}

// -----

func.func @cost_not_a_cost(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{'sol.cost' must be a #sol.cost attribute}}
  %0 = sol.relu %x {sol.cost = 1 : i32} : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{'sol.cost_summary' must be a #sol.cost_summary attribute}}
module attributes {sol.cost_summary = "fast"} {
}

// -----

// The kernel's own 'cost' must be a #sol.cost.
func.func @kernel_cost_wrong_kind(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{'sol.kernel' op attribute 'cost' failed to satisfy constraint}}
  %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> attributes {cost = 3 : i64} {
  ^bb0(%a: tensor<8xf16>):
    sol.yield %a : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @unknown_bound() attributes {
    // expected-error @+2 {{expected ::mlir::sol::Bound to be one of: compute, memory, latency, unknown}}
    // expected-error @+1 {{failed to parse Sol_CostAttr parameter 'bound'}}
    a = #sol.cost<bound = fast, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = l2>} {
  return
}

// -----

// Inside a kernel the kernel carries the cost; a per-op 'sol.cost' there
// would be counted twice.
func.func @cost_on_op_inside_kernel(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    // expected-error @+1 {{'sol.cost' annotates a sol compute op outside a sol.kernel or a kernel function (a kernel carries its own 'cost')}}
    %n = sol.neg %a {sol.cost = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = l2>} : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

// A scalar constant is an immediate, not a kernel: it carries no cost.
func.func @cost_on_constant() -> tensor<f16> {
  // expected-error @+1 {{'sol.cost' annotates a sol compute op outside a sol.kernel or a kernel function (a kernel carries its own 'cost')}}
  %c = "sol.constant"() <{value = 1.0 : f16}> {sol.cost = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 4.0, sol_pred = 0.25, limiter = l2>} : () -> tensor<f16>
  return %c : tensor<f16>
}

// -----

// expected-error @+1 {{'sol.kernel' is a unit attribute of a function}}
module attributes {sol.kernel} {
}

// -----

// A kernel function (convert-sol-to-linalg) carries its kernel's cost.
// expected-error @+1 {{'sol.cost' must be a #sol.cost attribute}}
func.func @kernel_func() attributes {sol.kernel, sol.cost = 3 : i64} {
  return
}

// -----

// 'sol.tensor_maps' counts a generated wgmma_tma kernel's TMA-map
// parameters: it belongs on a kernel function.
// expected-error @+1 {{'sol.tensor_maps' is a positive integer attribute of a kernel function}}
func.func @host_func() attributes {sol.tensor_maps = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{'sol.tensor_maps' is a positive integer attribute of a kernel function}}
func.func @no_maps() attributes {sol.kernel, sol.tensor_maps = 0 : i64} {
  return
}

// -----

// Manifests and reports copy #sol.cost into JSON, which has no NaN or
// infinity: a non-finite (1.0e999 reads as +Inf) or negative figure is
// refused where it is written (a K = 0 matmul once put "-nan" there).
// expected-error @+1 {{#sol.cost: 't_pred_us' must be finite and >= 0, got +Inf}}
module attributes {test.cost = #sol.cost<bound = compute, tc_flops = 0, ew_flops = 1, bytes = 2, intensity = 0.5, balance = 13.94, t_compute_us = 0.0, t_memory_us = 1.0, t_ideal_us = 1.0, t_pred_us = 1.0e999, sol_pred = 0.25, limiter = l2>} {
}

// -----

// expected-error @+1 {{#sol.cost: 'tc_flops', 'ew_flops' and 'bytes' must be >= 0, got -128, 0 and -2}}
module attributes {test.cost = #sol.cost<bound = latency, tc_flops = -128, ew_flops = 0, bytes = -2, intensity = 0.0, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 3.2, sol_pred = 0.0, limiter = launch>} {
}

// -----

// #sol.plan, the other attribute sol's passes write: the model divides by
// its tile. Whether its launch is one CUDA takes depends on the shapes: it
// is checked where the path derives it (kernels-to-gpu-invalid.mlir).
// expected-error @+1 {{#sol.plan: 'tile' must list positive extents}}
module attributes {test.plan = #sol.plan<path = mma_sync, tile = [0, 64, 32], warps = [2, 2], stages = 3, split_k = 1>} {
}

// -----

// expected-error @+1 {{#sol.plan: 'stages', 'split_k' and 'cluster' must be at least 1, got 3, 0 and 1}}
module attributes {test.plan = #sol.plan<path = mma_sync, tile = [64, 64, 32], warps = [2, 2], stages = 3, split_k = 0>} {
}

// -----

// 'sol.min_ptx_version' is what a generated gpu.module's code needs of
// PTX (sol-attach-nvvm-target reads it): on anything else, or not a
// positive integer, it is refused.
// expected-error @+1 {{'sol.min_ptx_version' is a positive integer attribute of a gpu.module (the PTX ISA version times ten)}}
func.func @min_ptx_version_on_a_func() attributes {sol.min_ptx_version = 84 : i64} {
  return
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'sol.min_ptx_version' is a positive integer attribute of a gpu.module (the PTX ISA version times ten)}}
  gpu.module @k attributes {sol.min_ptx_version = "8.4"} {
  }
}
