// RUN: sol-opt %s --sol-fuse=force=sometimes -verify-diagnostics

// An unknown force value is an error, not a silent default.
// expected-error@+1 {{sol-fuse: unknown force 'sometimes'; expected always, never or nothing}}
module attributes {sol.target = #sol.target<"h200">} {
  func.func @bad_force(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %e = sol.exp %x : tensor<1024x1024xf32>
    %n = sol.neg %e : tensor<1024x1024xf32>
    return %n : tensor<1024x1024xf32>
  }
}
