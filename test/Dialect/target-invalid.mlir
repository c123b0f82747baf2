// RUN: sol-opt %s -split-input-file -verify-diagnostics

// Parse and verification errors of #sol.target. Verifier errors point at the
// attribute's `<`; errors about one key point at the key.

// expected-error @+1 {{unknown #sol.target preset 'h300'; known presets: a100-80gb, b200, h100-pcie, h100-sxm, h200, l40s}}
module @unknown_preset attributes {sol.target = #sol.target<"h300">} {
}

// -----

// expected-error @+1 {{expected '>'}}
module @preset_then_fields attributes {sol.target = #sol.target<"h200", name = "x">} {
}

// -----

// expected-error @+1 {{expected valid keyword or string}}
module @empty_target attributes {sol.target = #sol.target<>} {
}

// -----

module @unknown_field attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9,
    // expected-error @+1 {{unknown #sol.target field 'foo'; known fields: name, chip, sm_count, clock_mhz, f16_tflops, bf16_tflops, tf32_tflops, fp8_tflops, f32_simt_tflops, hbm_gbps, l2_gbps, l2_bytes, smem_per_sm_bytes, regs_per_sm, launch_us, mma_efficiency, hbm_efficiency}}
    foo = 1>} {
}

// -----

module @duplicated_field attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    // expected-error @+1 {{#sol.target field 'name' given twice}}
    name = "y",
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target is missing field 'hbm_gbps' (or name a preset: #sol.target<"h200">)}}
module @missing_field attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'name' must not be empty}}
module @empty_name attributes {sol.target = #sol.target<
    name = "",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'chip' must be a PTX target such as sm_90a, got 'gfx90a'}}
module @chip_not_sm attributes {sol.target = #sol.target<
    name = "x",
    chip = "gfx90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'sm_count' must be positive, got 0}}
module @zero_sm_count attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 0,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'hbm_gbps' must be positive, got -1.0}}
module @negative_hbm_gbps attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = -1.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'fp8_tflops' must be >= 0 (0: no such path), got -1.0}}
module @negative_fp8_tflops attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = -1.0,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'launch_us' must be >= 0 (0: no such path), got -0.5}}
module @negative_launch_us attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = -0.5,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'mma_efficiency' must be a fraction in (0, 1], got 1.5}}
module @mma_efficiency_above_one attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 1.5,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'hbm_efficiency' must be a fraction in (0, 1], got 0.0}}
module @hbm_efficiency_zero attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.0>} {
}

// -----

// A string where a real belongs.
module @string_for_real_field attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    // expected-error @+1 {{expected floating point literal}}
    hbm_gbps = "fast",
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

module @integer_for_string_field attributes {sol.target = #sol.target<
    // expected-error @+1 {{expected string}}
    name = 1,
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

module @real_for_integer_field attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    // expected-error @+1 {{expected integer value}}
    sm_count = 1.5,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// The chip reaches LLVM's NVPTX backend, which aborts on a processor it does not
// know: sm_89a (no such variant), sm_999 and sm_-1 are refused here.
// expected-error @+1 {{#sol.target: chip 'sm_89a' is not a processor LLVM's NVPTX backend knows (sm_<N> with an optional 'a' or 'f' suffix, sm_20 to sm_121f: sm_80, sm_90a, sm_100a, ...)}}
module @chip_unknown_to_llvm_sm_89a attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_89a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: chip 'sm_999' is not a processor LLVM's NVPTX backend knows}}
module @chip_unknown_to_llvm_sm_999 attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_999",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: chip 'sm_-1' is not a processor LLVM's NVPTX backend knows}}
module @chip_unknown_to_llvm_negative attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_-1",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// Figures outside any GPU's range overflow the model's counts and times
// (2^62 SMs once divided estimateCost by zero): refused with the range.
// expected-error @+1 {{#sol.target: 'sm_count' must be at most 1024 (no GPU has more than a few hundred SMs), got 4611686018427387904}}
module @sm_count_beyond_any_gpu attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 4611686018427387904,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'regs_per_sm' must be at least 8192 (every CUDA SM has 8192 to 65536 32-bit registers), got 1}}
module @regs_per_sm_below_any_sm attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 1,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'f16_tflops' must be at most 1000000.0 (between 1 GFLOP/s and 1 EFLOP/s), got 1.0e+308}}
module @peak_beyond_any_gpu attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 1.0e308,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'f32_simt_tflops' must be at least 0.001 (between 1 GFLOP/s and 1 EFLOP/s), got 1.0e-308}}
module @peak_below_any_gpu attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 1.0e-308,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'hbm_gbps' must be at most 10000000.0 (between 1 GB/s and 10 PB/s), got 1.0e+308}}
module @bandwidth_beyond_any_gpu attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 1.0e308,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'mma_efficiency' must be at least 0.01 (no path reaches less than 1% of its peak), got 1.0e-308}}
module @efficiency_below_any_path attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 1.0e-308,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'clock_mhz' must be at most 10000 (10 GHz), got 9223372036854775807}}
module @clock_beyond_any_gpu attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 9223372036854775807,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 3.2,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}

// -----

// expected-error @+1 {{#sol.target: 'launch_us' must be at most 1000000.0 (one second), got 1.0e+300}}
module @launch_beyond_a_second attributes {sol.target = #sol.target<
    name = "x",
    chip = "sm_90a",
    sm_count = 132,
    clock_mhz = 1830,
    f16_tflops = 989.4,
    bf16_tflops = 989.4,
    tf32_tflops = 494.7,
    fp8_tflops = 1978.9,
    f32_simt_tflops = 66.9,
    hbm_gbps = 4800.0,
    l2_gbps = 9370.0,
    l2_bytes = 62914560,
    smem_per_sm_bytes = 233472,
    regs_per_sm = 65536,
    launch_us = 1.0e300,
    mma_efficiency = 0.7,
    hbm_efficiency = 0.9>} {
}
