// o_proj + residual, prefill (batch 16 x 512 tokens, hidden 2560):
//   out = x[16,512,2560] @ W[2560,2560]^T + r[16,512,2560]
// Compute-bound: 107.4 GFLOP, 138.9 MB (fp16/bf16); T_ideal 108.6 us on the H200.
// bf16. W is in nn.Linear layout ([out_features, in_features]), hence transpose_b.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_prefill_bf16(%x: tensor<16x512x2560xbf16>, %w: tensor<2560x2560xbf16>,
      %r: tensor<16x512x2560xbf16>) -> tensor<16x512x2560xbf16> {
    %proj = sol.matmul %x, %w transpose_b
        : tensor<16x512x2560xbf16>, tensor<2560x2560xbf16> -> tensor<16x512x2560xbf16>
    %out = sol.add %proj, %r
        : tensor<16x512x2560xbf16>, tensor<16x512x2560xbf16> -> tensor<16x512x2560xbf16>
    return %out : tensor<16x512x2560xbf16>
  }
}
