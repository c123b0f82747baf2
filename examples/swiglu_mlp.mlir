// SwiGLU MLP (LLaMA-style feed-forward), fp16, 2048 tokens:
//   down(silu(x[2048,2560] @ Wg[6912,2560]^T) * (x @ Wu[6912,2560]^T))
// with down = @ Wd[2560,6912]^T. The gate and up projections read the same
// x: sol-fuse takes them into one kernel as sibling matmuls (one matmul of
// twice the width on the H200's TMA path), whose epilogue computes
// silu(g) * u from the two accumulators; the down projection is a second
// kernel.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @swiglu_mlp(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>,
                        %wu: tensor<6912x2560xf16>,
                        %wd: tensor<2560x6912xf16>) -> tensor<2048x2560xf16> {
    %g = sol.matmul %x, %wg transpose_b
        : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %s = sol.silu %g : tensor<2048x6912xf16>
    %u = sol.matmul %x, %wu transpose_b
        : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %h = sol.mul %s, %u : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
    %y = sol.matmul %h, %wd transpose_b
        : tensor<2048x6912xf16>, tensor<2560x6912xf16> -> tensor<2048x2560xf16>
    return %y : tensor<2048x2560xf16>
  }
}
