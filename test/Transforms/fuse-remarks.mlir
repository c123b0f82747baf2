// RUN: sol-opt %s --split-input-file --sol-fuse=remarks=true -verify-diagnostics -o /dev/null

// Every fusion decision, fused or not, as a remark at the op it concerns,
// with its reason. Fused decisions quote the cost model's comparison on the
// H200 preset; with the materialise policy the model never predicts a legal
// fusion slower (the fused kernel saves at least one launch and never moves
// more bytes), so a "not fused" here always comes from legality or from a
// kernel the model cannot judge.

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_prefill(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 163.1 us <= 195.5 us unfused; saves 83.9 MB}}
    %z = sol.add %y, %r : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %z : tensor<16x512x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_decode_1x1(%x: tensor<1x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<1x1x2560xf16>) -> tensor<1x1x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 6.24 us <= 9.44 us unfused; saves 10.2 KB}}
    %z = sol.add %y, %r : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
    return %z : tensor<1x1x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_oproj_residual_decode_16x1(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 6.29 us <= 9.53 us unfused; saves 163.8 KB}}
    %z = sol.add %y, %r : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
    return %z : tensor<16x1x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_mlp_up_bias_gelu(%x: tensor<8192x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<8192x10240xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<8192x2560xf16>, tensor<10240x2560xf16> -> tensor<8192x10240xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 643.0 us <= 723.9 us unfused; saves 335.5 MB}}
    %z = sol.add %y, %b : tensor<8192x10240xf16>, tensor<10240xf16> -> tensor<8192x10240xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 643.0 us <= 723.9 us unfused; saves 335.5 MB}}
    %g = sol.gelu tanh %z : tensor<8192x10240xf16>
    return %g : tensor<8192x10240xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_swiglu_chain(%g: tensor<8192x8192xf16>, %u: tensor<8192x8192xf16>, %r: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    %s = sol.silu %g : tensor<8192x8192xf16>
    // expected-remark@+1 {{fused into elementwise kernel of sol.silu: predicted 96.4 us <= 161.7 us unfused; saves 268.4 MB}}
    %p = sol.mul %s, %u : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    // expected-remark@+1 {{fused into elementwise kernel of sol.silu: predicted 127.5 us <= 192.8 us unfused; saves 268.4 MB}}
    %o = sol.add %p, %r : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    return %o : tensor<8192x8192xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_cast_noted(%x: tensor<4096x4096xf32>, %w: tensor<4096x4096xf32>, %r: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %y = sol.matmul %x, %w : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 3029.8 us <= 3056.3 us unfused; saves 134.2 MB; changes dtype f32 -> f16 via sol.cast}}
    %c = sol.cast %y : tensor<4096x4096xf32> to tensor<4096x4096xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 3029.8 us <= 3056.3 us unfused; saves 67.1 MB}}
    %z = sol.add %c, %r : tensor<4096x4096xf16>, tensor<4096x4096xf16> -> tensor<4096x4096xf16>
    return %z : tensor<4096x4096xf16>
  }
}

// -----

// The materialised matmul result costs 21 MB of writes, but the kernel still
// saves 21 MB against the two kernels and one launch.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_multi_use_materialised(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> (tensor<4096x2560xf16>, tensor<4096x2560xf16>) {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 99.2 us <= 116.9 us unfused; saves 21.0 MB; materialises the sol.matmul result for 1 user(s) outside the kernel}}
    %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %y, %z : tensor<4096x2560xf16>, tensor<4096x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_matmul_into_matmul(%x: tensor<4096x2560xf16>, %w1: tensor<2560x2560xf16>, %w2: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w1 transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    // expected-remark@+1 {{not fused into epilogue of sol.matmul: sol.matmul consumes the result of the kernel's sol.matmul; two matmuls never share a kernel in sequence}}
    %z = sol.matmul %y, %w2 : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func private @opaque(tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
  func.func @dont_fuse_cycle(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<4096x2560xf16> {
    // expected-remark@+1 {{not fused into elementwise kernel of sol.add: sol.matmul is not elementwise: a matmul anchors its own kernel and takes only elementwise consumers}}
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    // expected-remark@+1 {{not fused into epilogue of sol.matmul: 'func.call' is not a sol op; it stays between kernels}}
    %c = func.call @opaque(%y) : (tensor<4096x2560xf16>) -> tensor<4096x2560xf16>
    // expected-remark@+1 {{not fused into epilogue of sol.matmul: would create a cycle: 'func.call' outside the kernel consumes a value of the kernel and feeds it}}
    %z = sol.add %y, %c : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_shape_changing(%x: tensor<512x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    // expected-remark@+1 {{not fused into elementwise kernel of sol.add: sol.matmul is not elementwise}}
    %y = sol.matmul %x, %w transpose_b : tensor<512x2560xf16>, tensor<2560x2560xf16> -> tensor<512x2560xf16>
    // expected-remark@+1 {{not fused into epilogue of sol.matmul: shape-changing: its result 16x512x2560 is larger than the kernel's iteration space 512x2560; the kernel would be recomputed per broadcast element}}
    %z = sol.add %y, %r : tensor<512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %z : tensor<16x512x2560xf16>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_outer_product(%a: tensor<4096x1xf32>, %b: tensor<1x4096xf32>) -> tensor<4096x4096xf32> {
    // expected-remark@+1 {{not fused into elementwise kernel of sol.add: shape-changing: its result 4096x1 is smaller than the kernel's iteration space 4096x4096; it would be recomputed per broadcast element}}
    %e = sol.exp %a : tensor<4096x1xf32>
    // expected-remark@+1 {{not fused into elementwise kernel of sol.exp: shape-changing: its result 4096x4096 is larger than the kernel's iteration space 4096x1}}
    %z = sol.add %e, %b : tensor<4096x1xf32>, tensor<1x4096xf32> -> tensor<4096x4096xf32>
    return %z : tensor<4096x4096xf32>
  }
}

// -----

module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_diamond(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %a = sol.neg %x : tensor<4096x4096xf32>
    // expected-remark@+1 {{fused into elementwise kernel of sol.neg: predicted 34.3 us <= 84.1 us unfused; saves 201.3 MB}}
    %b = sol.abs %x : tensor<4096x4096xf32>
    // expected-remark@+1 {{fused into elementwise kernel of sol.neg: predicted 49.8 us <= 84.1 us unfused; saves 134.2 MB}}
    %c = sol.add %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }
}

// -----

// SwiGLU's gate and up projections: the up matmul joins as the sibling
// (the cost model's comparison of one matmul of twice the width against
// two), then the epilogue grows over both.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @fuse_sibling_matmuls(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted}}
    %s = sol.silu %g : tensor<2048x6912xf16>
    // expected-remark@+1 {{fused as the sibling of sol.matmul: predicted 227.1 us <= 262.3 us unfused; saves 10.5 MB}}
    %u = sol.matmul %x, %wu transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted 227.1 us <= 250.0 us unfused; saves 113.2 MB}}
    %p = sol.mul %s, %u : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
    return %p : tensor<2048x6912xf16>
  }
}

// -----

// On an sm_80 target the pair has no generator: the remark says why, and
// the up projection's result becomes an input of the gate's epilogue.
module attributes {sol.target = #sol.target<"a100-80gb">} {
  func.func @dont_fuse_siblings_without_a_generator(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul}}
    %s = sol.silu %g : tensor<2048x6912xf16>
    // expected-remark@+1 {{not fused as the sibling of sol.matmul: no generator takes the pair: no wgmma_tma path (wgmma needs sm_90a; the target is sm_80)}}
    %u = sol.matmul %x, %wu transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul}}
    %p = sol.mul %s, %u : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
    return %p : tensor<2048x6912xf16>
  }
}

// -----

// Same A, but the weights differ in shape: not a pair.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_siblings_of_different_widths(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<2560x2560xf16>) -> (tensor<2048x6912xf16>, tensor<2048x2560xf16>) {
    %g = sol.matmul %x, %wg transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    // expected-remark@+1 {{not fused as the sibling of sol.matmul: not a sibling: the weights differ in shape or dtype}}
    %u = sol.matmul %x, %wu transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    return %g, %u : tensor<2048x6912xf16>, tensor<2048x2560xf16>
  }
}

// -----

// Q and K projections of one x that never meet in an elementwise op: one
// kernel would only write two unrelated outputs. Each keeps its own
// epilogue.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dont_fuse_siblings_that_never_meet(%x: tensor<2048x2560xf16>, %wq: tensor<2560x2560xf16>, %wk: tensor<2560x2560xf16>, %bq: tensor<2560xf16>, %bk: tensor<2560xf16>) -> (tensor<2048x2560xf16>, tensor<2048x2560xf16>) {
    %q = sol.matmul %x, %wq transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    // expected-remark@+1 {{not fused as the sibling of sol.matmul: the results never meet in an elementwise op; one kernel would write two unrelated outputs}}
    %k = sol.matmul %x, %wk transpose_b : tensor<2048x2560xf16>, tensor<2560x2560xf16> -> tensor<2048x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul}}
    %qb = sol.add %q, %bq : tensor<2048x2560xf16>, tensor<2560xf16> -> tensor<2048x2560xf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul}}
    %kb = sol.add %k, %bk : tensor<2048x2560xf16>, tensor<2560xf16> -> tensor<2048x2560xf16>
    return %qb, %kb : tensor<2048x2560xf16>, tensor<2048x2560xf16>
  }
}

// -----

// A scalar over 0-d inputs (the scale's cast to the epilogue's type) joins
// the epilogue upward, recomputed in the kernel, with its own reason.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @recompute_scalar_remark(%x: tensor<64x128xbf16>, %w: tensor<256x128xbf16>, %s: tensor<f32>) -> tensor<64x256xbf16> {
    %m = sol.matmul %x, %w transpose_b : tensor<64x128xbf16>, tensor<256x128xbf16> -> tensor<64x256xbf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: a scalar computed in the kernel, not read from a kernel of its own}}
    %c = sol.cast %s : tensor<f32> to tensor<bf16>
    // expected-remark@+1 {{fused into epilogue of sol.matmul: predicted}}
    %d = sol.div %m, %c : tensor<64x256xbf16>, tensor<bf16> -> tensor<64x256xbf16>
    return %d : tensor<64x256xbf16>
  }
}

// -----

// Block-wise fp8 scales (docs/fp8.md): the sibling kernel does not promote
// each K block's partial sums, so two block-scaled projections of one A stay
// two matmuls (each with its own epilogue).
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_wise_not_siblings(%x: tensor<256x512xf8E4M3FN>, %wg: tensor<384x512xf8E4M3FN>, %wu: tensor<384x512xf8E4M3FN>, %sx: tensor<256x4xf32>, %sg: tensor<3x4xf32>, %su: tensor<3x4xf32>) -> tensor<256x384xbf16> {
  %g = sol.matmul %x, %wg transpose_b scale_a(%sx : tensor<256x4xf32>) scale_b(%sg : tensor<3x4xf32>) : tensor<256x512xf8E4M3FN>, tensor<384x512xf8E4M3FN> -> tensor<256x384xbf16>
  // expected-remark @+1 {{not fused as the sibling of sol.matmul: not a sibling: block-wise scales: the sibling kernel does not scale each K block's partial sum}}
  %u = sol.matmul %x, %wu transpose_b scale_a(%sx : tensor<256x4xf32>) scale_b(%su : tensor<3x4xf32>) : tensor<256x512xf8E4M3FN>, tensor<384x512xf8E4M3FN> -> tensor<256x384xbf16>
  // expected-remark @+1 {{fused into epilogue of sol.matmul}}
  %s = sol.silu %g : tensor<256x384xbf16>
  // expected-remark @+1 {{fused into epilogue of sol.matmul}}
  %p = sol.mul %s, %u : tensor<256x384xbf16>, tensor<256x384xbf16> -> tensor<256x384xbf16>
  return %p : tensor<256x384xbf16>
}
}
