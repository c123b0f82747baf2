// RUN: sol-opt %s -split-input-file -verify-diagnostics

// What the op verifier refuses of fp8 (docs/fp8.md, "Verifiers"): properties
// of the IR. What a kernel path cannot do yet (every path: no generator
// emits fp8) is sol-tile's refusal, test/Transforms/tile-fp8.mlir.

// fp8 tensor cores read both operands K-major: a [K, N] fp8 weight must be
// stored transposed.
func.func @fp8_weight_k_major(%x: tensor<16x32xf8E4M3FN>, %w: tensor<32x8xf8E4M3FN>) {
  // expected-error @+1 {{'sol.matmul' op operand #1 (rhs) is 'f8E4M3FN' stored [K, N] ([32, 8]): fp8 tensor cores read both operands K-major, so an fp8 weight must be stored [N, K] (transposed) and the matmul marked transpose_b}}
  %0 = sol.matmul %x, %w : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

func.func @fp8_lhs_f16_rhs(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf16>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) is 'f8E4M3FN' but operand #1 (rhs) is 'f16': an fp8 A takes an fp8 B (f8E4M3FN or f8E5M2, in any pair); convert the other operand with sol.cast}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x32xf8E4M3FN>, tensor<8x32xf16> -> tensor<16x8xf16>
  return
}

// -----

// Weight-only fp8 takes a 16-bit A: an f32 one has no path that would
// convert the codes to meet it.
func.func @f32_lhs_fp8_rhs(%x: tensor<16x32xf32>, %w: tensor<8x32xf8E5M2>) {
  // expected-error @+1 {{'sol.matmul' op operand #0 (lhs) is 'f32' but operand #1 (rhs) is 'f8E5M2': fp8 weight codes take an fp8 A or, weight-only, an f16 or bf16 A}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x32xf32>, tensor<8x32xf8E5M2> -> tensor<16x8xf32>
  return
}

// -----

// A weight-only matmul's A holds values: it has no scale of its own.
func.func @weight_only_scale_a(%x: tensor<16x32xbf16>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<16x1xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a is given but only the weight is fp8 (operand #0 (lhs) is 'bf16'): a weight-only fp8 matmul takes scale_b alone}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<16x1xf32>) : tensor<16x32xbf16>, tensor<8x32xf8E4M3FN> -> tensor<16x8xbf16>
  return
}

// -----

// The weight-only layout rule is fp8's: codes stored [N, K].
func.func @weight_only_k_major(%x: tensor<16x32xbf16>, %w: tensor<32x8xf8E4M3FN>) {
  // expected-error @+1 {{'sol.matmul' op operand #1 (rhs) is 'f8E4M3FN' stored [K, N] ([32, 8])}}
  %0 = sol.matmul %x, %w : tensor<16x32xbf16>, tensor<32x8xf8E4M3FN> -> tensor<16x8xbf16>
  return
}

// -----

func.func @weight_only_fp8_result(%x: tensor<16x32xbf16>, %w: tensor<8x32xf8E4M3FN>) {
  // expected-error @+1 {{'sol.matmul' op result element type 'f8E4M3FN' is fp8 but the operands are 'bf16': only an fp8 matmul writes fp8}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x32xbf16>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf8E4M3FN>
  return
}

// -----

// A scale dequantises fp8; an f16 matmul has none.
func.func @scale_on_f16_matmul(%x: tensor<16x32xf16>, %w: tensor<8x32xf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a is given but the operands are 'f16': scales dequantise fp8 operands (f8E4M3FN, f8E5M2); scale a matmul of other types with sol.mul on its result}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<f32>) : tensor<16x32xf16>, tensor<8x32xf16> -> tensor<16x8xf16>
  return
}

// -----

func.func @scale_b_on_bf16_matmul(%x: tensor<16x32xbf16>, %w: tensor<8x32xbf16>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_b is given but the operands are 'bf16'}}
  %0 = sol.matmul %x, %w transpose_b scale_b(%s : tensor<8xf32>) : tensor<16x32xbf16>, tensor<8x32xbf16> -> tensor<16x8xbf16>
  return
}

// -----

func.func @scale_element_type(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<f16>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has element type 'f16': scales are f32 (they multiply the f32 accumulator)}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<f16>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

// A per-token scale is [M, 1]: [M] would broadcast along N instead.
func.func @scale_a_rank(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has shape [16] but must be [] or [1] (per tensor) or [16, 1] (per token: lhs's shape with K replaced by 1)}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<16xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

func.func @scale_a_rows(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<15x1xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has shape [15, 1] but must be [] or [1] (per tensor) or [16, 1] (per token: lhs's shape with K replaced by 1)}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<15x1xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

// A static per-token scale against a dynamic M would claim one M.
func.func @scale_a_static_rows_dynamic_m(%x: tensor<?x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<16x1xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has shape [16, 1] but must be [] or [1] (per tensor) or [?, 1] (per token: lhs's shape with K replaced by 1)}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<16x1xf32>) : tensor<?x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<?x8xf16>
  return
}

// -----

func.func @scale_b_per_token_shape(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<8x1xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_b has shape [8, 1] but must be [] or [1] (per tensor) or [8] (per output channel: [N])}}
  %0 = sol.matmul %x, %w transpose_b scale_b(%s : tensor<8x1xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

func.func @scale_b_wrong_n(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<32xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_b has shape [32] but must be [] or [1] (per tensor) or [8] (per output channel: [N])}}
  %0 = sol.matmul %x, %w transpose_b scale_b(%s : tensor<32xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

// An fp8 result needs its scale: without one, every |value| past 448 would
// saturate.
func.func @fp8_result_without_scale_out(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>) {
  // expected-error @+1 {{'sol.matmul' op result element type 'f8E4M3FN' needs scale_out, its per-tensor dequantisation scale: the stored result is acc * scale_a * scale_b / scale_out, and without one any |value| past the fp8 maximum saturates}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf8E4M3FN>
  return
}

// -----

func.func @scale_out_on_bf16_result(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{'sol.matmul' op scale_out is given but the result is 'bf16': scale_out quantises an fp8 result; a result of another type is the dequantised value itself}}
  %0 = sol.matmul %x, %w transpose_b scale_out(%s : tensor<f32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xbf16>
  return
}

// -----

func.func @scale_out_per_channel(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_out has shape [8] but must be [] or [1]: an fp8 result has one scale}}
  %0 = sol.matmul %x, %w transpose_b scale_out(%s : tensor<8xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf8E4M3FN>
  return
}

// -----

// Only an fp8 matmul writes fp8; an f16 one rounds its result with sol.cast.
func.func @f16_matmul_fp8_result(%x: tensor<16x32xf16>, %w: tensor<8x32xf16>) {
  // expected-error @+1 {{'sol.matmul' op result element type 'f8E4M3FN' is fp8 but the operands are 'f16': only an fp8 matmul writes fp8 (with scale_out); round this result with sol.cast}}
  %0 = sol.matmul %x, %w transpose_b : tensor<16x32xf16>, tensor<8x32xf16> -> tensor<16x8xf8E4M3FN>
  return
}

// -----

// fp8 is a storage type: the elementwise ops compute in f16, bf16 or f32.
func.func @fp8_add(%a: tensor<8xf8E4M3FN>) {
  // expected-error @+1 {{'sol.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %0 = sol.add %a, %a : tensor<8xf8E4M3FN>, tensor<8xf8E4M3FN> -> tensor<8xf8E4M3FN>
  return
}

// -----

// A scale follows the dynamic-shape rule of every sol tensor: only its
// outermost dim may be dynamic.
func.func @scale_inner_dynamic(%x: tensor<16x32xf8E4M3FN>, %w: tensor<8x32xf8E4M3FN>, %s: tensor<16x?xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has type 'tensor<16x?xf32>'}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<16x?xf32>) : tensor<16x32xf8E4M3FN>, tensor<8x32xf8E4M3FN> -> tensor<16x8xf16>
  return
}

// -----

// B's blocks are [ceil(N/128), ceil(K/128)]: 200 x 300 has 2 x 3, not 2 x 2.
func.func @scale_b_blocks_wrong_k(%x: tensor<16x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>, %s: tensor<2x2xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_b has shape [2, 2] but must be [] or [1] (per tensor) or [200] (per output channel: [N]) or [2, 3] (per 128 x 128 block of B: [ceil(N/128), ceil(K/128)])}}
  %0 = sol.matmul %x, %w transpose_b scale_b(%s : tensor<2x2xf32>) : tensor<16x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<16x200xf16>
  return
}

// -----

// A's groups are [M, ceil(K/128)].
func.func @scale_a_groups_wrong_count(%x: tensor<16x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>, %s: tensor<16x2xf32>) {
  // expected-error @+1 {{'sol.matmul' op scale_a has shape [16, 2] but must be [] or [1] (per tensor) or [16, 1] (per token: lhs's shape with K replaced by 1) or [16, 3] (per token and 128-deep group of K: K replaced by ceil(K/128))}}
  %0 = sol.matmul %x, %w transpose_b scale_a(%s : tensor<16x2xf32>) : tensor<16x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<16x200xf16>
  return
}
