// The seed example: a transformer's attention output projection plus the
// residual, prefill shape (batch 16 x 512 tokens, hidden 2560), fp16.
//   out = attn_output[16,512,2560] @ W[2560,2560]^T + residual[16,512,2560]
// W is in nn.Linear layout ([out_features, in_features]), hence transpose_b.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_residual(%attn_output: tensor<16x512x2560xf16>,
                            %weight: tensor<2560x2560xf16>,
                            %residual: tensor<16x512x2560xf16>)
      -> tensor<16x512x2560xf16> {
    %proj = sol.matmul %attn_output, %weight transpose_b
        : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %out = sol.add %proj, %residual
        : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %out : tensor<16x512x2560xf16>
  }
}
