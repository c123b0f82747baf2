// RUN: sol-opt %s -split-input-file --sol-attach-target=preset=h100-sxm | FileCheck %s --check-prefix=PRESET
// RUN: sol-opt %s -split-input-file --sol-attach-target=preset=H100-SXM | FileCheck %s --check-prefix=PRESET
// RUN: sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/h200-calibrated.json | FileCheck %s --check-prefix=CALIBRATED
// RUN: sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/base-only.json | FileCheck %s --check-prefix=BASE-ONLY
// RUN: sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/full-no-base.json | FileCheck %s --check-prefix=NO-BASE

// RUN: not sol-opt %s -split-input-file --sol-attach-target 2>&1 | FileCheck %s --check-prefix=NO-OPTION
// RUN: not sol-opt %s -split-input-file --sol-attach-target="preset=h200 file=%S/Inputs/base-only.json" 2>&1 | FileCheck %s --check-prefix=NO-OPTION
// RUN: not sol-opt %s -split-input-file --sol-attach-target=preset=h300 2>&1 | FileCheck %s --check-prefix=UNKNOWN-PRESET
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=MISSING-FILE
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/malformed.json 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/not-an-object.json 2>&1 | FileCheck %s --check-prefix=NOT-OBJECT
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/unknown-key.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-KEY
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/unknown-base.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-BASE
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/wrong-type.json 2>&1 | FileCheck %s --check-prefix=WRONG-TYPE
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/fractional-integer.json 2>&1 | FileCheck %s --check-prefix=FRACTIONAL
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/missing-field.json 2>&1 | FileCheck %s --check-prefix=MISSING-FIELD
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/invalid-value.json 2>&1 | FileCheck %s --check-prefix=INVALID-VALUE
// RUN: not sol-opt %s -split-input-file --sol-attach-target=file=%S/Inputs/sm-count-out-of-range.json 2>&1 | FileCheck %s --check-prefix=OUT-OF-RANGE

// A module without a target gets one.

// PRESET-LABEL: module @no_target
// PRESET-SAME: attributes {sol.target = #sol.target<"h100-sxm">} {
// CALIBRATED-LABEL: module @no_target
// CALIBRATED-SAME: attributes {sol.target = #sol.target<name = "h200-calibrated", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4380.0, l2_gbps = 10800.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 2.9, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
// BASE-ONLY-LABEL: module @no_target
// BASE-ONLY-SAME: attributes {sol.target = #sol.target<"h200">} {
// NO-BASE-LABEL: module @no_target
// NO-BASE-SAME: attributes {sol.target = #sol.target<name = "test-gpu", chip = "sm_89", sm_count = 128, clock_mhz = 2520, f16_tflops = 165.2, bf16_tflops = 165.2, tf32_tflops = 82.6, fp8_tflops = 330.3, f32_simt_tflops = 82.6, hbm_gbps = 1008.0, l2_gbps = 5000.0, l2_bytes = 75497472, smem_per_sm_bytes = 102400, regs_per_sm = 65536, launch_us = 2.5, mma_efficiency = 0.6, hbm_efficiency = 0.85>} {
module @no_target {
  func.func @f(%x: tensor<8xf16>) -> tensor<8xf16> {
    return %x : tensor<8xf16>
  }
}

// -----

// An existing target is replaced; other module attributes stay.

// PRESET-LABEL: module @replaces_target
// PRESET-SAME: attributes {sol.target = #sol.target<"h100-sxm">, test.keep} {
// CALIBRATED-LABEL: module @replaces_target
// CALIBRATED-SAME: attributes {sol.target = #sol.target<name = "h200-calibrated", {{.*}}>, test.keep} {
// BASE-ONLY-LABEL: module @replaces_target
// BASE-ONLY-SAME: attributes {sol.target = #sol.target<"h200">, test.keep} {
// NO-BASE-LABEL: module @replaces_target
// NO-BASE-SAME: attributes {sol.target = #sol.target<name = "test-gpu", {{.*}}>, test.keep} {
module @replaces_target attributes {sol.target = #sol.target<"a100-80gb">, test.keep} {
}

// NO-OPTION: error: sol-attach-target needs exactly one of 'preset' (known: a100-80gb, b200, h100-pcie, h100-sxm, h200, l40s) or 'file' (a JSON target description)
// UNKNOWN-PRESET: error: unknown target preset 'h300'; known presets: a100-80gb, b200, h100-pcie, h100-sxm, h200, l40s
// MISSING-FILE: error: cannot read target file '{{.*}}does-not-exist.json': No such file or directory
// MALFORMED: error: in target file '{{.*}}malformed.json': invalid JSON in target description: [4:1, byte=41]: Expected object key
// NOT-OBJECT: error: in target file '{{.*}}not-an-object.json': target description must be a JSON object
// UNKNOWN-KEY: error: in target file '{{.*}}unknown-key.json': target description: unknown field 'hbm_gbs'; known fields: base, name, chip, sm_count, clock_mhz, f16_tflops, bf16_tflops, tf32_tflops, fp8_tflops, f32_simt_tflops, hbm_gbps, l2_gbps, l2_bytes, smem_per_sm_bytes, regs_per_sm, launch_us, mma_efficiency, hbm_efficiency
// UNKNOWN-BASE: error: in target file '{{.*}}unknown-base.json': target description: unknown base preset 'h300'; known presets: a100-80gb, b200, h100-pcie, h100-sxm, h200, l40s
// WRONG-TYPE: error: in target file '{{.*}}wrong-type.json': target description: 'sm_count' must be an integer
// FRACTIONAL: error: in target file '{{.*}}fractional-integer.json': target description: 'sm_count' must be an integer
// MISSING-FIELD: error: in target file '{{.*}}missing-field.json': target description is missing field 'hbm_gbps' (or give "base": "<preset>")
// INVALID-VALUE: error: in target file '{{.*}}invalid-value.json': #sol.target: 'mma_efficiency' must be a fraction in (0, 1], got 1.5
// A count no GPU has (2^62 SMs once made estimateCost divide by zero) is
// refused on load, from a file as from the IR.
// OUT-OF-RANGE: error: in target file '{{.*}}sm-count-out-of-range.json': #sol.target: 'sm_count' must be at most 1024 (no GPU has more than a few hundred SMs), got 4611686018427387904
