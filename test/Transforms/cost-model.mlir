// RUN: sol-opt %s -split-input-file -sol-cost-model | FileCheck %s

// The seed documents' worked case on their illustrative device (1000 TFLOP/s,
// 4 TB/s, balance 250, no launch cost): o_proj + residual fused, prefill.
// 2*8192*2560*2560 FLOPs; x, r and the output 41.9 MB each plus W 13.1 MB:
// 139 MB fused against 223 MB unfused (84 MB saved); intensity ~773 FLOP/B,
// compute-bound; compute floor ~107 us, memory floor ~35 us.
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
// CHECK: sol.cost_summary = #sol.cost_summary<kernels = 1, unknown_kernels = 0, t_ideal_us = 107.37, t_pred_us = {{.*}}, bytes = [[#BYTES:]], unfused_bytes = [[#UNFUSED:]],
// CHECK-SAME: saved_bytes = [[#UNFUSED - BYTES]]>
// CHECK-SAME: sol.target = #sol.target<name = "seed"
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @seed_prefill_fused
  // CHECK: sol.kernel @oproj_residual
  // CHECK-SAME: cost = #sol.cost<bound = compute, tc_flops = 107374182400, ew_flops = 20971520, bytes = [[#BYTES]], intensity = 773.0, balance = 250.0, t_compute_us = 107.37, t_memory_us = 34.734, t_ideal_us = 107.37,
  func.func @seed_prefill_fused(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
                                %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %0 = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    ^bb0(%a: tensor<16x512x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x512x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
      %y = sol.add %mm, %c : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
      sol.yield %y : tensor<16x512x2560xf16>
    }
    return %0 : tensor<16x512x2560xf16>
  }
}
// 138936320 bytes fused, 222822400 unfused: 83886080 saved.
// CHECK-NOT: unfused_bytes

// -----

// The same graph unfused: two lone ops, each a kernel of its own; the
// matmul's output makes a round trip through memory (+2 x 41.9 MB).
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
// CHECK: sol.cost_summary = #sol.cost_summary<kernels = 2, unknown_kernels = 0, {{.*}}, bytes = 222822400, unfused_bytes = 222822400, saved_bytes = 0>
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @seed_prefill_unfused
  // CHECK: sol.matmul {{.*}} {sol.cost = #sol.cost<bound = compute, tc_flops = 107374182400, ew_flops = 0, bytes = 96993280,
  // CHECK: sol.add {{.*}} {sol.cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 20971520, bytes = 125829120,
  func.func @seed_prefill_unfused(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
                                  %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %mm = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %y = sol.add %mm, %r : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %y : tensor<16x512x2560xf16>
  }
}

// -----

// Decode, one token, on the seed device: ~1.3e7 FLOPs, ~1 FLOP/B,
// memory-bound; the 13.1 MB weight is nearly all of the 13.12 MB.
#seed = #sol.target<name = "seed", chip = "sm_90a", sm_count = 132, clock_mhz = 1830,
  f16_tflops = 1000.0, bf16_tflops = 1000.0, tf32_tflops = 500.0, fp8_tflops = 2000.0,
  f32_simt_tflops = 67.0, hbm_gbps = 4000.0, l2_gbps = 9370.0, l2_bytes = 62914560,
  smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 0.0,
  mma_efficiency = 0.7, hbm_efficiency = 0.9>
module attributes {sol.target = #seed} {
  // CHECK-LABEL: func.func @seed_decode_memory_bound
  // CHECK: cost = #sol.cost<bound = memory, tc_flops = 13107200, ew_flops = 2560, bytes = 13122560, intensity = 0.999, balance = 250.0, t_compute_us = 0.013107, t_memory_us = 3.2806, t_ideal_us = 3.2806,
  func.func @seed_decode_memory_bound(%x: tensor<1x1x2560xf16>, %w: tensor<2560x2560xf16>,
                                      %r: tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    %0 = sol.kernel @oproj_residual_decode ins(%x, %w, %r : tensor<1x1x2560xf16>, tensor<2560x2560xf16>, tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    ^bb0(%a: tensor<1x1x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<1x1x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
      %y = sol.add %mm, %c : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
      sol.yield %y : tensor<1x1x2560xf16>
    }
    return %0 : tensor<1x1x2560xf16>
  }
}

// -----

// The H200 preset (989 TFLOP/s dense fp16, 4.8 TB/s): T_ideal ~108.6 us
// prefill. T_pred adds the 3.2 us launch cost to the largest term: 5 waves
// of 128x256 tiles at 70% of the tensor-core peak (160 us), more than the
// 1.26 GB of A and B panels the tiles re-read through L2 at the 10.8 TB/s
// measured on the H200 (117 us). This is the annotation's default plan;
// sol-tile then prices the real candidates (tile.mlir).
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @h200_prefill
  // CHECK: cost = #sol.cost<bound = compute, {{.*}}, balance = 206.0, {{.*}}, t_ideal_us = 108.57, t_pred_us = 163.14, sol_pred = 0.6655, limiter = matmul>
  func.func @h200_prefill(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
                          %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %0 = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    ^bb0(%a: tensor<16x512x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x512x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
      %y = sol.add %mm, %c : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
      sol.yield %y : tensor<16x512x2560xf16>
    }
    return %0 : tensor<16x512x2560xf16>
  }
}

// -----

// H200 decode: T_ideal ~2.73 us (13.1 MB at 4.8 TB/s), below the 3.2 us
// launch cost: latency-bound, and the prediction says so.
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @h200_decode_latency_bound
  // CHECK: cost = #sol.cost<bound = latency, {{.*}}, t_ideal_us = 2.73{{[0-9]*}}, t_pred_us = 6.2{{[0-9]*}}, sol_pred = 0.43{{[0-9]*}}, limiter = launch>
  func.func @h200_decode_latency_bound(%x: tensor<1x1x2560xf16>, %w: tensor<2560x2560xf16>,
                                       %r: tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    %0 = sol.kernel @oproj_residual_decode ins(%x, %w, %r : tensor<1x1x2560xf16>, tensor<2560x2560xf16>, tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    ^bb0(%a: tensor<1x1x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<1x1x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
      %y = sol.add %mm, %c : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
      sol.yield %y : tensor<1x1x2560xf16>
    }
    return %0 : tensor<1x1x2560xf16>
  }
}

// -----

// An elementwise chain is memory-bound at SIMT peak: SwiGLU + residual,
// silu(g) * u + r over 64 Mi fp16 elements: 4 x 128 MiB moved, 7 FLOP per
// element (silu 5, mul 1, add 1).
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @swiglu_chain_memory_bound
  // CHECK: cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 469762048, bytes = 536870912, intensity = 0.875, balance = 13.94, {{.*}}, t_ideal_us = 111.85, t_pred_us = 127.48, sol_pred = 0.8774, limiter = hbm>
  func.func @swiglu_chain_memory_bound(%g: tensor<8192x8192xf16>, %u: tensor<8192x8192xf16>,
                                       %r: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    %0 = sol.kernel @swiglu ins(%g, %u, %r : tensor<8192x8192xf16>, tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    ^bb0(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>, %c: tensor<8192x8192xf16>):
      %s = sol.silu %a : tensor<8192x8192xf16>
      %p = sol.mul %s, %b : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
      %y = sol.add %p, %c : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
      sol.yield %y : tensor<8192x8192xf16>
    }
    return %0 : tensor<8192x8192xf16>
  }
}

// -----

// A broadcast operand is read at its own size, never at the broadcast one:
// bias [10240] adds 20 KB, not 168 MB. MLP up-projection + bias + GELU(tanh).
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @broadcast_bias_counts_its_own_bytes
  // CHECK: cost = #sol.cost<bound = compute, tc_flops = 429496729600, ew_flops = 838860800, bytes = 262164480,
  func.func @broadcast_bias_counts_its_own_bytes(%x: tensor<8192x2560xf16>, %w: tensor<10240x2560xf16>,
                                                  %b: tensor<10240xf16>) -> tensor<8192x10240xf16> {
    %0 = sol.kernel @mlp_up ins(%x, %w, %b : tensor<8192x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>) -> tensor<8192x10240xf16> {
    ^bb0(%a: tensor<8192x2560xf16>, %ww: tensor<10240x2560xf16>, %bb: tensor<10240xf16>):
      %mm = sol.matmul %a, %ww transpose_b : tensor<8192x2560xf16>, tensor<10240x2560xf16> -> tensor<8192x10240xf16>
      %y = sol.add %mm, %bb : tensor<8192x10240xf16>, tensor<10240xf16> -> tensor<8192x10240xf16>
      %g = sol.gelu tanh %y : tensor<8192x10240xf16>
      sol.yield %g : tensor<8192x10240xf16>
    }
    return %0 : tensor<8192x10240xf16>
  }
}

// -----

// A scalar constant is an immediate: it costs no traffic, and a sol.constant
// alone is not a kernel.
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @scalar_constant_is_free
  // CHECK: sol.constant
  // CHECK-NOT: sol.cost
  // CHECK: sol.mul {{.*}} {sol.cost = #sol.cost<bound = latency, tc_flops = 0, ew_flops = 1024, bytes = 4096,
  func.func @scalar_constant_is_free(%x: tensor<1024xf16>) -> tensor<1024xf16> {
    %c = sol.constant 5.000000e-01 : f16
    %y = sol.mul %x, %c : tensor<1024xf16>, tensor<f16> -> tensor<1024xf16>
    return %y : tensor<1024xf16>
  }
}

// -----

// f32 operands have no tensor-core path in sol: the matmul is priced at the
// SIMT fp32 peak (67 TFLOP/s), and its balance falls accordingly.
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @f32_matmul_uses_simt_peak
  // CHECK: sol.matmul {{.*}} {sol.cost = #sol.cost<bound = compute, tc_flops = 34359738368, ew_flops = 0, bytes = 83886080, intensity = 409.6, balance = 13.94, t_compute_us = 513.6,
  func.func @f32_matmul_uses_simt_peak(%a: tensor<2048x2048xf32>, %b: tensor<2048x4096xf32>) -> tensor<2048x4096xf32> {
    %y = sol.matmul %a, %b : tensor<2048x2048xf32>, tensor<2048x4096xf32> -> tensor<2048x4096xf32>
    return %y : tensor<2048x4096xf32>
  }
}

// -----

// A finished tile's turnaround is priced per store instruction
// (getStoreInstructionShare): the wgmma paths store four n8 blocks of a
// row with one 16-byte store per lane where every output is 16-bit and N
// is a multiple of 8, a quarter of the column pairs' instructions. The
// o_proj shape on cooperative 128x256 tiles, 5 tiles per SM: f16 results
// pay 5 x 7.1 / 4 us of turnaround, f32 results (pairs) 5 x 7.1, 26.6 us
// more; N = 2556 (the same 10 tile columns) stores pairs too. mma.sync
// stores pairs whatever the type. Ping-pong 128x144 (18 blocks: 16 in
// quads, 2 in pairs, a third of the pairs' instructions) hides most of it
// behind the other consumer's K loop: 2.7 us between f16 and f32 (both
// with 9 tiles x 40 K tiles x 0.032 us of K-tile handoffs, 11.5 us).
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @wgmma_f16_results_store_quads
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 172.02,
  func.func @wgmma_f16_results_store_quads(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
      sol.yield %m : tensor<8192x2560xf16>
    }
    return %0 : tensor<8192x2560xf16>
  }
  // CHECK-LABEL: func.func @wgmma_f32_results_store_pairs
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 198.64,
  func.func @wgmma_f32_results_store_pairs(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf32> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf32> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf32>
      sol.yield %m : tensor<8192x2560xf32>
    }
    return %0 : tensor<8192x2560xf32>
  }
  // CHECK-LABEL: func.func @wgmma_n_off_eight_stores_pairs
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 198.64,
  func.func @wgmma_n_off_eight_stores_pairs(%x: tensor<8192x2560xf16>, %w: tensor<2556x2560xf16>) -> tensor<8192x2556xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2556x2560xf16>) -> tensor<8192x2556xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2556x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2556x2560xf16> -> tensor<8192x2556xf16>
      sol.yield %m : tensor<8192x2556xf16>
    }
    return %0 : tensor<8192x2556xf16>
  }
  // CHECK-LABEL: func.func @mma_sync_stores_pairs_for_f16
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 584.83,
  func.func @mma_sync_stores_pairs_for_f16(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> attributes {plan = #sol.plan<path = mma_sync, tile = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
      sol.yield %m : tensor<8192x2560xf16>
    }
    return %0 : tensor<8192x2560xf16>
  }
  // CHECK-LABEL: func.func @mma_sync_stores_pairs_for_f32
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 584.83,
  func.func @mma_sync_stores_pairs_for_f32(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf32> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf32> attributes {plan = #sol.plan<path = mma_sync, tile = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf32>
      sol.yield %m : tensor<8192x2560xf32>
    }
    return %0 : tensor<8192x2560xf32>
  }
  // CHECK-LABEL: func.func @pingpong_144_stores_leftover_blocks_in_pairs
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 178.0,
  func.func @pingpong_144_stores_leftover_blocks_in_pairs(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
      sol.yield %m : tensor<8192x2560xf16>
    }
    return %0 : tensor<8192x2560xf16>
  }
  // CHECK-LABEL: func.func @pingpong_144_f32_results
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 180.66,
  func.func @pingpong_144_f32_results(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf32> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf32> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf32>
      sol.yield %m : tensor<8192x2560xf32>
    }
    return %0 : tensor<8192x2560xf32>
  }
}

// -----

// Tiles whose tensor cores idle at each K tile's handoff pay 0.032 us per
// K tile of every tile an SM runs (kKTileHandoffUs, idlesAtKTileHandoffs;
// an H100's K scaling, bench/NOTES.md section 55): on the o_proj shape
// ping-pong 128x128 (10 tiles x 40 K tiles per SM, 12.8 us over its 164.0)
// and cooperative 128x128, whose warpgroups issue 64x128 wgmmas (12.8 over
// 172.0); cooperative 128x256 pays none (the first case of the section
// above, 172.02), nor does a cooperative 128x128 tile alone on its SM (40
// tiles at 256 rows).
module attributes {sol.target = #sol.target<"h200">} {
  // CHECK-LABEL: func.func @pingpong_128_pays_k_tile_handoffs
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 176.83,
  func.func @pingpong_128_pays_k_tile_handoffs(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
      sol.yield %m : tensor<8192x2560xf16>
    }
    return %0 : tensor<8192x2560xf16>
  }
  // CHECK-LABEL: func.func @cooperative_128_pays_k_tile_handoffs
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 184.82,
  func.func @cooperative_128_pays_k_tile_handoffs(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<8192x2560xf16>, tensor<2560x2560xf16>) -> tensor<8192x2560xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>} {
    ^bb0(%a: tensor<8192x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
      sol.yield %m : tensor<8192x2560xf16>
    }
    return %0 : tensor<8192x2560xf16>
  }
  // CHECK-LABEL: func.func @cooperative_128_with_one_tile_per_sm_pays_none
  // CHECK: sol.kernel @k {{.*}}t_pred_us = 20.082,
  func.func @cooperative_128_with_one_tile_per_sm_pays_none(%x: tensor<256x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<256x2560xf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<256x2560xf16>, tensor<2560x2560xf16>) -> tensor<256x2560xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>} {
    ^bb0(%a: tensor<256x2560xf16>, %b: tensor<2560x2560xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<256x2560xf16>, tensor<2560x2560xf16> -> tensor<256x2560xf16>
      sol.yield %m : tensor<256x2560xf16>
    }
    return %0 : tensor<256x2560xf16>
  }
}
