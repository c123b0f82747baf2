// RUN: sol-opt %s -split-input-file -sol-cost-model -verify-diagnostics | FileCheck %s

// The cost of fp8 kernels (docs/fp8.md, "Cost"): 2*M*N*K tensor-core FLOPs
// at the target's fp8 peak, one byte per fp8 element, the scales' f32 bytes
// counted like any other input (a sol.constant scale is an immediate: none).
// The device is the seed documents' illustrative one (cost-model.mlir) with
// fp8 at twice the f16 rate: 2000 TFLOP/s, 4 TB/s, balance 500, no launch
// cost. Each scale multiplies the accumulator once per output element:
// elementwise FLOPs (cost-fp8-scale-flops.mlir).

// Prefill o_proj + residual in fp8, per-token and per-channel scales, bf16
// out. FLOPs: 2 * 8192 * 2560 * 2560 = 107374182400 on the tensor cores;
// the residual add and the two scales 3 * 8192 * 2560 = 62914560.
// Bytes: x 8192 * 2560 * 1 = 20971520, W 2560 * 2560 * 1 = 6553600,
// scale_a 8192 * 4 = 32768, scale_b 2560 * 4 = 10240, r and the output
// 8192 * 2560 * 2 = 41943040 each: 111454208.
// Intensity (107374182400 + 62914560) / 111454208 = 963.96; compute floor
// 107374182400 / 2e15 = 53.687 us (the f16 kernel's is 107.37), memory
// floor 111454208 / 4e12 = 27.864 us: compute-bound, T_ideal = 53.687 us.
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @fp8_prefill
  // CHECK: sol.kernel @oproj_fp8
  // CHECK-SAME: cost = #sol.cost<bound = compute, tc_flops = 107374182400, ew_flops = 62914560, bytes = 111454208, intensity = 964.0, balance = 500.0, t_compute_us = 53.687, t_memory_us = 27.864, t_ideal_us = 53.687,
  func.func @fp8_prefill(%x: tensor<8192x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>,
                         %sx: tensor<8192x1xf32>, %sw: tensor<2560xf32>,
                         %r: tensor<8192x2560xbf16>) -> tensor<8192x2560xbf16> {
    %0 = sol.kernel @oproj_fp8 ins(%x, %w, %sx, %sw, %r : tensor<8192x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<8192x1xf32>, tensor<2560xf32>, tensor<8192x2560xbf16>) -> tensor<8192x2560xbf16> {
    ^bb0(%a: tensor<8192x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<8192x1xf32>, %sb: tensor<2560xf32>, %c: tensor<8192x2560xbf16>):
      %mm = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<8192x1xf32>) scale_b(%sb : tensor<2560xf32>)
          : tensor<8192x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<8192x2560xbf16>
      %y = sol.add %mm, %c : tensor<8192x2560xbf16>, tensor<8192x2560xbf16> -> tensor<8192x2560xbf16>
      sol.yield %y : tensor<8192x2560xbf16>
    }
    return %0 : tensor<8192x2560xbf16>
  }
}

// -----

// Decode, one token, e4m3 x e5m2 (the peak is the fp8 one for either pair).
// FLOPs 2 * 2560 * 2560 = 13107200, the two scales 2 * 2560. Bytes: x
// 2560, W 6553600, the per-tensor scale_a 4, scale_b 2560 * 4 = 10240, the
// f16 output 5120: 6571524, half the f16 kernel's 13.1 MB. Intensity
// (13107200 + 5120) / 6571524 = 1.995; memory floor 6571524 / 4e12 = 1.6429 us, compute floor
// 13107200 / 2e15 = 0.0065536 us: memory-bound.
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @fp8_decode
  // CHECK: sol.matmul {{.*}} {sol.cost = #sol.cost<bound = memory, tc_flops = 13107200, ew_flops = 5120, bytes = 6571524, intensity = 1.995, balance = 500.0, t_compute_us = 0.0065536, t_memory_us = 1.6429, t_ideal_us = 1.6429,
  func.func @fp8_decode(%x: tensor<1x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E5M2>,
                        %sx: tensor<f32>, %sw: tensor<2560xf32>) -> tensor<1x2560xf16> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<f32>) scale_b(%sw : tensor<2560xf32>)
        : tensor<1x2560xf8E4M3FN>, tensor<2560x2560xf8E5M2> -> tensor<1x2560xf16>
    return %y : tensor<1x2560xf16>
  }
}

// -----

// A sol.constant scale is an immediate of the kernel: no bytes. An fp8
// output with its scale: one byte per element.
// FLOPs 2 * 33 * 64 * 80 = 337920, two scales 2 * 33 * 64 = 4224. Bytes:
// x 33 * 80 = 2640, W 64 * 80 =
// 5120, the output 33 * 64 = 2112: 9872; both scales immediates.
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @fp8_constant_scales
  // CHECK: sol.matmul {{.*}} {sol.cost = #sol.cost<bound = memory, tc_flops = 337920, ew_flops = 4224, bytes = 9872,
  func.func @fp8_constant_scales(%x: tensor<33x80xf8E4M3FN>, %w: tensor<64x80xf8E4M3FN>) -> tensor<33x64xf8E4M3FN> {
    %s = sol.constant 5.000000e-01 : f32
    %y = sol.matmul %x, %w transpose_b scale_a(%s : tensor<f32>) scale_out(%s : tensor<f32>)
        : tensor<33x80xf8E4M3FN>, tensor<64x80xf8E4M3FN> -> tensor<33x64xf8E4M3FN>
    return %y : tensor<33x64xf8E4M3FN>
  }
}

// -----

// A100 has no fp8 tensor cores (fp8_tflops = 0 in its preset): no bound,
// and the reason names the missing field. The counts stand: 2 * 64 * 32 *
// 32 = 131072 FLOPs, the scale's 64 * 32 = 2048; a 2048, b 1024, the scale 128 and the bf16 output
// 4096 bytes: 7296.
module attributes {sol.target = #sol.target<"a100-80gb">} {
  // CHECK-LABEL: func.func @fp8_on_a100
  // CHECK: cost = #sol.cost<bound = unknown, tc_flops = 131072, ew_flops = 2048, bytes = 7296, {{.*}}, reason = "target 'a100-80gb' has no f8E4M3FN matmul path (fp8_tflops = 0)">
  func.func @fp8_on_a100(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x32xf8E4M3FN>, %s: tensor<32xf32>) -> tensor<64x32xbf16> {
    // expected-warning @+1 {{cost of 'mm' is unknown: target 'a100-80gb' has no f8E4M3FN matmul path (fp8_tflops = 0)}}
    %0 = sol.kernel @mm ins(%a, %b, %s : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<32xf32>) -> tensor<64x32xbf16> {
    ^bb0(%x: tensor<64x32xf8E4M3FN>, %y: tensor<32x32xf8E4M3FN>, %z: tensor<32xf32>):
      %m = sol.matmul %x, %y transpose_b scale_b(%z : tensor<32xf32>) : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN> -> tensor<64x32xbf16>
      sol.yield %m : tensor<64x32xbf16>
    }
    return %0 : tensor<64x32xbf16>
  }
}
