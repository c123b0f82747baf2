// RUN: sol-opt %s --split-input-file --sol-tile -verify-diagnostics

// The plan depends on the device: no target, no plan.
// expected-error @+1 {{sol-tile needs a target}}
module {
func.func @no_target(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %n = sol.neg %a : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}
}

// -----

// The generators take one matmul per kernel (fusion never forms two).
module attributes {sol.target = #sol.target<"h200">} {
func.func @two_matmuls(%x: tensor<8x16xf16>, %w: tensor<16x16xf16>) -> tensor<8x16xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: the kernel holds 2 matmuls; the generators take at most one}}
  %0 = sol.kernel @k ins(%x, %w : tensor<8x16xf16>, tensor<16x16xf16>) -> tensor<8x16xf16> {
  ^bb0(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>):
    %m = sol.matmul %a, %b : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf16>
    %n = sol.matmul %m, %b : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf16>
    sol.yield %n : tensor<8x16xf16>
  }
  return %0 : tensor<8x16xf16>
}
}

// -----

// Dynamic dims: neither the model nor the generators can size the launch.
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic(%x: tensor<?x16xf16>) -> tensor<?x16xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: input #0 has type tensor<?x16xf16>; the cost model needs static shapes}}
  %0 = sol.kernel @k ins(%x : tensor<?x16xf16>) -> tensor<?x16xf16> {
  ^bb0(%a: tensor<?x16xf16>):
    %n = sol.neg %a : tensor<?x16xf16>
    sol.yield %n : tensor<?x16xf16>
  }
  return %0 : tensor<?x16xf16>
}
}
