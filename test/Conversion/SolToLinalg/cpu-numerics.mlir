// Builds this module's kernels into a shared library with the CPU script,
// runs them from a driver (Inputs/cpu-numerics-driver.mlir: deterministic,
// exactly representable f16 inputs, bare-pointer calls, printMemrefF16) under
// mlir-runner, and checks the printed outputs against an independent
// pure-Python reference (Inputs/cpu_numerics_ref.py).
//
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %s %t > /dev/null
// RUN: sol-opt %S/Inputs/cpu-numerics-driver.mlir --convert-scf-to-cf --expand-strided-metadata \
// RUN:     --lower-affine --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm \
// RUN:     --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%t/kernels.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | python3 %S/Inputs/cpu_numerics_ref.py | FileCheck %s

// The seed kernel, shrunk: x[3,5,8] @ W[8,8]^T + r, f16. f16 products are
// exact in f32 and the reference accumulates in f32 in the same order, so
// every element must match bit for bit.
// CHECK: oproj_matmul_0: 120 elements, mismatches 0, max rel err 0
// CHECK: oproj_matmul_0 within bound: yes
func.func @oproj(%x: tensor<3x5x8xf16>, %w: tensor<8x8xf16>, %r: tensor<3x5x8xf16>) -> tensor<3x5x8xf16> {
  %y = sol.matmul %x, %w transpose_b : tensor<3x5x8xf16>, tensor<8x8xf16> -> tensor<3x5x8xf16>
  %z = sol.add %y, %r : tensor<3x5x8xf16>, tensor<3x5x8xf16> -> tensor<3x5x8xf16>
  return %z : tensor<3x5x8xf16>
}

// An MLP epilogue with both broadcasts: gelu_tanh(x @ W + bias[N]) * scale[M,1].
// libm's tanhf against Python's tanh in double: within two f16 ulps.
// CHECK: mlp_matmul_0: 40 elements
// CHECK: mlp_matmul_0 within bound: yes
func.func @mlp(%x: tensor<5x8xf16>, %w: tensor<8x8xf16>, %b: tensor<8xf16>, %s: tensor<5x1xf16>) -> tensor<5x8xf16> {
  %y = sol.matmul %x, %w : tensor<5x8xf16>, tensor<8x8xf16> -> tensor<5x8xf16>
  %z = sol.add %y, %b : tensor<5x8xf16>, tensor<8xf16> -> tensor<5x8xf16>
  %g = sol.gelu tanh %z : tensor<5x8xf16>
  %o = sol.mul %g, %s : tensor<5x8xf16>, tensor<5x1xf16> -> tensor<5x8xf16>
  return %o : tensor<5x8xf16>
}
