// RUN: sol-opt %s -split-input-file -sol-cost-model -verify-diagnostics | FileCheck %s

// Dynamic dims cannot be bounded: the annotation says unknown, with the
// reason, and a warning names the kernel. Never a number.
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @dynamic_rows_cost_unknown
  // CHECK: sol.cost = #sol.cost<bound = unknown, {{.*}}, limiter = unknown, reason = "input #0 has type tensor<?x2560xf16>; the cost model needs static shapes">
  func.func @dynamic_rows_cost_unknown(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<?x2560xf16> {
    // expected-warning @+1 {{cost of 'dynamic_rows_cost_unknown:sol.matmul#0' is unknown: input #0 has type tensor<?x2560xf16>; the cost model needs static shapes}}
    %y = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    return %y : tensor<?x2560xf16>
  }
}
// The unknown kernel is counted apart and left out of the totals.
// CHECK: sol.cost_summary = #sol.cost_summary<kernels = 0, unknown_kernels = 1, t_ideal_us = 0.0, t_pred_us = 0.0, bytes = 0,

// -----

// A target without a peak for the kernel's dtype (bf16_tflops = 0): unknown,
// naming the missing field.
#no_bf16 = #sol.target<name = "no-bf16", chip = "sm_80", sm_count = 108, clock_mhz = 1410,
  f16_tflops = 312.0, bf16_tflops = 0.0, tf32_tflops = 156.0, fp8_tflops = 0.0,
  f32_simt_tflops = 19.5, hbm_gbps = 2039.0, l2_gbps = 7219.0, l2_bytes = 41943040,
  smem_per_sm_bytes = 167936, regs_per_sm = 65536, launch_us = 3.2,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #no_bf16} {
  // CHECK-LABEL: func.func @bf16_without_peak_cost_unknown
  // CHECK: cost = #sol.cost<bound = unknown, tc_flops = 131072, ew_flops = 0, bytes = 10240, {{.*}}, reason = "target 'no-bf16' has no bf16 matmul path (bf16_tflops = 0)">
  func.func @bf16_without_peak_cost_unknown(%a: tensor<64x32xbf16>, %b: tensor<32x32xbf16>) -> tensor<64x32xbf16> {
    // expected-warning @+1 {{cost of 'mm' is unknown: target 'no-bf16' has no bf16 matmul path (bf16_tflops = 0)}}
    %0 = sol.kernel @mm ins(%a, %b : tensor<64x32xbf16>, tensor<32x32xbf16>) -> tensor<64x32xbf16> {
    ^bb0(%x: tensor<64x32xbf16>, %y: tensor<32x32xbf16>):
      %m = sol.matmul %x, %y : tensor<64x32xbf16>, tensor<32x32xbf16> -> tensor<64x32xbf16>
      sol.yield %m : tensor<64x32xbf16>
    }
    return %0 : tensor<64x32xbf16>
  }
}

// -----

// No target pinned: the pass cannot judge anything and says how to fix it.
// expected-error @+1 {{sol-cost-model needs a target: pin one with `module attributes {sol.target = #sol.target<"h200">}` or run --sol-attach-target=preset=<name>}}
module {
  func.func @no_target(%x: tensor<8xf16>) -> tensor<8xf16> {
    %y = sol.relu %x : tensor<8xf16>
    return %y : tensor<8xf16>
  }
}
