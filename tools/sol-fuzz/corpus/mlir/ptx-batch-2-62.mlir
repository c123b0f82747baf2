// sol-fuzz corpus: a batched matmul with batch 2^62 (LLVM ERROR: SmallVector unable to grow, in sol-to-ptx).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mm_residual_batched_lhs_f32_7x77x40__mm_residual_batched_lhs(%a0: tensor<4611686018427387904x7x40xf32>, %a1: tensor<77x40xf32>, %a2: tensor<4611686018427387904x7x77xf32>) -> (tensor<4611686018427387904x7x77xf32>) {
    %v0 = sol.matmul %a0, %a1 transpose_b : tensor<4611686018427387904x7x40xf32>, tensor<77x40xf32> -> tensor<4611686018427387904x7x77xf32>
    return %v0 : tensor<4611686018427387904x7x77xf32>
  }
}
