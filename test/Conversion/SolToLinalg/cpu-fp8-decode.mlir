// The CPU build's decoding of fp8 (sol-expand-fp8-conversions) on every code of
// both kinds: a C driver (Inputs/cpu-fp8-decode-driver.c) calls each
// kernel with code i in row i of A against a B of 1.0, reads the f32
// result, and compares it exactly with its own decoding of the code
// (normal, subnormal, zero of either sign, e5m2's infinities, NaN).
//
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %s %t > /dev/null
// RUN: cc -O2 -std=c11 %S/Inputs/cpu-fp8-decode-driver.c -o %t/driver -ldl -lm
// RUN: %t/driver %t/kernels.so | FileCheck %s
// CHECK: e4m3_matmul_0: 256 codes, mismatches 0
// CHECK: e5m2_matmul_0: 256 codes, mismatches 0

func.func @e4m3(%x: tensor<256x16xf8E4M3FN>, %w: tensor<8x16xf8E4M3FN>) -> tensor<256x8xf32> {
  %0 = sol.matmul %x, %w transpose_b : tensor<256x16xf8E4M3FN>, tensor<8x16xf8E4M3FN> -> tensor<256x8xf32>
  return %0 : tensor<256x8xf32>
}

func.func @e5m2(%x: tensor<256x16xf8E5M2>, %w: tensor<8x16xf8E4M3FN>) -> tensor<256x8xf32> {
  %0 = sol.matmul %x, %w transpose_b : tensor<256x16xf8E5M2>, tensor<8x16xf8E4M3FN> -> tensor<256x8xf32>
  return %0 : tensor<256x8xf32>
}
