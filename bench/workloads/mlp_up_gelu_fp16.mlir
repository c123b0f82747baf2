// MLP up-projection + bias + GELU(tanh), fp16:
//   out = gelu_tanh(x[8192,2560] @ W[10240,2560]^T + b[10240])
// Compute-bound: 429.5 GFLOP, 262.2 MB; T_ideal 434.3 us on the H200.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mlp_up_gelu_fp16(%x: tensor<8192x2560xf16>, %w: tensor<10240x2560xf16>,
      %b: tensor<10240xf16>) -> tensor<8192x10240xf16> {
    %h = sol.matmul %x, %w transpose_b
        : tensor<8192x2560xf16>, tensor<10240x2560xf16> -> tensor<8192x10240xf16>
    %hb = sol.add %h, %b : tensor<8192x10240xf16>, tensor<10240xf16> -> tensor<8192x10240xf16>
    %g = sol.gelu tanh %hb : tensor<8192x10240xf16>
    return %g : tensor<8192x10240xf16>
  }
}
