// RUN: sol-opt %s --split-input-file --convert-sol-kernels-to-gpu -verify-diagnostics

// The generator implements a plan; without one there is nothing to follow.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel @no_plan has no #sol.plan: run sol-tile first}}
func.func @no_plan(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}

// -----

// A matmul plan for a kernel without a matmul.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: a matmul plan for a kernel without a matmul}}
func.func @path_mismatch(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}

// -----

// The epilogue computes outputs; reading them (an accumulation into the
// destination) is not something sol emits or the generator supports.
module attributes {sol.target = #sol.target<"h200">} {
func.func @epilogue_reads_output(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  // expected-error @+1 {{sol kernel: the epilogue may not read its outputs}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// The wgmma generator reads K-major operands: a [K, N] B has no wgmma plan.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma plan is not one the generator implements (tile = [128, n, 64] with n a multiple of 16 up to 256, at least 3 stages, an [N, K] weight)}}
func.func @wgmma_kn_layout(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %o: tensor<128x128xf16>) -> tensor<128x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma, tile = [128, 128, 64], warps = [2, 1], stages = 4, split_k = 1>} {
  %e = tensor.empty() : tensor<128x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x128xf32>) outs(%o : tensor<128x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x128xf16>
  return %out : tensor<128x128xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A gemv plan whose row count is not the kernel's.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the gemv plan does not fit the kernel}}
func.func @gemv_wrong_rows(%a: tensor<2x64xf16>, %b: tensor<8x64xf16>, %o: tensor<2x8xf16>) -> tensor<2x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = gemv, tile = [4, 4, 8], warps = [1, 4], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<2x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x64xf16>, tensor<8x64xf16>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<2x8xf32>) outs(%o : tensor<2x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8xf16>
  return %out : tensor<2x8xf16>
}
}

// -----

// The reduction must be a multiply-add: a max-reduction is not a matmul.
#A = affine_map<(m, n, k) -> (m, k)>
#B = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
func.func @not_multiply_add(%a: tensor<16x64xf16>, %b: tensor<16x64xf16>, %o: tensor<16x16xf16>) -> tensor<16x16xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<16x16xf32>
  // expected-error @+1 {{sol kernel: the reduction is not a multiply-add contraction}}
  %mm = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %m = arith.maximumf %acc, %xf : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x16xf32>) outs(%o : tensor<16x16xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x16xf16>
  return %out : tensor<16x16xf16>
}
}

// -----

// A transposed A ([K, M]) is not a layout the generators read.
#A = affine_map<(m, n, k) -> (k, m)>
#B = affine_map<(m, n, k) -> (n, k)>
#C = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
func.func @transposed_a(%a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %o: tensor<16x16xf16>) -> tensor<16x16xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<16x16xf32>
  // expected-error @+1 {{sol kernel: A must be indexed (batch..., m, k)}}
  %mm = linalg.generic {indexing_maps = [#A, #B, #C], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x16xf16>, tensor<16x64xf16>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x16xf32>) outs(%o : tensor<16x16xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x16xf16>
  return %out : tensor<16x16xf16>
}
}

// -----

// A kernel function with no elementwise generic has nothing that writes
// its outputs.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: no elementwise linalg.generic}}
func.func @no_epilogue(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  return %x : tensor<8xf16>
}
}

// -----

// Broadcast maps use dims or 0; an offset index is not broadcasting.
module attributes {sol.target = #sol.target<"h200">} {
func.func @map_with_offset(%x: tensor<8x4xf16>, %o: tensor<8x4xf16>) -> tensor<8x4xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  // expected-error @+1 {{sol kernel: epilogue maps may only use dims and 0 (broadcast)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf16>) outs(%o : tensor<8x4xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}
}

// -----

// Outputs are written in place, row-major: a transposed output map is not.
module attributes {sol.target = #sol.target<"h200">} {
func.func @transposed_output(%x: tensor<4x4xf16>, %o: tensor<4x4xf16>) -> tensor<4x4xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  // expected-error @+1 {{sol kernel: outputs must be indexed by the identity map}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf16>) outs(%o : tensor<4x4xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}
}

// -----

// A dynamic shape needs a plan per range of its dim (a plan table): one
// plan has no launch it could have sized.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: dynamic argument shape without a plan table ('sol.plans'): run sol-tile first}}
func.func @dynamic_shape(%x: tensor<?xf16>, %o: tensor<?xf16>) -> tensor<?xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf16>) outs(%o : tensor<?xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<?xf16>
  return %0 : tensor<?xf16>
}
}

// -----

// An elementwise plan cannot compute a matmul.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: an elementwise plan for a kernel with a matmul}}
func.func @elementwise_plan_for_matmul(%a: tensor<16x64xf32>, %b: tensor<64x16xf32>, %o: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<16x16xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x16xf32>) outs(%z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x16xf32>) outs(%o : tensor<16x16xf32>) {
  ^bb0(%c: f32, %_: f32):
    linalg.yield %c : f32
  } -> tensor<16x16xf32>
  return %out : tensor<16x16xf32>
}
}

// -----

// mma.sync warp tiles are multiples of 16x16: 3 warps cannot split 16 rows.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the mma_sync plan is not one the generator implements}}
func.func @mma_sync_bad_warps(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %o: tensor<16x32xf16>) -> tensor<16x32xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [16, 32, 64], warps = [3, 1], stages = 4, split_k = 1>} {
  %e = tensor.empty() : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x32xf16>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%o : tensor<16x32xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x32xf16>
  return %out : tensor<16x32xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A ping-pong consumer holds its whole tile's accumulators: 128x192 is the
// widest that fits a warpgroup's registers, so 128x256 is refused.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_pingpong_too_wide(%a: tensor<256x64xf16>, %b: tensor<256x64xf16>, %o: tensor<256x256xf16>) -> tensor<256x256xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [1, 1], stages = 4, split_k = 1, schedule = pingpong>} {
  %e = tensor.empty() : tensor<256x256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<256x64xf16>, tensor<256x64xf16>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x256xf32>) outs(%o : tensor<256x256xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>
  return %out : tensor<256x256xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A [K, N] weight loads as 64-column boxes: a 144-column tile is not a whole
// number of them, so the TMA generator refuses it (sol-tile never offers
// it for such a weight).
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements (tile = [128, n, 64] with n a multiple of 16 and of 8 x cluster, n <= 256 cooperative (warps = [2, 1]) or <= 192 ping-pong (warps = [1, 1]), or [256, n <= 192, 64] cooperative without a cluster, or [64, n <= 256, 64] ping-pong without a cluster; a cluster of 1 to 8, at least 2 stages, an unbatched [N, K] weight (or one [K, N] weight with n a multiple of 64 and no cluster))}}
func.func @wgmma_tma_n_major_partial_box(%a: tensor<256x64xf16>, %b: tensor<64x144xf16>, %o: tensor<256x144xf16>) -> tensor<256x144xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
  %e = tensor.empty() : tensor<256x144xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x144xf32>) -> tensor<256x144xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x144xf16>) outs(%z : tensor<256x144xf32>) -> tensor<256x144xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x144xf32>) outs(%o : tensor<256x144xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x144xf16>
  return %out : tensor<256x144xf16>
}
}

// -----

// Split K across at most 16 blocks (the partials' workspace and the last
// block's ordered sum are sized for that).
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the mma_sync plan is not one the generator implements (warp tiles must be multiples of 16x16, tile_k of 16 (32 for fp8), at least 2 stages, split_k 1 to 16 and 1 for a batched B)}}
func.func @mma_sync_split_k_too_deep(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %o: tensor<16x32xf16>) -> tensor<16x32xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [16, 32, 64], warps = [1, 2], stages = 4, split_k = 17>} {
  %e = tensor.empty() : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x32xf16>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%o : tensor<16x32xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x32xf16>
  return %out : tensor<16x32xf16>
}
}

// -----

// Sibling matmuls (two contractions over one A) have one generator, the
// wgmma_tma path; any other plan is refused.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: sibling matmuls need a wgmma_tma plan without a cluster whose tile holds a multiple of 8 columns of each weight}}
func.func @siblings_on_mma_sync(%x: tensor<128x16xf16>, %wg: tensor<8x16xf16>, %wu: tensor<8x16xf16>, %o: tensor<128x8xf16>) -> tensor<128x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [16, 16, 64], warps = [1, 1], stages = 6, split_k = 1>} {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<128x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %g = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %wg : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f0 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %e1 = tensor.empty() : tensor<128x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %u = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %wu : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<128x8xf32>, tensor<128x8xf32>) outs(%o : tensor<128x8xf16>) {
  ^bb0(%vg: f32, %vu: f32, %out: f16):
    %p = arith.mulf %vg, %vu : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x8xf16>
  return %r : tensor<128x8xf16>
}
}

// -----

// A second contraction over another A is no sibling.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
func.func @two_activations(%x: tensor<128x16xf16>, %y: tensor<128x16xf16>, %w: tensor<8x16xf16>, %o: tensor<128x8xf16>) -> tensor<128x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 16, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<128x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %g = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %w : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f0 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %e1 = tensor.empty() : tensor<128x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  // expected-error @+1 {{sol kernel: a second contraction must be a sibling of the first (the same A, an unbatched [N, K] weight of the same type)}}
  %u = linalg.matmul indexing_maps = [#a, #b, #c] ins(%y, %w : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<128x8xf32>, tensor<128x8xf32>) outs(%o : tensor<128x8xf16>) {
  ^bb0(%vg: f32, %vu: f32, %out: f16):
    %p = arith.mulf %vg, %vu : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x8xf16>
  return %r : tensor<128x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// 256-row tiles are cooperative only: a ping-pong consumer owns a whole tile,
// and 256 rows of accumulators would not fit its registers.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_tall_pingpong(%a: tensor<512x64xf16>, %b: tensor<128x64xf16>, %o: tensor<512x128xf16>) -> tensor<512x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [256, 128, 64], warps = [1, 1], stages = 4, split_k = 1, schedule = pingpong>} {
  %e = tensor.empty() : tensor<512x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<512x128xf32>) -> tensor<512x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<512x64xf16>, tensor<128x64xf16>) outs(%z : tensor<512x128xf32>) -> tensor<512x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x128xf32>) outs(%o : tensor<512x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x128xf16>
  return %out : tensor<512x128xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// 256-row tiles take no cluster (never built or run with one).
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_tall_cluster(%a: tensor<512x64xf16>, %b: tensor<128x64xf16>, %o: tensor<512x128xf16>) -> tensor<512x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [256, 128, 64], warps = [2, 1], stages = 4, split_k = 1, cluster = 2>} {
  %e = tensor.empty() : tensor<512x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<512x128xf32>) -> tensor<512x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<512x64xf16>, tensor<128x64xf16>) outs(%z : tensor<512x128xf32>) -> tensor<512x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x128xf32>) outs(%o : tensor<512x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x128xf16>
  return %out : tensor<512x128xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A 256-row tile's consumer holds two m64 accumulators of n columns: n up
// to 192 fits its registers, 256 would not.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_tall_too_wide(%a: tensor<512x64xf16>, %b: tensor<256x64xf16>, %o: tensor<512x256xf16>) -> tensor<512x256xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [256, 256, 64], warps = [2, 1], stages = 3, split_k = 1>} {
  %e = tensor.empty() : tensor<512x256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<512x64xf16>, tensor<256x64xf16>) outs(%z : tensor<512x256xf32>) -> tensor<512x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x256xf32>) outs(%o : tensor<512x256xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x256xf16>
  return %out : tensor<512x256xf16>
}
}

// -----

// A third contraction over the same A: the generators take one, or a
// sibling pair.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
func.func @three_contractions(%x: tensor<128x16xf16>, %w: tensor<8x16xf16>, %o: tensor<128x8xf16>) -> tensor<128x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 16, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>} {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<128x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x8xf32>) -> tensor<128x8xf32>
  %q = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %w : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f : tensor<128x8xf32>) -> tensor<128x8xf32>
  %k = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %w : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f : tensor<128x8xf32>) -> tensor<128x8xf32>
  // expected-error @+1 {{sol kernel: more than one contraction, and not a sibling of the first}}
  %v = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %w : tensor<128x16xf16>, tensor<8x16xf16>) outs(%f : tensor<128x8xf32>) -> tensor<128x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%q, %k, %v : tensor<128x8xf32>, tensor<128x8xf32>, tensor<128x8xf32>) outs(%o : tensor<128x8xf16>) {
  ^bb0(%vq: f32, %vk: f32, %vv: f32, %out: f16):
    %p = arith.mulf %vq, %vk : f32
    %s = arith.addf %p, %vv : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x8xf16>
  return %r : tensor<128x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// gemv keeps one accumulator per row of A in each lane: more than 16 rows
// is no gemv plan (a wrapped row count once asked for 2^64 - 2 of them).
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the gemv plan does not fit the kernel (it needs an [N, K] weight, tile = [rows, warps, 128-bit vector] with 1 to 16 rows}}
func.func @gemv_too_many_rows(%a: tensor<17x64xf16>, %b: tensor<8x64xf16>, %o: tensor<17x8xf16>) -> tensor<17x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = gemv, tile = [17, 4, 8], warps = [1, 4], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<17x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<17x8xf32>) -> tensor<17x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<17x64xf16>, tensor<8x64xf16>) outs(%z : tensor<17x8xf32>) -> tensor<17x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<17x8xf32>) outs(%o : tensor<17x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<17x8xf16>
  return %out : tensor<17x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A 64-row swap_ab tile is built against fp8 weight codes only (the
// planner offers it to weight-only matmuls alone); a 16-bit weight past 32
// rows has mma.sync and the TMA tiles.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the swap_ab plan does not fit the kernel (it needs f16 or bf16 A, a weight of A's type or of fp8 codes, an [N, K] weight, tile = [8, 16 or 32 rows (64 against fp8 codes), 16 x warps[1] columns, a multiple of warps[0] x 4 x the 128-bit vector of K], at most 32 warps, and K a multiple of the vector)}}
func.func @swap_ab_row_tile_64_needs_fp8_codes(%a: tensor<40x64xf16>, %b: tensor<8x64xf16>, %o: tensor<40x8xf16>) -> tensor<40x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = swap_ab, tile = [64, 16, 128], warps = [4, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<40x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<40x8xf32>) -> tensor<40x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<40x64xf16>, tensor<8x64xf16>) outs(%z : tensor<40x8xf32>) -> tensor<40x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<40x8xf32>) outs(%o : tensor<40x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<40x8xf16>
  return %out : tensor<40x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A hand-written swap_ab plan is checked against what the generator can
// build: its row tile is one, two or four n8 tiles of tokens (not 24),
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the swap_ab plan does not fit the kernel (it needs f16 or bf16 A, a weight of A's type or of fp8 codes, an [N, K] weight, tile = [8, 16 or 32 rows (64 against fp8 codes), 16 x warps[1] columns, a multiple of warps[0] x 4 x the 128-bit vector of K], at most 32 warps, and K a multiple of the vector)}}
func.func @swap_ab_rows_tile_not_n8_tiles(%a: tensor<3x64xf16>, %b: tensor<8x64xf16>, %o: tensor<3x8xf16>) -> tensor<3x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = swap_ab, tile = [24, 16, 128], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<3x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x8xf32>) -> tensor<3x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<3x64xf16>, tensor<8x64xf16>) outs(%z : tensor<3x8xf32>) -> tensor<3x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<3x8xf32>) outs(%o : tensor<3x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x8xf16>
  return %out : tensor<3x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// its columns are 16 per warp group (warps[1] = 2 owns 32, not 16),
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the swap_ab plan does not fit the kernel (it needs f16 or bf16 A, a weight of A's type or of fp8 codes, an [N, K] weight, tile = [8, 16 or 32 rows (64 against fp8 codes), 16 x warps[1] columns, a multiple of warps[0] x 4 x the 128-bit vector of K], at most 32 warps, and K a multiple of the vector)}}
func.func @swap_ab_columns_not_warp_groups(%a: tensor<3x64xf16>, %b: tensor<8x64xf16>, %o: tensor<3x8xf16>) -> tensor<3x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = swap_ab, tile = [8, 16, 256], warps = [2, 2], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<3x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x8xf32>) -> tensor<3x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<3x64xf16>, tensor<8x64xf16>) outs(%z : tensor<3x8xf32>) -> tensor<3x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<3x8xf32>) outs(%o : tensor<3x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x8xf16>
  return %out : tensor<3x8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// and it loads rows of an [N, K] weight: a [K, N] one is refused.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the swap_ab plan does not fit the kernel (it needs f16 or bf16 A, a weight of A's type or of fp8 codes, an [N, K] weight, tile = [8, 16 or 32 rows (64 against fp8 codes), 16 x warps[1] columns, a multiple of warps[0] x 4 x the 128-bit vector of K], at most 32 warps, and K a multiple of the vector)}}
func.func @swap_ab_k_by_n_weight(%a: tensor<3x64xf16>, %b: tensor<64x8xf16>, %o: tensor<3x8xf16>) -> tensor<3x8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = swap_ab, tile = [8, 16, 128], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<3x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x8xf32>) -> tensor<3x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<3x64xf16>, tensor<64x8xf16>) outs(%z : tensor<3x8xf32>) -> tensor<3x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<3x8xf32>) outs(%o : tensor<3x8xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x8xf16>
  return %out : tensor<3x8xf16>
}
}

// -----

// A hand-written plan skips sol-tile's checks: an argument whose bytes
// overflow int64 is refused before any offset is computed.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: argument type 'tensor<9223372036854775807xf16>' holds more than 2^63 - 1 bytes}}
func.func @argument_bytes_overflow(%x: tensor<9223372036854775807xf16>, %o: tensor<9223372036854775807xf16>) -> tensor<9223372036854775807xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>} {
  %out = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<9223372036854775807xf16>) outs(%o : tensor<9223372036854775807xf16>) {
  ^bb0(%a: f16, %_: f16):
    %n = arith.negf %a : f16
    linalg.yield %n : f16
  } -> tensor<9223372036854775807xf16>
  return %out : tensor<9223372036854775807xf16>
}
}

// -----

// The plan records its choices; the launch its path derives from them over
// the kernel's shapes must be one CUDA takes: 2,000,000 rows of 16-row SIMT
// blocks are 125000 blocks along grid y.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the simt plan cannot launch over these shapes: grid y = 125000, z = 1 exceed CUDA's limit of 65535}}
func.func @simt_grid_too_tall(%a: tensor<2000000x16xf32>, %b: tensor<16x16xf32>, %o: tensor<2000000x16xf32>) -> tensor<2000000x16xf32> attributes {sol.kernel, sol.plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>} {
  %e = tensor.empty() : tensor<2000000x16xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2000000x16xf32>) -> tensor<2000000x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<2000000x16xf32>, tensor<16x16xf32>) outs(%z : tensor<2000000x16xf32>) -> tensor<2000000x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<2000000x16xf32>) outs(%o : tensor<2000000x16xf32>) {
  ^bb0(%c: f32, %_: f32):
    linalg.yield %c : f32
  } -> tensor<2000000x16xf32>
  return %out : tensor<2000000x16xf32>
}
}

// -----

// 600e9 elements in blocks of 256: more blocks than grid x holds.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the elementwise plan cannot launch over these shapes: grid x = 2343750000 exceeds CUDA's limit of 2147483647}}
func.func @elementwise_grid_too_wide(%x: tensor<600000000000xf16>, %o: tensor<600000000000xf16>) -> tensor<600000000000xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<600000000000xf16>) outs(%o : tensor<600000000000xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<600000000000xf16>
  return %0 : tensor<600000000000xf16>
}
}

// -----

// 8x8 warps are a block of 2048 threads, twice what CUDA allows.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the mma_sync plan cannot launch over these shapes: a block of 2048x1x1 threads exceeds CUDA's limits (x, y <= 1024, z <= 64, 1024 threads in all)}}
func.func @mma_sync_block_too_large(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %o: tensor<128x128xf16>) -> tensor<128x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [128, 128, 64], warps = [8, 8], stages = 3, split_k = 1>} {
  %e = tensor.empty() : tensor<128x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x128xf32>) outs(%o : tensor<128x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x128xf16>
  return %out : tensor<128x128xf16>
}
}

// -----

// 8 stages of 128x64 A and 64x256 B tiles (rows padded by 16 bytes) need
// 417792 bytes of shared memory: more than an H200 SM has.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error-re @+1 {{sol kernel: the mma_sync plan cannot launch over these shapes: 417792 bytes of shared memory per block exceed h200's {{[0-9]+}} per SM}}
func.func @mma_sync_smem_too_large(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %o: tensor<128x256xf16>) -> tensor<128x256xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [128, 256, 64], warps = [2, 4], stages = 8, split_k = 1>} {
  %e = tensor.empty() : tensor<128x256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x256xf32>) outs(%o : tensor<128x256xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x256xf16>
  return %out : tensor<128x256xf16>
}
}

// -----

// The path reads the extents of its plan: an mma_sync tile without K.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: a mma_sync plan needs tile = [m, n, k] and warps = [m, n]}}
func.func @mma_sync_tile_without_k(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %o: tensor<64x64xf16>) -> tensor<64x64xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [64, 64], warps = [2, 2], stages = 3, split_k = 1>} {
  %e = tensor.empty() : tensor<64x64xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%o : tensor<64x64xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  return %out : tensor<64x64xf16>
}
}

// -----

// The geometry follows the target (a persistent grid fills its SMs, shared
// memory is bounded by its SM's): without one there is none to derive.
// expected-error-re @+1 {{convert-sol-kernels-to-gpu needs a target to derive the plan's launch geometry: pin one with {{.*}}}}
func.func @no_target(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// A 64-row tile is one m64 accumulator: two cooperative consumers cannot
// share it (sol-tile offers it ping-pong only).
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_short_tile_cooperative(%a: tensor<64x256xf16>, %b: tensor<128x256xf16>, %o: tensor<64x128xf16>) -> tensor<64x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [2, 1], stages = 8, split_k = 1, schedule = cooperative>} {
  %e = tensor.empty() : tensor<64x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x256xf16>, tensor<128x256xf16>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x128xf32>) outs(%o : tensor<64x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  return %out : tensor<64x128xf16>
}
}

// -----

// 64-row ping-pong tiles take no cluster (none was built or measured).
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan is not one the generator implements}}
func.func @wgmma_tma_short_tile_cluster(%a: tensor<64x256xf16>, %b: tensor<128x256xf16>, %o: tensor<64x128xf16>) -> tensor<64x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 1, cluster = 2, schedule = pingpong>} {
  %e = tensor.empty() : tensor<64x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x256xf16>, tensor<128x256xf16>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x128xf32>) outs(%o : tensor<64x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  return %out : tensor<64x128xf16>
}
}

// -----

// Split K's last arrival sums one block's tile: a cluster's multicast
// partner has no place in it.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan's split_k is not one the generator implements: split K sums one block's tile: no cluster}}
func.func @wgmma_tma_split_k_cluster(%a: tensor<64x256xf16>, %b: tensor<128x256xf16>, %o: tensor<64x128xf16>) -> tensor<64x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 2, cluster = 2, schedule = cooperative>} {
  %e = tensor.empty() : tensor<64x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x256xf16>, tensor<128x256xf16>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x128xf32>) outs(%o : tensor<64x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  return %out : tensor<64x128xf16>
}
}

// -----

// K = 128 is two K tiles: a third split would have none of its own.
#id = affine_map<(m, n) -> (m, n)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan's split_k is not one the generator implements: split_k = 3 exceeds the 2 K tiles: every split needs one}}
func.func @wgmma_tma_split_k_past_k_tiles(%a: tensor<64x128xf16>, %b: tensor<128x128xf16>, %o: tensor<64x128xf16>) -> tensor<64x128xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 3, schedule = pingpong>} {
  %e = tensor.empty() : tensor<64x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x128xf16>, tensor<128x128xf16>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x128xf32>) outs(%o : tensor<64x128xf16>) {
  ^bb0(%c: f32, %_: f16):
    %t = arith.truncf %c : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  return %out : tensor<64x128xf16>
}
}

// -----

// Split K's last arrival sums one matmul's tile: a sibling pair (two
// weights in one accumulator) is refused.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: the wgmma_tma plan's split_k is not one the generator implements: split K sums one matmul's tile: no sibling pair}}
func.func @wgmma_tma_split_k_siblings(%x: tensor<128x256xf16>, %wg: tensor<64x256xf16>, %wu: tensor<64x256xf16>, %o: tensor<128x64xf16>) -> tensor<128x64xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 2, schedule = pingpong>} {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<128x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %g = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %wg : tensor<128x256xf16>, tensor<64x256xf16>) outs(%f0 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %e1 = tensor.empty() : tensor<128x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %u = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %wu : tensor<128x256xf16>, tensor<64x256xf16>) outs(%f1 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<128x64xf32>, tensor<128x64xf32>) outs(%o : tensor<128x64xf16>) {
  ^bb0(%vg: f32, %vu: f32, %out: f16):
    %p = arith.mulf %vg, %vu : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x64xf16>
  return %r : tensor<128x64xf16>
}
}

// -----

// The generators clone the epilogue's body alone: a value it reads from
// outside must be a constant (those are cloned in); anything else is
// refused by name instead of leaving the generated code a dangling operand.
module attributes {sol.target = #sol.target<"h200">} {
func.func @epilogue_reads_value_from_outside(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %c0 = arith.constant 0 : index
  %first = tensor.extract %x[%c0] : tensor<8xf16>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    // expected-error @+1 {{sol kernel: the epilogue's body reads a value defined outside it (only constants may be)}}
    %s = arith.addf %a, %first : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}

// -----

// A kernel's name becomes its PTX entry, and LLVM's NVPTX backend aborts on
// a symbol that is not an identifier: a kernel written in the linalg form
// with such a name is refused here (a sol-fuzz finding).
module attributes {sol.target = #sol.target<"h200">} {
// expected-error-re @+1 {{cannot generate sol kernel @"{{.*}}": its name holds the byte 0xc3; a kernel name must match [A-Za-z_][A-Za-z0-9_]*}}
func.func @"ünicöde"(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// Block-wise scales (docs/fp8.md): the wgmma_tma generator promotes each K
// tile's partial sums with B's block scale of the tile, so a tile whose
// columns span two 128-wide blocks of B's scales (192 wide) is refused.
module attributes {sol.target = #sol.target<"h200">} {
// expected-error @+1 {{sol kernel: block-wise scales on the wgmma_tma path take fp8 operands, one weight, a tile width dividing 128 and at most 64 x 128 accumulator elements per consumer}}
func.func @block_scales_wide_tile(%a: tensor<256x512xf8E4M3FN>, %b: tensor<256x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %sb: tensor<2x4xf32>, %o: tensor<256x256xf32>) -> tensor<256x256xf32> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [64, 192, 128], warps = [1, 1], stages = 4, split_k = 1, schedule = pingpong>} {
  %e = tensor.empty() : tensor<256x256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2 floordiv 128)>, affine_map<(d0, d1, d2) -> (d1 floordiv 128, d2 floordiv 128)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b, %sa, %sb : tensor<256x512xf8E4M3FN>, tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<2x4xf32>) outs(%z : tensor<256x256xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %ps = arith.mulf %p, %s : f32
    %pt = arith.mulf %ps, %t : f32
    %r = arith.addf %acc, %pt : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x256xf32>) outs(%o : tensor<256x256xf32>) {
  ^bb0(%c: f32, %_: f32):
    linalg.yield %c : f32
  } -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
}

// -----

#id = affine_map<(m, n) -> (m, n)>
// A contraction's inputs past A and B are block-wise scales, indexed by
// their blocks: a scale indexed per element of K is refused by name.
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_scale_wrong_map(%a: tensor<256x512xf8E4M3FN>, %b: tensor<256x512xf8E4M3FN>, %sa: tensor<256x512xf32>, %o: tensor<256x256xf32>) -> tensor<256x256xf32> attributes {sol.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [64, 128, 128], warps = [1, 1], stages = 8, split_k = 1, schedule = pingpong>} {
  %e = tensor.empty() : tensor<256x256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{sol kernel: a contraction's further inputs must be block-wise scales: kernel arguments indexed (batch..., m, k floordiv 128) or (n floordiv 128, k floordiv 128)}}
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b, %sa : tensor<256x512xf8E4M3FN>, tensor<256x512xf8E4M3FN>, tensor<256x512xf32>) outs(%z : tensor<256x256xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %ps = arith.mulf %p, %s : f32
    %r = arith.addf %acc, %ps : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x256xf32>) outs(%o : tensor<256x256xf32>) {
  ^bb0(%c: f32, %_: f32):
    linalg.yield %c : f32
  } -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
}
