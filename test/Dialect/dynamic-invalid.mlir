// RUN: sol-opt %s -split-input-file -verify-diagnostics

// What dynamic-M IR may not be (docs/dynamic-shapes.md, section 1), and the
// errors of #sol.dim_range, #sol.plan_entry and a kernel's `plans`/`costs`.

func.func @inner_dim_dynamic_refused(%x: tensor<4x?xf16>) {
  // expected-error @+1 {{'sol.neg' op operand #0 has type 'tensor<4x?xf16>': only the outermost dim may be dynamic (dim 1 of 4x? is not): sol's kernels index row-major buffers whose inner strides must be constants; reshape the leading dims into one}}
  %0 = sol.neg %x : tensor<4x?xf16>
  return
}

// -----

func.func @gelu_inner_dim_dynamic_refused(%x: tensor<?x?xf16>) {
  // expected-error @+1 {{'sol.gelu' op operand #0 has type 'tensor<?x?xf16>': only the outermost dim may be dynamic (dim 1}}
  %0 = sol.gelu erf %x : tensor<?x?xf16>
  return
}

// -----

func.func @cast_inner_dim_dynamic_refused(%x: tensor<8x?xf16>) {
  // expected-error @+1 {{'sol.cast' op operand #0 has type 'tensor<8x?xf16>': only the outermost dim may be dynamic}}
  %0 = sol.cast %x : tensor<8x?xf16> to tensor<8x?xf32>
  return
}

// -----

// Two dynamic leading dims: a frontend reshapes them into one.
func.func @matmul_two_dynamic_dims_refused(%x: tensor<?x?x2560xf16>, %w: tensor<2560x2560xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) has type 'tensor<?x?x2560xf16>': only the outermost dim may be dynamic (dim 1 of ?x?x2560 is not)}}
  %0 = sol.matmul %x, %w transpose_b : tensor<?x?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x?x2560xf16>
  return
}

// -----

// A dynamic K is an inner dim of lhs.
func.func @matmul_dynamic_k_refused(%x: tensor<64x?xf16>, %w: tensor<64x64xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) has type 'tensor<64x?xf16>': only the outermost dim may be dynamic}}
  %0 = sol.matmul %x, %w transpose_b : tensor<64x?xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @matmul_dynamic_rhs_refused(%x: tensor<?x2560xf16>, %w: tensor<?x2560xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #1 (rhs) has type 'tensor<?x2560xf16>': the right operand must be static (it is a weight: its N and K size the tiles); only lhs's outermost dim may be dynamic}}
  %0 = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
  return
}

// -----

func.func @matmul_batched_rhs_dynamic_lhs_refused(%x: tensor<?x64x32xf16>, %w: tensor<4x32x16xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) has type 'tensor<?x64x32xf16>' but rhs 'tensor<4x32x16xf16>' is batched: a batched matmul needs a static lhs (its batch is a grid dim sol-tile sizes)}}
  %0 = sol.matmul %x, %w : tensor<?x64x32xf16>, tensor<4x32x16xf16> -> tensor<?x64x16xf16>
  return
}

// -----

// The result's M is lhs's: a static M against a dynamic lhs claims one value
// of the whole range.
func.func @matmul_static_result_of_dynamic_lhs_refused(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>) {
  // expected-error @+1 {{'sol.matmul' op result shape [16, 2560] must be [?, 2560] ([..., M, N])}}
  %0 = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<16x2560xf16>
  return
}

// -----

func.func @matmul_dynamic_result_of_static_lhs_refused(%x: tensor<16x2560xf16>, %w: tensor<2560x2560xf16>) {
  // expected-error @+1 {{'sol.matmul' op result shape [?, 2560] must be [16, 2560] ([..., M, N])}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
  return
}

// -----

func.func @broadcast_dynamic_against_static_refused(%x: tensor<?x16xf32>, %y: tensor<8x16xf32>) {
  // expected-error @+1 {{'sol.add' op operands do not broadcast: lhs [?, 16] and rhs [8, 16]: a dynamic dim meets the static dim 8 (aligned dim #0): a dynamic dim takes every value of its range, so it broadcasts only against a dynamic dim or a static 1}}
  %0 = sol.add %x, %y : tensor<?x16xf32>, tensor<8x16xf32> -> tensor<?x16xf32>
  return
}

// -----

// The rule holds whichever side is dynamic.
func.func @broadcast_static_against_dynamic_refused(%x: tensor<4096x1xf32>, %y: tensor<?x1xf32>) {
  // expected-error @+1 {{'sol.mul' op operands do not broadcast: lhs [4096, 1] and rhs [?, 1]: a dynamic dim meets the static dim 4096 (aligned dim #0)}}
  %0 = sol.mul %x, %y : tensor<4096x1xf32>, tensor<?x1xf32> -> tensor<?x1xf32>
  return
}

// -----

// A dynamic dim broadcast against a static 1 in a higher-rank operand ends
// up inside the result.
func.func @broadcast_dynamic_into_inner_dim_refused(%x: tensor<?x16xf32>, %y: tensor<4x1x16xf32>) {
  // expected-error @+1 {{'sol.add' op result #0 has type 'tensor<4x?x16xf32>': only the outermost dim may be dynamic (dim 1 of 4x?x16 is not)}}
  %0 = sol.add %x, %y : tensor<?x16xf32>, tensor<4x1x16xf32> -> tensor<4x?x16xf32>
  return
}

// -----

// The result is the broadcast shape exactly.
func.func @elementwise_static_result_of_dynamic_operand_refused(%x: tensor<?x16xf32>) {
  %c = sol.constant 1.000000e+00 : f32
  // expected-error @+1 {{'sol.mul' op result shape [8, 16] is not the broadcast shape [?, 16] of lhs [?, 16] and rhs []}}
  %0 = sol.mul %x, %c : tensor<?x16xf32>, tensor<f32> -> tensor<8x16xf32>
  return
}

// -----

func.func @elementwise_dynamic_result_of_static_operands_refused(%x: tensor<16xf16>) {
  %c = sol.constant 0.000000e+00 : f16
  // expected-error @+1 {{'sol.add' op result shape [?] is not the broadcast shape [16] of lhs [16] and rhs []}}
  %0 = sol.add %x, %c : tensor<16xf16>, tensor<f16> -> tensor<?xf16>
  return
}

// -----

// max(x, x) and min(x, x) fold to x only when the types agree; with the
// result the broadcast shape exactly, they always do.
func.func @max_dynamic_result_of_static_operand_refused(%x: tensor<4xf32>) {
  // expected-error @+1 {{'sol.max' op result shape [?] is not the broadcast shape [4] of lhs [4] and rhs [4]}}
  %0 = sol.max %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<?xf32>
  return
}

// -----

func.func @min_static_result_of_dynamic_operand_refused(%x: tensor<?xf32>) {
  // expected-error @+1 {{'sol.min' op result shape [4] is not the broadcast shape [?] of lhs [?] and rhs [?]}}
  %0 = sol.min %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<4xf32>
  return
}

// -----

func.func @kernel_input_inner_dynamic_refused(%x: tensor<4x?xf16>) {
  // expected-error @+1 {{'sol.kernel' op input #0 has type 'tensor<4x?xf16>': only the outermost dim may be dynamic}}
  %0 = sol.kernel @k ins(%x : tensor<4x?xf16>) -> tensor<f16> {
  ^bb0(%a: tensor<4x?xf16>):
    %n = sol.constant 0.000000e+00 : f16
    sol.yield %n : tensor<f16>
  }
  return
}

// -----

func.func @static_kernel_with_plans_refused(%x: tensor<16x16xf16>) {
  // expected-error @+1 {{'sol.kernel' op has 'plans' but no dynamic dim: a static kernel carries one 'plan'}}
  %0 = sol.kernel @k ins(%x : tensor<16x16xf16>) -> tensor<16x16xf16> attributes {plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<16x16xf16>):
    %n = sol.neg %a : tensor<16x16xf16>
    sol.yield %n : tensor<16x16xf16>
  }
  return
}

// -----

func.func @static_kernel_with_costs_refused(%x: tensor<16x16xf16>) {
  // expected-error @+1 {{'sol.kernel' op has 'costs' but no dynamic dim: a static kernel carries one 'cost'}}
  %0 = sol.kernel @k ins(%x : tensor<16x16xf16>) -> tensor<16x16xf16> attributes {costs = [#sol.cost_point<m = 16, cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 256, bytes = 1024, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0002, t_ideal_us = 0.0002, t_pred_us = 3.2, sol_pred = 0.0, limiter = elementwise>>]} {
  ^bb0(%a: tensor<16x16xf16>):
    %n = sol.neg %a : tensor<16x16xf16>
    sol.yield %n : tensor<16x16xf16>
  }
  return
}

// -----

func.func @dynamic_kernel_with_single_plan_refused(%x: tensor<?x16xf16>) {
  // expected-error @+1 {{'sol.kernel' op has a dynamic dim and a single 'plan': a dynamic kernel carries a plan table, 'plans'}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

func.func @plans_gap_refused(%x: tensor<?x16xf16>) attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-error @+1 {{'sol.kernel' op 'plans' row 18..64 must start at 17: rows are disjoint, increasing and cover the dim range 1..64}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {plans = [
      #sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>,
      #sol.plan_entry<m_min = 18, m_max = 64, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

func.func @plans_overlap_refused(%x: tensor<?x16xf16>) attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-error @+1 {{'sol.kernel' op 'plans' row 16..64 must start at 17}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {plans = [
      #sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>,
      #sol.plan_entry<m_min = 16, m_max = 64, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

// Without a declared range the table must reach the default max, 65536.
func.func @plans_short_of_range_refused(%x: tensor<?x16xf16>) {
  // expected-error @+1 {{'sol.kernel' op 'plans' ends at 64 but the dim range ends at 65536}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {plans = [
      #sol.plan_entry<m_min = 1, m_max = 64, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

func.func @costs_outside_range_refused(%x: tensor<?x16xf16>) attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-error @+1 {{'sol.kernel' op 'costs' has a point at m = 128 outside the dim range 1..64}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {costs = [#sol.cost_point<m = 128, cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 2048, bytes = 8192, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0017, t_ideal_us = 0.0017, t_pred_us = 3.2, sol_pred = 0.0, limiter = elementwise>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

func.func @costs_not_increasing_refused(%x: tensor<?x16xf16>) attributes {sol.dim_range = #sol.dim_range<min = 1, max = 64>} {
  // expected-error @+1 {{'sol.kernel' op 'costs' points must increase in m, got 1 after 64}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {costs = [
      #sol.cost_point<m = 64, cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 1024, bytes = 4096, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0009, t_ideal_us = 0.0009, t_pred_us = 3.2, sol_pred = 0.0, limiter = elementwise>>,
      #sol.cost_point<m = 1, cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 16, bytes = 64, intensity = 0.25, balance = 206.0, t_compute_us = 0.0, t_memory_us = 0.0, t_ideal_us = 0.0, t_pred_us = 3.2, sol_pred = 0.0, limiter = elementwise>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

// expected-error @+1 {{#sol.dim_range: need 0 <= min <= max <= 2147483647, got min = -1, max = 16}}
module attributes {sol.dim_range = #sol.dim_range<min = -1, max = 16>} {
}

// -----

// expected-error @+1 {{#sol.dim_range: need 0 <= min <= max <= 2147483647, got min = 64, max = 16}}
module attributes {sol.dim_range = #sol.dim_range<min = 64, max = 16>} {
}

// -----

// expected-error @+1 {{#sol.dim_range: need 0 <= min <= max <= 2147483647, got min = 1, max = 4294967296}}
module attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4294967296>} {
}

// -----

// expected-error @+1 {{#sol.dim_range: hint 4096 lies outside 1..1024}}
module attributes {sol.dim_range = #sol.dim_range<min = 1, max = 1024, hints = [16, 4096]>} {
}

// -----

// expected-error @+1 {{'sol.dim_range' must be a #sol.dim_range attribute}}
module attributes {sol.dim_range = 16 : i64} {
}

// -----

func.func @dim_range_on_an_op_refused(%x: tensor<?x16xf16>) {
  // expected-error @+1 {{'sol.dim_range' may only be attached to a builtin.module or a function}}
  %0 = sol.neg %x {sol.dim_range = #sol.dim_range<min = 1, max = 16>} : tensor<?x16xf16>
  return
}

// -----

func.func @plan_entry_inverted_refused(%x: tensor<?x16xf16>) {
  // expected-error @+1 {{#sol.plan_entry: need 0 <= m_min <= m_max, got 64..16}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> attributes {plans = [#sol.plan_entry<m_min = 64, m_max = 16, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return
}

// -----

// A sol.kernel carries its own `plans`; the discardable `sol.plans` belongs
// to lowered kernel functions.
// expected-error @+1 {{'sol.plans' is a non-empty list of #sol.plan_entry on a kernel function (a sol.kernel carries its own 'plans')}}
func.func @plans_on_plain_function_refused(%x: tensor<?x16xf16>) attributes {sol.plans = []} {
  return
}
