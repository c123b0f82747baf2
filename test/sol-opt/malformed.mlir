// Malformed input: a located diagnostic and a non-zero exit, never a crash.
// RUN: not sol-opt %s 2>&1 | FileCheck %s
// CHECK: malformed.mlir:[[# @LINE + 3]]:18: error: expected ','
func.func @missing_operand(%x: tensor<4xf16>) -> tensor<4xf16> {
  // Only one operand: the parser stops at the colon.
  %y = sol.add %x : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %y : tensor<4xf16>
}
