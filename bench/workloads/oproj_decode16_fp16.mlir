// o_proj + residual, decode, 16 tokens (batch 16 x 1 token):
//   out = x[16,1,2560] @ W[2560,2560]^T + r[16,1,2560]
// Memory-bound: 13.35 MB; T_ideal 2.78 us on the H200.
// fp16. W is in nn.Linear layout ([out_features, in_features]), hence transpose_b.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_decode16_fp16(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>,
      %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
    %proj = sol.matmul %x, %w transpose_b
        : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
    %out = sol.add %proj, %r
        : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
    return %out : tensor<16x1x2560xf16>
  }
}
