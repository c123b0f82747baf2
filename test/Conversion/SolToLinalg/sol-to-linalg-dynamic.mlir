// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg | FileCheck %s

// A kernel with a dynamic outermost dim takes and returns tensor<?x...>. The
// accumulator's tensor.empty is sized by tensor.dim of the dynamic input
// (every dynamic dim of a kernel is the same value); the host sizes the out
// it passes the same way. The plan table and the function's declared range
// travel with the outlined function.
// CHECK-LABEL: func.func @dynamic_oproj_residual_sizes_acc_by_input_dim(
//  CHECK-SAME:     %[[X:.*]]: tensor<?x64xf16>, %{{.*}}: tensor<64x64xf16>, %{{.*}}: tensor<?x64xf16>, %[[OUT:.*]]: tensor<?x64xf16>) -> tensor<?x64xf16>
//  CHECK-SAME:     attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4096, hints = [16]>, sol.kernel,
//  CHECK-SAME:     sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = <path = gemv, {{.*}}>>, #sol.plan_entry<m_min = 17, m_max = 4096, plan = <path = mma_sync, {{.*}}>>]}
//       CHECK:   %[[C0:.*]] = arith.constant 0 : index
//       CHECK:   %[[DIM:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x64xf16>
//       CHECK:   %[[ACC:.*]] = tensor.empty(%[[DIM]]) : tensor<?x64xf32>
//       CHECK:   linalg.fill {{.*}} outs(%[[ACC]] : tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:   linalg.matmul {{.*}} outs(%{{.*}} : tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:   linalg.generic {{.*}} outs(%[[OUT]] : tensor<?x64xf16>)
//       CHECK:   return %{{.*}} : tensor<?x64xf16>
// CHECK-LABEL: func.func @dynamic_oproj_residual(
//  CHECK-SAME:     %[[HX:.*]]: tensor<?x64xf16>,
//       CHECK:   %[[HDIM:.*]] = tensor.dim %[[HX]], %{{.*}} : tensor<?x64xf16>
//       CHECK:   %[[HOUT:.*]] = tensor.empty(%[[HDIM]]) : tensor<?x64xf16>
//       CHECK:   call @dynamic_oproj_residual_sizes_acc_by_input_dim(%[[HX]], %{{.*}}, %{{.*}}, %[[HOUT]]) : (tensor<?x64xf16>, tensor<64x64xf16>, tensor<?x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dynamic_oproj_residual(%x: tensor<?x64xf16>, %w: tensor<64x64xf16>, %r: tensor<?x64xf16>) -> tensor<?x64xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4096, hints = [16]>} {
    %k = sol.kernel @dynamic_oproj_residual_sizes_acc_by_input_dim ins(%x, %w, %r : tensor<?x64xf16>, tensor<64x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16> attributes {plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = <path = gemv, tile = [16, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>, #sol.plan_entry<m_min = 17, m_max = 4096, plan = <path = mma_sync, tile = [16, 64, 64], warps = [1, 4], stages = 4, split_k = 1>>]} {
    ^bb0(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<?x64xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
      %s = sol.add %m, %c : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
      sol.yield %s : tensor<?x64xf16>
    }
    return %k : tensor<?x64xf16>
  }
}

// -----

// Broadcasts keep their maps: a bias [N] reads (d1), a ?x1 row scale reads
// (d0, 0); the dynamic input and output read the identity. The module's
// range is copied onto the function too.
//   CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
//   CHECK-DAG: #[[BIAS:.*]] = affine_map<(d0, d1) -> (d1)>
//   CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @dynamic_broadcasts_keep_their_maps(
//  CHECK-SAME:     %[[X:.*]]: tensor<?x64xf16>, %{{.*}}: tensor<64x64xf16>, %{{.*}}: tensor<64xf16>, %{{.*}}: tensor<?x1xf16>, %{{.*}}: tensor<?x64xf16>)
//  CHECK-SAME:     attributes {sol.dim_range = #sol.dim_range<min = 0, max = 512>, sol.kernel}
//       CHECK:   tensor.dim %[[X]]
//       CHECK:   linalg.generic {indexing_maps = [#[[ID]], #[[BIAS]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<64xf16>, tensor<?x1xf16>) outs(%{{.*}} : tensor<?x64xf16>)
//       CHECK:   math.tanh
module attributes {sol.dim_range = #sol.dim_range<min = 0, max = 512>} {
  func.func @mlp(%x: tensor<?x64xf16>, %w: tensor<64x64xf16>, %bias: tensor<64xf16>, %scale: tensor<?x1xf16>) -> tensor<?x64xf16> {
    %k = sol.kernel @dynamic_broadcasts_keep_their_maps ins(%x, %w, %bias, %scale : tensor<?x64xf16>, tensor<64x64xf16>, tensor<64xf16>, tensor<?x1xf16>) -> tensor<?x64xf16> {
    ^bb0(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64xf16>, %d: tensor<?x1xf16>):
      %m = sol.matmul %a, %b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
      %s = sol.add %m, %c : tensor<?x64xf16>, tensor<64xf16> -> tensor<?x64xf16>
      %g = sol.gelu tanh %s : tensor<?x64xf16>
      %o = sol.mul %g, %d : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
      sol.yield %o : tensor<?x64xf16>
    }
    return %k : tensor<?x64xf16>
  }
}

// -----

// Sibling matmuls over one A: both accumulators are sized by the one dim.
// Without a declared range nothing is copied (later passes find the
// default themselves).
// CHECK-LABEL: func.func @dynamic_siblings_share_one_dim(
//  CHECK-SAME:     attributes {sol.kernel}
//       CHECK:   %[[DIM:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x64xf16>
//       CHECK:   tensor.empty(%[[DIM]]) : tensor<?x64xf32>
//       CHECK:   tensor.empty(%[[DIM]]) : tensor<?x64xf32>
//   CHECK-NOT:   tensor.dim
//       CHECK:   return
func.func @swiglu(%x: tensor<?x64xf16>, %wg: tensor<64x64xf16>, %wu: tensor<64x64xf16>) -> tensor<?x64xf16> {
  %k = sol.kernel @dynamic_siblings_share_one_dim ins(%x, %wg, %wu : tensor<?x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<?x64xf16> {
  ^bb0(%a: tensor<?x64xf16>, %g: tensor<64x64xf16>, %u: tensor<64x64xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %s = sol.silu %mg : tensor<?x64xf16>
    %o = sol.mul %s, %mu : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
    sol.yield %o : tensor<?x64xf16>
  }
  return %k : tensor<?x64xf16>
}

// -----

// An elementwise kernel allocates nothing: no tensor.dim in the kernel, only
// in the host, which sizes both outs of the rank-3 kernel by it. A static
// broadcast operand ([16] against ?x4x16) reads the innermost dim.
// CHECK-LABEL: func.func @dynamic_elementwise_needs_no_dim(
//  CHECK-SAME:     %{{.*}}: tensor<?x4x16xbf16>, %{{.*}}: tensor<16xbf16>, %{{.*}}: tensor<?x4x16xbf16>, %{{.*}}: tensor<?x4x16xbf16>, %{{.*}}: tensor<?x4x16xbf16>) -> (tensor<?x4x16xbf16>, tensor<?x4x16xbf16>)
//   CHECK-NOT:   tensor.dim
//   CHECK-NOT:   tensor.empty
//       CHECK:   linalg.generic
//       CHECK:   return
// CHECK-LABEL: func.func @chain(
//       CHECK:   %[[DIM:.*]] = tensor.dim %arg0
//       CHECK:   %[[Z:.*]] = tensor.empty(%[[DIM]]) : tensor<?x4x16xbf16>
//       CHECK:   %[[T:.*]] = tensor.empty(%[[DIM]]) : tensor<?x4x16xbf16>
//       CHECK:   call @dynamic_elementwise_needs_no_dim(%arg0, %arg1, %arg2, %[[Z]], %[[T]])
func.func @chain(%x: tensor<?x4x16xbf16>, %b: tensor<16xbf16>, %y: tensor<?x4x16xbf16>) -> (tensor<?x4x16xbf16>, tensor<?x4x16xbf16>) {
  %k:2 = sol.kernel @dynamic_elementwise_needs_no_dim ins(%x, %b, %y : tensor<?x4x16xbf16>, tensor<16xbf16>, tensor<?x4x16xbf16>) -> tensor<?x4x16xbf16>, tensor<?x4x16xbf16> {
  ^bb0(%a: tensor<?x4x16xbf16>, %c: tensor<16xbf16>, %d: tensor<?x4x16xbf16>):
    %s = sol.add %a, %c : tensor<?x4x16xbf16>, tensor<16xbf16> -> tensor<?x4x16xbf16>
    %g = sol.sigmoid %s : tensor<?x4x16xbf16>
    %z = sol.mul %g, %d : tensor<?x4x16xbf16>, tensor<?x4x16xbf16> -> tensor<?x4x16xbf16>
    %t = sol.tanh %z : tensor<?x4x16xbf16>
    sol.yield %z, %t : tensor<?x4x16xbf16>, tensor<?x4x16xbf16>
  }
  return %k#0, %k#1 : tensor<?x4x16xbf16>, tensor<?x4x16xbf16>
}

// -----

// A lone dynamic op is wrapped into its own kernel and lowered the same way.
// CHECK-LABEL: func.func @lone_op_neg_0(
//  CHECK-SAME:     %{{.*}}: tensor<?xf32>, %{{.*}}: tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @lone_op(
//       CHECK:   %[[DIM:.*]] = tensor.dim %arg0
//       CHECK:   tensor.empty(%[[DIM]]) : tensor<?xf32>
func.func @lone_op(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = sol.neg %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A rank-3 A whose dynamic dim is a batch: the contraction generic's
// accumulator is sized by A's outermost dim.
// CHECK-LABEL: func.func @dynamic_batch_contraction(
//       CHECK:   %[[DIM:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3x64xf16>
//       CHECK:   %[[ACC:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3x64xf32>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
//  CHECK-SAME:     ins(%arg0, %arg1 : tensor<?x3x64xf16>, tensor<64x64xf16>) outs(%{{.*}} : tensor<?x3x64xf32>)
func.func @batched(%x: tensor<?x3x64xf16>, %w: tensor<64x64xf16>) -> tensor<?x3x64xf16> {
  %k = sol.kernel @dynamic_batch_contraction ins(%x, %w : tensor<?x3x64xf16>, tensor<64x64xf16>) -> tensor<?x3x64xf16> {
  ^bb0(%a: tensor<?x3x64xf16>, %b: tensor<64x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x3x64xf16>, tensor<64x64xf16> -> tensor<?x3x64xf16>
    sol.yield %m : tensor<?x3x64xf16>
  }
  return %k : tensor<?x3x64xf16>
}
