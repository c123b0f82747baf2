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

// -----

// A chip with no tensor-core path sol generates (mma.sync needs sm_80,
// wgmma sm_90a): the f16 matmul is refused, naming the chip, where LLVM
// once stopped with "Cannot select: intrinsic llvm.nvvm.mma.m16n8k16".
module attributes {sol.target = #sol.target<name = "v100", chip = "sm_70", sm_count = 80, clock_mhz = 1530, f16_tflops = 125.0, bf16_tflops = 0.0, tf32_tflops = 0.0, fp8_tflops = 0.0, f32_simt_tflops = 15.7, hbm_gbps = 900.0, l2_gbps = 3000.0, l2_bytes = 6291456, smem_per_sm_bytes = 98304, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
func.func @f16_matmul_on_sm_70_refused(%x: tensor<128x64xf16>, %w: tensor<128x64xf16>) -> tensor<128x128xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: no path for f16 matmuls on sm_70: mma.sync needs sm_80 or newer, wgmma sm_90a, and gemv does not apply: 128 rows of A exceed gemv's 16}}
  %0 = sol.kernel @k ins(%x, %w : tensor<128x64xf16>, tensor<128x64xf16>) -> tensor<128x128xf16> {
  ^bb0(%a: tensor<128x64xf16>, %b: tensor<128x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<128x64xf16>, tensor<128x64xf16> -> tensor<128x128xf16>
    sol.yield %m : tensor<128x128xf16>
  }
  return %0 : tensor<128x128xf16>
}
}

// -----

// Counts that overflow int64 are refused, not wrapped into negative FLOPs:
// 2 * 2^20 * 2^20 * 2^30 is 2^71.
module attributes {sol.target = #sol.target<"h200">} {
func.func @flops_overflow_refused(%x: tensor<1048576x1073741824xf16>, %w: tensor<1048576x1073741824xf16>) -> tensor<1048576x1048576xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: the matmul's 2*M*N*K FLOPs (M = 1048576, N = 1048576, K = 1073741824) overflow int64}}
  %0 = sol.kernel @k ins(%x, %w : tensor<1048576x1073741824xf16>, tensor<1048576x1073741824xf16>) -> tensor<1048576x1048576xf16> {
  ^bb0(%a: tensor<1048576x1073741824xf16>, %b: tensor<1048576x1073741824xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<1048576x1073741824xf16>, tensor<1048576x1073741824xf16> -> tensor<1048576x1048576xf16>
    sol.yield %m : tensor<1048576x1048576xf16>
  }
  return %0 : tensor<1048576x1048576xf16>
}
}

// -----

// 2^24 rows need 131072 row tiles of 128 (or more of fewer rows) along grid
// y, past CUDA's 65535; the A100 has no persistent path that would fold
// them into grid x.
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @grid_beyond_cuda_limits_refused(%x: tensor<16777216x64xf16>, %w: tensor<64x64xf16>) -> tensor<16777216x64xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: every plan's grid exceeds CUDA's launch limits (x <= 2^31 - 1, y and z <= 65535) for 16777216 rows, N = 64, batch 1}}
  %0 = sol.kernel @k ins(%x, %w : tensor<16777216x64xf16>, tensor<64x64xf16>) -> tensor<16777216x64xf16> {
  ^bb0(%a: tensor<16777216x64xf16>, %b: tensor<64x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<16777216x64xf16>, tensor<64x64xf16> -> tensor<16777216x64xf16>
    sol.yield %m : tensor<16777216x64xf16>
  }
  return %0 : tensor<16777216x64xf16>
}
}

// -----

// 2^42 elements at 1024 per block need 2^32 blocks along grid x.
module attributes {sol.target = #sol.target<"h200">} {
func.func @elementwise_grid_beyond_cuda_limits_refused(%x: tensor<4398046511104xf32>) -> tensor<4398046511104xf32> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: 4398046511104 elements need more than 2147483647 blocks of 1024: grid x exceeds CUDA's limit}}
  %0 = sol.kernel @k ins(%x : tensor<4398046511104xf32>) -> tensor<4398046511104xf32> {
  ^bb0(%a: tensor<4398046511104xf32>):
    %n = sol.neg %a : tensor<4398046511104xf32>
    sol.yield %n : tensor<4398046511104xf32>
  }
  return %0 : tensor<4398046511104xf32>
}
}
