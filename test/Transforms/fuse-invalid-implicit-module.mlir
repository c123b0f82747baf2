// RUN: sol-opt %s --sol-fuse -verify-diagnostics
// RUN: not sol-opt %s --sol-fuse 2>&1 | FileCheck %s

// Without an explicit module the parser's implicit one has no line: an
// error about the whole module would say `file:0:0`. It is at the first sol
// op instead, the one that needs the target. (Not split: a split chunk's
// implicit module gets the chunk's line.)
// CHECK: fuse-invalid-implicit-module.mlir:[[# @LINE + 4]]:8: error: sol-fuse needs a target to judge profitability
// CHECK-NOT: :0:0:
func.func @implicit_module_missing_target(%x: tensor<1024xf16>) -> tensor<1024xf16> {
  // expected-error@+1 {{sol-fuse needs a target to judge profitability}}
  %e = sol.exp %x : tensor<1024xf16>
  return %e : tensor<1024xf16>
}
