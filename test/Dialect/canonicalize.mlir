// RUN: sol-opt %s -canonicalize -split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Identities: x op c -> x
//===----------------------------------------------------------------------===//

// x + -0.0 is x for every x, -0.0 included (as arith.addf folds it).
// CHECK-LABEL: func.func @add_negative_zero_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @add_negative_zero_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = sol.constant -0.000000e+00 : f16
  %0 = sol.add %x, %c : tensor<8x16xf16>, tensor<f16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// add is commutative: the constant is moved to the right, then folded.
// CHECK-LABEL: func.func @add_negative_zero_on_lhs_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: return %[[X]]
func.func @add_negative_zero_on_lhs_folds(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = sol.constant -0.000000e+00 : f32
  %0 = sol.add %c, %x : tensor<f32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// x + +0.0 is not x when x is -0.0 (the sum is +0.0): no fold.
// CHECK-LABEL: func.func @add_positive_zero_not_folded
// CHECK: %[[C:.*]] = sol.constant 0.000000e+00 : f16
// CHECK: %[[R:.*]] = sol.add %{{.*}}, %[[C]]
// CHECK: return %[[R]]
func.func @add_positive_zero_not_folded(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = sol.constant 0.000000e+00 : f16
  %0 = sol.add %x, %c : tensor<8x16xf16>, tensor<f16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @add_nonzero_not_folded
// CHECK: %[[C:.*]] = sol.constant 1.000000e+00 : f16
// CHECK: %[[R:.*]] = sol.add %{{.*}}, %[[C]]
// CHECK: return %[[R]]
func.func @add_nonzero_not_folded(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = sol.constant 1.000000e+00 : f16
  %0 = sol.add %x, %c : tensor<8x16xf16>, tensor<f16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @sub_zero_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xbf16>)
// CHECK-NEXT: return %[[X]]
func.func @sub_zero_folds(%x: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %c = sol.constant 0.000000e+00 : bf16
  %0 = sol.sub %x, %c : tensor<8x16xbf16>, tensor<bf16> -> tensor<8x16xbf16>
  return %0 : tensor<8x16xbf16>
}

// -----

// 0 - x is -x, not x: sub is not commutative.
// CHECK-LABEL: func.func @sub_from_zero_not_folded
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK: %[[C:.*]] = sol.constant 0.000000e+00 : f32
// CHECK: %[[R:.*]] = sol.sub %[[C]], %[[X]]
// CHECK: return %[[R]]
func.func @sub_from_zero_not_folded(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = sol.constant 0.000000e+00 : f32
  %0 = sol.sub %c, %x : tensor<f32>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @mul_one_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @mul_one_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %c = sol.constant 1.000000e+00 : f16
  %0 = sol.mul %x, %c : tensor<8x16xf16>, tensor<f16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @mul_one_on_lhs_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xbf16>)
// CHECK-NEXT: return %[[X]]
func.func @mul_one_on_lhs_folds(%x: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %c = sol.constant 1.000000e+00 : bf16
  %0 = sol.mul %c, %x : tensor<bf16>, tensor<8x16xbf16> -> tensor<8x16xbf16>
  return %0 : tensor<8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @mul_zero_not_folded
// CHECK: sol.mul
func.func @mul_zero_not_folded(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = sol.constant 0.000000e+00 : f32
  %0 = sol.mul %x, %c : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @div_one_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: return %[[X]]
func.func @div_one_folds(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = sol.constant 1.000000e+00 : f32
  %0 = sol.div %x, %c : tensor<8x16xf32>, tensor<f32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// 1 / x is a reciprocal, not x.
// CHECK-LABEL: func.func @div_one_by_x_not_folded
// CHECK: %[[R:.*]] = sol.div
// CHECK: return %[[R]]
func.func @div_one_by_x_not_folded(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = sol.constant 1.000000e+00 : f32
  %0 = sol.div %c, %x : tensor<f32>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @max_same_operand_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @max_same_operand_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.max %x, %x : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @min_same_operand_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @min_same_operand_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.min %x, %x : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Constant folding of scalar operands
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add_constants_fold
// CHECK-NEXT: %[[C:.*]] = sol.constant 3.750000e+00 : f32
// CHECK-NEXT: return %[[C]]
func.func @add_constants_fold() -> tensor<f32> {
  %a = sol.constant 1.500000e+00 : f32
  %b = sol.constant 2.250000e+00 : f32
  %0 = sol.add %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @sub_constants_fold
// CHECK-NEXT: %[[C:.*]] = sol.constant -7.500000e-01 : f32
// CHECK-NEXT: return %[[C]]
func.func @sub_constants_fold() -> tensor<f32> {
  %a = sol.constant 2.500000e-01 : f32
  %b = sol.constant 1.000000e+00 : f32
  %0 = sol.sub %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @mul_constants_fold
// CHECK-NEXT: %[[C:.*]] = sol.constant -3.000000e+00 : bf16
// CHECK-NEXT: return %[[C]]
func.func @mul_constants_fold() -> tensor<bf16> {
  %a = sol.constant 1.500000e+00 : bf16
  %b = sol.constant -2.000000e+00 : bf16
  %0 = sol.mul %a, %b : tensor<bf16>, tensor<bf16> -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// 1/3 rounded once to f16.
// CHECK-LABEL: func.func @div_constants_fold_f16
// CHECK-NEXT: %[[C:.*]] = sol.constant 3.332520e-01 : f16
// CHECK-NEXT: return %[[C]]
func.func @div_constants_fold_f16() -> tensor<f16> {
  %a = sol.constant 1.000000e+00 : f16
  %b = sol.constant 3.000000e+00 : f16
  %0 = sol.div %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK-LABEL: func.func @max_constants_fold
// CHECK-NEXT: %[[C:.*]] = sol.constant 2.000000e+00 : f16
// CHECK-NEXT: return %[[C]]
func.func @max_constants_fold() -> tensor<f16> {
  %a = sol.constant -4.000000e+00 : f16
  %b = sol.constant 2.000000e+00 : f16
  %0 = sol.max %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK-LABEL: func.func @min_constants_fold
// CHECK-NEXT: %[[C:.*]] = sol.constant -4.000000e+00 : f16
// CHECK-NEXT: return %[[C]]
func.func @min_constants_fold() -> tensor<f16> {
  %a = sol.constant -4.000000e+00 : f16
  %b = sol.constant 2.000000e+00 : f16
  %0 = sol.min %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// 1 + 2^-11 lies halfway between the f16 neighbours 1 and 1 + 2^-10: the
// sum rounds to even, 1.
// CHECK-LABEL: func.func @add_constants_f16_rounds_to_even_down
// CHECK-NEXT: %[[C:.*]] = sol.constant 1.000000e+00 : f16
// CHECK-NEXT: return %[[C]]
func.func @add_constants_f16_rounds_to_even_down() -> tensor<f16> {
  %a = sol.constant 1.000000e+00 : f16
  %b = sol.constant 4.8828125e-04 : f16
  %0 = sol.add %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9: the sum rounds
// to even, 1 + 2^-9.
// CHECK-LABEL: func.func @add_constants_f16_rounds_to_even_up
// CHECK-NEXT: %[[C:.*]] = sol.constant 1.001950e+00 : f16
// CHECK-NEXT: return %[[C]]
func.func @add_constants_f16_rounds_to_even_up() -> tensor<f16> {
  %a = sol.constant 1.000000e+00 : f16
  %b = sol.constant 1.46484375e-03 : f16
  %0 = sol.add %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// 300 * 300 = 90000 exceeds the f16 maximum 65504: +inf.
// CHECK-LABEL: func.func @mul_constants_f16_overflows_to_inf
// CHECK-NEXT: %[[C:.*]] = sol.constant 0x7C00 : f16
// CHECK-NEXT: return %[[C]]
func.func @mul_constants_f16_overflows_to_inf() -> tensor<f16> {
  %a = sol.constant 3.000000e+02 : f16
  %0 = sol.mul %a, %a : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg_neg_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @neg_neg_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.neg %x : tensor<8x16xf16>
  %1 = sol.neg %0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @neg_constant_folds
// CHECK-NEXT: %[[C:.*]] = sol.constant -1.500000e+00 : bf16
// CHECK-NEXT: return %[[C]]
func.func @neg_constant_folds() -> tensor<bf16> {
  %a = sol.constant 1.500000e+00 : bf16
  %0 = sol.neg %a : tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// CHECK-LABEL: func.func @abs_abs_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: %[[A:.*]] = sol.abs %[[X]] : tensor<8x16xf16>
// CHECK-NEXT: return %[[A]]
func.func @abs_abs_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.abs %x : tensor<8x16xf16>
  %1 = sol.abs %0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @abs_neg_drops_neg
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: %[[A:.*]] = sol.abs %[[X]] : tensor<8x16xf16>
// CHECK-NEXT: return %[[A]]
func.func @abs_neg_drops_neg(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.neg %x : tensor<8x16xf16>
  %1 = sol.abs %0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// The neg has another user: it stays, the abs still reads x.
// CHECK-LABEL: func.func @abs_neg_keeps_shared_neg
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-DAG: %[[N:.*]] = sol.neg %[[X]] : tensor<8xf32>
// CHECK-DAG: %[[A:.*]] = sol.abs %[[X]] : tensor<8xf32>
// CHECK: return %[[A]], %[[N]]
func.func @abs_neg_keeps_shared_neg(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sol.neg %x : tensor<8xf32>
  %1 = sol.abs %0 : tensor<8xf32>
  return %1, %0 : tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @abs_constant_folds
// CHECK-NEXT: %[[C:.*]] = sol.constant 2.500000e+00 : f32
// CHECK-NEXT: return %[[C]]
func.func @abs_constant_folds() -> tensor<f32> {
  %a = sol.constant -2.500000e+00 : f32
  %0 = sol.abs %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @relu_relu_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: %[[R:.*]] = sol.relu %[[X]] : tensor<8x16xf16>
// CHECK-NEXT: return %[[R]]
func.func @relu_relu_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.relu %x : tensor<8x16xf16>
  %1 = sol.relu %0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

//===----------------------------------------------------------------------===//
// sol.cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast_same_type_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @cast_same_type_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.cast %x : tensor<8x16xf16> to tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

// f16 -> f32 is exact, so narrowing back gives x.
// CHECK-LABEL: func.func @cast_widening_roundtrip_folds
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// CHECK-NEXT: return %[[X]]
func.func @cast_widening_roundtrip_folds(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %0 = sol.cast %x : tensor<8x16xf16> to tensor<8x16xf32>
  %1 = sol.cast %0 : tensor<8x16xf32> to tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// CHECK-LABEL: func.func @cast_widening_roundtrip_bf16_folds
// CHECK-SAME: (%[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT: return %[[X]]
func.func @cast_widening_roundtrip_bf16_folds(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = sol.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = sol.cast %0 : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// -----

// f32 -> f16 rounds: narrowing then widening is not x.
// CHECK-LABEL: func.func @cast_narrowing_roundtrip_not_folded
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[H:.*]] = sol.cast %[[X]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK-NEXT: %[[F:.*]] = sol.cast %[[H]] : tensor<8x16xf16> to tensor<8x16xf32>
// CHECK-NEXT: return %[[F]]
func.func @cast_narrowing_roundtrip_not_folded(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sol.cast %x : tensor<8x16xf32> to tensor<8x16xf16>
  %1 = sol.cast %0 : tensor<8x16xf16> to tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// f16 and bf16 each hold values the other cannot: f16 -> bf16 -> f16 is lossy.
// CHECK-LABEL: func.func @cast_f16_bf16_roundtrip_not_folded
// CHECK-SAME: (%[[X:.*]]: tensor<8xf16>)
// CHECK-NEXT: %[[B:.*]] = sol.cast %[[X]] : tensor<8xf16> to tensor<8xbf16>
// CHECK-NEXT: %[[H:.*]] = sol.cast %[[B]] : tensor<8xbf16> to tensor<8xf16>
// CHECK-NEXT: return %[[H]]
func.func @cast_f16_bf16_roundtrip_not_folded(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = sol.cast %x : tensor<8xf16> to tensor<8xbf16>
  %1 = sol.cast %0 : tensor<8xbf16> to tensor<8xf16>
  return %1 : tensor<8xf16>
}

// -----

// 0.1 rounded to the nearest f16.
// CHECK-LABEL: func.func @cast_constant_folds
// CHECK-NEXT: %[[C:.*]] = sol.constant 9.997550e-02 : f16
// CHECK-NEXT: return %[[C]]
func.func @cast_constant_folds() -> tensor<f16> {
  %a = sol.constant 1.000000e-01 : f32
  %0 = sol.cast %a : tensor<f32> to tensor<f16>
  return %0 : tensor<f16>
}
