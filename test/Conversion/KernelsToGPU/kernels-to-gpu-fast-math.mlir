// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile --convert-sol-to-linalg --convert-sol-kernels-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile --convert-sol-to-linalg --convert-sol-kernels-to-gpu=fast-math=true | FileCheck %s --check-prefix=FAST
// RUN: rm -rf %t && sol-opt %s --sol-to-ptx="out-dir=%t fast-math=true" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/bias_gelu_tanh_matmul_0.ptx

// GELU's tanh in a matmul epilogue: libdevice's tanh by default (math.tanh,
// lowered later), one tanh.approx.f32 with fast-math (opt-in: ~5e-4
// absolute error; the MLP ran 22-53 us faster on the H200). Through the
// whole pipeline the PTX carries the instruction and ptxas accepts it.
// DEFAULT-LABEL: gpu.func @bias_gelu_tanh_matmul_0
//       DEFAULT:   math.tanh
//   DEFAULT-NOT:   tanh.approx.f32
// FAST-LABEL: gpu.func @bias_gelu_tanh_matmul_0
//   FAST-NOT:   math.tanh
//       FAST:   llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
//   FAST-NOT:   math.tanh
// PTX: tanh.approx.f32
// An elementwise kernel's tanh takes the same rule.
// DEFAULT-LABEL: gpu.func @gelu_alone_gelu_0
//       DEFAULT:   math.tanh
// FAST-LABEL: gpu.func @gelu_alone_gelu_0
//   FAST-NOT:   math.tanh
//       FAST:   llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
module attributes {sol.target = #sol.target<"h200">} {
func.func @bias_gelu_tanh(%x: tensor<256x512xf16>, %w: tensor<384x512xf16>, %b: tensor<384xf16>) -> tensor<256x384xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<256x512xf16>, tensor<384x512xf16> -> tensor<256x384xf16>
  %s = sol.add %m, %b : tensor<256x384xf16>, tensor<384xf16> -> tensor<256x384xf16>
  %g = sol.gelu tanh %s : tensor<256x384xf16>
  return %g : tensor<256x384xf16>
}
func.func @gelu_alone(%x: tensor<64x384xf16>) -> tensor<64x384xf16> {
  %g = sol.gelu tanh %x : tensor<64x384xf16>
  return %g : tensor<64x384xf16>
}
}
