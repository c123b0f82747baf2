// RUN: sol-opt %s --sol-fuse=force=always | FileCheck %s --check-prefix=ALWAYS
// RUN: sol-opt %s --sol-fuse=force=never | FileCheck %s --check-prefix=NEVER
// RUN: sol-opt %s --sol-fuse="force=always remarks=true" -verify-diagnostics -o /dev/null

// No #sol.target: forced fusion is a legality question only, so it runs
// (without force this is an error, see fuse-invalid.mlir).

// ALWAYS-LABEL: func.func @no_target
//       ALWAYS:   sol.kernel @no_target_matmul_0
//       ALWAYS:     sol.matmul
//  ALWAYS-NEXT:     sol.add
//  ALWAYS-NEXT:     sol.yield

// NEVER-LABEL: func.func @no_target
//       NEVER:   sol.kernel @no_target_matmul_0
//       NEVER:   sol.kernel @no_target_add_1

func.func @no_target(%x: tensor<4096x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<4096x2560xf16>) -> tensor<4096x2560xf16> {
  %y = sol.matmul %x, %w transpose_b : tensor<4096x2560xf16>, tensor<2560x2560xf16> -> tensor<4096x2560xf16>
  // expected-remark@+1 {{fused into epilogue of sol.matmul: force=always: profitability not checked}}
  %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
  return %z : tensor<4096x2560xf16>
}

// Sibling matmuls need a target: whether a generator takes the pair depends
// on it, so without one the up projection stays a kernel input of the
// gate's epilogue.
func.func @siblings_without_target(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
  %g = sol.matmul %x, %wg transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
  // expected-remark@+1 {{fused into epilogue of sol.matmul: force=always: profitability not checked}}
  %s = sol.silu %g : tensor<2048x6912xf16>
  // expected-remark@+1 {{not fused as the sibling of sol.matmul: no target to say whether a generator takes sibling matmuls}}
  %u = sol.matmul %x, %wu transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
  // expected-remark@+1 {{fused into epilogue of sol.matmul: force=always: profitability not checked}}
  %p = sol.mul %s, %u : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
  return %p : tensor<2048x6912xf16>
}
