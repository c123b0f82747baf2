// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg | FileCheck %s

// Each case pins one part of the canonical form (see the pass description in
// Passes.td): fill + contraction when there is a matmul, then exactly one
// all-parallel epilogue linalg.generic over the output shape.

// The seed kernel (o_proj + residual, shrunk): batched lhs against a rank-2
// nn.Linear weight, so a generic contraction with B read as (n, k) and shared
// by every batch; the epilogue reads the f32 accumulator and the residual,
// not the weight. The kernel's cost and its other attributes move onto the
// function under sol.; the host calls it with a fresh out tensor.
//   CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
//   CHECK-DAG: #[[$BT:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
//   CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
//   CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @seed_oproj_residual_matmul_0
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3x8xf16>, %[[W:.*]]: tensor<4x8xf16>, %[[R:.*]]: tensor<2x3x4xf16>, %[[OUT:.*]]: tensor<2x3x4xf16>) -> tensor<2x3x4xf16>
//  CHECK-SAME:   attributes {sol.cost = #sol.cost<bound = memory{{.*}}>, sol.kernel, sol.plan = #sol.plan<path = mma_sync{{.*}}>}
//       CHECK:   %[[INIT:.*]] = tensor.empty() : tensor<2x3x4xf32>
//       CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[INIT]] : tensor<2x3x4xf32>)
//       CHECK:   %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[$A]], #[[$BT]], #[[$C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:       ins(%[[X]], %[[W]] : tensor<2x3x8xf16>, tensor<4x8xf16>) outs(%[[FILL]] : tensor<2x3x4xf32>)
//  CHECK-NEXT:   ^bb0(%[[IA:.*]]: f16, %[[IB:.*]]: f16, %[[IC:.*]]: f32):
//  CHECK-NEXT:     %[[EA:.*]] = arith.extf %[[IA]] : f16 to f32
//  CHECK-NEXT:     %[[EB:.*]] = arith.extf %[[IB]] : f16 to f32
//  CHECK-NEXT:     %[[P:.*]] = arith.mulf %[[EA]], %[[EB]] : f32
//  CHECK-NEXT:     %[[S:.*]] = arith.addf %[[IC]], %[[P]] : f32
//  CHECK-NEXT:     linalg.yield %[[S]] : f32
//       CHECK:   %[[EPI:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
//  CHECK-SAME:       ins(%[[ACC]], %[[R]] : tensor<2x3x4xf32>, tensor<2x3x4xf16>) outs(%[[OUT]] : tensor<2x3x4xf16>)
//  CHECK-NEXT:   ^bb0(%[[VA:.*]]: f32, %[[VR:.*]]: f16, %{{.*}}: f16):
//  CHECK-NEXT:     %[[ER:.*]] = arith.extf %[[VR]] : f16 to f32
//  CHECK-NEXT:     %[[SUM:.*]] = arith.addf %[[VA]], %[[ER]] : f32
//  CHECK-NEXT:     %[[T:.*]] = arith.truncf %[[SUM]] : f32 to f16
//  CHECK-NEXT:     linalg.yield %[[T]] : f16
//       CHECK:   return %[[EPI]] : tensor<2x3x4xf16>
// CHECK-LABEL: func.func @seed_oproj_residual(
//  CHECK-SAME:   %[[HX:.*]]: tensor<2x3x8xf16>, %[[HW:.*]]: tensor<4x8xf16>, %[[HR:.*]]: tensor<2x3x4xf16>)
//   CHECK-NOT:   sol.
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<2x3x4xf16>
//       CHECK:   %[[CALL:.*]] = call @seed_oproj_residual_matmul_0(%[[HX]], %[[HW]], %[[HR]], %[[E]])
//       CHECK:   return %[[CALL]]
func.func @seed_oproj_residual(%x: tensor<2x3x8xf16>, %w: tensor<4x8xf16>, %r: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %k = sol.kernel @seed_oproj_residual_matmul_0 ins(%x, %w, %r : tensor<2x3x8xf16>, tensor<4x8xf16>, tensor<2x3x4xf16>) -> tensor<2x3x4xf16> attributes {cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 8, bytes = 32, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 2.0, sol_pred = 0.0, limiter = launch>, plan = #sol.plan<path = mma_sync, tile = [16, 32, 64], warps = [1, 2], stages = 4, split_k = 1>} {
  ^bb0(%a: tensor<2x3x8xf16>, %b: tensor<4x8xf16>, %c: tensor<2x3x4xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<2x3x8xf16>, tensor<4x8xf16> -> tensor<2x3x4xf16>
    %s = sol.add %m, %c : tensor<2x3x4xf16>, tensor<2x3x4xf16> -> tensor<2x3x4xf16>
    sol.yield %s : tensor<2x3x4xf16>
  }
  return %k : tensor<2x3x4xf16>
}

// -----

// Batched rhs, bf16: B is read per batch as (b, k, n), or (b, n, k) under
// transpose_b. A matmul-only kernel (here a lone matmul, wrapped first)
// still has its epilogue, which yields the accumulator rounded to bf16.
//   CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
//   CHECK-DAG: #[[$BBT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @batched_rhs_matmul_0
//  CHECK-SAME:   attributes {sol.kernel}
//       CHECK:   %[[ACC:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[$B]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:       tensor<2x3x8xbf16>, tensor<2x8x4xbf16>
//       CHECK:     arith.extf %{{.*}} : bf16 to f32
//       CHECK:   linalg.generic {{.*}} ins(%[[ACC]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x3x4xbf16>)
//  CHECK-NEXT:   ^bb0(%[[V:.*]]: f32, %{{.*}}: bf16):
//  CHECK-NEXT:     %[[T:.*]] = arith.truncf %[[V]] : f32 to bf16
//  CHECK-NEXT:     linalg.yield %[[T]] : bf16
// CHECK-LABEL: func.func @batched_rhs_matmul_1
//       CHECK:   linalg.generic {indexing_maps = [#{{.*}}, #[[$BBT]], #{{.*}}]
//  CHECK-SAME:       tensor<2x3x8xbf16>, tensor<2x4x8xbf16>
// CHECK-LABEL: func.func @batched_rhs(
//       CHECK:   call @batched_rhs_matmul_0
//       CHECK:   call @batched_rhs_matmul_1
func.func @batched_rhs(%x: tensor<2x3x8xbf16>, %w: tensor<2x8x4xbf16>, %wt: tensor<2x4x8xbf16>) -> (tensor<2x3x4xbf16>, tensor<2x3x4xbf16>) {
  %m = sol.matmul %x, %w : tensor<2x3x8xbf16>, tensor<2x8x4xbf16> -> tensor<2x3x4xbf16>
  %n = sol.matmul %x, %wt transpose_b : tensor<2x3x8xbf16>, tensor<2x4x8xbf16> -> tensor<2x3x4xbf16>
  return %m, %n : tensor<2x3x4xbf16>, tensor<2x3x4xbf16>
}

// -----

// Rank-2 lhs, f32: linalg.matmul, with explicit indexing_maps reading B as
// (n, k) under transpose_b. f32 needs no extf and no truncf.
//   CHECK-DAG: #[[$MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
//   CHECK-DAG: #[[$MBT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
//   CHECK-DAG: #[[$MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_2d_matmul_0
//       CHECK:   %[[FILL:.*]] = linalg.fill
//       CHECK:   %[[ACC:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x8xf32>, tensor<8x4xf32>) outs(%[[FILL]] : tensor<3x4xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[ACC]] : tensor<3x4xf32>)
//  CHECK-NEXT:   ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
//  CHECK-NEXT:     linalg.yield %[[V]] : f32
// CHECK-LABEL: func.func @matmul_2d_matmul_1
//       CHECK:   linalg.matmul indexing_maps = [#[[$MA]], #[[$MBT]], #[[$MC]]] ins(%{{.*}}, %{{.*}} : tensor<3x8xf32>, tensor<4x8xf32>)
func.func @matmul_2d(%x: tensor<3x8xf32>, %w: tensor<8x4xf32>, %wt: tensor<4x8xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %m = sol.matmul %x, %w : tensor<3x8xf32>, tensor<8x4xf32> -> tensor<3x4xf32>
  %n = sol.matmul %x, %wt transpose_b : tensor<3x8xf32>, tensor<4x8xf32> -> tensor<3x4xf32>
  return %m, %n : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Broadcasting is an indexing rule: a [N] bias drops the leading dim, a
// [M, 1] per-row scale reads column 0, a rank-0 sol.constant becomes an
// arith.constant in the body. An elementwise-only kernel is just the
// epilogue.
//   CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
//   CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1) -> (d1)>
//   CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @broadcasts_add_0
//  CHECK-SAME:   (%[[X:.*]]: tensor<3x4xbf16>, %[[B:.*]]: tensor<4xbf16>, %[[S:.*]]: tensor<3x1xbf16>, %[[OUT:.*]]: tensor<3x4xbf16>)
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[R:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$BIAS]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:       ins(%[[X]], %[[B]], %[[S]] : tensor<3x4xbf16>, tensor<4xbf16>, tensor<3x1xbf16>) outs(%[[OUT]] : tensor<3x4xbf16>)
//  CHECK-NEXT:   ^bb0(%[[VX:.*]]: bf16, %[[VB:.*]]: bf16, %[[VS:.*]]: bf16, %{{.*}}: bf16):
//  CHECK-NEXT:     %[[FX:.*]] = arith.extf %[[VX]] : bf16 to f32
//  CHECK-NEXT:     %[[FB:.*]] = arith.extf %[[VB]] : bf16 to f32
//  CHECK-NEXT:     %[[FS:.*]] = arith.extf %[[VS]] : bf16 to f32
//  CHECK-NEXT:     %[[C:.*]] = arith.constant 2.500000e-01 : f32
//  CHECK-NEXT:     %[[A0:.*]] = arith.addf %[[FX]], %[[FB]] : f32
//  CHECK-NEXT:     %[[M0:.*]] = arith.mulf %[[A0]], %[[FS]] : f32
//  CHECK-NEXT:     %[[M1:.*]] = arith.mulf %[[M0]], %[[C]] : f32
//  CHECK-NEXT:     %[[T:.*]] = arith.truncf %[[M1]] : f32 to bf16
//  CHECK-NEXT:     linalg.yield %[[T]] : bf16
//       CHECK:   return %[[R]]
func.func @broadcasts(%x: tensor<3x4xbf16>, %bias: tensor<4xbf16>, %scale: tensor<3x1xbf16>) -> tensor<3x4xbf16> {
  %k = sol.kernel @broadcasts_add_0 ins(%x, %bias, %scale : tensor<3x4xbf16>, tensor<4xbf16>, tensor<3x1xbf16>) -> tensor<3x4xbf16> {
  ^bb0(%a: tensor<3x4xbf16>, %b: tensor<4xbf16>, %s: tensor<3x1xbf16>):
    %c = sol.constant 2.500000e-01 : bf16
    %0 = sol.add %a, %b : tensor<3x4xbf16>, tensor<4xbf16> -> tensor<3x4xbf16>
    %1 = sol.mul %0, %s : tensor<3x4xbf16>, tensor<3x1xbf16> -> tensor<3x4xbf16>
    %2 = sol.mul %1, %c : tensor<3x4xbf16>, tensor<bf16> -> tensor<3x4xbf16>
    sol.yield %2 : tensor<3x4xbf16>
  }
  return %k : tensor<3x4xbf16>
}

// -----

// Every elementwise op's scalar form, in f32 (no extf, no truncf).
// CHECK-LABEL: func.func @every_op_add_0
//       CHECK:   ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
//  CHECK-NEXT:     %[[ADD:.*]] = arith.addf %[[A]], %[[B]] : f32
//  CHECK-NEXT:     %[[SUB:.*]] = arith.subf %[[ADD]], %[[B]] : f32
//  CHECK-NEXT:     %[[MUL:.*]] = arith.mulf %[[SUB]], %[[B]] : f32
//  CHECK-NEXT:     %[[DIV:.*]] = arith.divf %[[MUL]], %[[B]] : f32
//  CHECK-NEXT:     %[[MAX:.*]] = arith.maximumf %[[DIV]], %[[B]] : f32
//  CHECK-NEXT:     %[[MIN:.*]] = arith.minimumf %[[MAX]], %[[B]] : f32
//  CHECK-NEXT:     %[[NEG:.*]] = arith.negf %[[MIN]] : f32
//  CHECK-NEXT:     %[[ABS:.*]] = math.absf %[[NEG]] : f32
//  CHECK-NEXT:     %[[EXP:.*]] = math.exp %[[ABS]] : f32
//  CHECK-NEXT:     %[[TANH:.*]] = math.tanh %[[EXP]] : f32
//  CHECK-NEXT:     %[[ERF0:.*]] = math.erf %[[TANH]] : f32
// sigmoid: 1 / (1 + exp(-x))
//  CHECK-NEXT:     %[[SN:.*]] = arith.negf %[[ERF0]] : f32
//  CHECK-NEXT:     %[[SE:.*]] = math.exp %[[SN]] : f32
//  CHECK-NEXT:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[SD:.*]] = arith.addf %[[ONE]], %[[SE]] : f32
//  CHECK-NEXT:     %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[SIG:.*]] = arith.divf %[[ONE2]], %[[SD]] : f32
// relu: max(x, 0)
//  CHECK-NEXT:     %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:     %[[RELU:.*]] = arith.maximumf %[[SIG]], %[[Z]] : f32
// silu: x / (1 + exp(-x))
//  CHECK-NEXT:     %[[LN:.*]] = arith.negf %[[RELU]] : f32
//  CHECK-NEXT:     %[[LE:.*]] = math.exp %[[LN]] : f32
//  CHECK-NEXT:     %[[ONE3:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[LD:.*]] = arith.addf %[[ONE3]], %[[LE]] : f32
//  CHECK-NEXT:     %[[SILU:.*]] = arith.divf %[[RELU]], %[[LD]] : f32
// gelu erf: 0.5 * x * (1 + erf(x * 0.70710678))
//  CHECK-NEXT:     %[[RS2:.*]] = arith.constant 0.707106769 : f32
//  CHECK-NEXT:     %[[GS:.*]] = arith.mulf %[[SILU]], %[[RS2]] : f32
//  CHECK-NEXT:     %[[ERF:.*]] = math.erf %[[GS]] : f32
//  CHECK-NEXT:     %[[H:.*]] = arith.constant 5.000000e-01 : f32
//  CHECK-NEXT:     %[[HX:.*]] = arith.mulf %[[H]], %[[SILU]] : f32
//  CHECK-NEXT:     %[[ONE4:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[OP:.*]] = arith.addf %[[ONE4]], %[[ERF]] : f32
//  CHECK-NEXT:     %[[GELU:.*]] = arith.mulf %[[HX]], %[[OP]] : f32
// gelu tanh: 0.5 * x * (1 + tanh(0.79788456 * (x + 0.044715 * x^3)))
//  CHECK-NEXT:     %[[X2:.*]] = arith.mulf %[[GELU]], %[[GELU]] : f32
//  CHECK-NEXT:     %[[X3:.*]] = arith.mulf %[[X2]], %[[GELU]] : f32
//  CHECK-NEXT:     %[[K0:.*]] = arith.constant 4.471500e-02 : f32
//  CHECK-NEXT:     %[[CU:.*]] = arith.mulf %[[K0]], %[[X3]] : f32
//  CHECK-NEXT:     %[[IN:.*]] = arith.addf %[[GELU]], %[[CU]] : f32
//  CHECK-NEXT:     %[[K1:.*]] = arith.constant 0.797884583 : f32
//  CHECK-NEXT:     %[[SC:.*]] = arith.mulf %[[K1]], %[[IN]] : f32
//  CHECK-NEXT:     %[[TH:.*]] = math.tanh %[[SC]] : f32
//  CHECK-NEXT:     %[[H2:.*]] = arith.constant 5.000000e-01 : f32
//  CHECK-NEXT:     %[[HX2:.*]] = arith.mulf %[[H2]], %[[GELU]] : f32
//  CHECK-NEXT:     %[[ONE5:.*]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[OP2:.*]] = arith.addf %[[ONE5]], %[[TH]] : f32
//  CHECK-NEXT:     %[[G2:.*]] = arith.mulf %[[HX2]], %[[OP2]] : f32
//  CHECK-NEXT:     linalg.yield %[[G2]] : f32
func.func @every_op(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %k = sol.kernel @every_op_add_0 ins(%x, %y : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
    %0 = sol.add %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %1 = sol.sub %0, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %2 = sol.mul %1, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %3 = sol.div %2, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %4 = sol.max %3, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %5 = sol.min %4, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %6 = sol.neg %5 : tensor<8xf32>
    %7 = sol.abs %6 : tensor<8xf32>
    %8 = sol.exp %7 : tensor<8xf32>
    %tanh9 = sol.tanh %8 : tensor<8xf32>
    %9 = sol.erf %tanh9 : tensor<8xf32>
    %10 = sol.sigmoid %9 : tensor<8xf32>
    %11 = sol.relu %10 : tensor<8xf32>
    %12 = sol.silu %11 : tensor<8xf32>
    %13 = sol.gelu erf %12 : tensor<8xf32>
    %14 = sol.gelu tanh %13 : tensor<8xf32>
    sol.yield %14 : tensor<8xf32>
  }
  return %k : tensor<8xf32>
}

// -----

// Intermediates are not rounded between ops, but a narrowing sol.cast in the
// middle rounds: truncf to f16, extf back. Widening casts are free.
// CHECK-LABEL: func.func @cast_in_the_middle_matmul_0
//       CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8xbf16>)
//  CHECK-NEXT:   ^bb0(%[[ACC:.*]]: f32, %{{.*}}: bf16):
//  CHECK-NEXT:     %[[E:.*]] = math.exp %[[ACC]] : f32
//  CHECK-NEXT:     %[[R16:.*]] = arith.truncf %[[E]] : f32 to f16
//  CHECK-NEXT:     %[[B:.*]] = arith.extf %[[R16]] : f16 to f32
//  CHECK-NEXT:     %[[N:.*]] = arith.negf %[[B]] : f32
//  CHECK-NEXT:     %[[O:.*]] = arith.truncf %[[N]] : f32 to bf16
//  CHECK-NEXT:     linalg.yield %[[O]] : bf16
func.func @cast_in_the_middle(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xbf16> {
  %k = sol.kernel @cast_in_the_middle_matmul_0 ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xbf16> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    %m = sol.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    %e = sol.exp %m : tensor<4x8xf32>
    %h = sol.cast %e : tensor<4x8xf32> to tensor<4x8xf16>
    %f = sol.cast %h : tensor<4x8xf16> to tensor<4x8xf32>
    %n = sol.neg %f : tensor<4x8xf32>
    %o = sol.cast %n : tensor<4x8xf32> to tensor<4x8xbf16>
    sol.yield %o : tensor<4x8xbf16>
  }
  return %k : tensor<4x8xbf16>
}

// -----

// A multi-output kernel: one out argument per result, one epilogue yielding
// all of them, each truncated to its own type; the host gets both results.
// CHECK-LABEL: func.func @multi_output_matmul_0
//  CHECK-SAME:   (%{{.*}}: tensor<4x8xf16>, %{{.*}}: tensor<8x8xf16>, %[[O0:.*]]: tensor<4x8xf16>, %[[O1:.*]]: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
//       CHECK:   %[[R:.*]]:2 = linalg.generic {{.*}} outs(%[[O0]], %[[O1]] : tensor<4x8xf16>, tensor<4x8xf16>)
//  CHECK-NEXT:   ^bb0(%[[ACC:.*]]: f32, %{{.*}}: f16, %{{.*}}: f16):
//  CHECK-NEXT:     %[[G:.*]] = math.tanh %[[ACC]] : f32
//  CHECK-NEXT:     %[[T0:.*]] = arith.truncf %[[ACC]] : f32 to f16
//  CHECK-NEXT:     %[[T1:.*]] = arith.truncf %[[G]] : f32 to f16
//  CHECK-NEXT:     linalg.yield %[[T0]], %[[T1]] : f16, f16
//       CHECK:   return %[[R]]#0, %[[R]]#1
// CHECK-LABEL: func.func @multi_output(
//       CHECK:   %[[E0:.*]] = tensor.empty() : tensor<4x8xf16>
//       CHECK:   %[[E1:.*]] = tensor.empty() : tensor<4x8xf16>
//       CHECK:   %[[C:.*]]:2 = call @multi_output_matmul_0(%{{.*}}, %{{.*}}, %[[E0]], %[[E1]])
//       CHECK:   return %[[C]]#0, %[[C]]#1
func.func @multi_output(%x: tensor<4x8xf16>, %w: tensor<8x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %k:2 = sol.kernel @multi_output_matmul_0 ins(%x, %w : tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>, tensor<4x8xf16> {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>):
    %m = sol.matmul %a, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    %t = sol.tanh %m : tensor<4x8xf16>
    sol.yield %m, %t : tensor<4x8xf16>, tensor<4x8xf16>
  }
  return %k#0, %k#1 : tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// A lone elementwise op is wrapped into a kernel first; its sol.cost becomes
// the function's sol.cost.
// CHECK-LABEL: func.func @lone_op_relu_0
//  CHECK-SAME:   (%{{.*}}: tensor<8xf16>, %{{.*}}: tensor<8xf16>) -> tensor<8xf16>
//  CHECK-SAME:   attributes {sol.cost = #sol.cost<bound = memory{{.*}}>, sol.kernel}
//       CHECK:   linalg.generic
//       CHECK:     arith.extf
//  CHECK-NEXT:     arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:     arith.maximumf
//  CHECK-NEXT:     arith.truncf
// CHECK-LABEL: func.func @lone_op(
//  CHECK-NEXT:   tensor.empty
//  CHECK-NEXT:   call @lone_op_relu_0
func.func @lone_op(%x: tensor<8xf16>) -> tensor<8xf16> {
  %y = sol.relu %x {sol.cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 8, bytes = 32, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 2.0, sol_pred = 0.0, limiter = launch>} : tensor<8xf16>
  return %y : tensor<8xf16>
}

// -----

// Sibling matmuls (one A, two [N, K] weights): two fill + contraction pairs
// in block order, and one epilogue that reads both accumulators first, then
// computes silu(g) * u in f32 without rounding either.
// CHECK-LABEL: func.func @sibling_matmuls_matmul_0
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x16xf16>, %[[WG:.*]]: tensor<4x16xf16>, %[[WU:.*]]: tensor<4x16xf16>, %[[OUT:.*]]: tensor<8x4xf16>)
//       CHECK:   %[[FG:.*]] = linalg.fill
//       CHECK:   %[[G:.*]] = linalg.matmul {{.*}}ins(%[[X]], %[[WG]] : tensor<8x16xf16>, tensor<4x16xf16>) outs(%[[FG]] : tensor<8x4xf32>)
//       CHECK:   %[[FU:.*]] = linalg.fill
//       CHECK:   %[[U:.*]] = linalg.matmul {{.*}}ins(%[[X]], %[[WU]] : tensor<8x16xf16>, tensor<4x16xf16>) outs(%[[FU]] : tensor<8x4xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:       ins(%[[G]], %[[U]] : tensor<8x4xf32>, tensor<8x4xf32>) outs(%[[OUT]] : tensor<8x4xf16>)
//  CHECK-NEXT:   ^bb0(%[[VG:.*]]: f32, %[[VU:.*]]: f32, %{{.*}}: f16):
//   CHECK-NOT:     arith.truncf
//       CHECK:     arith.mulf %{{.*}}, %[[VU]] : f32
//  CHECK-NEXT:     arith.truncf
func.func @sibling_matmuls(%x: tensor<8x16xf16>, %wg: tensor<4x16xf16>, %wu: tensor<4x16xf16>) -> tensor<8x4xf16> {
  %k = sol.kernel @sibling_matmuls_matmul_0 ins(%x, %wg, %wu : tensor<8x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x4xf16> {
  ^bb0(%a: tensor<8x16xf16>, %g: tensor<4x16xf16>, %u: tensor<4x16xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<8x16xf16>, tensor<4x16xf16> -> tensor<8x4xf16>
    %s = sol.silu %mg : tensor<8x4xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<8x16xf16>, tensor<4x16xf16> -> tensor<8x4xf16>
    %p = sol.mul %s, %mu : tensor<8x4xf16>, tensor<8x4xf16> -> tensor<8x4xf16>
    sol.yield %p : tensor<8x4xf16>
  }
  return %k : tensor<8x4xf16>
}
