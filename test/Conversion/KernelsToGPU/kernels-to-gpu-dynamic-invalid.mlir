// The dynamic kernels convert-sol-kernels-to-gpu refuses, each with the
// reason (docs/dynamic-shapes.md says what a dynamic kernel is).
// RUN: sol-opt %s --split-input-file --convert-sol-kernels-to-gpu -verify-diagnostics

// A dynamic kernel has a plan per row of its table, not one plan.
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+1 {{sol kernel: both a #sol.plan and a plan table ('sol.plans')}}
func.func @plan_and_table(%x: tensor<?x256xf16>, %o: tensor<?x256xf16>) -> tensor<?x256xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 4, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>]} {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x256xf16>) outs(%o : tensor<?x256xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<?x256xf16>
  return %0 : tensor<?x256xf16>
}

// -----

// A plan table belongs to a kernel with a dynamic dim.
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+1 {{sol kernel: a plan table ('sol.plans') on a kernel without a dynamic dim}}
func.func @table_on_static(%x: tensor<4x256xf16>, %o: tensor<4x256xf16>) -> tensor<4x256xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 4, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>]} {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x256xf16>) outs(%o : tensor<4x256xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<4x256xf16>
  return %0 : tensor<4x256xf16>
}

// -----

// Only the outermost dim may be dynamic: the inner strides are constants.
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+1 {{sol kernel: only the outermost dim may be dynamic (dim 1 of}}
func.func @inner_dynamic(%x: tensor<4x?xf16>, %o: tensor<4x?xf16>) -> tensor<4x?xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 4, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>]} {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x?xf16>) outs(%o : tensor<4x?xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<4x?xf16>
  return %0 : tensor<4x?xf16>
}

// -----

// M = 0 launches nothing: a row serving only it has no kernel to build.
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+1 {{sol kernel: the plan table's row #sol.plan_entry<m_min = 0, m_max = 0,}}
func.func @row_of_zero(%x: tensor<?x256xf16>, %o: tensor<?x256xf16>) -> tensor<?x256xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 0, m_max = 0, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>, #sol.plan_entry<m_min = 1, m_max = 4, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>]} {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x256xf16>) outs(%o : tensor<?x256xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<?x256xf16>
  return %0 : tensor<?x256xf16>
}

// -----

// A batched B takes a static A: its batch is a grid dim the plan sizes.
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
// expected-error @+1 {{sol kernel: a batched B takes a static A (its batch is a grid dim of the plan)}}
func.func @batched_b(%x: tensor<?x16x64xf32>, %w: tensor<2x64x16xf32>, %o: tensor<?x16x16xf32>) -> tensor<?x16x16xf32> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 2, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x16x64xf32>
  %e = tensor.empty(%d) : tensor<?x16x16xf32>
  %f0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%f0 : f32) outs(%e : tensor<?x16x16xf32>) -> tensor<?x16x16xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<?x16x64xf32>, tensor<2x64x16xf32>) outs(%z : tensor<?x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<?x16x16xf32>) outs(%o : tensor<?x16x16xf32>) {
  ^bb0(%v: f32, %_: f32):
    linalg.yield %v : f32
  } -> tensor<?x16x16xf32>
  return %out : tensor<?x16x16xf32>
}

// -----

// The contraction's static extents must agree: linalg's verifier skips the
// check once a dim is dynamic, and the generators size their loops from
// B's N and K (this one, an output wider than its weight, crashed the
// wgmma_tma generator: sol-fuzz, 2026-12-03).
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @n_disagrees(%x: tensor<?x2560xf16>, %w: tensor<8x2560xf16>, %o: tensor<?x6912xf16>) -> tensor<?x6912xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x2560xf16>
  %e = tensor.empty(%m) : tensor<?x6912xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x6912xf32>) -> tensor<?x6912xf32>
  // expected-error @+1 {{sol kernel: the contraction's shapes disagree: A ?x2560, B 8x2560 ([N, K]), output ?x6912 (A's K must be B's, B's N the output's, A's M the output's)}}
  %mm = linalg.matmul indexing_maps = [#a, #b, #c] ins(%x, %w : tensor<?x2560xf16>, tensor<8x2560xf16>) outs(%acc : tensor<?x6912xf32>) -> tensor<?x6912xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<?x6912xf32>) outs(%o : tensor<?x6912xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x6912xf16>
  return %0 : tensor<?x6912xf16>
}
