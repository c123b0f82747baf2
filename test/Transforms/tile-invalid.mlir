// RUN: sol-opt %s --split-input-file --sol-tile -verify-diagnostics
// RUN: not sol-opt %s --split-input-file --sol-tile="max-split-k=0" 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: not sol-opt %s --split-input-file --sol-tile="max-cluster=0" 2>&1 | FileCheck %s --check-prefix=LIMITS-CLUSTER
// RUN: not sol-opt %s --split-input-file --sol-tile="min-cluster=0" 2>&1 | FileCheck %s --check-prefix=LIMITS-MIN-CLUSTER

// Limits below 1 would leave no plan (and a misleading reason); sol-tile
// refuses them up front.
// LIMITS: error: sol-tile: min-cluster, max-cluster and max-split-k must be at least 1 (got 1, 1 and 0)
// LIMITS-CLUSTER: error: sol-tile: min-cluster, max-cluster and max-split-k must be at least 1 (got 1, 0 and 16)
// LIMITS-MIN-CLUSTER: error: sol-tile: min-cluster, max-cluster and max-split-k must be at least 1 (got 0, 1 and 16)

// The plan depends on the device: no target, no plan.
// expected-error @+1 {{sol-tile needs a target}}
module {
func.func @no_target(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %n = sol.neg %a : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}
}

// -----

// The generators take one matmul per kernel, or a sibling pair over one A;
// a matmul consuming another is neither.
module attributes {sol.target = #sol.target<"h200">} {
func.func @two_matmuls(%x: tensor<8x16xf16>, %w: tensor<16x16xf16>) -> tensor<8x16xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: the kernel's two matmuls are not siblings: the matmuls read different left operands}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x16xf16>, tensor<16x16xf16>) -> tensor<8x16xf16> {
  ^bb0(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>):
    %m = sol.matmul %a, %b : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf16>
    %n = sol.matmul %m, %b : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf16>
    sol.yield %n : tensor<8x16xf16>
  }
  return %0 : tensor<8x16xf16>
}
}

// -----

// Dynamic dims: neither the model nor the generators can size the launch.
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic(%x: tensor<?x16xf16>) -> tensor<?x16xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: input #0 has type tensor<?x16xf16>; the cost model needs static shapes}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return %0 : tensor<?x16xf16>
}
}

// -----

// A device whose shared memory holds no tile of any tensor-core path: the
// f16 matmul (which the SIMT path is not meant for) cannot be planned.
module attributes {sol.target = #sol.target<name = "tiny-smem", chip = "sm_80", sm_count = 108, clock_mhz = 1410, f16_tflops = 312.0, bf16_tflops = 312.0, tf32_tflops = 156.0, fp8_tflops = 0.0, f32_simt_tflops = 19.5, hbm_gbps = 2039.0, l2_gbps = 7219.0, l2_bytes = 41943040, smem_per_sm_bytes = 1024, regs_per_sm = 65536, launch_us = 0.0, mma_efficiency = 0.5, hbm_efficiency = 0.8>} {
func.func @no_tile_fits(%x: tensor<256x256xf16>, %w: tensor<256x256xf16>) -> tensor<256x256xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: no tile fits the target's shared memory}}
  %0 = sol.kernel @k ins(%x, %w : tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf16> {
  ^bb0(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    sol.yield %m : tensor<256x256xf16>
  }
  return %0 : tensor<256x256xf16>
}
}

// -----

// Sibling matmuls have one generator, wgmma_tma: not on an sm_80 target.
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @siblings_without_tma(%x: tensor<256x64xf16>, %w1: tensor<128x64xf16>, %w2: tensor<128x64xf16>) -> tensor<256x128xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: sibling matmuls: no wgmma_tma path (wgmma needs sm_90a; the target is sm_80)}}
  %0 = sol.kernel @k ins(%x, %w1, %w2 : tensor<256x64xf16>, tensor<128x64xf16>, tensor<128x64xf16>) -> tensor<256x128xf16> {
  ^bb0(%a: tensor<256x64xf16>, %b1: tensor<128x64xf16>, %b2: tensor<128x64xf16>):
    %g = sol.matmul %a, %b1 transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    %u = sol.matmul %a, %b2 transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    %m = sol.mul %g, %u : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
    sol.yield %m : tensor<256x128xf16>
  }
  return %0 : tensor<256x128xf16>
}
}

// -----

// Nor at fewer rows than one 128-row tile (decode).
module attributes {sol.target = #sol.target<"h200">} {
func.func @siblings_at_decode(%x: tensor<16x64xf16>, %w1: tensor<128x64xf16>, %w2: tensor<128x64xf16>) -> tensor<16x128xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: sibling matmuls: 16 rows of A fill less than one 128-row tile}}
  %0 = sol.kernel @k ins(%x, %w1, %w2 : tensor<16x64xf16>, tensor<128x64xf16>, tensor<128x64xf16>) -> tensor<16x128xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b1: tensor<128x64xf16>, %b2: tensor<128x64xf16>):
    %g = sol.matmul %a, %b1 transpose_b : tensor<16x64xf16>, tensor<128x64xf16> -> tensor<16x128xf16>
    %u = sol.matmul %a, %b2 transpose_b : tensor<16x64xf16>, tensor<128x64xf16> -> tensor<16x128xf16>
    %m = sol.mul %g, %u : tensor<16x128xf16>, tensor<16x128xf16> -> tensor<16x128xf16>
    sol.yield %m : tensor<16x128xf16>
  }
  return %0 : tensor<16x128xf16>
}
}

// -----

// Three matmuls over one A are more than a pair.
module attributes {sol.target = #sol.target<"h200">} {
func.func @three_siblings(%x: tensor<256x64xf16>, %w: tensor<128x64xf16>) -> tensor<256x128xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: the kernel holds 3 matmuls; the generators take one, or a sibling pair}}
  %0 = sol.kernel @k ins(%x, %w : tensor<256x64xf16>, tensor<128x64xf16>) -> tensor<256x128xf16> {
  ^bb0(%a: tensor<256x64xf16>, %b: tensor<128x64xf16>):
    %q = sol.matmul %a, %b transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    %k = sol.matmul %a, %b transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    %v = sol.matmul %a, %b transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    %m = sol.mul %q, %k : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
    %n = sol.add %m, %v : tensor<256x128xf16>, tensor<256x128xf16> -> tensor<256x128xf16>
    sol.yield %n : tensor<256x128xf16>
  }
  return %0 : tensor<256x128xf16>
}
}
