// RUN: sol-opt %s -split-input-file -verify-diagnostics

func.func @matmul_lhs_rank_1(%a: tensor<32xf16>, %b: tensor<32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) must have rank >= 2 ([..., M, K]), got rank 1}}
  %0 = sol.matmul %a, %b : tensor<32xf16>, tensor<32x16xf16> -> tensor<16xf16>
  return
}

// -----

func.func @matmul_rhs_rank_neither_2_nor_lhs(%a: tensor<2x8x64x32xf16>, %b: tensor<2x32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #1 (rhs) must have rank 2 or the rank of lhs (4, same batch dims), got rank 3}}
  %0 = sol.matmul %a, %b : tensor<2x8x64x32xf16>, tensor<2x32x16xf16> -> tensor<2x8x64x16xf16>
  return
}

// -----

func.func @matmul_element_type_mismatch(%a: tensor<64x32xf16>, %b: tensor<32x16xbf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) and operand #1 (rhs) must have one element type, got 'f16' and 'bf16'}}
  %0 = sol.matmul %a, %b : tensor<64x32xf16>, tensor<32x16xbf16> -> tensor<64x16xf16>
  return
}

// -----

func.func @matmul_batch_dim_mismatch(%a: tensor<2x8x64x32xf16>, %b: tensor<2x4x32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op batch dim #1 differs between lhs [2, 8, 64, 32] and rhs [2, 4, 32, 16]}}
  %0 = sol.matmul %a, %b : tensor<2x8x64x32xf16>, tensor<2x4x32x16xf16> -> tensor<2x8x64x16xf16>
  return
}

// -----

func.func @matmul_contraction_mismatch(%a: tensor<64x32xf16>, %b: tensor<16x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op contraction dims differ: lhs [64, 32] has K = 32 but rhs [16, 16] has K = 16 (rhs is [K, N])}}
  %0 = sol.matmul %a, %b : tensor<64x32xf16>, tensor<16x16xf16> -> tensor<64x16xf16>
  return
}

// -----

// [K, N] = [32, 16] is valid without transpose_b but not with it.
func.func @matmul_contraction_mismatch_transpose_b(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op contraction dims differ: lhs [64, 32] has K = 32 but rhs [32, 16] has K = 16 (transpose_b: rhs is [N, K])}}
  %0 = sol.matmul %a, %b transpose_b : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x32xf16>
  return
}

// -----

// Empty matmuls are refused: nothing to compute, and nothing for the cost
// model and the tiler to divide (M = 0 or N = 0 once raised SIGFPE in
// estimateCost, K = 0 gave t_pred_us = NaN in the manifest).
func.func @matmul_empty_m_refused(%a: tensor<0x64xf16>, %b: tensor<64x64xf16>) {
  // expected-error @+1 {{'sol.matmul' op M = 0 (lhs [0, 64]): the matmul is empty (no result element); sol does not compile empty matmuls}}
  %0 = sol.matmul %a, %b transpose_b : tensor<0x64xf16>, tensor<64x64xf16> -> tensor<0x64xf16>
  return
}

// -----

func.func @matmul_empty_n_refused(%a: tensor<64x64xf16>, %b: tensor<0x64xf16>) {
  // expected-error @+1 {{'sol.matmul' op N = 0 (rhs [0, 64]): the matmul is empty (no result element); sol does not compile empty matmuls}}
  %0 = sol.matmul %a, %b transpose_b : tensor<64x64xf16>, tensor<0x64xf16> -> tensor<64x0xf16>
  return
}

// -----

func.func @matmul_empty_k_refused(%a: tensor<64x0xf16>, %b: tensor<0x64xf16>) {
  // expected-error @+1 {{'sol.matmul' op K = 0 (lhs [64, 0]): the matmul is empty (each result element would be a sum of no terms); sol does not compile empty matmuls}}
  %0 = sol.matmul %a, %b : tensor<64x0xf16>, tensor<0x64xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @matmul_empty_batch_refused(%a: tensor<0x8x64xf16>, %b: tensor<64x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op batch dim #0 = 0 (lhs [0, 8, 64]): the matmul is empty (no result element)}}
  %0 = sol.matmul %a, %b : tensor<0x8x64xf16>, tensor<64x16xf16> -> tensor<0x8x16xf16>
  return
}

// -----

func.func @matmul_wrong_result_shape(%a: tensor<64x32xf16>, %b: tensor<16x32xf16>) {
  // expected-error @+1 {{'sol.matmul' op result shape [64, 32] must be [64, 16] ([..., M, N])}}
  %0 = sol.matmul %a, %b transpose_b : tensor<64x32xf16>, tensor<16x32xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @matmul_wrong_result_rank(%a: tensor<2x64x32xf16>, %b: tensor<32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op result shape [64, 16] must be [2, 64, 16] ([..., M, N])}}
  %0 = sol.matmul %a, %b : tensor<2x64x32xf16>, tensor<32x16xf16> -> tensor<64x16xf16>
  return
}

// -----

func.func @matmul_integer_operand(%a: tensor<64x32xi8>, %b: tensor<32x16xi8>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or f8E4M3FN type or f8E5M2 type values, but got 'tensor<64x32xi8>'}}
  %0 = sol.matmul %a, %b : tensor<64x32xi8>, tensor<32x16xi8> -> tensor<64x16xf32>
  return
}

// -----

func.func @binary_lhs_element_type(%x: tensor<8x16xf32>, %y: tensor<8x16xf16>) {
  // expected-error @+1 {{'sol.add' op operand #0 (lhs) element type 'f32' differs from the result element type 'f16'; convert it with sol.cast}}
  %0 = sol.add %x, %y : tensor<8x16xf32>, tensor<8x16xf16> -> tensor<8x16xf16>
  return
}

// -----

func.func @binary_rhs_element_type(%x: tensor<8x16xf16>, %y: tensor<16xbf16>) {
  // expected-error @+1 {{'sol.mul' op operand #1 (rhs) element type 'bf16' differs from the result element type 'f16'; convert it with sol.cast}}
  %0 = sol.mul %x, %y : tensor<8x16xf16>, tensor<16xbf16> -> tensor<8x16xf16>
  return
}

// -----

func.func @binary_not_broadcastable(%x: tensor<8x16xf16>, %y: tensor<8xf16>) {
  // expected-error @+1 {{'sol.sub' op operands do not broadcast: lhs [8, 16] and rhs [8] (aligned from the right, each pair of dims must be equal or one of them 1)}}
  %0 = sol.sub %x, %y : tensor<8x16xf16>, tensor<8xf16> -> tensor<8x16xf16>
  return
}

// -----

func.func @binary_result_not_broadcast_shape(%x: tensor<8x1xf16>, %y: tensor<16xf16>) {
  // expected-error @+1 {{'sol.div' op result shape [8, 1] is not the broadcast shape [8, 16] of lhs [8, 1] and rhs [16]}}
  %0 = sol.div %x, %y : tensor<8x1xf16>, tensor<16xf16> -> tensor<8x1xf16>
  return
}

// -----

func.func @binary_result_rank_too_high(%x: tensor<16xf32>, %y: tensor<f32>) {
  // expected-error @+1 {{'sol.max' op result shape [1, 16] is not the broadcast shape [16] of lhs [16] and rhs []}}
  %0 = sol.max %x, %y : tensor<16xf32>, tensor<f32> -> tensor<1x16xf32>
  return
}

// -----

func.func @binary_integer_operand(%x: tensor<8xi32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{'sol.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<8xi32>'}}
  %0 = sol.add %x, %y : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>
  return
}

// -----

func.func @binary_f64_result(%x: tensor<8xf64>, %y: tensor<8xf64>) {
  // expected-error @+1 {{'sol.min' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<8xf64>'}}
  %0 = sol.min %x, %y : tensor<8xf64>, tensor<8xf64> -> tensor<8xf64>
  return
}

// -----

func.func @binary_unranked_operand(%x: tensor<*xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{'sol.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<*xf32>'}}
  %0 = "sol.add"(%x, %y) : (tensor<*xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @unary_f64_operand(%x: tensor<8xf64>) {
  // expected-error @+1 {{'sol.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<8xf64>'}}
  %0 = sol.exp %x : tensor<8xf64>
  return
}

// -----

func.func @unary_result_type_differs(%x: tensor<8xf16>) {
  // expected-error @+1 {{'sol.neg' op requires the same type for all operands and results}}
  %0 = "sol.neg"(%x) : (tensor<8xf16>) -> tensor<8xf32>
  return
}

// -----

func.func @gelu_unknown_approximation(%x: tensor<8xf16>) {
  // expected-error @+1 {{custom op 'sol.gelu' expected string or keyword containing one of the following enum values for attribute 'approximation' [erf, tanh]}}
  %0 = sol.gelu sigmoid %x : tensor<8xf16>
  return
}

// -----

func.func @cast_shape_mismatch(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'sol.cast' op result shape [16, 8] differs from operand #0 (input) shape [8, 16]; sol.cast converts element types only}}
  %0 = sol.cast %x : tensor<8x16xf32> to tensor<16x8xf16>
  return
}

// -----

func.func @cast_to_integer(%x: tensor<8xf32>) {
  // expected-error @+1 {{'sol.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or f8E4M3FN type or f8E5M2 type values, but got 'tensor<8xi32>'}}
  %0 = sol.cast %x : tensor<8xf32> to tensor<8xi32>
  return
}

// -----

// The result type inferred from an integer value is rejected by the ODS
// result constraint before the custom verifier runs.
func.func @constant_integer_value() {
  // expected-error @+1 {{'sol.constant' op result #0 must be 0D tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<i32>'}}
  %0 = sol.constant 1 : i32
  return
}

// -----

func.func @constant_f64_value() {
  // expected-error @+1 {{'sol.constant' op result #0 must be 0D tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<f64>'}}
  %0 = sol.constant 1.0 : f64
  return
}

// -----

func.func @constant_dense_value() {
  // expected-error @+1 {{'sol.constant' op result #0 must be 0D tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<tensor<f32>>'}}
  %0 = sol.constant dense<1.0> : tensor<f32>
  return
}

// -----

// The generic form can pair an integer value with a float result type: then
// the custom verifier is what rejects it.
func.func @constant_integer_value_generic() {
  // expected-error @+1 {{'sol.constant' op value must be a float scalar such as `5.000000e-01 : f16`, got 1 : i32}}
  %0 = "sol.constant"() <{value = 1 : i32}> : () -> tensor<f32>
  return
}

// -----

func.func @kernel_block_arg_count(%x: tensor<8xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{'sol.kernel' op body has 1 arguments but the kernel has 2 inputs; they must match one to one}}
  %0 = sol.kernel @k ins(%x, %y : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    sol.yield %xa : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_block_arg_type(%x: tensor<8xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{'sol.kernel' op body argument #1 has type 'tensor<8xf16>' but input #1 has type 'tensor<8xf32>'}}
  %0 = sol.kernel @k ins(%x, %y : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>, %ya: tensor<8xf16>):
    sol.yield %xa : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_no_results(%x: tensor<8xf32>) {
  // expected-error @+1 {{'sol.kernel' op must yield at least one result: a kernel that writes nothing would be removed}}
  sol.kernel @k ins(%x : tensor<8xf32>) {
  ^bb0(%xa: tensor<8xf32>):
    sol.yield
  }
  return
}

// -----

func.func @kernel_yield_type_mismatch(%x: tensor<8xf32>) {
  %0 = sol.kernel @k ins(%x : tensor<8xf32>) -> tensor<8xf16> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'sol.yield' op yields 'tensor<8xf32>' but the enclosing sol.kernel returns 'tensor<8xf16>'}}
    sol.yield %xa : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_yield_count_mismatch(%x: tensor<8xf32>) {
  %0:2 = sol.kernel @k ins(%x : tensor<8xf32>) -> tensor<8xf32>, tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'sol.yield' op yields 'tensor<8xf32>' but the enclosing sol.kernel returns 'tensor<8xf32>', 'tensor<8xf32>'}}
    sol.yield %xa : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_nested(%x: tensor<8xf32>) {
  %0 = sol.kernel @outer ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'sol.kernel' op cannot be nested in another sol.kernel: a kernel is one GPU launch}}
    %1 = sol.kernel @inner ins(%xa : tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%xb: tensor<8xf32>):
      sol.yield %xb : tensor<8xf32>
    }
    sol.yield %1 : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_arith_op_in_body(%x: tensor<8xf32>) {
  %0 = sol.kernel @k ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'arith.constant' op is not a sol op; a sol.kernel body holds only sol compute ops}}
    %c = arith.constant dense<1.0> : tensor<8xf32>
    %1 = sol.add %xa, %c : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    sol.yield %1 : tensor<8xf32>
  }
  return
}

// -----

func.func private @helper(tensor<8xf32>) -> tensor<8xf32>

func.func @kernel_call_in_body(%x: tensor<8xf32>) {
  %0 = sol.kernel @k ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'func.call' op is not a sol op; a sol.kernel body holds only sol compute ops}}
    %1 = func.call @helper(%xa) : (tensor<8xf32>) -> tensor<8xf32>
    sol.yield %1 : tensor<8xf32>
  }
  return
}

// -----

func.func @kernel_captures_value(%x: tensor<8xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = sol.kernel @k ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    // expected-error @+1 {{'sol.add' op using value defined outside the region}}
    %1 = sol.add %xa, %x : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    sol.yield %1 : tensor<8xf32>
  }
  return
}

// -----

func.func @yield_outside_kernel(%x: tensor<8xf32>) {
  // expected-error @+1 {{'sol.yield' op expects parent op 'sol.kernel'}}
  sol.yield %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'sol.target' may only be attached to a builtin.module}}
func.func @target_on_func() attributes {sol.target = #sol.target<"h200">} {
  return
}

// -----

// expected-error @+1 {{'sol.target' must be a #sol.target attribute}}
module attributes {sol.target = "h200"} {
}

// -----

// expected-error @+1 {{'sol.cost_summary' may only be attached to a builtin.module}}
func.func @cost_summary_on_func() attributes {sol.cost_summary = {}} {
  return
}

// -----

// expected-error @+1 {{unknown sol dialect attribute 'sol.foo'}}
module attributes {sol.foo = 1 : i64} {
}
