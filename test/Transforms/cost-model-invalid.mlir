// RUN: sol-opt %s -split-input-file -sol-cost-model -verify-diagnostics | FileCheck %s

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

// -----

// A tensor whose bytes overflow int64 has no cost: an error naming it, where
// the FLOPs and bytes once wrapped negative (K = INT64_MAX).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tensor_bytes_overflow_refused(%x: tensor<1x9223372036854775807xf16>, %w: tensor<64x9223372036854775807xf16>) -> tensor<1x64xf16> {
    // expected-error @+1 {{sol-cost-model: cannot cost 'sol.matmul': input #0 has type tensor<1x9223372036854775807xf16>: its size in bytes overflows int64}}
    %y = sol.matmul %x, %w transpose_b : tensor<1x9223372036854775807xf16>, tensor<64x9223372036854775807xf16> -> tensor<1x64xf16>
    return %y : tensor<1x64xf16>
  }
}

// -----

// Batch dims times M (2 x INT64_MAX rows) would wrap into a small row
// count that gemv takes (it once asked a SmallVector for 2^64 - 2
// accumulators): the byte check refuses the result first.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @rows_overflow_refused(%x: tensor<2x9223372036854775807x64xf16>, %w: tensor<64x64xf16>) -> tensor<2x9223372036854775807x64xf16> {
    // expected-error @+1 {{sol-cost-model: cannot cost 'sol.matmul': sol.matmul result #0 has type tensor<2x9223372036854775807x64xf16>: its size in bytes overflows int64}}
    %y = sol.matmul %x, %w transpose_b : tensor<2x9223372036854775807x64xf16>, tensor<64x64xf16> -> tensor<2x9223372036854775807x64xf16>
    return %y : tensor<2x9223372036854775807x64xf16>
  }
}

// -----

// Each tensor fits, 2 * M * N * K does not (2^71).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @kernel_flops_overflow_refused(%x: tensor<1048576x1073741824xf16>, %w: tensor<1048576x1073741824xf16>) -> tensor<1048576x1048576xf16> {
    // expected-error @+1 {{sol-cost-model: cannot cost kernel @k: the matmul's 2*M*N*K FLOPs (M = 1048576, N = 1048576, K = 1073741824) overflow int64}}
    %0 = sol.kernel @k ins(%x, %w : tensor<1048576x1073741824xf16>, tensor<1048576x1073741824xf16>) -> tensor<1048576x1048576xf16> {
    ^bb0(%a: tensor<1048576x1073741824xf16>, %b: tensor<1048576x1073741824xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<1048576x1073741824xf16>, tensor<1048576x1073741824xf16> -> tensor<1048576x1048576xf16>
      sol.yield %m : tensor<1048576x1048576xf16>
    }
    return %0 : tensor<1048576x1048576xf16>
  }
}

// -----

// Each of the three tensors fits (2^62 bytes), their sum does not.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @traffic_overflow_refused(%x: tensor<1152921504606846976xf32>, %y: tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32> {
    // expected-error @+1 {{sol-cost-model: cannot cost 'sol.add': the kernel's inputs and outputs together hold more than 2^63 - 1 bytes}}
    %c = sol.add %x, %y : tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32> -> tensor<1152921504606846976xf32>
    return %c : tensor<1152921504606846976xf32>
  }
}
