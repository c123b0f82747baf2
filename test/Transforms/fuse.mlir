// RUN: sol-opt %s --split-input-file --sol-fuse | FileCheck %s

// Each case is one fusion decision under the H200 preset; the remarks that
// explain them are checked in fuse-remarks.mlir.

// The seed: o_proj + residual, prefill 16x512 tokens. The residual add joins
// the matmul's kernel; the kernel reads x, W and r and writes one tensor.
// CHECK-LABEL: func.func @fuse_oproj_residual_prefill
//  CHECK-SAME:   (%[[X:.*]]: tensor<16x512x2560xf16>, %[[W:.*]]: tensor<2560x2560xf16>, %[[R:.*]]: tensor<16x512x2560xf16>)
//       CHECK:   %[[K:.*]] = sol.kernel @fuse_oproj_residual_prefill_matmul_0 ins(%[[X]], %[[W]], %[[R]] : {{.*}}) -> tensor<16x512x2560xf16> {
//  CHECK-NEXT:   ^bb0(%[[XA:.*]]: tensor<16x512x2560xf16>, %[[WA:.*]]: tensor<2560x2560xf16>, %[[RA:.*]]: tensor<16x512x2560xf16>):
//  CHECK-NEXT:     %[[MM:.*]] = sol.matmul %[[XA]], %[[WA]] transpose_b
//  CHECK-NEXT:     %[[ADD:.*]] = sol.add %[[MM]], %[[RA]]
//  CHECK-NEXT:     sol.yield %[[ADD]] : tensor<16x512x2560xf16>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[K]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_prefill(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %z = sol.add %y, %r : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %z : tensor<16x512x2560xf16>
  }
}

// -----

// Decode, one token: latency-bound, fusing saves a launch.
// CHECK-LABEL: func.func @fuse_oproj_residual_decode_1x1
//       CHECK:   sol.kernel @fuse_oproj_residual_decode_1x1_matmul_0 ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x1x2560xf16>, tensor<2560x2560xf16>, tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16>
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_decode_1x1(%x: tensor<1x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
    %z = sol.add %y, %r : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
    return %z : tensor<1x1x2560xf16>
  }
}

// -----

// Decode, batch 16.
// CHECK-LABEL: func.func @fuse_oproj_residual_decode_16x1
//       CHECK:   sol.kernel @fuse_oproj_residual_decode_16x1_matmul_0 ins({{.*}}) -> tensor<16x1x2560xf16>
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_decode_16x1(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
    %z = sol.add %y, %r : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
    return %z : tensor<16x1x2560xf16>
  }
}

// -----

// MLP up-projection: bias [N] broadcast, then GELU(tanh), both in the epilogue.
// CHECK-LABEL: func.func @fuse_mlp_up_bias_gelu
//  CHECK-SAME:   %[[B:[^:]*]]: tensor<10240xf16>
//       CHECK:   sol.kernel @fuse_mlp_up_bias_gelu_matmul_0 ins(%{{.*}}, %{{.*}}, %[[B]] : tensor<8192x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>) -> tensor<8192x10240xf16>
//       CHECK:     %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:     %[[BIAS:.*]] = sol.add %[[MM]], %{{.*}} : tensor<8192x10240xf16>, tensor<10240xf16>
//  CHECK-NEXT:     %[[G:.*]] = sol.gelu tanh %[[BIAS]]
//  CHECK-NEXT:     sol.yield %[[G]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_mlp_up_bias_gelu(%x: tensor<8192x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<8192x10240xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<8192x2560xf16>, tensor<10240x2560xf16> -> tensor<8192x10240xf16>
    %z = sol.add %y, %b : tensor<8192x10240xf16>, tensor<10240xf16> -> tensor<8192x10240xf16>
    %g = sol.gelu tanh %z : tensor<8192x10240xf16>
    return %g : tensor<8192x10240xf16>
  }
}

// -----

// SwiGLU + residual, 64 Mi elements: one elementwise kernel named after its
// first op.
// CHECK-LABEL: func.func @fuse_swiglu_chain
//       CHECK:   sol.kernel @fuse_swiglu_chain_silu_0 ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8192x8192xf16>, tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
//       CHECK:     %[[S:.*]] = sol.silu
//  CHECK-NEXT:     %[[P:.*]] = sol.mul %[[S]]
//  CHECK-NEXT:     %[[O:.*]] = sol.add %[[P]]
//  CHECK-NEXT:     sol.yield %[[O]]
//   CHECK-NOT:   sol.kernel
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_swiglu_chain(%g: tensor<8192x8192xf16>, %u: tensor<8192x8192xf16>, %r: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    %s = sol.silu %g : tensor<8192x8192xf16>
    %p = sol.mul %s, %u : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    %o = sol.add %p, %r : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    return %o : tensor<8192x8192xf16>
  }
}

// -----

// A per-row scale [M,1] broadcasts into the [M,N] iteration space: an input,
// not a shape change.
// CHECK-LABEL: func.func @fuse_row_scale_broadcast
//  CHECK-SAME:   %[[S:[^:]*]]: tensor<4096x1xf16>
//       CHECK:   sol.kernel @fuse_row_scale_broadcast_matmul_0 ins(%{{.*}}, %{{.*}}, %[[S]] : {{.*}}, tensor<4096x1xf16>)
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.mul %{{.*}}, %{{.*}} : tensor<4096x2560xf16>, tensor<4096x1xf16>
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_row_scale_broadcast(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %s: tensor<4096x1xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.mul %y, %s : tensor<4096x2560xf16>, tensor<4096x1xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// A scalar constant is cloned into the kernel as an immediate, not passed as
// an input; the original, left without users, is erased.
// CHECK-LABEL: func.func @fuse_scalar_constant_as_immediate
//   CHECK-NOT:   sol.constant
//       CHECK:   sol.kernel @fuse_scalar_constant_as_immediate_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}} : tensor<4096x2560xf16>, tensor<2560x2560xf16>)
//       CHECK:     %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:     %[[C:.*]] = sol.constant 5.000000e-01 : f16
//  CHECK-NEXT:     sol.mul %[[MM]], %[[C]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_scalar_constant_as_immediate(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    %c = sol.constant 5.000000e-01 : f16
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.mul %y, %c : tensor<4096x2560xf16>, tensor<f16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// A constant also used outside the kernel stays outside (and is cloned in).
// CHECK-LABEL: func.func @fuse_shared_constant_kept_outside
//       CHECK:   %[[C:.*]] = sol.constant 2.000000e+00 : f32
//       CHECK:   sol.kernel @fuse_shared_constant_kept_outside_exp_0 ins(%{{[^,]*}} : tensor<1024x1024xf32>)
//       CHECK:     sol.constant 2.000000e+00 : f32
//       CHECK:   return %{{.*}}, %[[C]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_shared_constant_kept_outside(%x: tensor<1024x1024xf32>) -> (tensor<1024x1024xf32>, tensor<f32>) {
    %c = sol.constant 2.000000e+00 : f32
    %e = sol.exp %x : tensor<1024x1024xf32>
    %m = sol.mul %e, %c : tensor<1024x1024xf32>, tensor<f32> -> tensor<1024x1024xf32>
    return %m, %c : tensor<1024x1024xf32>, tensor<f32>
  }
}

// -----

// An f32 matmul result cast to f16 before the residual add: the dtype change
// happens inside the kernel, which writes f16.
// CHECK-LABEL: func.func @fuse_cast_in_epilogue
//       CHECK:   sol.kernel @fuse_cast_in_epilogue_matmul_0 ins({{.*}}) -> tensor<4096x4096xf16>
//       CHECK:     sol.matmul {{.*}} -> tensor<4096x4096xf32>
//  CHECK-NEXT:     sol.cast %{{.*}} : tensor<4096x4096xf32> to tensor<4096x4096xf16>
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield %{{.*}} : tensor<4096x4096xf16>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_cast_in_epilogue(%x: tensor<4096x4096xf32>, %w: tensor<4096x4096xf32>, %r: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %y = sol.matmul %x, %w : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    %c = sol.cast %y : tensor<4096x4096xf32> to tensor<4096x4096xf16>
    %z = sol.add %c, %r : tensor<4096x4096xf16>, tensor<4096x4096xf16> -> tensor<4096x4096xf16>
    return %z : tensor<4096x4096xf16>
  }
}

// -----

// Multi-use producer: the matmul result is also returned. Policy: fuse and
// materialise it as a second kernel output (never recompute).
// CHECK-LABEL: func.func @fuse_multi_use_matmul_materialised
//       CHECK:   %[[K:.*]]:2 = sol.kernel @fuse_multi_use_matmul_materialised_matmul_0 ins({{.*}}) -> tensor<4096x2560xf16>, tensor<4096x2560xf16>
//       CHECK:     %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:     %[[ADD:.*]] = sol.add %[[MM]]
//  CHECK-NEXT:     sol.yield %[[MM]], %[[ADD]]
//       CHECK:   return %[[K]]#0, %[[K]]#1
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_multi_use_matmul_materialised(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> (tensor<4096x2560xf16>, tensor<4096x2560xf16>) {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %y, %z : tensor<4096x2560xf16>, tensor<4096x2560xf16>
  }
}

// -----

// Fan-out: both consumers of the matmul join its epilogue; the kernel writes
// both, and the matmul result itself stays on chip.
// CHECK-LABEL: func.func @fuse_epilogue_fan_out
//       CHECK:   %[[K:.*]]:2 = sol.kernel @fuse_epilogue_fan_out_matmul_0 ins({{.*}}) -> tensor<4096x2560xf16>, tensor<4096x2560xf16>
//       CHECK:     %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:     %[[A:.*]] = sol.relu %[[MM]]
//  CHECK-NEXT:     %[[B:.*]] = sol.neg %[[MM]]
//  CHECK-NEXT:     sol.yield %[[A]], %[[B]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_epilogue_fan_out(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>) -> (tensor<4096x2560xf16>, tensor<4096x2560xf16>) {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %a = sol.relu %y : tensor<4096x2560xf16>
    %b = sol.neg %y : tensor<4096x2560xf16>
    return %a, %b : tensor<4096x2560xf16>, tensor<4096x2560xf16>
  }
}

// -----

// Elementwise fan-out with a multi-use producer: exp feeds both a kernel op and
// the return, so it is materialised.
// CHECK-LABEL: func.func @fuse_elementwise_fan_out
//       CHECK:   %[[K:.*]]:3 = sol.kernel @fuse_elementwise_fan_out_exp_0 ins(%{{[^,]*}} : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>, tensor<2048x2048xf32>, tensor<2048x2048xf32>
//       CHECK:     %[[E:.*]] = sol.exp
//  CHECK-NEXT:     %[[A:.*]] = sol.neg %[[E]]
//  CHECK-NEXT:     %[[B:.*]] = sol.abs %[[E]]
//  CHECK-NEXT:     sol.yield %[[E]], %[[A]], %[[B]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_elementwise_fan_out(%x: tensor<2048x2048xf32>) -> (tensor<2048x2048xf32>, tensor<2048x2048xf32>, tensor<2048x2048xf32>) {
    %e = sol.exp %x : tensor<2048x2048xf32>
    %a = sol.neg %e : tensor<2048x2048xf32>
    %b = sol.abs %e : tensor<2048x2048xf32>
    return %e, %a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>, tensor<2048x2048xf32>
  }
}

// -----

// Diamond x -> a, x -> b, a + b with x a kernel input: the consumer joins
// first, then the other branch as a producer.
// CHECK-LABEL: func.func @fuse_diamond_from_argument
//       CHECK:   sol.kernel @fuse_diamond_from_argument_neg_0 ins(%{{[^,]*}} : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
//  CHECK-NEXT:   ^bb0(%[[XA:.*]]: tensor<4096x4096xf32>):
//  CHECK-NEXT:     %[[A:.*]] = sol.neg %[[XA]]
//  CHECK-NEXT:     %[[B:.*]] = sol.abs %[[XA]]
//  CHECK-NEXT:     %[[C:.*]] = sol.add %[[A]], %[[B]]
//  CHECK-NEXT:     sol.yield %[[C]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_diamond_from_argument(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %a = sol.neg %x : tensor<4096x4096xf32>
    %b = sol.abs %x : tensor<4096x4096xf32>
    %c = sol.add %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }
}

// -----

// Diamond whose top is itself an elementwise op: all four in one kernel.
// CHECK-LABEL: func.func @fuse_diamond_from_op
//       CHECK:   sol.kernel @fuse_diamond_from_op_exp_0 ins(%{{[^,]*}} : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
//       CHECK:     sol.exp
//  CHECK-NEXT:     sol.tanh
//  CHECK-NEXT:     sol.sigmoid
//  CHECK-NEXT:     sol.max
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_diamond_from_op(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %e = sol.exp %x : tensor<4096x4096xf32>
    %a = sol.tanh %e : tensor<4096x4096xf32>
    %b = sol.sigmoid %e : tensor<4096x4096xf32>
    %c = sol.max %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }
}

// -----

// Fan-in: two independent chains meet in one op; the second chain joins as a
// producer of the group's input.
// CHECK-LABEL: func.func @fuse_fan_in
//       CHECK:   sol.kernel @fuse_fan_in_exp_0 ins(%{{[^,]*}}, %{{[^,]*}} : tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
//       CHECK:     sol.exp
//  CHECK-NEXT:     sol.neg
//  CHECK-NEXT:     sol.sub
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_fan_in(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %a = sol.exp %x : tensor<4096x4096xf32>
    %b = sol.neg %y : tensor<4096x4096xf32>
    %c = sol.sub %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }
}

// -----

// Matmul feeding matmul: never one kernel; each matmul stays a lone op.
// CHECK-LABEL: func.func @dont_fuse_matmul_into_matmul
//   CHECK-NOT:   sol.kernel
//       CHECK:   %[[A:.*]] = sol.matmul
//       CHECK:   sol.matmul %[[A]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_matmul_into_matmul(%x: tensor<4096x2560xf16>, %w1: tensor<2560x2560xf16>, %w2: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w1 transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.matmul %y, %w2 : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// Gate and up projections share x and meet in silu(g) * u: on sm_90a the
// up projection joins the gate's kernel as its sibling (one matmul of twice
// the width), and the epilogue combines both accumulators; neither
// projection's output goes to memory.
// CHECK-LABEL: func.func @fuse_sibling_matmuls
//       CHECK:   sol.kernel @fuse_sibling_matmuls_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %{{[^ ]*}} : tensor<4096x2560xf16>, tensor<6912x2560xf16>, tensor<6912x2560xf16>) -> tensor<4096x6912xf16>
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.matmul
//  CHECK-NEXT:     sol.silu
//  CHECK-NEXT:     sol.mul
//  CHECK-NEXT:     sol.yield
//   CHECK-NOT:   sol.matmul
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_sibling_matmuls(%x: tensor<4096x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<4096x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %s = sol.silu %g : tensor<4096x6912xf16>
    %p = sol.mul %s, %u : tensor<4096x6912xf16>, tensor<4096x6912xf16> -> tensor<4096x6912xf16>
    return %p : tensor<4096x6912xf16>
  }
}

// -----

// The order of the projections does not matter: up first, its sibling the
// gate.
// CHECK-LABEL: func.func @fuse_sibling_matmuls_up_first
//       CHECK:   sol.kernel @fuse_sibling_matmuls_up_first_matmul_0
//       CHECK:     sol.matmul %{{.*}}, %[[WU:[^ ]*]] transpose_b
//  CHECK-NEXT:     sol.matmul
//  CHECK-NEXT:     sol.silu
//  CHECK-NEXT:     sol.mul
//   CHECK-NOT:   sol.matmul
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_sibling_matmuls_up_first(%x: tensor<4096x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<4096x6912xf16> {
    %u = sol.matmul %x, %wu transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %g = sol.matmul %x, %wg transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %s = sol.silu %g : tensor<4096x6912xf16>
    %p = sol.mul %u, %s : tensor<4096x6912xf16>, tensor<4096x6912xf16> -> tensor<4096x6912xf16>
    return %p : tensor<4096x6912xf16>
  }
}

// -----

// On an sm_80 target no generator takes the pair: the projections stay two
// kernels. The gate's epilogue (silu, then * up) reads the up matmul's
// result, and the up matmul stays a lone op placed before that kernel.
// CHECK-LABEL: func.func @dont_fuse_siblings_without_a_generator
//       CHECK:   %[[UP:.*]] = sol.matmul %{{.*}}, %[[WU:[^ ]*]] transpose_b
//       CHECK:   sol.kernel @dont_fuse_siblings_without_a_generator_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %[[UP]] :
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.silu
//  CHECK-NEXT:     sol.mul
//  CHECK-NEXT:     sol.yield
//   CHECK-NOT:   sol.kernel
module attributes {sol.target = #sol.target<"a100-80gb">} {
  func.func @dont_fuse_siblings_without_a_generator(%x: tensor<4096x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<4096x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<4096x2560xf16>, tensor<6912x2560xf16> -> tensor<4096x6912xf16>
    %s = sol.silu %g : tensor<4096x6912xf16>
    %p = sol.mul %s, %u : tensor<4096x6912xf16>, tensor<4096x6912xf16> -> tensor<4096x6912xf16>
    return %p : tensor<4096x6912xf16>
  }
}

// -----

// Decode: 16 rows fill no 128-row tile; each projection keeps its own
// kernel (gemv and split K stream each weight once anyway).
// CHECK-LABEL: func.func @dont_fuse_siblings_at_decode
//       CHECK:   %[[UP:.*]] = sol.matmul
//       CHECK:   sol.kernel @dont_fuse_siblings_at_decode_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %[[UP]] :
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_siblings_at_decode(%x: tensor<16x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<16x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<16x2560xf16>, tensor<6912x2560xf16> -> tensor<16x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<16x2560xf16>, tensor<6912x2560xf16> -> tensor<16x6912xf16>
    %s = sol.silu %g : tensor<16x6912xf16>
    %p = sol.mul %s, %u : tensor<16x6912xf16>, tensor<16x6912xf16> -> tensor<16x6912xf16>
    return %p : tensor<16x6912xf16>
  }
}

// -----

// Q and K projections of one x whose results never meet in an elementwise
// op (attention consumes them): one kernel would just write two outputs.
// They stay apart, each with its own epilogue.
// CHECK-LABEL: func.func @dont_fuse_siblings_that_never_meet
//       CHECK:   sol.kernel @dont_fuse_siblings_that_never_meet_matmul_0
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
//       CHECK:   sol.kernel @dont_fuse_siblings_that_never_meet_matmul_1
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_siblings_that_never_meet(%x: tensor<4096x2560xf16>, %wq: tensor<2560x2560xf16>, %wk: tensor<2560x2560xf16>, %bq: tensor<2560xf16>, %bk: tensor<2560xf16>) -> (tensor<4096x2560xf16>, tensor<4096x2560xf16>) {
    %q = sol.matmul %x, %wq transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %k = sol.matmul %x, %wk transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %qb = sol.add %q, %bq : tensor<4096x2560xf16>, tensor<2560xf16> -> tensor<4096x2560xf16>
    %kb = sol.add %k, %bk : tensor<4096x2560xf16>, tensor<2560xf16> -> tensor<4096x2560xf16>
    return %qb, %kb : tensor<4096x2560xf16>, tensor<4096x2560xf16>
  }
}

// -----

// A non-sol op between the matmul and its consumer, fed by the matmul and
// feeding the consumer: fusing would create a cycle.
// CHECK-LABEL: func.func @dont_fuse_cycle_through_outside_op
//   CHECK-NOT:   sol.kernel
//       CHECK:   %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:   %[[C:.*]] = call @opaque(%[[MM]])
//  CHECK-NEXT:   sol.add %[[MM]], %[[C]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque(tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
  func.func @dont_fuse_cycle_through_outside_op(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %c = func.call @opaque(%y) : (tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
    %z = sol.add %y, %c : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// An outside use between the matmul and its epilogue is not a cycle: the
// epilogue fuses, the matmul result is materialised, and the call reads the
// kernel's first result after the kernel.
// CHECK-LABEL: func.func @fuse_despite_outside_use_between
//       CHECK:   %[[K:.*]]:2 = sol.kernel @fuse_despite_outside_use_between_matmul_0
//       CHECK:     sol.yield
//       CHECK:   %[[C:.*]] = call @opaque(%[[K]]#0)
//       CHECK:   return %[[C]], %[[K]]#1
module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque(tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
  func.func @fuse_despite_outside_use_between(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> (tensor<4096x2560xf16>, tensor<4096x2560xf16>) {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %c = func.call @opaque(%y) : (tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
    %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %c, %z : tensor<4096x2560xf16>, tensor<4096x2560xf16>
  }
}

// -----

// The epilogue's other operand is computed after the matmul (independently of
// it): the kernel goes after that operand's definition.
// CHECK-LABEL: func.func @fuse_epilogue_operand_defined_after_matmul
//       CHECK:   %[[D:.*]] = call @opaque(
//  CHECK-NEXT:   sol.kernel @fuse_epilogue_operand_defined_after_matmul_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %[[D]] :
module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque(tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
  func.func @fuse_epilogue_operand_defined_after_matmul(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %d = func.call @opaque(%r) : (tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
    %z = sol.add %y, %d : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// A 2-D matmul result added to a 3-D residual: the add's result is 16 times
// the matmul's iteration space, so it does not join the epilogue.
// CHECK-LABEL: func.func @dont_fuse_shape_changing_epilogue
//   CHECK-NOT:   sol.kernel
//       CHECK:   sol.matmul
//       CHECK:   sol.add {{.*}} -> tensor<16x512x2560xf16>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_shape_changing_epilogue(%x: tensor<512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<512x2560xf16>, tensor<2560x2560xf16> -> tensor<512x2560xf16>
    %z = sol.add %y, %r : tensor<512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %z : tensor<16x512x2560xf16>
  }
}

// -----

// Outer-product broadcast [M,1] + [1,N]: the [M,1] producer and the [M,N]
// consumer have different iteration spaces; neither joins the other.
// CHECK-LABEL: func.func @dont_fuse_outer_product_broadcast
//   CHECK-NOT:   sol.kernel
//       CHECK:   sol.exp
//       CHECK:   sol.add
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_outer_product_broadcast(%a: tensor<4096x1xf32>, %b: tensor<1x4096xf32>) -> tensor<4096x4096xf32> {
    %e = sol.exp %a : tensor<4096x1xf32>
    %z = sol.add %e, %b : tensor<4096x1xf32>, tensor<1x4096xf32> -> tensor<4096x4096xf32>
    return %z : tensor<4096x4096xf32>
  }
}

// -----

// An outer product whose result is the group's own iteration space is fine:
// the [M,N] add anchors, and the [M,N] consumer joins it.
// CHECK-LABEL: func.func @fuse_after_outer_product_broadcast
//       CHECK:   sol.kernel @fuse_after_outer_product_broadcast_add_0 ins(%{{[^,]*}}, %{{[^,]*}} : tensor<4096x1xf32>, tensor<1x4096xf32>) -> tensor<4096x4096xf32>
//       CHECK:     sol.add
//  CHECK-NEXT:     sol.relu
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_after_outer_product_broadcast(%a: tensor<4096x1xf32>, %b: tensor<1x4096xf32>) -> tensor<4096x4096xf32> {
    %z = sol.add %a, %b : tensor<4096x1xf32>, tensor<1x4096xf32> -> tensor<4096x4096xf32>
    %r = sol.relu %z : tensor<4096x4096xf32>
    return %r : tensor<4096x4096xf32>
  }
}

// -----

// A bias computed by an elementwise op stays out of the matmul's kernel (an
// epilogue grows downward only) and, being smaller than the [M,N] consumer,
// out of any elementwise group too: it is read as an input.
// CHECK-LABEL: func.func @dont_fuse_bias_producer_into_epilogue
//       CHECK:   %[[B:.*]] = sol.neg %{{.*}} : tensor<2560xf16>
//       CHECK:   sol.kernel @dont_fuse_bias_producer_into_epilogue_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %[[B]] :
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_bias_producer_into_epilogue(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %b: tensor<2560xf16>) -> tensor<4096x2560xf16> {
    %nb = sol.neg %b : tensor<2560xf16>
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.add %y, %nb : tensor<4096x2560xf16>, tensor<2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// Lone ops stay plain ops: no one-op kernels (sol-cost-model already prices
// a lone op as a kernel of its own).
// CHECK-LABEL: func.func @lone_ops_stay_plain
//   CHECK-NOT:   sol.kernel
//       CHECK:   sol.matmul
//       CHECK:   call @opaque
//       CHECK:   sol.exp
module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque(tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
  func.func @lone_ops_stay_plain(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %c = func.call @opaque(%y) : (tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
    %e = sol.exp %c : tensor<4096x2560xf16>
    return %e : tensor<4096x2560xf16>
  }
}

// -----

// A call between two elementwise ops blocks their fusion: it is not a sol op.
// CHECK-LABEL: func.func @dont_fuse_across_non_sol_op
//   CHECK-NOT:   sol.kernel
//       CHECK:   sol.exp
//  CHECK-NEXT:   call @opaque2
//  CHECK-NEXT:   sol.neg
module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque2(tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  func.func @dont_fuse_across_non_sol_op(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %e = sol.exp %x : tensor<1024x1024xf32>
    %c = func.call @opaque2(%e) : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %n = sol.neg %c : tensor<1024x1024xf32>
    return %n : tensor<1024x1024xf32>
  }
}

// -----

// Two matmuls, each with its own epilogue: two kernels, numbered in program
// order; the second reads the first's result as an input.
// CHECK-LABEL: func.func @fuse_two_epilogues_in_order
//       CHECK:   %[[K0:.*]] = sol.kernel @fuse_two_epilogues_in_order_matmul_0
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.gelu
//       CHECK:   sol.kernel @fuse_two_epilogues_in_order_matmul_1 ins(%[[K0]], %{{[^,]*}}, %{{[^,]*}} :
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_two_epilogues_in_order(%x: tensor<4096x2560xf16>, %w1: tensor<10240x2560xf16>, %w2: tensor<2560x10240xf16>, %r: tensor<4096x2560xf16>) -> tensor<4096x2560xf16> {
    %h = sol.matmul %x, %w1 transpose_b : tensor<4096x2560xf16>, tensor<10240x2560xf16> -> tensor<4096x10240xf16>
    %g = sol.gelu erf %h : tensor<4096x10240xf16>
    %o = sol.matmul %g, %w2 transpose_b : tensor<4096x10240xf16>, tensor<2560x10240xf16> -> tensor<4096x2560xf16>
    %z = sol.add %o, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

// A kernel already formed is left alone, and not grown.
// CHECK-LABEL: func.func @existing_kernel_untouched
//       CHECK:   %[[K:.*]] = sol.kernel @mine
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     sol.neg
//  CHECK-NEXT:     sol.abs
//  CHECK-NEXT:     sol.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   sol.exp %[[K]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @existing_kernel_untouched(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %k = sol.kernel @mine ins(%x : tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    ^bb0(%xa: tensor<1024x1024xf32>):
      %n = sol.neg %xa : tensor<1024x1024xf32>
      %a = sol.abs %n : tensor<1024x1024xf32>
      sol.yield %a : tensor<1024x1024xf32>
    }
    %e = sol.exp %k : tensor<1024x1024xf32>
    return %e : tensor<1024x1024xf32>
  }
}

// -----

// bf16 o_proj decode with a residual and a scale by a constant: the whole
// epilogue fuses.
// CHECK-LABEL: func.func @fuse_bf16_scaled_residual
//       CHECK:   sol.kernel @fuse_bf16_scaled_residual_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}} : tensor<16x1x2560xbf16>, tensor<2560x2560xbf16>, tensor<16x1x2560xbf16>)
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.constant
//  CHECK-NEXT:     sol.mul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_bf16_scaled_residual(%x: tensor<16x1x2560xbf16>, %w: tensor<2560x2560xbf16>, %r: tensor<16x1x2560xbf16>) -> tensor<16x1x2560xbf16> {
    %c = sol.constant 1.250000e-01 : bf16
    %y = sol.matmul %x, %w transpose_b : tensor<16x1x2560xbf16>, tensor<2560x2560xbf16> -> tensor<16x1x2560xbf16>
    %s = sol.mul %y, %c : tensor<16x1x2560xbf16>, tensor<bf16> -> tensor<16x1x2560xbf16>
    %z = sol.add %s, %r : tensor<16x1x2560xbf16>, tensor<16x1x2560xbf16> -> tensor<16x1x2560xbf16>
    return %z : tensor<16x1x2560xbf16>
  }
}

// -----

// A kernel's name becomes its PTX entry and its file names: a function name
// outside [A-Za-z0-9_] gives its kernels a sanitised prefix (a '_' in front
// of a leading digit), and a name already taken in the module (@a_b's kernel
// after @"a b"'s) is skipped.
// CHECK-LABEL: func.func @"a b"
//       CHECK:   sol.kernel @a_b_exp_0 ins
// CHECK-LABEL: func.func @a_b
//       CHECK:   sol.kernel @a_b_exp_1 ins
// CHECK-LABEL: func.func @"../x"
//       CHECK:   sol.kernel @___x_exp_0 ins
// CHECK-LABEL: func.func @"1f"
//       CHECK:   sol.kernel @_1f_exp_0 ins
module attributes {sol.target = #sol.target<"h200">} {
  func.func @"a b"(%x: tensor<1024xf16>) -> tensor<1024xf16> {
    %e = sol.exp %x : tensor<1024xf16>
    %t = sol.tanh %e : tensor<1024xf16>
    return %t : tensor<1024xf16>
  }
  func.func @a_b(%x: tensor<1024xf16>) -> tensor<1024xf16> {
    %e = sol.exp %x : tensor<1024xf16>
    %t = sol.tanh %e : tensor<1024xf16>
    return %t : tensor<1024xf16>
  }
  func.func @"../x"(%x: tensor<1024xf16>) -> tensor<1024xf16> {
    %e = sol.exp %x : tensor<1024xf16>
    %t = sol.tanh %e : tensor<1024xf16>
    return %t : tensor<1024xf16>
  }
  func.func @"1f"(%x: tensor<1024xf16>) -> tensor<1024xf16> {
    %e = sol.exp %x : tensor<1024xf16>
    %t = sol.tanh %e : tensor<1024xf16>
    return %t : tensor<1024xf16>
  }
}

// -----

// A scalar computed from a 0-d input (a scale cast to the epilogue's type,
// as eager rounds a 0-d operand) is recomputed inside the kernel that reads
// it, upward into the epilogue, instead of running as a one-element kernel
// of its own; the kernel reads the 0-d input.
// CHECK-LABEL: func.func @recompute_scalar_in_epilogue
//  CHECK-SAME:   (%[[X:.*]]: tensor<64x128xbf16>, %[[W:.*]]: tensor<256x128xbf16>, %[[S:.*]]: tensor<f32>)
//       CHECK:   %[[K:.*]] = sol.kernel @recompute_scalar_in_epilogue_matmul_0 ins(%[[X]], %[[W]], %[[S]] : {{.*}}) -> tensor<64x256xbf16> {
//  CHECK-NEXT:   ^bb0(%{{.*}}: tensor<64x128xbf16>, %{{.*}}: tensor<256x128xbf16>, %[[SA:.*]]: tensor<f32>):
//  CHECK-NEXT:     %[[MM:.*]] = sol.matmul
//  CHECK-NEXT:     %[[C:.*]] = sol.cast %[[SA]] : tensor<f32> to tensor<bf16>
//  CHECK-NEXT:     %[[D:.*]] = sol.div %[[MM]], %[[C]]
//  CHECK-NEXT:     sol.yield %[[D]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[K]]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @recompute_scalar_in_epilogue(%x: tensor<64x128xbf16>, %w: tensor<256x128xbf16>, %s: tensor<f32>) -> tensor<64x256xbf16> {
    %m = sol.matmul %x, %w transpose_b : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
    %c = sol.cast %s : tensor<f32> to tensor<bf16>
    %d = sol.div %m, %c : tensor<64x256xbf16>, tensor<bf16> -> tensor<64x256xbf16>
    return %d : tensor<64x256xbf16>
  }
}

// -----

// A scalar two kernels read (a chain of scalar ops on a 0-d input and a
// constant) is copied into each; none writes it out.
// CHECK-LABEL: func.func @recompute_scalar_per_kernel
//  CHECK-SAME:   %[[S:[^:]*]]: tensor<f32>)
//       CHECK:   sol.kernel @recompute_scalar_per_kernel_matmul_1 ins(%[[S]], {{.*}}) -> tensor<64x256xbf16> {
//       CHECK:     %[[N1:.*]] = sol.neg %{{.*}} : tensor<f32>
//  CHECK-NEXT:     sol.cast %[[N1]] : tensor<f32> to tensor<bf16>
//       CHECK:   sol.kernel @recompute_scalar_per_kernel_matmul_0 ins(%[[S]], {{.*}}) -> tensor<64x256xbf16> {
//       CHECK:     %[[N2:.*]] = sol.neg %{{.*}} : tensor<f32>
//  CHECK-NEXT:     sol.cast %[[N2]] : tensor<f32> to tensor<bf16>
//   CHECK-NOT:   sol.kernel
//       CHECK:   return
module attributes {sol.target = #sol.target<"h200">} {
  func.func @recompute_scalar_per_kernel(%x: tensor<64x128xbf16>, %w: tensor<256x128xbf16>, %v: tensor<256x128xbf16>, %s: tensor<f32>) -> (tensor<64x256xbf16>, tensor<64x256xbf16>) {
    %n = sol.neg %s : tensor<f32>
    %c = sol.cast %n : tensor<f32> to tensor<bf16>
    %m = sol.matmul %x, %w transpose_b : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
    %d = sol.mul %m, %c : tensor<64x256xbf16>, tensor<bf16> -> tensor<64x256xbf16>
    %p = sol.matmul %x, %v transpose_b : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
    %e = sol.add %p, %c : tensor<64x256xbf16>, tensor<bf16> -> tensor<64x256xbf16>
    return %d, %e : tensor<64x256xbf16>, tensor<64x256xbf16>
  }
}

// -----

// A scalar program longer than eight ops (a chain of doublings) is not
// copied into its readers: it stays a kernel of its own, and the fuser
// visits each of its ops once (a DAG walked path by path would take 2^20
// steps here).
// CHECK-LABEL: func.func @recompute_only_short_scalar_programs
//       CHECK:   sol.kernel @recompute_only_short_scalar_programs_{{.*}} -> tensor<bf16>
//       CHECK:   sol.kernel @recompute_only_short_scalar_programs_matmul_{{[0-9]+}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xbf16>, tensor<256x128xbf16>, tensor<bf16>)
module attributes {sol.target = #sol.target<"h200">} {
  func.func @recompute_only_short_scalar_programs(%x: tensor<64x128xbf16>, %w: tensor<256x128xbf16>, %s: tensor<f32>) -> tensor<64x256xbf16> {
    %c0 = sol.cast %s : tensor<f32> to tensor<bf16>
    %c1 = sol.add %c0, %c0 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c2 = sol.add %c1, %c1 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c3 = sol.add %c2, %c2 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c4 = sol.add %c3, %c3 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c5 = sol.add %c4, %c4 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c6 = sol.add %c5, %c5 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c7 = sol.add %c6, %c6 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c8 = sol.add %c7, %c7 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c9 = sol.add %c8, %c8 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c10 = sol.add %c9, %c9 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c11 = sol.add %c10, %c10 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c12 = sol.add %c11, %c11 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c13 = sol.add %c12, %c12 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c14 = sol.add %c13, %c13 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c15 = sol.add %c14, %c14 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c16 = sol.add %c15, %c15 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c17 = sol.add %c16, %c16 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c18 = sol.add %c17, %c17 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c19 = sol.add %c18, %c18 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %c20 = sol.add %c19, %c19 : tensor<bf16>, tensor<bf16> -> tensor<bf16>
    %m = sol.matmul %x, %w transpose_b : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
    %d = sol.mul %m, %c20 : tensor<64x256xbf16>, tensor<bf16> -> tensor<64x256xbf16>
    return %d : tensor<64x256xbf16>
  }
}
