// RUN: sol-opt %s -split-input-file | sol-opt -split-input-file | FileCheck %s
// RUN: sol-opt %s -split-input-file --mlir-print-op-generic | sol-opt -split-input-file | FileCheck %s

// Presets print in the short form under their canonical name.

// CHECK-LABEL: module @preset_a100_80gb
// CHECK-SAME: attributes {sol.target = #sol.target<"a100-80gb">}
module @preset_a100_80gb attributes {sol.target = #sol.target<"a100-80gb">} {
}

// -----

// CHECK-LABEL: module @preset_b200
// CHECK-SAME: attributes {sol.target = #sol.target<"b200">}
module @preset_b200 attributes {sol.target = #sol.target<"b200">} {
}

// -----

// CHECK-LABEL: module @preset_h100_sxm
// CHECK-SAME: attributes {sol.target = #sol.target<"h100-sxm">}
module @preset_h100_sxm attributes {sol.target = #sol.target<"h100-sxm">} {
}

// -----

// CHECK-LABEL: module @preset_h200
// CHECK-SAME: attributes {sol.target = #sol.target<"h200">}
module @preset_h200 attributes {sol.target = #sol.target<"h200">} {
}

// -----

// Preset names are case-insensitive; the printer uses the canonical one.
// CHECK-LABEL: module @preset_name_uppercase_prints_canonical
// CHECK-SAME: attributes {sol.target = #sol.target<"h200">}
module @preset_name_uppercase_prints_canonical attributes {sol.target = #sol.target<"H200">} {
}

// -----

// CHECK-LABEL: module @preset_name_mixed_case_prints_canonical
// CHECK-SAME: attributes {sol.target = #sol.target<"h100-sxm">}
module @preset_name_mixed_case_prints_canonical attributes {sol.target = #sol.target<"H100-SXM">} {
}

// -----

// Every field spelled out, not equal to a preset: prints long, every field in
// the table's order.
// CHECK-LABEL: module @long_form_prints_long
// CHECK-SAME: attributes {sol.target = #sol.target<name = "h200-calibrated", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.4, bf16_tflops = 989.4, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4300.0, l2_gbps = 6330.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 2.5, mma_efficiency = 0.75, hbm_efficiency = 1.0>}
module @long_form_prints_long attributes {sol.target = #sol.target<name = "h200-calibrated", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.4, bf16_tflops = 989.4, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4.3e3, l2_gbps = 6330.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 2.5, mma_efficiency = 0.75, hbm_efficiency = 1.0>} {
}

// -----

// Fields may come in any order, keys may be quoted; 0 is a valid peak (no
// such path) and launch_us.
// CHECK-LABEL: module @long_form_any_order_quoted_keys
// CHECK-SAME: attributes {sol.target = #sol.target<name = "a100-nofp8", chip = "sm_80", sm_count = 108, clock_mhz = 1410, f16_tflops = 312.0, bf16_tflops = 312.0, tf32_tflops = 156.0, fp8_tflops = 0.0, f32_simt_tflops = 19.5, hbm_gbps = 2039.0, l2_gbps = 7219.0, l2_bytes = 41943040, smem_per_sm_bytes = 167936, regs_per_sm = 65536, launch_us = 0.0, mma_efficiency = 0.5, hbm_efficiency = 0.8>}
module @long_form_any_order_quoted_keys attributes {sol.target = #sol.target<hbm_efficiency = 0.8, mma_efficiency = 0.5, launch_us = 0.0, regs_per_sm = 65536, smem_per_sm_bytes = 167936, l2_bytes = 41943040, l2_gbps = 7219.0, hbm_gbps = 2039.0, f32_simt_tflops = 19.5, fp8_tflops = 0.0, tf32_tflops = 156.0, bf16_tflops = 312.0, f16_tflops = 312.0, clock_mhz = 1410, sm_count = 108, "chip" = "sm_80", "name" = "a100-nofp8">} {
}

// -----

// A long form equal to a preset is that preset: it prints short.
// CHECK-LABEL: module @long_form_equal_to_preset_prints_short
// CHECK-SAME: attributes {sol.target = #sol.target<"h200">}
module @long_form_equal_to_preset_prints_short attributes {sol.target = #sol.target<name = "h200", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 10800.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
}

// -----

// One field off the preset (hbm_gbps of the h100-sxm): prints long.
// CHECK-LABEL: module @long_form_one_field_off_preset_prints_long
// CHECK-SAME: #sol.target<name = "h200", {{.*}}, hbm_gbps = 3350.0,
module @long_form_one_field_off_preset_prints_long attributes {sol.target = #sol.target<name = "h200", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 3350.0, l2_gbps = 10800.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
}

// -----

// The short form needs the preset's exact name: a long form named "H200" is
// not the h200 preset and prints long.
// CHECK-LABEL: module @long_form_uppercase_name_prints_long
// CHECK-SAME: #sol.target<name = "H200", chip = "sm_90a",
module @long_form_uppercase_name_prints_long attributes {sol.target = #sol.target<name = "H200", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.4, bf16_tflops = 989.4, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 10800.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
}

// -----

// The target may sit on a nested module too.
// CHECK-LABEL: module @outer
// CHECK: module @nested attributes {sol.target = #sol.target<"b200">}
module @outer {
  module @nested attributes {sol.target = #sol.target<"b200">} {
  }
}
