// The seed example at decode: one token (batch 1 x 1 token, hidden 2560),
// fp16. The 13.1 MB weight dominates the traffic; the kernel is memory- or
// latency-bound.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_residual_decode(%attn_output: tensor<1x1x2560xf16>,
                                   %weight: tensor<2560x2560xf16>,
                                   %residual: tensor<1x1x2560xf16>)
      -> tensor<1x1x2560xf16> {
    %proj = sol.matmul %attn_output, %weight transpose_b
        : tensor<1x1x2560xf16>, tensor<2560x2560xf16> -> tensor<1x1x2560xf16>
    %out = sol.add %proj, %residual
        : tensor<1x1x2560xf16>, tensor<1x1x2560xf16> -> tensor<1x1x2560xf16>
    return %out : tensor<1x1x2560xf16>
  }
}
