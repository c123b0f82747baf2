// RUN: sol-opt %s -split-input-file -sol-cost-model | FileCheck %s

// The scales of an fp8 matmul multiply the f32 accumulator once per output
// element each (docs/fp8.md, "Cost"): the FLOPs of the sol.mul a user would
// otherwise write, 1 per result element per scale, as elementwise work
// (CostModel.cpp's countWork).

#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #seed} {
  // Two scales on 7 x 24 outputs: 2 * 7 * 24 = 336; 2 * 7 * 24 * 48 = 16128
  // on the tensor cores.
  // CHECK-LABEL: func.func @two_scales
  // CHECK: sol.cost = #sol.cost<bound = {{[a-z]+}}, tc_flops = 16128, ew_flops = 336,
  func.func @two_scales(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E4M3FN>,
                        %sx: tensor<7x1xf32>, %sw: tensor<24xf32>) -> tensor<7x24xf16> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x1xf32>) scale_b(%sw : tensor<24xf32>)
        : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E4M3FN> -> tensor<7x24xf16>
    return %y : tensor<7x24xf16>
  }

  // Three scales (the output's too) on 33 x 64 outputs: 3 * 33 * 64 = 6336.
  // CHECK-LABEL: func.func @three_scales
  // CHECK: sol.cost = #sol.cost<bound = {{[a-z]+}}, tc_flops = 337920, ew_flops = 6336,
  func.func @three_scales(%x: tensor<33x80xf8E4M3FN>, %w: tensor<64x80xf8E4M3FN>,
                          %s: tensor<f32>) -> tensor<33x64xf8E4M3FN> {
    %y = sol.matmul %x, %w transpose_b scale_a(%s : tensor<f32>) scale_b(%s : tensor<f32>) scale_out(%s : tensor<f32>)
        : tensor<33x80xf8E4M3FN>, tensor<64x80xf8E4M3FN> -> tensor<33x64xf8E4M3FN>
    return %y : tensor<33x64xf8E4M3FN>
  }

  // Block-wise scales scale each K block's partial sum: per output element
  // and K block (ceil(300/128) = 3), a multiply per block-wise scale and an
  // add: (2 + 1) * 3 * 7 * 200 = 12600; 2 * 7 * 200 * 300 on the tensor cores.
  // CHECK-LABEL: func.func @block_wise_scales
  // CHECK: sol.cost = #sol.cost<bound = {{[a-z]+}}, tc_flops = 840000, ew_flops = 12600,
  func.func @block_wise_scales(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>,
                               %sx: tensor<7x3xf32>, %sw: tensor<2x3xf32>) -> tensor<7x200xf32> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x3xf32>) scale_b(%sw : tensor<2x3xf32>)
        : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
    return %y : tensor<7x200xf32>
  }

  // A per-token scale_a against block-wise B: 1 * 7 * 200 for the token
  // scale, (1 + 1) * 3 * 7 * 200 for B's blocks: 9800.
  // CHECK-LABEL: func.func @token_and_blocks
  // CHECK: sol.cost = #sol.cost<bound = {{[a-z]+}}, tc_flops = 840000, ew_flops = 9800,
  func.func @token_and_blocks(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>,
                              %sx: tensor<7x1xf32>, %sw: tensor<2x3xf32>) -> tensor<7x200xf32> {
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x1xf32>) scale_b(%sw : tensor<2x3xf32>)
        : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
    return %y : tensor<7x200xf32>
  }
}
