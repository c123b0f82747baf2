// RUN: sol-opt %s --split-input-file --sol-fuse -verify-diagnostics

// Without a #sol.target the cost model cannot judge profitability: an error.
// force=always|never need no target (fuse-no-target.mlir).
// expected-error@+1 {{sol-fuse needs a target to judge profitability: pin one with `module attributes {sol.target = #sol.target<"h200">}` or run --sol-attach-target=preset=<name> (or pass force=always|never)}}
module {
  func.func @missing_target(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> tensor<4096x2560xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
    %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
    return %z : tensor<4096x2560xf16>
  }
}
