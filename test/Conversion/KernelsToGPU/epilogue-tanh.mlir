// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// GELU(tanh) into a 16-bit output: the epilogue computes tanh(u) as
// 1 - 2 / (1 + 2^(2 u log2 e)) on ex2.approx and rcp.approx (five
// instructions, ~1e-6 absolute error, far below an f16 ulp) instead of
// libdevice's tanhf, since the warps that run it also issue the tensor-core
// work.
// CHECK-LABEL: gpu.func @gelu_into_f16_matmul_0
//   CHECK-NOT:   math.tanh
//       CHECK:   arith.mulf %{{.*}}, %{{.*}} : f32
//       CHECK:   llvm.inline_asm "ex2.approx.f32 $0, $1;", "=f,f"
//       CHECK:   arith.addf
//       CHECK:   llvm.inline_asm "rcp.approx.f32 $0, $1;", "=f,f"
//   CHECK-NOT:   math.tanh
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @gelu_into_f16(%x: tensor<64x256xf16>, %w: tensor<128x256xf16>) -> tensor<64x128xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<64x256xf16>, tensor<128x256xf16> -> tensor<64x128xf16>
  %g = sol.gelu tanh %m : tensor<64x128xf16>
  return %g : tensor<64x128xf16>
}
}

// -----

// An f32 output keeps libdevice's tanh: the approximation is not below its
// ulp.
// CHECK-LABEL: gpu.func @gelu_into_f32_matmul_0
//   CHECK-NOT:   ex2.approx
//       CHECK:   math.tanh
//   CHECK-NOT:   ex2.approx
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @gelu_into_f32(%x: tensor<64x256xf32>, %w: tensor<128x256xf32>) -> tensor<64x128xf32> {
  %m = sol.matmul %x, %w transpose_b : tensor<64x256xf32>, tensor<128x256xf32> -> tensor<64x128xf32>
  %g = sol.gelu tanh %m : tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
}
