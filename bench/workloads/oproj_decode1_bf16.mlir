// o_proj + residual, decode, 1 token:
//   out = x[1,1,2560] @ W[2560,2560]^T + r[1,1,2560]
// Memory-bound: the 13.1 MB weight read once; T_ideal 2.73 us on the H200.
// bf16. W is in nn.Linear layout ([out_features, in_features]), hence transpose_b.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_decode1_bf16(%x: tensor<1x1x2560xbf16>, %w: tensor<2560x2560xbf16>,
      %r: tensor<1x1x2560xbf16>) -> tensor<1x1x2560xbf16> {
    %proj = sol.matmul %x, %w transpose_b
        : tensor<1x1x2560xbf16>, tensor<2560x2560xbf16> -> tensor<1x1x2560xbf16>
    %out = sol.add %proj, %r
        : tensor<1x1x2560xbf16>, tensor<1x1x2560xbf16> -> tensor<1x1x2560xbf16>
    return %out : tensor<1x1x2560xbf16>
  }
}
