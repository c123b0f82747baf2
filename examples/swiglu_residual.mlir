// SwiGLU + residual elementwise chain, fp16, 64 Mi elements:
//   silu(g) * u + r
module attributes {sol.target = #sol.target<"h200">} {
  func.func @swiglu_residual(%g: tensor<8192x8192xf16>, %u: tensor<8192x8192xf16>,
                             %r: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    %s = sol.silu %g : tensor<8192x8192xf16>
    %p = sol.mul %s, %u : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    %y = sol.add %p, %r : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    return %y : tensor<8192x8192xf16>
  }
}
