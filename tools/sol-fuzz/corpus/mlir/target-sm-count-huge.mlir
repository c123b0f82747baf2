// sol-fuzz corpus: sm_count = 2^62 (SIGFPE in sol-tile's plan choice).
module attributes {sol.target = #sol.target<name = "fuzz", chip = "sm_90a", sm_count = 4611686018427387904, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 2000.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
  func.func @k(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %c = sol.matmul %a, %b transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
    return %c : tensor<64x64xf16>
  }
}
