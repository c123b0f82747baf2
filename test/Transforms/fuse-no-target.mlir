// RUN: sol-opt %s --sol-fuse=force=always | FileCheck %s --check-prefix=ALWAYS
// RUN: sol-opt %s --sol-fuse=force=never | FileCheck %s --check-prefix=NEVER

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
  %z = sol.add %y, %r : tensor<4096x2560xf16>, tensor<4096x2560xf16> -> tensor<4096x2560xf16>
  return %z : tensor<4096x2560xf16>
}
