// RUN: sol-opt %s --split-input-file --sol-fuse=force=always -verify-diagnostics
// RUN: sol-opt %s --split-input-file --sol-form-kernels -verify-diagnostics
// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg -verify-diagnostics
// RUN: not sol-opt %s --split-input-file --sol-to-ptx 2>&1 | FileCheck %s

// The passes that compile kernels take the top-level module's functions:
// sol ops in a nested module would compile to nothing, so every pass that
// would skip them refuses them, at the nested module.
// CHECK: nested-module-invalid.mlir:[[# @LINE + 4]]:3: error: sol-fuse: sol ops in a nested module are not compiled; move them into the top-level module
// CHECK: nested-module-invalid.mlir:[[# @LINE + 6]]:{{[0-9]+}}: note: 'sol.exp' here
module attributes {sol.target = #sol.target<"h200">} {
  // expected-error @+1 {{sol ops in a nested module are not compiled; move them into the top-level module}}
  module @inner {
    func.func @f(%x: tensor<1024xf16>) -> tensor<1024xf16> {
      // expected-note @+1 {{'sol.exp' here}}
      %e = sol.exp %x : tensor<1024xf16>
      return %e : tensor<1024xf16>
    }
  }
}

// -----

// A nested module without sol ops is no concern of sol's.
module attributes {sol.target = #sol.target<"h200">} {
  module @inner {
    func.func @f(%x: i32) -> i32 {
      return %x : i32
    }
  }
}
